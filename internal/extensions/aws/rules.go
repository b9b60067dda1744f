package aws

import (
	"slices"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// Release is the extension release whose admission this package follows.
const Release = "gardener-extension-provider-aws v1.73.0"

// Rule identifiers of the extension's checks.
const (
	RuleProviderConfigRequired    = "EXT-AWS-1"
	RuleProviderConfigDecode      = "EXT-AWS-2"
	RuleConfigImagesRequired      = "EXT-AWS-3"
	RuleConfigImageIncomplete     = "EXT-AWS-4"
	RuleConfigVersionRequired     = "EXT-AWS-5"
	RuleConfigFormat              = "EXT-AWS-6"
	RuleConfigRegions             = "EXT-AWS-7"
	RuleConfigRegionArchitecture  = "EXT-AWS-8"
	RuleConfigFlavorCapabilities  = "EXT-AWS-9"
	RuleImageMappingMissing       = "EXT-AWS-10"
	RuleVersionMappingMissing     = "EXT-AWS-11"
	RuleSpecArchitecture          = "EXT-AWS-12"
	RuleFlavorMappingMissing      = "EXT-AWS-13"
	RuleParentKind                = "EXT-AWS-14"
	RuleNamespacedMappingMissing  = "EXT-AWS-15"
	RuleNamespacedFlavors         = "EXT-AWS-16"
	RuleNamespacedVersionInParent = "EXT-AWS-17"
	RuleNamespacedMappingUnused   = "EXT-AWS-18"
)

const (
	srcValidator  = Release + " pkg/admission/validator/cloudprofile.go Validate"
	srcNamespaced = Release + " pkg/admission/validator/namespacedcloudprofile.go "
	srcValidation = Release + " pkg/apis/aws/validation/cloudprofile.go "
)

// Rules returns the catalogue of the extension's checks.
func Rules() []cloudprofile.RuleInfo { return slices.Clone(rules) }

var rules = []cloudprofile.RuleInfo{
	{
		ID: RuleProviderConfigRequired, Summary: "An AWS CloudProfile has no providerConfig",
		Gardener: srcValidator,
		Meaning:  "A CloudProfile of type `aws` must carry a CloudProfileConfig with the AMIs of its machine images.",
		Fix:      "Set `spec.provider_config` to a CloudProfileConfig of `aws.provider.extensions.gardener.cloud/v1alpha1`.",
	},
	{
		ID: RuleProviderConfigDecode, Summary: "The providerConfig cannot be decoded",
		Gardener: srcValidator + "; " + srcNamespaced + "Validate (pkg/admission/validator/serialization.go decodeCloudProfileConfig)" + "; Gardener's extensions/pkg/util/serialization.go Decode; pkg/admission/mutator/cloudprofile.go, namespacedcloudprofile.go Mutate",
		Meaning:  codec.RuleMeaning(" (prefixed with `could not decode providerConfig of CloudProfile \"<name>\"` or `… of NamespacedCloudProfile for '<name>'`)") + " " + extcommon.MutatorDecodeMeaning,
		Fix:      "Give `spec.provider_config` both `apiVersion` and `kind`, and correct the field names.",
	},
	{
		ID: RuleConfigImagesRequired, Summary: "The providerConfig lists no machine images",
		Gardener: srcValidation + "validateMachineImages",
		Meaning:  "The CloudProfileConfig of a CloudProfile must list at least one entry in `machineImages`.",
		Fix:      "Add the AMIs of your images to `machineImages` in `spec.provider_config`.",
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
		Meaning:  "A version lists its AMIs either in `regions` (with an architecture each) or in `capabilityFlavors`, not both; `capabilityFlavors` require `spec.machineCapabilities`.",
		Fix:      "Use one of `regions` or `capabilityFlavors` per version in `spec.provider_config`, and `capabilityFlavors` only with `spec.machine_capabilities`.",
	},
	{
		ID: RuleConfigRegions, Summary: "A providerConfig image version lacks regions, a region name or an AMI",
		Gardener: srcValidation + "validateRegions",
		Meaning:  "Every version (or capability flavor) needs at least one region, and every region a `name` and an `ami`.",
		Fix:      "List the regions with `name` and `ami` for every version in `spec.provider_config`.",
	},
	{
		ID: RuleConfigRegionArchitecture, Summary: "A region's architecture is unsupported or not allowed",
		Gardener: srcValidation + "validateRegions",
		Meaning:  "A region of a version may name the architecture `amd64` (the default) or `arm64`; regions inside a capability flavor must not name one, the flavor's capabilities do.",
		Fix:      "Use `amd64` or `arm64` as `architecture` in `spec.provider_config`, and drop it inside `capabilityFlavors`.",
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
		Meaning:  "Every version of a `spec.machineImages` image needs an entry in the providerConfig (reported once per architecture without capability definitions).",
		Fix:      "Add the version with its AMIs to `spec.provider_config`, or remove it from `spec.machine_images`.",
	},
	{
		ID: RuleSpecArchitecture, Summary: "A machine image version names an unsupported architecture",
		Gardener: srcValidation + "validateMachineImageVersionMapping",
		Meaning:  "Without capability definitions the architectures of an image version must be `amd64` or `arm64`.",
		Fix:      "Use `amd64` or `arm64` in `spec.machine_images[*].versions[*].architectures`.",
	},
	{
		ID: RuleFlavorMappingMissing, Summary: "An architecture or capability flavor of a version has no AMI",
		Gardener: srcValidation + "validateMachineImageVersionMapping; validateImageFlavorMapping",
		Meaning:  "Each architecture of a version (or, with capability definitions, each of its capability flavors, defaults applied) needs AMIs in the providerConfig: a region entry with that architecture, or a capability flavor with equal capabilities.",
		Fix:      "Add the missing architecture or capability flavor with its AMIs to `spec.provider_config`, or drop it from `spec.machine_images`.",
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
		Fix:      "Add the new version with its AMIs to `spec.provider_config` of the NamespacedCloudProfile.",
	},
	{
		ID: RuleNamespacedFlavors, Summary: "A new version's providerConfig entry misses or exceeds its architectures or flavors",
		Gardener: srcNamespaced + "validateMachineImageArchitectures; validateMachineImageCapabilities",
		Meaning:  "The regions of a new version must map exactly the version's architectures (or, under capability definitions, its capability flavors), in every region: an architecture or flavor the spec does not list is excess, one not mapped in some region is missing.",
		Fix:      "Make the regions and flavors in `spec.provider_config` match `spec.machine_images[*].versions[*].architectures` or `capability_flavors`.",
	},
	{
		ID: RuleNamespacedVersionInParent, Summary: "The providerConfig maps a version the parent already has",
		Gardener: srcNamespaced + "validateMachineImages",
		Meaning:  "A NamespacedCloudProfile may not override the AMIs of versions defined in the parent CloudProfile.",
		Fix:      "Remove the parent's versions from `spec.provider_config` of the NamespacedCloudProfile.",
	},
	{
		ID: RuleNamespacedMappingUnused, Summary: "The providerConfig maps an image or version the NamespacedCloudProfile does not list",
		Gardener: srcNamespaced + "validateMachineImages",
		Meaning:  "Every image and version in a NamespacedCloudProfile's providerConfig must also be in its `spec.machineImages`.",
		Fix:      "Add the image version to `spec.machine_images`, or remove it from `spec.provider_config`.",
	},
}
