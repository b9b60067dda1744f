package gcp

import (
	"slices"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// Release is the extension release whose admission this package follows.
const Release = "gardener-extension-provider-gcp v1.54.1"

// Rule identifiers of the extension's checks.
const (
	RuleProviderConfigRequired    = "EXT-GCP-1"
	RuleProviderConfigDecode      = "EXT-GCP-2"
	RuleConfigImagesRequired      = "EXT-GCP-3"
	RuleConfigImageIncomplete     = "EXT-GCP-4"
	RuleConfigVersionRequired     = "EXT-GCP-5"
	RuleConfigFormat              = "EXT-GCP-6"
	RuleConfigImage               = "EXT-GCP-7"
	RuleConfigArchitecture        = "EXT-GCP-8"
	RuleConfigFlavorCapabilities  = "EXT-GCP-9"
	RuleImageMappingMissing       = "EXT-GCP-10"
	RuleVersionMappingMissing     = "EXT-GCP-11"
	RuleSpecArchitecture          = "EXT-GCP-12"
	RuleFlavorMappingMissing      = "EXT-GCP-13"
	RuleParentKind                = "EXT-GCP-14"
	RuleNamespacedMappingMissing  = "EXT-GCP-15"
	RuleNamespacedFlavors         = "EXT-GCP-16"
	RuleNamespacedVersionInParent = "EXT-GCP-17"
	RuleNamespacedMappingUnused   = "EXT-GCP-18"
)

const (
	srcValidator  = Release + " pkg/admission/validator/cloudprofile.go Validate"
	srcNamespaced = Release + " pkg/admission/validator/namespacedcloudprofile.go "
	srcValidation = Release + " pkg/apis/gcp/validation/cloudprofile.go "
)

// Rules returns the catalogue of the extension's checks.
func Rules() []cloudprofile.RuleInfo { return slices.Clone(rules) }

var rules = []cloudprofile.RuleInfo{
	{
		ID: RuleProviderConfigRequired, Summary: "A GCP CloudProfile has no providerConfig",
		Gardener: srcValidator,
		Meaning:  "A CloudProfile of type `gcp` must carry a CloudProfileConfig with the GCP images of its machine images.",
		Fix:      "Set `spec.provider_config` to a CloudProfileConfig of `gcp.provider.extensions.gardener.cloud/v1alpha1`.",
	},
	{
		ID: RuleProviderConfigDecode, Summary: "The providerConfig cannot be decoded",
		Gardener: srcValidator + "; " + srcNamespaced + "Validate (pkg/admission/decode.go DecodeCloudProfileConfig)" + "; Gardener's extensions/pkg/util/serialization.go Decode; pkg/admission/mutator/cloudprofile.go, namespacedcloudprofile.go Mutate",
		Meaning:  codec.RuleMeaning(" (for a CloudProfile prefixed with `could not decode providerConfig of CloudProfile \"<name>\"`)") + " " + extcommon.MutatorDecodeMeaning,
		Fix:      "Give `spec.provider_config` both `apiVersion` and `kind`, and correct the field names.",
	},
	{
		ID: RuleConfigImagesRequired, Summary: "The providerConfig lists no machine images",
		Gardener: srcValidation + "validateMachineImages",
		Meaning:  "The CloudProfileConfig of a CloudProfile must list at least one entry in `machineImages`.",
		Fix:      "Add the GCP images of your machine images to `machineImages` in `spec.provider_config`.",
	},
	{
		ID: RuleConfigImageIncomplete, Summary: "A providerConfig machine image has no name or no versions",
		Gardener: srcValidation + "ValidateProviderMachineImage",
		Meaning:  "Every entry of `machineImages` in the providerConfig needs a `name` and at least one entry in `versions`.",
		Fix:      "Give every image in `spec.provider_config` a `name` and its `versions`.",
	},
	{
		ID: RuleConfigVersionRequired, Summary: "A providerConfig image version has no version",
		Gardener: srcValidation + "ValidateProviderMachineImage",
		Meaning:  "Every entry of `versions` of a providerConfig image needs `version`.",
		Fix:      "Set `version` of every image version in `spec.provider_config`.",
	},
	{
		ID: RuleConfigFormat, Summary: "A providerConfig image version mixes or lacks image and capability flavors",
		Gardener: srcValidation + "ValidateProviderMachineImage; validateCapabilityFlavors",
		Meaning:  "Under `spec.machineCapabilities` a version gives either `image` (with an architecture) or `capabilityFlavors`, exactly one of them, and no `architecture` next to `capabilityFlavors`; without capability definitions `capabilityFlavors` are forbidden.",
		Fix:      "Use one of `image` or `capabilityFlavors` per version in `spec.provider_config`, and `capabilityFlavors` only with `spec.machine_capabilities`.",
	},
	{
		ID: RuleConfigImage, Summary: "A providerConfig version or capability flavor has no image",
		Gardener: srcValidation + "validateLegacyImage; validateCapabilityFlavors",
		Meaning:  "Without capability definitions every version entry needs `image`; every capability flavor needs `image`.",
		Fix:      "Set `image` of every version and capability flavor in `spec.provider_config`.",
	},
	{
		ID: RuleConfigArchitecture, Summary: "A providerConfig version names an unsupported architecture",
		Gardener: srcValidation + "validateLegacyImage; validateLegacyImageWithCapabilities",
		Meaning:  "The `architecture` of a version entry must be `amd64` (the default) or `arm64`.",
		Fix:      "Use `amd64` or `arm64` as `architecture` in `spec.provider_config`.",
	},
	{
		ID: RuleConfigFlavorCapabilities, Summary: "A capability flavor names undefined capabilities",
		Gardener: srcValidation + "validateCapabilityFlavors (gardener pkg/utils/gardener ValidateCapabilities)",
		Meaning:  "The capabilities of a providerConfig capability flavor must be defined in `spec.machineCapabilities` with supported values, and name exactly one architecture when several are defined.",
		Fix:      "Use only capabilities and values of `spec.machine_capabilities` in the flavors of `spec.provider_config`.",
	},
	{
		ID: RuleImageMappingMissing, Summary: "A machine image has no providerConfig mapping",
		Gardener: srcValidation + "validateProviderImagesMapping",
		Meaning:  "Every image of `spec.machineImages` with versions needs an entry of the same name in the providerConfig's `machineImages`.",
		Fix:      "Add the image to `machineImages` in `spec.provider_config`, or remove it from `spec.machine_images`.",
	},
	{
		ID: RuleVersionMappingMissing, Summary: "A machine image version has no providerConfig mapping",
		Gardener: srcValidation + "validateProviderImagesMapping",
		Meaning:  "Under capability definitions every version of a `spec.machineImages` image needs at least one entry in the providerConfig.",
		Fix:      "Add the version with its image to `spec.provider_config`, or remove it from `spec.machine_images`.",
	},
	{
		ID: RuleSpecArchitecture, Summary: "A machine image version names an unsupported architecture",
		Gardener: srcValidation + "validateArchitectureMapping",
		Meaning:  "Without capability definitions the architectures of an image version must be `amd64` or `arm64`.",
		Fix:      "Use `amd64` or `arm64` in `spec.machine_images[*].versions[*].architectures`.",
	},
	{
		ID: RuleFlavorMappingMissing, Summary: "An architecture or capability flavor of a version has no image",
		Gardener: srcValidation + "validateArchitectureMapping; validateImageFlavorMappingMixed",
		Meaning:  "Each architecture of a version needs a providerConfig entry of that version and architecture; under capability definitions each capability flavor of the version (defaults applied; none means one with every defined value) needs a flavor with equal capabilities, or, in the old format, an entry of its architecture.",
		Fix:      "Add the missing architecture or capability flavor with its image to `spec.provider_config`, or drop it from `spec.machine_images`.",
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
		Meaning:  "An image, or under capability definitions a version, that a NamespacedCloudProfile adds (not in the parent) needs an entry in its own providerConfig. Versions inherited from the parent need none, so overriding only an expiration date passes.",
		Fix:      "Add the new version with its image to `spec.provider_config` of the NamespacedCloudProfile.",
	},
	{
		ID: RuleNamespacedFlavors, Summary: "A new version's providerConfig entries miss or exceed its architectures or flavors",
		Gardener: srcNamespaced + "validateMachineImages; validateMachineImageCapabilitiesMixed; validateExcessArchitecture",
		Meaning:  "The providerConfig entries of a new version must map exactly the version's architectures (or, under capability definitions, its capability flavors): an architecture or flavor the spec does not list is excess, one without entry is missing.",
		Fix:      "Make the entries in `spec.provider_config` match `spec.machine_images[*].versions[*].architectures` or `capability_flavors`.",
	},
	{
		ID: RuleNamespacedVersionInParent, Summary: "The providerConfig maps a version the parent already has",
		Gardener: srcNamespaced + "validateMachineImages",
		Meaning:  "A NamespacedCloudProfile may not override the images of versions defined in the parent CloudProfile.",
		Fix:      "Remove the parent's versions from `spec.provider_config` of the NamespacedCloudProfile.",
	},
	{
		ID: RuleNamespacedMappingUnused, Summary: "The providerConfig maps an image or version the NamespacedCloudProfile does not list",
		Gardener: srcNamespaced + "validateMachineImages",
		Meaning:  "Every image and version in a NamespacedCloudProfile's providerConfig must also be in its `spec.machineImages`.",
		Fix:      "Add the image version to `spec.machine_images`, or remove it from `spec.provider_config`.",
	},
}
