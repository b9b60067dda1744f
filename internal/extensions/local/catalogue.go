package local

import (
	"slices"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// Rules returns the catalogue of provider-local's rules, ordered by number.
func Rules() []cloudprofile.RuleInfo { return slices.Clone(catalogue) }

// Where provider-local's admission lives in gardener/gardener v1.149.3.
const (
	cpValidator  = "pkg/provider-local/admission/validator/cloudprofile.go (cloudProfileValidator.Validate), v1.149.3"
	cpValidation = "pkg/provider-local/apis/local/validation/cloudprofile.go "
	ncpValidator = "pkg/provider-local/admission/validator/namespacedcloudprofile.go "
	release      = ", v1.149.3"
)

var catalogue = []cloudprofile.RuleInfo{
	{
		ID: "EXT-LOCAL-1", Summary: "A CloudProfile of type local has no provider configuration",
		Gardener: cpValidator,
		Meaning:  "provider-local needs `spec.providerConfig` on every CloudProfile of type `local`: it maps the machine images to the images machines boot.",
		Fix:      "Set `spec.provider_config` to a JSON `CloudProfileConfig` (apiVersion `local.provider.extensions.gardener.cloud/v1alpha1`) with a `machineImages` entry for every image of `spec.machine_images`.",
	},
	{
		ID: "EXT-LOCAL-2", Summary: "The provider configuration cannot be decoded",
		Gardener: cpValidator + "; " + ncpValidator + "(namespacedCloudProfileValidator.Validate)" + release + "; decoding: pkg/provider-local/admission/decode.go and Gardener's extensions/pkg/util/serialization.go Decode",
		Meaning: codec.RuleMeaning(" (prefixed with `could not decode providerConfig of CloudProfile \"<name>\"` or `… of NamespacedCloudProfile for '<name>'`)") + " Every value must have the right JSON type. " +
			"The NamespacedCloudProfile mutator, which merges the providerConfig into the status, decodes into the versioned type, which fills in a missing apiVersion and kind.",
		Fix: "Correct the JSON in `spec.provider_config`: apiVersion, kind, and only the fields `machineImages` (name, versions: version, image, capabilityFlavors: image, capabilities) and `loadBalancer` (image).",
	},
	{
		ID: "EXT-LOCAL-3", Summary: "The provider configuration maps no machine image",
		Gardener: cpValidation + "validateMachineImages" + release,
		Meaning:  "A CloudProfile's `providerConfig.machineImages` needs at least one entry.",
		Fix:      "Add `machineImages` entries to `spec.provider_config`.",
	},
	{
		ID: "EXT-LOCAL-4", Summary: "A machine image mapping has no name",
		Gardener: cpValidation + "validateMachineImage" + release,
		Meaning:  "Every entry of `providerConfig.machineImages` needs the `name` of an image of `spec.machineImages`.",
		Fix:      "Set `name` of each `machineImages` entry in `spec.provider_config`.",
	},
	{
		ID: "EXT-LOCAL-5", Summary: "A machine image mapping has no versions",
		Gardener: cpValidation + "validateMachineImage" + release,
		Meaning:  "Every entry of a CloudProfile's `providerConfig.machineImages` needs at least one version; the entry's other checks are skipped.",
		Fix:      "Add `versions` to the entry in `spec.provider_config`, or remove the entry.",
	},
	{
		ID: "EXT-LOCAL-6", Summary: "A version mapping has no version",
		Gardener: cpValidation + "validateMachineImageVersion" + release,
		Meaning:  "Every version entry of a CloudProfile's provider configuration needs `version`.",
		Fix:      "Set `version` of each version entry in `spec.provider_config` to a version of `spec.machine_images`.",
	},
	{
		ID: "EXT-LOCAL-7", Summary: "A version mapping has no image",
		Gardener: cpValidation + "validateWithoutCapabilities, validateWithCapabilities" + release,
		Meaning:  "Without `spec.machineCapabilities` every version entry needs `image`; with them, every entry of `capabilityFlavors` needs `image`.",
		Fix:      "Set `image` (or `capabilityFlavors[].image` when `spec.machine_capabilities` is set) in `spec.provider_config`.",
	},
	{
		ID: "EXT-LOCAL-8", Summary: "A version mapping uses the format the profile does not use",
		Gardener: cpValidation + "validateWithoutCapabilities, validateWithCapabilities" + release,
		Meaning:  "A CloudProfile without `spec.machineCapabilities` maps versions with `image` only (`capabilityFlavors` is forbidden); one with capabilities maps them with `capabilityFlavors` only (`image` is forbidden).",
		Fix:      "In `spec.provider_config`, use `image` when `spec.machine_capabilities` is empty, `capabilityFlavors` otherwise.",
	},
	{
		ID: "EXT-LOCAL-9", Summary: "A flavor's capabilities are not those the profile defines",
		Gardener: "pkg/utils/gardener/cloudprofile.go ValidateCapabilities, called by " + cpValidation + "validateWithCapabilities" + release,
		Meaning:  "The capabilities of a `capabilityFlavors` entry may only use names and values of `spec.machineCapabilities`; when more than one architecture is defined, a flavor names exactly one. Gardener lists the supported names in varying order; here they are sorted.",
		Fix:      "Use only capability names and values from `spec.machine_capabilities` in `spec.provider_config`, and one `architecture` per flavor.",
	},
	{
		ID: "EXT-LOCAL-10", Summary: "A machine image has no mapping",
		Gardener: cpValidation + "validateMachineImageMapping" + release,
		Meaning:  "Every image of `spec.machineImages` with versions needs a `providerConfig.machineImages` entry of the same name. Gardener's path uses the image's position in `spec.machineImages`. Without machine capabilities the versions are not checked.",
		Fix:      "Add an entry for the image to `machineImages` in `spec.provider_config`, or remove the image from `spec.machine_images`.",
	},
	{
		ID: "EXT-LOCAL-11", Summary: "A machine image version has no mapping (profiles with capabilities)",
		Gardener: cpValidation + "validateMachineImageVersionMapping" + release,
		Meaning:  "With `spec.machineCapabilities`, every version of every image needs a version entry in the provider configuration. Gardener's path uses the positions in `spec.machineImages`.",
		Fix:      "Add the version to the image's entry in `spec.provider_config`, or remove it from `spec.machine_images`.",
	},
	{
		ID: "EXT-LOCAL-12", Summary: "A capability flavor of a version has no mapping",
		Gardener: cpValidation + "validateImageFlavorMapping" + release,
		Meaning:  "With `spec.machineCapabilities`, every flavor of a version (one flavor with every defined value when the version lists none) needs a `capabilityFlavors` entry with the same capabilities, unset capabilities counting as all defined values. A mapping for another architecture does not count.",
		Fix:      "Add a `capabilityFlavors` entry with those capabilities to the version in `spec.provider_config`.",
	},
	{
		ID: "EXT-LOCAL-13", Summary: "A NamespacedCloudProfile adds a machine image without mapping",
		Gardener: ncpValidator + "validateNamespacedCloudProfileProviderConfig" + release,
		Meaning:  "An image of a NamespacedCloudProfile's `spec.machineImages` that the parent lacks needs an entry in its own `providerConfig`.",
		Fix:      "Add the image with its versions to `machineImages` in the NamespacedCloudProfile's `spec.provider_config`.",
	},
	{
		ID: "EXT-LOCAL-14", Summary: "A NamespacedCloudProfile adds a machine image version without mapping",
		Gardener: ncpValidator + "validateNamespacedCloudProfileProviderConfig" + release,
		Meaning:  "A version of a NamespacedCloudProfile's `spec.machineImages` that the parent lacks needs a version entry in its own `providerConfig`. Versions the parent has (for example, only given a later expiration date) need none.",
		Fix:      "Add the version to the image's entry in the NamespacedCloudProfile's `spec.provider_config`.",
	},
	{
		ID: "EXT-LOCAL-15", Summary: "A NamespacedCloudProfile maps a version of its parent",
		Gardener: ncpValidator + "validateNamespacedCloudProfileProviderConfig" + release,
		Meaning:  "A NamespacedCloudProfile's `providerConfig` may not map a version its parent already has.",
		Fix:      "Remove the version from the NamespacedCloudProfile's `spec.provider_config`.",
	},
	{
		ID: "EXT-LOCAL-16", Summary: "A NamespacedCloudProfile maps an image it does not list",
		Gardener: ncpValidator + "validateNamespacedCloudProfileProviderConfig" + release,
		Meaning:  "Every image a NamespacedCloudProfile's `providerConfig` maps must be in its own `spec.machineImages`.",
		Fix:      "Add the image to the NamespacedCloudProfile's `spec.machine_images`, or remove it from `spec.provider_config`.",
	},
	{
		ID: "EXT-LOCAL-17", Summary: "A NamespacedCloudProfile maps a version it does not list",
		Gardener: ncpValidator + "validateNamespacedCloudProfileProviderConfig" + release,
		Meaning:  "Every version a NamespacedCloudProfile's `providerConfig` maps must be in its own `spec.machineImages`.",
		Fix:      "Add the version to the NamespacedCloudProfile's `spec.machine_images`, or remove it from `spec.provider_config`.",
	},
	{
		ID: "EXT-LOCAL-18", Summary: "The parent is not a CloudProfile",
		Gardener: ncpValidator + "(namespacedCloudProfileValidator.Validate)" + release,
		Meaning:  "The extension only knows parents of kind CloudProfile. Gardener's own validation rejects other kinds first.",
		Fix:      "Set `spec.parent.kind` to `CloudProfile`.",
	},
}
