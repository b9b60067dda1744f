package alicloud

import (
	"slices"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// Release is the extension revision whose admission this package follows: the main branch after
// v1.71.0, which fixed expiration-date-only overrides in NamespacedCloudProfiles.
const Release = "gardener-extension-provider-alicloud main@a8a7f47"

// Rule identifiers of the extension's checks.
const (
	RuleProviderConfigRequired    = "EXT-ALICLOUD-1"
	RuleProviderConfigDecode      = "EXT-ALICLOUD-2"
	RuleConfigImagesRequired      = "EXT-ALICLOUD-3"
	RuleConfigImageIncomplete     = "EXT-ALICLOUD-4"
	RuleConfigVersionRequired     = "EXT-ALICLOUD-5"
	RuleConfigFormat              = "EXT-ALICLOUD-6"
	RuleConfigRegions             = "EXT-ALICLOUD-7"
	RuleConfigFlavorCapabilities  = "EXT-ALICLOUD-8"
	RuleImageMappingMissing       = "EXT-ALICLOUD-9"
	RuleVersionMappingMissing     = "EXT-ALICLOUD-10"
	RuleFlavorMappingMissing      = "EXT-ALICLOUD-11"
	RuleParentKind                = "EXT-ALICLOUD-12"
	RuleNamespacedMappingMissing  = "EXT-ALICLOUD-13"
	RuleNamespacedFlavors         = "EXT-ALICLOUD-14"
	RuleNamespacedVersionInParent = "EXT-ALICLOUD-15"
	RuleNamespacedMappingUnused   = "EXT-ALICLOUD-16"
)

const (
	srcValidator  = Release + " pkg/admission/validator/cloudprofile.go Validate"
	srcNamespaced = Release + " pkg/admission/validator/namespacedcloudprofile.go "
	srcValidation = Release + " pkg/apis/alicloud/validation/cloudprofile.go "
)

// Rules returns the catalogue of the extension's checks.
func Rules() []cloudprofile.RuleInfo { return slices.Clone(rules) }

var rules = []cloudprofile.RuleInfo{
	{
		ID: RuleProviderConfigRequired, Summary: "An Alicloud CloudProfile has no providerConfig",
		Gardener: srcValidator,
		Meaning:  "A CloudProfile of type `alicloud` must carry a CloudProfileConfig with the image ids of its machine images.",
		Fix:      "Set `spec.provider_config` to a CloudProfileConfig of `alicloud.provider.extensions.gardener.cloud/v1alpha1`.",
	},
	{
		ID: RuleProviderConfigDecode, Summary: "The providerConfig cannot be decoded",
		Gardener: srcValidator + "; " + srcNamespaced + "Validate (pkg/admission/validator/serialization.go decodeCloudProfileConfig)" + "; Gardener's extensions/pkg/util/serialization.go Decode; pkg/admission/mutator/cloudprofile.go, namespacedcloudprofile.go Mutate",
		Meaning:  codec.RuleMeaning(" (for a NamespacedCloudProfile prefixed with `could not decode providerConfig of NamespacedCloudProfile for '<name>'`)") + " " + extcommon.MutatorDecodeMeaning,
		Fix:      "Give `spec.provider_config` both `apiVersion` and `kind`, and correct the field names.",
	},
	{
		ID: RuleConfigImagesRequired, Summary: "The providerConfig lists no machine images",
		Gardener: srcValidation + "validateMachineImages",
		Meaning:  "The CloudProfileConfig of a CloudProfile must list at least one entry in `machineImages`.",
		Fix:      "Add the image ids of your images to `machineImages` in `spec.provider_config`.",
	},
	{
		ID: RuleConfigImageIncomplete, Summary: "A providerConfig machine image has no name or no versions",
		Gardener: srcValidation + "ValidateProviderMachineImage",
		Meaning:  "Every entry of `machineImages` in the providerConfig needs a `name` and at least one entry in `versions`.",
		Fix:      "Give every image in `spec.provider_config` a `name` and its `versions`.",
	},
	{
		ID: RuleConfigVersionRequired, Summary: "A providerConfig image version has no version",
		Gardener: srcValidation + "validateMachineImageVersion",
		Meaning:  "Every entry of `versions` of a providerConfig image needs `version`.",
		Fix:      "Set `version` of every image version in `spec.provider_config`.",
	},
	{
		ID: RuleConfigFormat, Summary: "A providerConfig image version mixes regions and capability flavors",
		Gardener: srcValidation + "validateMachineImageVersion",
		Meaning:  "A version lists its image ids either in `regions` or in `capabilityFlavors`, not both; `capabilityFlavors` require `spec.machineCapabilities`.",
		Fix:      "Use one of `regions` or `capabilityFlavors` per version in `spec.provider_config`, and `capabilityFlavors` only with `spec.machine_capabilities`.",
	},
	{
		ID: RuleConfigRegions, Summary: "A providerConfig image version lacks regions, a region name or an id",
		Gardener: srcValidation + "validateRegions",
		Meaning:  "Every version (or capability flavor) needs at least one region, and every region a `name` and an `id`.",
		Fix:      "List the regions with `name` and `id` for every version in `spec.provider_config`.",
	},
	{
		ID: RuleConfigFlavorCapabilities, Summary: "A capability flavor names undefined capabilities",
		Gardener: srcValidation + "validateCapabilityFlavors (gardener pkg/utils/gardener ValidateCapabilities)",
		Meaning:  "The capabilities of a providerConfig capability flavor must be defined in `spec.machineCapabilities` with supported values, and name exactly one architecture when several are defined.",
		Fix:      "Use only capabilities and values of `spec.machine_capabilities` in the flavors of `spec.provider_config`.",
	},
	{
		ID: RuleImageMappingMissing, Summary: "A machine image has no providerConfig mapping",
		Gardener: srcValidation + "validateMachineImageMapping",
		Meaning:  "Every image of `spec.machineImages` with versions needs an entry of the same name in the providerConfig's `machineImages`.",
		Fix:      "Add the image to `machineImages` in `spec.provider_config`, or remove it from `spec.machine_images`.",
	},
	{
		ID: RuleVersionMappingMissing, Summary: "A machine image version has no providerConfig mapping",
		Gardener: srcValidation + "validateMachineImageVersionMapping",
		Meaning:  "Every version of a `spec.machineImages` image needs an entry in the providerConfig. Without capability definitions architectures are not checked.",
		Fix:      "Add the version with its image ids to `spec.provider_config`, or remove it from `spec.machine_images`.",
	},
	{
		ID: RuleFlavorMappingMissing, Summary: "A capability flavor of a version has no image id",
		Gardener: srcValidation + "validateImageFlavorMapping",
		Meaning:  "Under capability definitions each capability flavor of a version (defaults applied; none means one with every defined value) needs a providerConfig flavor with equal capabilities; the regions format maps `amd64` only.",
		Fix:      "Add the missing capability flavor with its image ids to `spec.provider_config`, or drop it from `spec.machine_images`.",
	},
	{
		ID: RuleParentKind, Summary: "The parent is not a CloudProfile",
		Gardener: srcNamespaced + "Validate",
		Meaning:  "The webhook only accepts a NamespacedCloudProfile whose parent is of kind `CloudProfile`; it denies the request with a message that is no field error.",
		Fix:      "Set `spec.parent.kind` to `CloudProfile`.",
	},
	{
		ID: RuleNamespacedMappingMissing, Summary: "A new image or version of a NamespacedCloudProfile has no providerConfig mapping",
		Gardener: srcNamespaced + "validateMachineImages",
		Meaning:  "An image or version that a NamespacedCloudProfile adds (not in the parent) needs an entry in its own providerConfig. Versions inherited from the parent need none, so overriding only an expiration date passes.",
		Fix:      "Add the new version with its image ids to `spec.provider_config` of the NamespacedCloudProfile.",
	},
	{
		ID: RuleNamespacedFlavors, Summary: "A new version's providerConfig entry misses or exceeds its capability flavors",
		Gardener: srcNamespaced + "validateMachineImageCapabilities",
		Meaning:  "Under capability definitions the providerConfig entry of a new version must map exactly the version's capability flavors, in every region; the regions format maps `amd64` only.",
		Fix:      "Make the flavors in `spec.provider_config` match `spec.machine_images[*].versions[*].capability_flavors`.",
	},
	{
		ID: RuleNamespacedVersionInParent, Summary: "The providerConfig maps a version the parent already has",
		Gardener: srcNamespaced + "validateMachineImages",
		Meaning:  "A NamespacedCloudProfile may not override the image ids of versions defined in the parent CloudProfile.",
		Fix:      "Remove the parent's versions from `spec.provider_config` of the NamespacedCloudProfile.",
	},
	{
		ID: RuleNamespacedMappingUnused, Summary: "The providerConfig maps an image or version the NamespacedCloudProfile does not list",
		Gardener: srcNamespaced + "validateMachineImages",
		Meaning:  "Every image and version in a NamespacedCloudProfile's providerConfig must also be in its `spec.machineImages`.",
		Fix:      "Add the image version to `spec.machine_images`, or remove it from `spec.provider_config`.",
	},
}
