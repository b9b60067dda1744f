package openstack

import (
	"slices"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// Release is the extension release whose admission this package follows.
const Release = "gardener-extension-provider-openstack v1.57.0"

// Rule identifiers of the extension's checks.
const (
	RuleProviderConfigRequired    = "EXT-OPENSTACK-1"
	RuleProviderConfigDecode      = "EXT-OPENSTACK-2"
	RuleFloatingPools             = "EXT-OPENSTACK-3"
	RuleLoadBalancerClasses       = "EXT-OPENSTACK-4"
	RuleLoadBalancerProviders     = "EXT-OPENSTACK-5"
	RuleConfigImagesRequired      = "EXT-OPENSTACK-6"
	RuleConfigImageIncomplete     = "EXT-OPENSTACK-7"
	RuleConfigVersionRequired     = "EXT-OPENSTACK-8"
	RuleConfigFormat              = "EXT-OPENSTACK-9"
	RuleConfigRegions             = "EXT-OPENSTACK-10"
	RuleConfigRegionArchitecture  = "EXT-OPENSTACK-11"
	RuleConfigFlavorCapabilities  = "EXT-OPENSTACK-12"
	RuleImageMappingMissing       = "EXT-OPENSTACK-13"
	RuleVersionMappingMissing     = "EXT-OPENSTACK-14"
	RuleSpecArchitecture          = "EXT-OPENSTACK-15"
	RuleFlavorMappingMissing      = "EXT-OPENSTACK-16"
	RuleKeyStone                  = "EXT-OPENSTACK-17"
	RuleNetworkSettings           = "EXT-OPENSTACK-18"
	RuleParentKind                = "EXT-OPENSTACK-19"
	RuleNamespacedOnlyImages      = "EXT-OPENSTACK-20"
	RuleNamespacedMappingMissing  = "EXT-OPENSTACK-21"
	RuleNamespacedFlavors         = "EXT-OPENSTACK-22"
	RuleNamespacedVersionInParent = "EXT-OPENSTACK-23"
	RuleNamespacedMappingUnused   = "EXT-OPENSTACK-24"
)

const (
	srcValidator  = Release + " pkg/admission/validator/cloudprofile.go Validate"
	srcNamespaced = Release + " pkg/admission/validator/namespacedcloudprofile.go "
	srcValidation = Release + " pkg/apis/openstack/validation/cloudprofile.go "
)

// Rules returns the catalogue of the extension's checks.
func Rules() []cloudprofile.RuleInfo { return slices.Clone(rules) }

var rules = []cloudprofile.RuleInfo{
	{
		ID: RuleProviderConfigRequired, Summary: "An OpenStack CloudProfile has no providerConfig",
		Gardener: srcValidator,
		Meaning:  "A CloudProfile of type `openstack` must carry a CloudProfileConfig with KeyStone, constraints and the images of its machine images.",
		Fix:      "Set `spec.provider_config` to a CloudProfileConfig of `openstack.provider.extensions.gardener.cloud/v1alpha1`.",
	},
	{
		ID: RuleProviderConfigDecode, Summary: "The providerConfig cannot be decoded",
		Gardener: srcValidator + "; " + srcNamespaced + "Validate (pkg/admission/validator/serialization.go decodeCloudProfileConfig)" + "; Gardener's extensions/pkg/util/serialization.go Decode; pkg/admission/mutator/cloudprofile.go, namespacedcloudprofile.go Mutate",
		Meaning:  codec.RuleMeaning("") + " " + extcommon.MutatorDecodeMeaning,
		Fix:      "Give `spec.provider_config` both `apiVersion` and `kind`, and correct the field names.",
	},
	{
		ID: RuleFloatingPools, Summary: "The floating pools are missing, unnamed, or duplicated",
		Gardener: srcValidation + "ValidateCloudProfileConfig",
		Meaning:  "`constraints.floatingPools` needs at least one pool with a `name`; a `region` or `domain` key must not be empty, and a name may occur once per domain and region.",
		Fix:      "List named floating pools under `constraints.floatingPools` in `spec.provider_config`.",
	},
	{
		ID: RuleLoadBalancerClasses, Summary: "A floating pool's load balancer class is invalid",
		Gardener: srcValidation + "ValidateLoadBalancerClasses; validateLoadBalancerClass (filter.go validateResourceName, uuid)",
		Meaning:  "Load balancer classes need unique names without braces, brackets or newlines (at most 255 characters); `purpose` is `default`, `private` or `vpn`, with at most one default and one private class; floating network and subnet ids are UUIDs; a floating subnet is selected by one of id, name or tags.",
		Fix:      "Correct `loadBalancerClasses` of the floating pools in `spec.provider_config`.",
	},
	{
		ID: RuleLoadBalancerProviders, Summary: "The load balancer providers are missing, unnamed, or duplicated",
		Gardener: srcValidation + "ValidateCloudProfileConfig",
		Meaning:  "`constraints.loadBalancerProviders` needs at least one provider with a `name`; a `region` key must not be empty, and a provider may occur once per region.",
		Fix:      "List named providers under `constraints.loadBalancerProviders` in `spec.provider_config`.",
	},
	{
		ID: RuleConfigImagesRequired, Summary: "The providerConfig lists no machine images",
		Gardener: srcValidation + "ValidateCloudProfileConfig",
		Meaning:  "The CloudProfileConfig of a CloudProfile must list at least one entry in `machineImages`.",
		Fix:      "Add your images to `machineImages` in `spec.provider_config`.",
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
		Meaning:  "A version lists its images either in `regions` or in `capabilityFlavors`, not both; `capabilityFlavors` require `spec.machineCapabilities`.",
		Fix:      "Use one of `regions` or `capabilityFlavors` per version in `spec.provider_config`, and `capabilityFlavors` only with `spec.machine_capabilities`.",
	},
	{
		ID: RuleConfigRegions, Summary: "A region has no name or no image id",
		Gardener: srcValidation + "validateRegions",
		Meaning:  "Every region entry of a version or capability flavor needs a `name` and an `id`. Regions themselves are optional: a version may name its image with `image` instead.",
		Fix:      "Set `name` and `id` of every region in `spec.provider_config`.",
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
		Gardener: srcValidation + "validateMachineImageMapping",
		Meaning:  "Every version of a `spec.machineImages` image needs an entry in the providerConfig (reported once per architecture without capability definitions).",
		Fix:      "Add the version to `spec.provider_config`, or remove it from `spec.machine_images`.",
	},
	{
		ID: RuleSpecArchitecture, Summary: "A machine image version names an unsupported architecture",
		Gardener: srcValidation + "validateMachineImageMapping",
		Meaning:  "Without capability definitions the architectures of an image version must be `amd64` or `arm64`.",
		Fix:      "Use `amd64` or `arm64` in `spec.machine_images[*].versions[*].architectures`.",
	},
	{
		ID: RuleFlavorMappingMissing, Summary: "An architecture or capability flavor of a version has no image",
		Gardener: srcValidation + "validateMachineImageMapping; validateImageFlavorMapping",
		Meaning:  "When a version's providerConfig entry lists regions, each architecture of the version needs a region entry of that architecture; under capability definitions each capability flavor of the version (defaults applied) needs a flavor with equal capabilities or, in the regions format, a region of its (first) architecture.",
		Fix:      "Add the missing architecture or capability flavor to `spec.provider_config`, or drop it from `spec.machine_images`.",
	},
	{
		ID: RuleKeyStone, Summary: "KeyStone is not configured correctly",
		Gardener: srcValidation + "ValidateCloudProfileConfig",
		Meaning:  "`keystoneURL` or `keystoneURLs` is required; every `keystoneURLs` entry needs a unique `region` and a `url`; CA certificates must be PEM-encoded X.509 certificates.",
		Fix:      "Set `keystoneURL` (or per-region `keystoneURLs`) and valid CA certificates in `spec.provider_config`.",
	},
	{
		ID: RuleNetworkSettings, Summary: "A DNS server, the DHCP domain or a server group policy is invalid",
		Gardener: srcValidation + "ValidateCloudProfileConfig",
		Meaning:  "`dnsServers` must be IP addresses, `dhcpDomain` must not be empty when set, and `serverGroupPolicies` must not contain empty policies.",
		Fix:      "Correct `dnsServers`, `dhcpDomain` or `serverGroupPolicies` in `spec.provider_config`.",
	},
	{
		ID: RuleParentKind, Summary: "The parent is not a CloudProfile",
		Gardener: srcNamespaced + "Validate",
		Meaning:  "The webhook only accepts a NamespacedCloudProfile whose parent is of kind `CloudProfile`; it denies the request with a message that is no field error.",
		Fix:      "Set `spec.parent.kind` to `CloudProfile`.",
	},
	{
		ID: RuleNamespacedOnlyImages, Summary: "A NamespacedCloudProfile's providerConfig sets more than machine images",
		Gardener: srcNamespaced + "validateMachineImagesOnlyInNamespacedCloudProfile",
		Meaning:  "The providerConfig of a NamespacedCloudProfile may set `machineImages` only; constraints, KeyStone and all other settings come from the parent. Empty lists count as unset.",
		Fix:      "Remove everything but `machineImages` from `spec.provider_config` of the NamespacedCloudProfile.",
	},
	{
		ID: RuleNamespacedMappingMissing, Summary: "A new image or version of a NamespacedCloudProfile has no providerConfig mapping",
		Gardener: srcNamespaced + "validateMachineImages",
		Meaning:  "An image or version that a NamespacedCloudProfile adds (not in the parent) needs an entry in its own providerConfig. Versions inherited from the parent need none, so overriding only an expiration date passes.",
		Fix:      "Add the new version to `spec.provider_config` of the NamespacedCloudProfile.",
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
