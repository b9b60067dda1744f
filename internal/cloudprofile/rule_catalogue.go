package cloudprofile

import (
	"strings"
)

// RuleInfo describes one rule the package checks: the identifier a Problem carries in its Rule
// field, what the rule means, where Gardener implements it, and how a user fixes a violation.
// A Problem of a rule applied as part of another carries both identifiers, outer first, such as
// "K-4/C-5" (rule C-5, applied by K-4) or "M-2/F-7".
type RuleInfo struct {
	// ID is the rule's identifier, such as "C-3". The letter names the group.
	ID string
	// Summary says in a few words what is wrong when the rule is violated.
	Summary string
	// Gardener names the file and function of gardener/gardener v1.149 that implements the rule;
	// for the provider's own checks, the Gardener behaviour they anticipate.
	Gardener string
	// Meaning explains the rule: when it applies and what it demands.
	Meaning string
	// Fix says in one sentence how to fix a violation, in the Terraform attribute names.
	Fix string
	// ProviderOwn is true for the provider's own checks (the W and X rules): Gardener never gives
	// their messages, so diagnostics do not quote them as Gardener's.
	ProviderOwn bool
	// Since is the first known Gardener release that applies the rule; OldestKnownRelease for a
	// rule of every known release (which older releases may apply as well).
	Since Release
	// Until is the last known Gardener release that applies the rule; zero while the newest known
	// release applies it.
	Until Release
}

// Rules returns the catalogue of every rule the package checks, ordered by group and number.
func Rules() []RuleInfo {
	return withReleases(ruleCatalogue)
}

// Locations in gardener/gardener v1.149 that several rules share.
const (
	gardenerCloudProfileValidation = "pkg/api/core/validation/cloudprofile.go "
	gardenerValidationUtils        = "pkg/api/core/validation/utils.go "
	gardenerNamespacedValidation   = "pkg/api/core/validation/namespacedcloudprofile.go "
	gardenerNamespacedAdmission    = "plugin/pkg/namespacedcloudprofile/validator/admission.go "
	gardenerReferenceManager       = "plugin/pkg/global/resourcereferencemanager/admission.go "
)

var ruleCatalogue = []RuleInfo{
	// A: metadata.
	{
		ID: "A-1", Summary: "The name is missing or not a DNS-1123 subdomain",
		Gardener: gardenerCloudProfileValidation + "ValidateCloudProfile; " + gardenerNamespacedValidation + "ValidateNamespacedCloudProfile (both through k8s.io/apimachinery/pkg/api/validation ValidateObjectMeta)",
		Meaning:  "`metadata.name` is required and must be a DNS-1123 subdomain: lowercase letters, digits, `-` and `.`, at most 253 characters. Labels (A-4) and annotations (A-5) have rules of their own.",
		Fix:      "Rename the object in `metadata.name` to lowercase letters, digits, `-` and `.`.",
	},
	{
		ID: "A-2", Summary: "The namespace is missing or not allowed",
		Gardener: gardenerCloudProfileValidation + "ValidateCloudProfile; " + gardenerNamespacedValidation + "ValidateNamespacedCloudProfile (both through k8s.io/apimachinery/pkg/api/validation ValidateObjectMeta)",
		Meaning:  "A NamespacedCloudProfile needs `metadata.namespace`; a CloudProfile is cluster-scoped and has none.",
		Fix:      "Set `metadata.namespace` of a NamespacedCloudProfile to the project namespace, such as `garden-team`.",
	},
	{
		ID: "A-3", Summary: "The name or namespace changed",
		Gardener: gardenerCloudProfileValidation + "ValidateCloudProfileUpdate; " + gardenerNamespacedValidation + "ValidateNamespacedCloudProfileUpdate (both through k8s.io/apimachinery/pkg/api/validation ValidateObjectMetaUpdate)",
		Meaning:  "`metadata.name` and `metadata.namespace` cannot change on update.",
		Fix:      "Let Terraform replace the object; the provider plans a replacement, so you should not see this.",
	},
	{
		ID: "A-4", Summary: "A label is not valid",
		Gardener: gardenerCloudProfileValidation + "ValidateCloudProfile; " + gardenerNamespacedValidation + "ValidateNamespacedCloudProfile (both through k8s.io/apimachinery/pkg/api/validation ValidateObjectMeta, ValidateLabels)",
		Meaning:  "A label key of `metadata.labels` is a qualified name (letters, digits, `-`, `_` and `.`, starting and ending with a letter or digit, at most 63 characters), optionally behind a DNS subdomain prefix and `/`, such as `example.com/owner`. A value is empty or at most 63 characters of the same kind.",
		Fix:      "Correct the label in `metadata.labels`, for example `labels = { \"example.com/owner\" = \"team-a\" }`: keys and values of letters, digits, `-`, `_` and `.`, starting and ending with a letter or digit, at most 63 characters (a key may have a prefix such as `example.com/`).",
	},
	{
		ID: "A-5", Summary: "An annotation is not valid",
		Gardener: gardenerCloudProfileValidation + "ValidateCloudProfile; " + gardenerNamespacedValidation + "ValidateNamespacedCloudProfile (both through k8s.io/apimachinery/pkg/api/validation ValidateObjectMeta, ValidateAnnotations)",
		Meaning:  "An annotation key of `metadata.annotations` is a qualified name, optionally behind a DNS subdomain prefix and `/`, as a label key; the values may be any text, but all annotations together must not exceed 256 KiB.",
		Fix:      "Correct the key in `metadata.annotations`, such as `example.com/note`, or shorten the values.",
	},

	// B: top-level spec.
	{
		ID: "B-1", Summary: "The provider type is missing",
		Gardener: gardenerCloudProfileValidation + "ValidateCloudProfileSpec",
		Meaning:  "A CloudProfile needs `spec.type`, the provider type such as `aws`. Any other string is accepted, and it may change later.",
		Fix:      "Set `spec.type` to the provider type, such as `aws`.",
	},
	{
		ID: "B-2", Summary: "The CA bundle is not a PEM certificate",
		Gardener: gardenerCloudProfileValidation + "ValidateCloudProfileSpec; " + gardenerNamespacedValidation + "ValidateNamespacedCloudProfile",
		Meaning:  "`spec.ca_bundle` must begin with a PEM block of type `CERTIFICATE` that parses as X.509. Text after that block is ignored; an empty string fails.",
		Fix:      "Put a PEM-encoded X.509 certificate into `spec.ca_bundle`, or remove the attribute.",
	},
	{
		ID: "B-3", Summary: "The seed selector is not a valid label selector",
		Gardener: gardenerCloudProfileValidation + "ValidateCloudProfileSpec (k8s.io/apimachinery ValidateLabelSelector)",
		Meaning:  "`spec.seed_selector` must be a valid Kubernetes label selector: label keys and values in `match_labels`, operators and values in `match_expressions`. `provider_types` is not checked.",
		Fix:      "Correct the keys, values and operators of `spec.seed_selector`.",
	},
	{
		ID: "B-4", Summary: "The node limit is not positive",
		Gardener: gardenerCloudProfileValidation + "validateCloudProfileLimits",
		Meaning:  "`spec.limits.max_nodes_total`, when set, must be greater than 0. On a NamespacedCloudProfile update Gardener checks it twice and reports it twice.",
		Fix:      "Set `spec.limits.max_nodes_total` to a positive number, or remove it.",
	},
	{
		ID: "B-5", Summary: "The provider type cannot be a label",
		Gardener: "plugin/pkg/global/extensionlabels/admission.go ExtensionLabels.Admit, then " + gardenerCloudProfileValidation + "ValidateCloudProfile (k8s.io/apimachinery/pkg/api/validation ValidateObjectMeta)",
		Meaning:  "Gardener labels a CloudProfile `provider.extensions.gardener.cloud/<type>: \"true\"` before it validates it, so `spec.type` must fit into a label key: letters, digits, `-`, `_` and `.`, starting and ending with a letter or digit, at most 63 characters. Gardener reports the label, at `metadata.labels`; the provider reports it at `spec.type`.",
		Fix:      "Set `spec.type` to a provider type such as `aws` or `openstack`: letters, digits, `-`, `_` and `.`, starting and ending with a letter or digit, at most 63 characters.",
	},

	// C: Kubernetes versions.
	{
		ID: "C-1", Summary: "No Kubernetes version is offered",
		Gardener: gardenerCloudProfileValidation + "validateCloudProfileKubernetesSettings",
		Meaning:  "A CloudProfile, and the merged profile of a NamespacedCloudProfile, needs at least one Kubernetes version. Create-time dropping of inactive versions can empty the list. C-2 always accompanies it.",
		Fix:      "Add an active version to `spec.kubernetes.versions`.",
	},
	{
		ID: "C-2", Summary: "The highest Kubernetes version cannot be determined",
		Gardener: gardenerCloudProfileValidation + "validateCloudProfileKubernetesSettings (helper.DetermineLatestExpirableVersion)",
		Meaning:  "Gardener must find the highest Kubernetes version. It cannot when the list is empty or any version is not a semantic version.",
		Fix:      "Key every entry of `spec.kubernetes.versions` by a version such as `1.33.1`, and offer at least one.",
	},
	{
		ID: "C-3", Summary: "The highest Kubernetes version has an expiration date",
		Gardener: gardenerCloudProfileValidation + "validateCloudProfileKubernetesSettings",
		Meaning:  "The highest Kubernetes version by semantic version, whatever its classification, must not set `expiration_date`. Gardener reports it at the literal path `versions[].expirationDate`. Machine images have no such rule.",
		Fix:      "Remove `spec.kubernetes.versions[*].expiration_date` from the highest version, or add a newer version.",
	},
	{
		ID: "C-4", Summary: "The lifecycle of the highest Kubernetes version ends expired",
		Gardener: gardenerCloudProfileValidation + "validateCloudProfileKubernetesSettings",
		Meaning:  "The last stage of the highest Kubernetes version's lifecycle must not be `expired`, however far ahead it starts.",
		Fix:      "Drop the `expired` stage from `spec.kubernetes.versions[*].lifecycle` of the highest version until a newer version exists.",
	},
	{
		ID: "C-5", Summary: "The Kubernetes version is not MAJOR.MINOR.PATCH",
		Gardener: gardenerValidationUtils + "validateKubernetesVersions",
		Meaning:  "A Kubernetes version is exactly three dot-separated numbers, such as `1.33.1`: no `v` prefix, no pre-release or build suffix. Leading zeros are accepted.",
		Fix:      "Key the entry of `spec.kubernetes.versions` by three numbers, such as `1.33.1`.",
	},
	{
		ID: "C-6", Summary: "The Kubernetes version is listed twice",
		Gardener: gardenerValidationUtils + "validateKubernetesVersions",
		Meaning:  "Each Kubernetes version string may occur once; the later occurrence is reported. `01.2.3` and `1.2.3` are different strings.",
		Fix:      "Remove the duplicate entry from `spec.kubernetes.versions`.",
	},
	{
		ID: "C-8", Summary: "Two supported Kubernetes versions share a minor version",
		Gardener: gardenerCloudProfileValidation + "validateSupportedVersionsConfiguration",
		Meaning:  "A version with the legacy `classification = \"supported\"` that is supported now conflicts with every other version of the same minor whose legacy classification is `supported` or whose lifecycle has a `supported` stage, expired or not. One error is reported per conflicting version. Versions that use only a lifecycle are never checked themselves.",
		Fix:      "Classify the older patch versions in `spec.kubernetes.versions[*].classification` as `deprecated`.",
	},
	{
		ID: "C-9", Summary: "A supported lifecycle-only Kubernetes version shares a minor version with another supported version",
		Gardener: gardenerCloudProfileValidation + "validateSupportedVersionsConfiguration",
		Meaning:  "Releases before v1.149.0 apply C-8 also to a version that has a `lifecycle` and no legacy `classification`: when it is supported now, it conflicts with every other version of the same minor whose legacy classification is `supported` or whose lifecycle has a `supported` stage, unless both versions have lifecycles whose supported periods do not overlap. One error is reported per conflicting version. Gardener v1.149.0 stopped checking such versions.",
		Fix:      "Give the older patch versions of that minor a `deprecated` stage in `spec.kubernetes.versions[*].lifecycle`.",
	},

	// D: version classifications and lifecycles.
	{
		ID: "D-1", Summary: "Lifecycles need a Gardener feature gate",
		Gardener: gardenerValidationUtils + "validateExpirableVersion",
		Meaning:  "A non-empty `lifecycle` is rejected while Gardener's `VersionClassificationLifecycle` feature gate (alpha, off by default) is off; the other D rules are then skipped for that version. The provider follows its `feature_gates` setting, which defaults to Gardener's defaults.",
		Fix:      "Use `classification` and `expiration_date` instead of `lifecycle`; or, when the Garden's gardener-apiserver runs with the gate on, say so in the provider block: `feature_gates = { VersionClassificationLifecycle = true }`.",
	},
	{
		ID: "D-2", Summary: "The classification is not supported",
		Gardener: gardenerValidationUtils + "validateExpirableVersion",
		Meaning:  "The legacy `classification` is one of `preview`, `supported`, `deprecated` and `expired`; `unavailable` is rejected.",
		Fix:      "Set `classification` to `preview`, `supported` or `deprecated`.",
	},
	{
		ID: "D-3", Summary: "The classification expired is not allowed",
		Gardener: gardenerValidationUtils + "validateExpirableVersion",
		Meaning:  "The legacy `classification = \"expired\"` is rejected for a version without a lifecycle.",
		Fix:      "Remove `classification` and set `expiration_date` to the instant the version expires.",
	},
	{
		ID: "D-4", Summary: "Legacy fields are combined with a lifecycle",
		Gardener: gardenerValidationUtils + "validateExpirableVersion",
		Meaning:  "`classification` and `expiration_date` cannot be combined with a non-empty `lifecycle`. On a NamespacedCloudProfile this also happens when an `expiration_date` override meets a parent version that uses a lifecycle.",
		Fix:      "Describe the version either with `lifecycle` alone or with `classification` and `expiration_date`.",
	},
	{
		ID: "D-5", Summary: "A lifecycle stage's classification is not supported",
		Gardener: gardenerValidationUtils + "validateLifecycleClassificationsValid",
		Meaning:  "A stage's `classification` is one of `preview`, `supported`, `deprecated` and `expired`; `unavailable` cannot be written.",
		Fix:      "Set `lifecycle[*].classification` to `preview`, `supported`, `deprecated` or `expired`.",
	},
	{
		ID: "D-6", Summary: "A classification occurs twice in the lifecycle",
		Gardener: gardenerValidationUtils + "validateLifecycleNoDuplicates",
		Meaning:  "Each classification may occur once in a lifecycle; later occurrences are reported.",
		Fix:      "Remove the repeated stage from `lifecycle`.",
	},
	{
		ID: "D-7", Summary: "Lifecycle stages are out of order",
		Gardener: gardenerValidationUtils + "validateLifecycleInOrder",
		Meaning:  "Stages must be listed in the order `preview`, `supported`, `deprecated`, `expired`; each stage is compared with the one before it.",
		Fix:      "Reorder `lifecycle` to `preview`, `supported`, `deprecated`, `expired`.",
	},
	{
		ID: "D-8", Summary: "A later lifecycle stage has no start time",
		Gardener: gardenerValidationUtils + "validateLifecycleStartTimes",
		Meaning:  "Only the first stage may omit `start_time`; it is then active from the beginning of time.",
		Fix:      "Set `lifecycle[*].start_time` on every stage but the first.",
	},
	{
		ID: "D-9", Summary: "Lifecycle start times decrease",
		Gardener: gardenerValidationUtils + "validateLifecycleStartTimes",
		Meaning:  "A stage must not start before the stage listed before it; equal start times are allowed.",
		Fix:      "Make `lifecycle[*].start_time` increase from stage to stage.",
	},

	// E: machine images.
	{
		ID: "E-1", Summary: "No machine image is offered",
		Gardener: gardenerCloudProfileValidation + "ValidateCloudProfileMachineImages",
		Meaning:  "A CloudProfile needs at least one machine image.",
		Fix:      "Add an image to `spec.machine_images`.",
	},
	{
		ID: "E-2", Summary: "The highest machine image version cannot be determined",
		Gardener: gardenerValidationUtils + "ValidateMachineImages (helper.DetermineLatestMachineImageVersions)",
		Meaning:  "Every image version must be a semantic version, or Gardener cannot find the highest version of each image. Only the first failing image is reported.",
		Fix:      "Key every entry of `spec.machine_images[*].versions` by a semantic version such as `1877.3.0`.",
	},
	{
		ID: "E-3", Summary: "The machine image is listed twice",
		Gardener: gardenerValidationUtils + "ValidateMachineImage",
		Meaning:  "Each image name may occur once. Gardener reports the duplicate on the image, not on its `name`.",
		Fix:      "Merge the versions of both entries of `spec.machine_images` into one.",
	},
	{
		ID: "E-4", Summary: "The machine image name is missing or not a qualified name",
		Gardener: gardenerValidationUtils + "ValidateMachineImage",
		Meaning:  "An image name is required and must be a qualified name without `/`: letters, digits, `-`, `_` and `.`, beginning and ending with a letter or digit, at most 63 characters.",
		Fix:      "Key the entry of `spec.machine_images` by a qualified name such as `gardenlinux`.",
	},
	{
		ID: "E-5", Summary: "The machine image has no version",
		Gardener: gardenerValidationUtils + "ValidateMachineImage",
		Meaning:  "An image needs at least one version. In a NamespacedCloudProfile this applies only to images the parent lacks. Create-time dropping of expired versions can empty the list.",
		Fix:      "Add an active version to `spec.machine_images[*].versions`.",
	},
	{
		ID: "E-6", Summary: "The update strategy is missing or not supported",
		Gardener: gardenerValidationUtils + "ValidateMachineImage; " + gardenerCloudProfileValidation + "ValidateCloudProfileMachineImages",
		Meaning:  "`update_strategy` is `patch`, `minor` or `major`. A CloudProfile defaults it to `major`; a NamespacedCloudProfile is not defaulted, so a new image there needs it for the merged profile (`M-2/E-6`).",
		Fix:      "Set `spec.machine_images[*].update_strategy` to `patch`, `minor` or `major`.",
	},

	// F: machine image versions.
	{
		ID: "F-1", Summary: "The machine image version is listed twice",
		Gardener: gardenerValidationUtils + "ValidateMachineImageVersion",
		Meaning:  "The key `<image>-<version>` may occur once across all images, so image `x-1.0.0` with version `1.0.0` collides with image `x` with version `1.0.0-1.0.0`.",
		Fix:      "Remove the duplicate from `spec.machine_images[*].versions`.",
	},
	{
		ID: "F-2", Summary: "The machine image version is empty",
		Gardener: gardenerValidationUtils + "ValidateMachineImageVersion",
		Meaning:  "An image version needs a `version`; an empty one also fails F-3 and E-2.",
		Fix:      "Key the entry of `spec.machine_images[*].versions` by its version, not by an empty string.",
	},
	{
		ID: "F-3", Summary: "The machine image version is not a semantic version",
		Gardener: gardenerValidationUtils + "ValidateMachineImageVersion",
		Meaning:  "An image version must parse as a semantic version in Masterminds' loose form: a leading `v`, missing components, pre-releases and build metadata are accepted.",
		Fix:      "Key the entry of `spec.machine_images[*].versions` by a semantic version such as `1877.3.0`.",
	},
	{
		ID: "F-4", Summary: "The minimum version for in-place updates is not a semantic version",
		Gardener: gardenerValidationUtils + "ValidateMachineImageVersion",
		Meaning:  "`in_place_updates.min_version_for_update`, when set, must be a semantic version. Gardener reports it at the path `…minVersionForInPlaceUpdate`.",
		Fix:      "Write `spec.machine_images[*].versions[*].in_place_updates.min_version_for_update` as a semantic version.",
	},
	{
		ID: "F-5", Summary: "The kubelet version constraint does not parse",
		Gardener: gardenerValidationUtils + "ValidateMachineImageVersion",
		Meaning:  "`kubelet_version_constraint`, when set, must be a Masterminds semver constraint such as `>= 1.30`. `==1.30.0` and the empty string are invalid.",
		Fix:      "Correct `spec.machine_images[*].versions[*].kubelet_version_constraint`, writing equality as `= 1.30.0`, or remove it.",
	},
	{
		ID: "F-6", Summary: "The architectures or capability flavors do not fit the capabilities",
		Gardener: gardenerValidationUtils + "validateMachineImageVersionFlavors and validateMachineImageVersionArchitecture",
		Meaning:  "Without `machine_capabilities`, each of `architectures` is `amd64` or `arm64`. With them, a version needs `capability_flavors` when several architectures are defined, each flavor names exactly one architecture then, `architectures` must be a subset of the flavors' architectures and defined, and every flavor key and value must be defined. In a NamespacedCloudProfile the parent's definitions count.",
		Fix:      "Make `spec.machine_images[*].versions[*].architectures` and `capability_flavors` use only the architectures and capabilities the profile defines.",
	},
	{
		ID: "F-7", Summary: "The container runtime interfaces are missing or not supported",
		Gardener: gardenerCloudProfileValidation + "validateContainerRuntimesInterfaces and validateContainerRuntimes",
		Meaning:  "A version needs at least one `cri`, only `containerd` is supported, and neither CRI names nor container runtime types may repeat; types are qualified names. A CloudProfile defaults `cri` to containerd, a NamespacedCloudProfile does not, so a new version there fails as `M-2/F-7`.",
		Fix:      "Set `cri = { containerd = {} }` in the entry of the version in `spec.machine_images[*].versions`.",
	},
	{
		ID: "F-8", Summary: "Two supported image versions share a minor version",
		Gardener: gardenerCloudProfileValidation + "ValidateMachineImageAdditionalConfig (validateSupportedVersionsConfiguration)",
		Meaning:  "Within one image, the rule of C-8: a version with the legacy `classification = \"supported\"` that is supported now conflicts with other supported versions of the same minor. `1877.12.0` and `1877.12.0-inplace` share a minor.",
		Fix:      "Classify the older versions in `spec.machine_images[*].versions[*].classification` as `deprecated`.",
	},
	{
		ID: "F-10", Summary: "The architectures are missing, or capability flavors are set without capabilities",
		Gardener: gardenerCloudProfileValidation + "ValidateMachineImageAdditionalConfig",
		Meaning:  "Without `machine_capabilities` every version needs `architectures` (a CloudProfile defaults them to `[\"amd64\"]`) and must not set `capability_flavors`.",
		Fix:      "Set `spec.machine_images[*].versions[*].architectures` and remove `capability_flavors`, or define `spec.machine_capabilities`.",
	},
	{
		ID: "F-11", Summary: "A supported lifecycle-only image version shares a minor version with another supported version",
		Gardener: gardenerCloudProfileValidation + "ValidateMachineImageAdditionalConfig (validateSupportedVersionsConfiguration)",
		Meaning:  "Within one image, the rule of C-9: releases before v1.149.0 also check a version that has a `lifecycle` and no legacy `classification` and is supported now against the other supported versions of the same minor. Gardener v1.149.0 stopped checking such versions.",
		Fix:      "Give the older versions of that minor a `deprecated` stage in `spec.machine_images[*].versions[*].lifecycle`.",
	},

	// G: machine types.
	{
		ID: "G-1", Summary: "No machine type is offered",
		Gardener: gardenerCloudProfileValidation + "validateCloudProfileMachineTypes",
		Meaning:  "A CloudProfile needs at least one machine type.",
		Fix:      "Add a machine type to `spec.machine_types`.",
	},
	{
		ID: "G-2", Summary: "The machine type name is missing or not a qualified name",
		Gardener: gardenerValidationUtils + "ValidateMachineType",
		Meaning:  "A machine type name is required and must be a qualified name without `/`.",
		Fix:      "Key the entry of `spec.machine_types` by a qualified name such as `m5.large`.",
	},
	{
		ID: "G-3", Summary: "The machine type is listed twice",
		Gardener: gardenerValidationUtils + "ValidateMachineType",
		Meaning:  "Each machine type name may occur once; Gardener skips the other checks of the duplicate.",
		Fix:      "Remove the duplicate from `spec.machine_types`.",
	},
	{
		ID: "G-4", Summary: "A machine type resource is negative",
		Gardener: gardenerValidationUtils + "ValidateMachineType (ValidateResourceQuantityValue)",
		Meaning:  "`cpu`, `gpu` and `memory` must not be negative; fractions are allowed.",
		Fix:      "Set `spec.machine_types[*].cpu`, `gpu` and `memory` to zero or more.",
	},
	{
		ID: "G-5", Summary: "The machine type's architecture or capabilities do not fit",
		Gardener: gardenerValidationUtils + "validateMachineTypeArchitecture and validateMachineTypeCapabilities",
		Meaning:  "`architecture` is `amd64` or `arm64`. With `machine_capabilities`, a machine type names at most one architecture capability, it must agree with `architecture`, and every capability key and value must be defined (in a NamespacedCloudProfile, by the parent).",
		Fix:      "Make `spec.machine_types[*].architecture` and `capabilities` use only the architecture and capabilities the profile defines.",
	},
	{
		ID: "G-6", Summary: "The machine type's storage size is missing, doubled or negative",
		Gardener: gardenerValidationUtils + "validateMachineTypeStorage",
		Meaning:  "`storage` needs exactly one of `size` and `min_size`, and neither may be negative.",
		Fix:      "Set either `spec.machine_types[*].storage.size` or `storage.min_size`, not both, to zero or more.",
	},
	{
		ID: "G-7", Summary: "The architecture is missing, or capabilities are set without definitions",
		Gardener: gardenerCloudProfileValidation + "validateCloudProfileMachineTypes",
		Meaning:  "Without `machine_capabilities` a machine type needs `architecture` (a CloudProfile defaults it to `amd64`) and must not set `capabilities`.",
		Fix:      "Set `spec.machine_types[*].architecture` and remove `capabilities`, or define `spec.machine_capabilities`.",
	},

	// H: volume types.
	{
		ID: "H-1", Summary: "The volume type name is missing or not a qualified name",
		Gardener: gardenerValidationUtils + "validateVolumeTypes",
		Meaning:  "A volume type name is required and must be a qualified name without `/`.",
		Fix:      "Key the entry of `spec.volume_types` by a qualified name such as `gp3`.",
	},
	{
		ID: "H-2", Summary: "The volume type is listed twice",
		Gardener: gardenerValidationUtils + "validateVolumeTypes",
		Meaning:  "Each volume type name may occur once. After a duplicate Gardener stops validating the rest of the list.",
		Fix:      "Remove the duplicate from `spec.volume_types`.",
	},
	{
		ID: "H-3", Summary: "The volume class is missing or not a qualified name",
		Gardener: gardenerValidationUtils + "validateVolumeTypes",
		Meaning:  "A volume type needs a `class` that is a qualified name without `/`.",
		Fix:      "Set `spec.volume_types[*].class` to a qualified name such as `standard`.",
	},
	{
		ID: "H-4", Summary: "The minimum volume size is negative",
		Gardener: gardenerValidationUtils + "validateVolumeTypes",
		Meaning:  "`min_size`, when set, must not be negative.",
		Fix:      "Set `spec.volume_types[*].min_size` to zero or more.",
	},

	// I: capability definitions.
	{
		ID: "I-1", Summary: "Machine capabilities need a Gardener feature gate",
		Gardener: gardenerCloudProfileValidation + "validateCapabilityDefinitions",
		Meaning:  "A non-empty `machine_capabilities` is rejected while Gardener's `CloudProfileCapabilities` feature gate (beta, on by default) is off. The provider follows its `feature_gates` setting, which defaults to Gardener's defaults.",
		Fix:      "Remove `spec.machine_capabilities`; or, when the Garden's gardener-apiserver runs with the gate on, say so in the provider block with `feature_gates = { CloudProfileCapabilities = true }` (or leave the gate out: on is Gardener's default).",
	},
	{
		ID: "I-2", Summary: "The capability is defined twice",
		Gardener: gardenerCloudProfileValidation + "validateCapabilityDefinitions",
		Meaning:  "Each capability name may be defined once; the later definition's values count for the other checks.",
		Fix:      "Merge the values of both entries of `spec.machine_capabilities` into one.",
	},
	{
		ID: "I-3", Summary: "The capability name uses Gardener's reserved prefix",
		Gardener: gardenerCloudProfileValidation + "validateCapabilityDefinitions",
		Meaning:  "Capability names starting with `gardener-` are reserved for Gardener.",
		Fix:      "Rename `spec.machine_capabilities[*].name` so it does not start with `gardener-`.",
	},
	{
		ID: "I-4", Summary: "The architecture capability is missing or has unknown values",
		Gardener: gardenerCloudProfileValidation + "validateCapabilityDefinitions",
		Meaning:  "When capabilities are defined, one of them must be named `architecture`, and its values are `amd64` or `arm64`.",
		Fix:      "Add `{ name = \"architecture\", values = [\"amd64\"] }` to `spec.machine_capabilities`, with only `amd64` and `arm64` as values.",
	},
	{
		ID: "I-5", Summary: "A capability name or value is empty or not a qualified name",
		Gardener: gardenerCloudProfileValidation + "validateCapabilityDefinitions",
		Meaning:  "Capability names and their values must be non-empty qualified names (names without `/`), and each capability needs at least one value. Repeated values are accepted.",
		Fix:      "Give every `spec.machine_capabilities[*]` a qualified `name` and at least one qualified value in `values`.",
	},

	// J: regions and bastion.
	{
		ID: "J-1", Summary: "No region is offered",
		Gardener: gardenerCloudProfileValidation + "validateCloudProfileRegions",
		Meaning:  "A CloudProfile needs at least one region.",
		Fix:      "Add a region to `spec.regions`.",
	},
	{
		ID: "J-2", Summary: "The region name is missing or listed twice",
		Gardener: gardenerCloudProfileValidation + "validateCloudProfileRegions",
		Meaning:  "Region names are required and unique; their format is not checked.",
		Fix:      "Key every entry of `spec.regions` by a name that is not empty (a map holds each key once).",
	},
	{
		ID: "J-3", Summary: "The zone name is missing or listed twice in its region",
		Gardener: gardenerCloudProfileValidation + "validateCloudProfileRegions",
		Meaning:  "Zone names are required and unique within their region; their format is not checked.",
		Fix:      "Key every entry of `spec.regions[*].zones` by a name that is not empty (a map holds each key once).",
	},
	{
		ID: "J-4", Summary: "A region label is not a valid label",
		Gardener: gardenerCloudProfileValidation + "validateCloudProfileRegions (k8s.io/apimachinery ValidateLabels)",
		Meaning:  "Region label keys must be qualified names and values valid label values.",
		Fix:      "Correct the keys and values of `spec.regions[*].labels`.",
	},
	{
		ID: "J-5", Summary: "The bastion names no usable machine type or image",
		Gardener: gardenerCloudProfileValidation + "validateCloudProfileBastion, validateBastionMachineType, validateBastionImage and checkImageSupport",
		Meaning:  "A `bastion` names a machine type or a machine image (or both) that exist. The image, or its given version, needs a version with the legacy `classification = \"supported\"` that is supported now and fits the machine type's architecture; versions without a classification or with only a lifecycle never qualify.",
		Fix:      "Point `spec.bastion.machine_type.name` and `spec.bastion.machine_image` at entries that exist, the image at one with a version classified `supported`.",
	},

	// K: static validation of a NamespacedCloudProfile.
	{
		ID: "K-1", Summary: "The parent is not a CloudProfile",
		Gardener: gardenerNamespacedValidation + "validateNamespacedCloudProfileParent",
		Meaning:  "`spec.parent.kind` must be `CloudProfile`.",
		Fix:      "Set `parent = { kind = \"CloudProfile\", name = \"aws\" }` in `spec`, with the name of the parent CloudProfile.",
	},
	{
		ID: "K-2", Summary: "The parent name is missing",
		Gardener: gardenerNamespacedValidation + "validateNamespacedCloudProfileParent",
		Meaning:  "`spec.parent.name` is required.",
		Fix:      "Set `spec.parent.name` to the name of the parent CloudProfile.",
	},
	{
		ID: "K-3", Summary: "A Kubernetes override sets a classification",
		Gardener: gardenerNamespacedValidation + "validateNamespacedCloudProfileKubernetesVersions",
		Meaning:  "A NamespacedCloudProfile may change only the expiration date of a parent's Kubernetes version, never its classification.",
		Fix:      "Remove `spec.kubernetes.versions[*].classification`.",
	},
	{
		ID: "K-4", Summary: "A Kubernetes override breaks a version rule",
		Gardener: gardenerNamespacedValidation + "validateNamespacedCloudProfileKubernetesVersions",
		Meaning:  "The rules C-5, C-6 and D-1 to D-9 apply to the NamespacedCloudProfile's own Kubernetes versions; the problem names the inner rule, as in `K-4/C-5`. The list may be empty.",
		Fix:      "Fix `spec.kubernetes.versions` as the inner rule says.",
	},
	{
		ID: "K-5", Summary: "A machine image entry breaks an image rule",
		Gardener: gardenerValidationUtils + "ValidateMachineImages, called by " + gardenerNamespacedValidation + "ValidateNamespacedCloudProfile",
		Meaning:  "The rules E-2, E-3, E-4, E-6 and F-1 to F-6 apply to the NamespacedCloudProfile's own images, without capability definitions and without requiring versions or an update strategy; the problem names the inner rule, as in `K-5/F-3`.",
		Fix:      "Fix `spec.machine_images` as the inner rule says.",
	},
	{
		ID: "K-6", Summary: "A volume type entry breaks a volume type rule",
		Gardener: gardenerValidationUtils + "validateVolumeTypes, called by " + gardenerNamespacedValidation + "ValidateNamespacedCloudProfile",
		Meaning:  "The rules H-1 to H-4 apply to the NamespacedCloudProfile's own volume types; the problem names the inner rule, as in `K-6/H-2`.",
		Fix:      "Fix `spec.volume_types` as the inner rule says.",
	},
	{
		ID: "K-7", Summary: "A machine type entry breaks a machine type rule",
		Gardener: gardenerValidationUtils + "validateMachineTypes, called by " + gardenerNamespacedValidation + "ValidateNamespacedCloudProfile",
		Meaning:  "The rules G-2 to G-6 apply to the NamespacedCloudProfile's own machine types, without capability definitions; the problem names the inner rule, as in `K-7/G-4`.",
		Fix:      "Fix `spec.machine_types` as the inner rule says.",
	},
	{
		ID: "K-8", Summary: "The CA bundle or the limits break a top-level rule",
		Gardener: gardenerNamespacedValidation + "ValidateNamespacedCloudProfile",
		Meaning:  "The rules B-2 (CA bundle) and B-4 (limits) apply to the NamespacedCloudProfile; the problem names the inner rule, as in `K-8/B-4`.",
		Fix:      "Fix `spec.ca_bundle` or `spec.limits` as the inner rule says.",
	},
	{
		ID: "K-9", Summary: "The parent changed",
		Gardener: gardenerNamespacedValidation + "ValidateNamespacedCloudProfileSpecUpdate",
		Meaning:  "`spec.parent` cannot change once the NamespacedCloudProfile exists.",
		Fix:      "Create a new NamespacedCloudProfile with the new `spec.parent`, for example under a new name, and move the shoots to it.",
	},
	{
		ID: "K-10", Summary: "The limits break a top-level rule on update",
		Gardener: gardenerNamespacedValidation + "ValidateNamespacedCloudProfileSpecUpdate",
		Meaning:  "On update Gardener checks B-4 a second time, so an invalid limit is reported twice, as `K-10/B-4` and `K-8/B-4`. Lowering the limit is allowed.",
		Fix:      "Set `spec.limits.max_nodes_total` to a positive number, or remove it.",
	},

	// L: admission of a NamespacedCloudProfile against its parent.
	{
		ID: "L-0", Summary: "The parent CloudProfile does not exist",
		Gardener: gardenerNamespacedAdmission + "ValidateNamespacedCloudProfile.Validate",
		Meaning:  "The CloudProfile named in `spec.parent.name` must exist. The provider warns at plan (`Parent CloudProfile \"…\" does not exist`) unless a `gardener_cloud_profile` of the same provider configuration creates it in the same plan, and reports Gardener's rejection at apply as `Parent CloudProfile not found`.",
		Fix:      "Create the parent CloudProfile first, or correct `spec.parent.name`.",
	},
	{
		ID: "L-1", Summary: "The Kubernetes override names a version the parent lacks",
		Gardener: gardenerNamespacedAdmission + "validateKubernetesVersionOverrides",
		Meaning:  "A NamespacedCloudProfile can only extend the parent's Kubernetes versions, not add new ones. Only the first failing Kubernetes override is reported.",
		Fix:      "Remove the entry from `spec.kubernetes.versions`, or name a version the parent offers.",
	},
	{
		ID: "L-2", Summary: "The Kubernetes override has no expiration date",
		Gardener: gardenerNamespacedAdmission + "validateKubernetesVersionOverrides",
		Meaning:  "A Kubernetes override exists to set an expiration date, so it needs one. Together with K-3 and D-4, an override is effectively its key, the version, with `expiration_date` only.",
		Fix:      "Set `spec.kubernetes.versions[*].expiration_date`.",
	},
	{
		ID: "L-3", Summary: "The Kubernetes override's expiration date changed to a past date",
		Gardener: gardenerNamespacedAdmission + "validateKubernetesVersionOverrides",
		Meaning:  "On update, an override that is expired now may keep its unchanged date but may not get a different one; the old merged status is the reference.",
		Fix:      "Set `spec.kubernetes.versions[*].expiration_date` to a future date, or remove the override.",
	},
	{
		ID: "L-4", Summary: "The update strategy of an extended parent image changed",
		Gardener: gardenerNamespacedAdmission + "validateMachineImageOverrides",
		Meaning:  "Once an entry for a parent image exists, its `update_strategy` cannot change, not even from unset to a value.",
		Fix:      "Restore `spec.machine_images[*].update_strategy`, or remove the image entry, apply, and add it back.",
	},
	{
		ID: "L-5", Summary: "A version the parent now has as well changed",
		Gardener: gardenerNamespacedAdmission + "validateMachineImageOverrides",
		Meaning:  "A version the project added that the parent has gained since cannot change any more, except its expiration date.",
		Fix:      "Restore the fields of `spec.machine_images[*].versions[*]` other than `expiration_date`.",
	},
	{
		ID: "L-6", Summary: "The override of a parent image version sets more than its expiration date",
		Gardener: gardenerNamespacedAdmission + "validateNamespacedCloudProfileExtendedMachineImages",
		Meaning:  "An override of a parent's image version may set only `expiration_date`: not `classification`, `cri`, `architectures`, `capability_flavors`, `kubelet_version_constraint` or `in_place_updates`.",
		Fix:      "Remove every attribute but `expiration_date` from the override's entry in `spec.machine_images[*].versions`, such as `\"1877.3.0\" = { expiration_date = \"2027-03-01T00:00:00Z\" }`; the key names the parent's version.",
	},
	{
		ID: "L-7", Summary: "The override of a parent image version has no expiration date",
		Gardener: gardenerNamespacedAdmission + "validateMachineImageOverrides",
		Meaning:  "An override of a parent's image version exists to set an expiration date, so it needs one.",
		Fix:      "Set `spec.machine_images[*].versions[*].expiration_date`.",
	},
	{
		ID: "L-8", Summary: "The image version override's expiration date changed to a past date",
		Gardener: gardenerNamespacedAdmission + "validateMachineImageOverrides",
		Meaning:  "On update, an image version override that is expired now may keep its unchanged date but may not get a different one; the old merged status is the reference.",
		Fix:      "Set `spec.machine_images[*].versions[*].expiration_date` to a future date, or remove the override.",
	},
	{
		ID: "L-9", Summary: "A new version of a parent image breaks a version rule",
		Gardener: gardenerNamespacedAdmission + "validateMachineImageOverrides (ValidateMachineImageVersion)",
		Meaning:  "The rules F-1 to F-6 apply to versions a NamespacedCloudProfile adds to a parent image, checked against the parent's capabilities; the problem names the inner rule, as in `L-9/F-6`.",
		Fix:      "Fix the new version in `spec.machine_images[*].versions` as the inner rule says.",
	},
	{
		ID: "L-10", Summary: "A new image breaks an image rule",
		Gardener: gardenerNamespacedAdmission + "validateMachineImageOverrides (ValidateMachineImage and ValidateMachineImageAdditionalConfig)",
		Meaning:  "The E and F rules of a CloudProfile apply to images the parent lacks, checked against the parent's capabilities; versions are required. The problem names the inner rule, as in `L-10/F-7`.",
		Fix:      "Fix the new image in `spec.machine_images` as the inner rule says.",
	},

	// M: the merged profile of a NamespacedCloudProfile.
	{
		ID: "M-1", Summary: "The merged Kubernetes versions break a version rule",
		Gardener: gardenerNamespacedAdmission + "validateSimulatedCloudProfileStatusMergeResult (ValidateNamespacedCloudProfileStatus)",
		Meaning:  "The merged profile must pass the C rules; paths begin with `status.cloudProfileSpec`. Typical are `M-1/C-3` (an expiration date on the parent's highest version) and `M-1/D-4` (an expiration date on a parent version that uses a lifecycle).",
		Fix:      "Change the override in `spec.kubernetes.versions` that the inner rule points at, or the parent.",
	},
	{
		ID: "M-2", Summary: "The merged machine images break an image rule",
		Gardener: gardenerNamespacedAdmission + "validateSimulatedCloudProfileStatusMergeResult (ValidateNamespacedCloudProfileStatus)",
		Meaning:  "The merged images must pass the E and F rules with the parent's capabilities. Because a NamespacedCloudProfile is not defaulted, new versions need `cri` (`M-2/F-7`) and new images need `update_strategy` (`M-2/E-6`).",
		Fix:      "Add what the inner rule asks for to `spec.machine_images`, such as `cri` or `update_strategy`.",
	},
	{
		ID: "M-4", Summary: "The merged machine types break a machine type rule",
		Gardener: gardenerNamespacedAdmission + "validateSimulatedCloudProfileStatusMergeResult (ValidateNamespacedCloudProfileStatus)",
		Meaning:  "The merged machine types must pass G-2 to G-7 with the parent's capabilities.",
		Fix:      "Fix `spec.machine_types` as the inner rule says.",
	},
	{
		ID: "M-5", Summary: "The merged volume types break a volume type rule",
		Gardener: gardenerNamespacedAdmission + "validateSimulatedCloudProfileStatusMergeResult (ValidateNamespacedCloudProfileStatus)",
		Meaning:  "The merged volume types must pass H-1 to H-4.",
		Fix:      "Fix `spec.volume_types` as the inner rule says.",
	},

	// N: admission against other objects.
	{
		ID: "N-1", Summary: "A removed Kubernetes version is still in use",
		Gardener: gardenerReferenceManager + "ReferenceManager.Validate (CloudProfile update)",
		Meaning:  "A Kubernetes version removed from a CloudProfile may not be extended by a NamespacedCloudProfile of it, nor be the version of a shoot that uses the profile.",
		Fix:      "Keep the version in `spec.kubernetes.versions` until no shoot runs it, and have the overrides other field managers wrote removed first (`kubectl edit namespacedcloudprofile -n <namespace> <name>`, or the configuration that wrote them); overrides only this provider's field manager wrote do not block, as the apply removes them before the version.",
	},
	{
		ID: "N-2", Summary: "A removed machine image version is still in use",
		Gardener: gardenerReferenceManager + "ReferenceManager.Validate (CloudProfile update)",
		Meaning:  "An image or image version removed from a CloudProfile may not be named by a NamespacedCloudProfile of it, nor be used by a worker pool of a shoot that uses the profile.",
		Fix:      "Keep the image version in `spec.machine_images` until no worker pool runs it, and have the entries other field managers wrote in NamespacedCloudProfiles removed first (`kubectl edit namespacedcloudprofile -n <namespace> <name>`, or the configuration that wrote them); entries only this provider's field manager wrote do not block, as the apply removes them before the version.",
	},
	{
		ID: "N-3", Summary: "A NamespacedCloudProfile already defines the added image",
		Gardener: gardenerReferenceManager + "ReferenceManager.Validate (CloudProfile update)",
		Meaning:  "A CloudProfile may not add a machine image whose name a NamespacedCloudProfile of it already defines. Adding versions to an existing image is allowed.",
		Fix:      "Remove the image from the NamespacedCloudProfile first, or give the image in `spec.machine_images` another name.",
	},
	{
		ID: "N-4", Summary: "Shoots exceed the changed node limit",
		Gardener: gardenerReferenceManager + "ReferenceManager.Validate and validateShootWorkerLimits",
		Meaning:  "When a CloudProfile's limits change, every shoot using it must fit: the sum of its worker pools' minimums may not exceed `max_nodes_total`.",
		Fix:      "Raise `spec.limits.max_nodes_total`, or lower the shoots' worker minimums first.",
	},
	{
		ID: "N-5", Summary: "A removed capability value is still in use",
		Gardener: gardenerReferenceManager + "ReferenceManager.Validate, collectMachineImageCapabilityViolations and collectMachineTypeCapabilityViolations",
		Meaning:  "A capability value removed from a CloudProfile may not be used by image flavors or machine types of its NamespacedCloudProfiles, unless those use no capability but `architecture`.",
		Fix:      "Keep the value in `spec.machine_capabilities` until no NamespacedCloudProfile uses it.",
	},
	{
		ID: "N-6", Summary: "A removed Kubernetes override is still needed by a shoot",
		Gardener: gardenerReferenceManager + "ReferenceManager.Validate (NamespacedCloudProfile update)",
		Meaning:  "A Kubernetes override may not be removed while a shoot of the NamespacedCloudProfile runs that version and the parent's version is expired.",
		Fix:      "Keep the entry in `spec.kubernetes.versions` until the shoots run another version.",
	},
	{
		ID: "N-7", Summary: "A removed image version is still needed by a shoot",
		Gardener: gardenerReferenceManager + "ReferenceManager.Validate (NamespacedCloudProfile update)",
		Meaning:  "An image version may not be removed while a worker pool of a shoot of the NamespacedCloudProfile runs it and the parent lacks it or has it expired.",
		Fix:      "Keep the version in `spec.machine_images` until the worker pools run another version.",
	},
	{
		ID: "N-8", Summary: "Shoots exceed the changed node limit",
		Gardener: gardenerReferenceManager + "ReferenceManager.Validate and validateShootWorkerLimits",
		Meaning:  "When a NamespacedCloudProfile's limits change, every shoot using it must fit: the sum of its worker pools' minimums may not exceed `max_nodes_total`.",
		Fix:      "Raise `spec.limits.max_nodes_total`, or lower the shoots' worker minimums first.",
	},

	// R: deletion, released by Gardener's controllers.
	{
		ID: "R-1", Summary: "The CloudProfile is still in use",
		Gardener: "pkg/controllermanager/controller/cloudprofile/reconciler.go Reconcile (deletion)",
		Meaning:  "Gardener's controller removes the finalizer `gardener` of a deleted CloudProfile only when no NamespacedCloudProfile has it as parent and no Shoot refers to it; until then the object stays, terminating. `destroy` lists these users first and fails at once while one that nobody is deleting is left.",
		Fix:      "Delete the NamespacedCloudProfiles and Shoots that the error names, or point them at another profile, then destroy again.",
	},
	{
		ID: "R-2", Summary: "The NamespacedCloudProfile is still in use",
		Gardener: "pkg/controllermanager/controller/namespacedcloudprofile/reconciler.go Reconcile (deletion)",
		Meaning:  "Gardener's controller removes the finalizer `gardener` of a deleted NamespacedCloudProfile only when no Shoot of its namespace refers to it. `destroy` lists these Shoots first and fails at once while one that nobody is deleting is left.",
		Fix:      "Delete the Shoots that the error names, or point them at another profile, then destroy again.",
	},
	// U: CloudProfile updates.
	{
		ID: "U-1", Summary: "The node limit decreased",
		Gardener: gardenerCloudProfileValidation + "validateCloudProfileLimitsUpdate",
		Meaning:  "A CloudProfile's `max_nodes_total` may not decrease; adding or removing it is allowed.",
		Fix:      "Remove `spec.limits.max_nodes_total` in one apply, then set the lower value in the next.",
	},
	{
		ID: "U-2", Summary: "An active Kubernetes version became unavailable",
		Gardener: gardenerCloudProfileValidation + "ValidateCloudProfileExpirableVersionsUpdate",
		Meaning:  "A Kubernetes version that is not `unavailable` now cannot become `unavailable`, for example through a lifecycle that starts in the future.",
		Fix:      "Keep the first stage of `spec.kubernetes.versions[*].lifecycle` in the past.",
	},
	{
		ID: "U-3", Summary: "An active machine image version became unavailable",
		Gardener: gardenerCloudProfileValidation + "ValidateCloudProfileSpecUpdate (ValidateCloudProfileExpirableVersionsUpdate)",
		Meaning:  "An image version that is not `unavailable` now cannot become `unavailable`, for example through a lifecycle that starts in the future.",
		Fix:      "Keep the first stage of `spec.machine_images[*].versions[*].lifecycle` in the past.",
	},

	// W: warnings, the provider's own.
	{
		ID: "W-changes-soon", Summary: "The version changes classification soon",
		Gardener:    "pkg/api/core/helper/cloudprofile.go CurrentLifecycleClassification",
		Meaning:     "A warning: the version becomes `deprecated` within the provider's `expiry_warning_window` (30 days by default). Becoming `expired` is W-expires-soon, becoming `preview` or `supported` the notice W-promoted-soon.",
		Fix:         "Plan for the change, for example move shoots off a version before it becomes `deprecated`; or set `expiry_warning_window = \"0s\"` in the provider block to silence it.",
		ProviderOwn: true,
	},
	{
		ID: "W-dropped", Summary: "Gardener drops this version when it stores the object",
		Gardener:    "pkg/apiserver/registry/core/cloudprofile/strategy.go dropInactiveVersions; pkg/apiserver/registry/core/namespacedcloudprofile/strategy.go PrepareForCreate and PrepareForUpdate",
		Meaning:     "A warning: the version is not active now, so Gardener removes it on create (a NamespacedCloudProfile: whenever it is new). The provider keeps it in the state, so there is no diff.",
		Fix:         "Remove the version from the configuration: it is not active now.",
		ProviderOwn: true,
	},
	{
		ID: "W-expired", Summary: "The version is expired",
		Gardener:    "pkg/api/core/helper/cloudprofile.go CurrentLifecycleClassification",
		Meaning:     "A warning: the version stays in the profile but is already expired, since its expiration date or the start of its expired lifecycle stage, so shoots must move off it. An update may add a version that is expired already; Gardener keeps it.",
		Fix:         "For a version the update expires or adds, set `expiration_date` (or the expired stage) to a future date if shoots are to use it, such as the date the warning suggests when the year looks mistyped; remove a version the profile had once no shoot runs it.",
		ProviderOwn: true,
	},
	{
		ID: "W-expires-soon", Summary: "The version expires soon",
		Gardener:    "pkg/api/core/helper/cloudprofile.go CurrentLifecycleClassification",
		Meaning:     "A warning: the version expires within the provider's `expiry_warning_window` (30 days by default). Like every W warning, a plan gives it only for the versions it adds or changes, unless the provider setting `plan_reminders` is true.",
		Fix:         "Offer a successor version, or set `expiry_warning_window = \"0s\"` in the provider block to silence it.",
		ProviderOwn: true,
	},
	{
		ID: "W-force-update", Summary: "Shoots run a version the update expires",
		Gardener: "pkg/controllermanager/controller/shoot/maintenance/reconciler.go maintainKubernetesVersion and maintainMachineImages; pkg/controllermanager/controller/shoot/maintenance/helper/helper.go DetermineVersionForStrategy",
		Meaning: "A warning: the update gives a version in use an expiration, or moves its expiration earlier, so Gardener's maintenance force-updates every Shoot still on it in the Shoot's first maintenance window after that instant, even with auto-update off: to a higher patch of the same minor (supported before deprecated); failing that, for Kubernetes to the consecutive minor, for machine images by the image's update strategy (next higher minor for `patch`, next higher major for `minor`, none for `major`), never to a preview version and to an expired one only when nothing else qualifies. " +
			"The plan lists the Shoots once per profile and run, only when such a change is planned; the warning counts them per project namespace and names up to ten. " +
			"A NamespacedCloudProfile counts the Shoots of its namespace that use it, a CloudProfile those that refer to it directly.",
		Fix:         "Let the Shoots' owners update first, or give the version a later expiration; to accept the forced updates, nothing needs to change.",
		ProviderOwn: true,
	},
	{
		ID: "W-no-op", Summary: "The override changes nothing of the parent",
		Gardener:    "pkg/controllermanager/controller/namespacedcloudprofile/reconciler.go MergeCloudProfiles",
		Meaning:     "A warning: an entry of a NamespacedCloudProfile equals the parent's, so the merged profile is the same without it.",
		Fix:         "Remove the entry from the NamespacedCloudProfile's `spec`.",
		ProviderOwn: true,
	},
	{
		ID: "W-promoted-soon", Summary: "The version becomes preview or supported soon",
		Gardener:    "pkg/api/core/helper/cloudprofile.go CurrentLifecycleClassification",
		Meaning:     "A notice, shown as a warning because Terraform has no other kind: the version's classification changes for the better within the provider's `expiry_warning_window`, from `unavailable` to `preview` or `supported`, or from `preview` to `supported`. Nothing is wrong.",
		Fix:         "Nothing to fix: shoots may use the version as its new classification from that instant on, and `expiry_warning_window = \"0s\"` in the provider block silences these notices with the other coming-change warnings.",
		ProviderOwn: true,
	},

	// X: labels, the provider's own.
	{
		ID: "X-1", Summary: "The label uses a prefix Gardener manages",
		Gardener:    "plugin/pkg/global/extensionlabels/admission.go ExtensionLabels.Admit",
		Meaning:     "Gardener's ExtensionLabels admission removes labels with the prefixes it manages, such as `provider.extensions.gardener.cloud/` and `extensions.extensions.gardener.cloud/`, before it stores the object, so a configuration setting them could never match. This check is the provider's own.",
		Fix:         "Remove the label from `metadata.labels`; Gardener sets `provider.extensions.gardener.cloud/<type>` itself.",
		ProviderOwn: true,
	},
}

// rulesByID indexes the catalogue by rule id.
var rulesByID = func() map[string]RuleInfo {
	m := make(map[string]RuleInfo, len(ruleCatalogue))
	for _, r := range withReleases(ruleCatalogue) {
		m[r.ID] = r
	}
	return m
}()

// RuleOf returns the catalogue entry of a Problem's rule. A compound id such as "K-4/C-5" (rule C-5
// applied by K-4) resolves to the rule applied, C-5.
func RuleOf(id string) (RuleInfo, bool) {
	parts := strings.Split(id, "/")
	for i := len(parts) - 1; i >= 0; i-- {
		if r, ok := rulesByID[parts[i]]; ok {
			return r, true
		}
	}
	return RuleInfo{}, false
}
