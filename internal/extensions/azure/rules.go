package azure

import (
	"slices"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// Release is the extension release whose admission this package follows.
const Release = "gardener-extension-provider-azure v1.62.1"

// Rule identifiers of the extension's checks.
const (
	RuleProviderConfigRequired    = "EXT-AZURE-1"
	RuleProviderConfigDecode      = "EXT-AZURE-2"
	RuleDomainCounts              = "EXT-AZURE-3"
	RuleConfigImagesRequired      = "EXT-AZURE-4"
	RuleConfigImageIncomplete     = "EXT-AZURE-5"
	RuleConfigVersionRequired     = "EXT-AZURE-6"
	RuleConfigFormat              = "EXT-AZURE-7"
	RuleConfigArchitecture        = "EXT-AZURE-8"
	RuleConfigFlavorCapabilities  = "EXT-AZURE-9"
	RuleImageIDCount              = "EXT-AZURE-10"
	RuleImageID                   = "EXT-AZURE-11"
	RuleImageMappingMissing       = "EXT-AZURE-12"
	RuleVersionMappingMissing     = "EXT-AZURE-13"
	RuleSpecArchitecture          = "EXT-AZURE-14"
	RuleFlavorMappingMissing      = "EXT-AZURE-15"
	RuleParentKind                = "EXT-AZURE-16"
	RuleNamespacedForbiddenFields = "EXT-AZURE-17"
	RuleNamespacedMappingMissing  = "EXT-AZURE-18"
	RuleNamespacedFlavors         = "EXT-AZURE-19"
	RuleNamespacedVersionInParent = "EXT-AZURE-20"
	RuleNamespacedMappingUnused   = "EXT-AZURE-21"
	RuleNamespacedMachineTypes    = "EXT-AZURE-22"
)

const (
	srcValidator  = Release + " pkg/admission/validator/cloudprofile.go Validate"
	srcNamespaced = Release + " pkg/admission/validator/namespacedcloudprofile.go "
	srcValidation = Release + " pkg/apis/azure/validation/cloudprofile.go "
)

// Rules returns the catalogue of the extension's checks.
func Rules() []cloudprofile.RuleInfo { return slices.Clone(rules) }

var rules = []cloudprofile.RuleInfo{
	{
		ID: RuleProviderConfigRequired, Summary: "An Azure CloudProfile has no providerConfig",
		Gardener: srcValidator,
		Meaning:  "A CloudProfile of type `azure` must carry a CloudProfileConfig with domain counts and the Azure images of its machine images.",
		Fix:      "Set `spec.provider_config` to a CloudProfileConfig of `azure.provider.extensions.gardener.cloud/v1alpha1`.",
	},
	{
		ID: RuleProviderConfigDecode, Summary: "The providerConfig cannot be decoded",
		Gardener: srcValidator + "; " + srcNamespaced + "Validate (pkg/admission/validator/serialization.go decodeCloudProfileConfig)" + "; Gardener's extensions/pkg/util/serialization.go Decode; pkg/admission/mutator/cloudprofile.go, namespacedcloudprofile.go Mutate",
		Meaning:  codec.RuleMeaning(" (prefixed with `could not decode providerConfig of CloudProfile \"<name>\"` or `… of NamespacedCloudProfile for '<name>'`)") + " " + extcommon.MutatorDecodeMeaning,
		Fix:      "Give `spec.provider_config` both `apiVersion` and `kind`, and correct the field names.",
	},
	{
		ID: RuleDomainCounts, Summary: "The fault or update domain counts are missing or invalid",
		Gardener: srcValidation + "validateDomainCount",
		Meaning:  "`countFaultDomains` and `countUpdateDomains` each need at least one entry with a `region` and a `count` that is not negative. While any of these or the providerConfig's machine images are invalid, the image mappings are not checked.",
		Fix:      "List the domain counts per region in `spec.provider_config`.",
	},
	{
		ID: RuleConfigImagesRequired, Summary: "The providerConfig lists no machine images",
		Gardener: srcValidation + "validateMachineImages",
		Meaning:  "The CloudProfileConfig of a CloudProfile must list at least one entry in `machineImages`.",
		Fix:      "Add the Azure images of your machine images to `machineImages` in `spec.provider_config`.",
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
		ID: RuleConfigFormat, Summary: "A providerConfig image version mixes or lacks image and capability flavors",
		Gardener: srcValidation + "validateMachineImageVersion",
		Meaning:  "Under `spec.machineCapabilities` a version gives either an image id (with `architecture` and `acceleratedNetworking`) or `capabilityFlavors`, exactly one of them; without capability definitions `capabilityFlavors` are forbidden.",
		Fix:      "Use one of an image id or `capabilityFlavors` per version in `spec.provider_config`, and `capabilityFlavors` only with `spec.machine_capabilities`.",
	},
	{
		ID: RuleConfigArchitecture, Summary: "A providerConfig version names an unsupported architecture",
		Gardener: srcValidation + "validateLegacyProvidedImage; validateLegacyImageWithCapabilities",
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
		ID: RuleImageIDCount, Summary: "A version or flavor does not name exactly one image id",
		Gardener: srcValidation + "validateProvidedImageIdCount",
		Meaning:  "Every image entry (version or capability flavor) sets exactly one of `urn`, `id`, `communityGalleryImageID` and `sharedGalleryImageID`.",
		Fix:      "Keep exactly one of `urn`, `id`, `communityGalleryImageID` or `sharedGalleryImageID` per entry in `spec.provider_config`.",
	},
	{
		ID: RuleImageID, Summary: "An image id is empty or malformed",
		Gardener: srcValidation + "validateProviderImageId",
		Meaning:  "A set image id must not be empty; a `urn` is `Publisher:Offer:Sku:Version`; a `communityGalleryImageID` is `/CommunityGalleries/<gallery>/Images/<image>/versions/<version>`; a `sharedGalleryImageID` is `/SharedGalleries/<gallery>/Images/<image>/Versions/<version>`.",
		Fix:      "Correct the image id in `spec.provider_config`.",
	},
	{
		ID: RuleImageMappingMissing, Summary: "A machine image has no providerConfig mapping",
		Gardener: srcValidation + "validateProviderImagesMapping",
		Meaning:  "Every image of `spec.machineImages`, even one without versions, needs an entry of the same name in the providerConfig's `machineImages`.",
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
		Meaning:  "Each architecture of a version needs a providerConfig entry of that version and architecture; under capability definitions each capability flavor of the version (defaults applied) needs a flavor with equal capabilities, or, in the old format, an entry of its architecture.",
		Fix:      "Add the missing architecture or capability flavor with its image to `spec.provider_config`, or drop it from `spec.machine_images`.",
	},
	{
		ID: RuleParentKind, Summary: "The parent is not a CloudProfile",
		Gardener: srcNamespaced + "Validate",
		Meaning:  "The webhook only accepts a NamespacedCloudProfile whose parent is of kind `CloudProfile`; it denies the request with a message that is no field error.",
		Fix:      "Set `spec.parent.kind` to `CloudProfile`.",
	},
	{
		ID: RuleNamespacedForbiddenFields, Summary: "A NamespacedCloudProfile's providerConfig sets cloud or domain settings",
		Gardener: srcNamespaced + "validateNamespacedCloudProfileProviderConfig",
		Meaning:  "`cloudConfiguration`, `countUpdateDomains` and `countFaultDomains` come from the parent and may not be set in a NamespacedCloudProfile.",
		Fix:      "Remove `cloudConfiguration` and the domain counts from `spec.provider_config` of the NamespacedCloudProfile.",
	},
	{
		ID: RuleNamespacedMappingMissing, Summary: "A new image or version of a NamespacedCloudProfile has no providerConfig mapping",
		Gardener: srcNamespaced + "validateMachineImages",
		Meaning:  "An image that a NamespacedCloudProfile adds, and under capability definitions a version not in the parent, needs an entry in its own providerConfig. Versions inherited from the parent need none, so overriding only an expiration date passes.",
		Fix:      "Add the new image version to `spec.provider_config` of the NamespacedCloudProfile.",
	},
	{
		ID: RuleNamespacedFlavors, Summary: "A version's providerConfig entries miss or exceed its architectures or flavors",
		Gardener: srcNamespaced + "validateMachineImages; validateMissingCapabilitiesMixed; validateExcessArchitecture",
		Meaning:  "The providerConfig entries of a version must map exactly the version's architectures (or, under capability definitions, its capability flavors): an architecture or flavor the spec does not list is excess, one without entry is missing (without capability definitions only for images the parent lacks).",
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
	{
		ID: RuleNamespacedMachineTypes, Summary: "The providerConfig configures a machine type that is inherited or not listed",
		Gardener: srcNamespaced + "validateMachineTypes",
		Meaning:  "Machine types in a NamespacedCloudProfile's providerConfig must not be in the parent and must be in the NamespacedCloudProfile's `spec.machineTypes`.",
		Fix:      "Add the machine type to `spec.machine_types`, or remove it (or the parent's types) from `spec.provider_config`.",
	},
}
