package provider

import (
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/gardener-community/terraform-provider-gardener/internal/provider/largevalue"
)

// The spec of a CloudProfile and of a NamespacedCloudProfile is described once, as a tree of
// specField descriptors. Everything else is derived from the tree by generic code: the resource
// and data-source schemas (spec_schema.go), the Terraform attribute types, the conversion of a
// Terraform value into the API type (spec_expand.go) and back (spec_flatten.go). The values the
// provider computes (the data sources' derived lists, a CloudProfile's status: spec_fields_computed.go)
// are descriptor trees too, so that every large value becomes a Terraform value the same way.
//
// A descriptor names a field twice: json is the field's name in core.gardener.cloud/v1beta1
// (the JSON tags of the Go types are the truth), attr its Terraform name (the JSON name in
// snake_case). Shapes shared by both kinds (Kubernetes versions, machine images, machine types,
// volume types, limits) are the same descriptors in both trees.

// specKind is the shape of a field, which fixes its Terraform type and its JSON form.
type specKind uint8

const (
	kindString            specKind = iota // string; JSON string
	kindBool                              // bool; JSON boolean
	kindInt32                             // number (int32); JSON number
	kindQuantity                          // string holding a Kubernetes quantity
	kindTimestamp                         // string holding an RFC 3339 timestamp (metav1.Time)
	kindDuration                          // string holding a Go duration (metav1.Duration)
	kindJSON                              // string holding a JSON object (runtime.RawExtension)
	kindStringList                        // list(string)
	kindStringMap                         // map(string)
	kindCapabilities                      // map(list(string)): capability name → values
	kindCapabilityFlavors                 // list(map(list(string))): each flavor is a plain JSON object
	kindObject                            // single nested attribute
	kindObjectList                        // list nested attribute
	kindNumber                            // number (*big.Float); JSON the float's text, as encoding/json writes it
	kindObjectMap                         // map nested attribute; JSON object by key
	kindInt64                             // number (int64); not in a spec (only the generation of a status)
	// kindKeyedObjects is a list Gardener keys by one string field of its entries (names,
	// versions): in Terraform a map nested attribute by that key, whose entries leave the key
	// out; in JSON the array of the entries with the key in field `key`, written in `order`.
	kindKeyedObjects
)

// entryOrder is the order in which the provider writes the entries of a keyed list.
type entryOrder uint8

const (
	// namesAscending writes entries by key in ascending byte order.
	namesAscending entryOrder = iota
	// newestVersionFirst writes versions newest first by semantic version, then the keys that are
	// no semantic version in ascending byte order.
	newestVersionFirst
)

// profileKinds is a set of the two object kinds.
type profileKinds uint8

const (
	onCloudProfile profileKinds = 1 << iota
	onNamespacedCloudProfile

	onBoth = onCloudProfile | onNamespacedCloudProfile
)

// specField describes one field of the spec.
type specField struct {
	json        string
	attr        string
	kind        specKind
	description string
	// required marks a field that is Required in resource schemas: only the keys of list elements
	// (name, version, class, classification, …) and a few values without which the enclosing
	// object is meaningless. Everything else is Optional; the rules package reports what Gardener
	// requires.
	required bool
	// computedOn lists the kinds on which Gardener's API server fills the field in when it is
	// omitted (defaulting, and the capability synchronisation of a CloudProfile), or
	// always serialises a zero value for it. There the resource attribute is Optional+Computed.
	computedOn profileKinds
	// large marks an attribute the server of largevalue.NewServer keeps from the framework: the roots of the
	// specs (also where placed as a merged profile), of a CloudProfile's status and of the data
	// sources' derived lists. It is the only mark of a large attribute: a resource's or data
	// source's LargeAttributes are the large fields of the descriptor trees its schema is built
	// from (largePaths).
	large bool
	// emptyIsNull marks a struct Gardener always serialises (no omitempty, not a pointer): when all
	// of its fields are empty, flatten yields null rather than an object of nulls.
	emptyIsNull bool
	// key is the JSON name of the field that identifies an entry of a kindKeyedObjects field; the
	// entry's other fields are its children. order is the order of the entries on the wire.
	key      string
	order    entryOrder
	children []specField
	// childIndex finds a child by its JSON name; set by prepareSpecFields.
	childIndex map[string]int
	// typ caches the Terraform type and tfType its tftypes form; set once by prepareSpecFields.
	typ    attr.Type
	tfType tftypes.Type
}

// withDescription returns a copy of f with another description.
func (f specField) withDescription(d string) specField {
	f.description = d
	return f
}

// describedAt returns a copy of f in which the descendant at the dotted Terraform path p (such as
// "versions.expiration_date") is described by d; the fields off that path are shared with f.
func (f specField) describedAt(p, d string) specField {
	if p == "" {
		f.description = d
		return f
	}
	head, rest, _ := strings.Cut(p, ".")
	for i, c := range f.children {
		if c.attr == head {
			f.children = slices.Clone(f.children)
			f.children[i] = c.describedAt(rest, d)
			return f
		}
	}
	panic("describedAt: " + f.attr + " has no attribute " + head)
}

// named returns a copy of f as the attribute attr, described by d (a spec placed elsewhere).
func (f specField) named(attr, d string) specField {
	f.attr, f.json, f.description = attr, attr, d
	return f
}

// largePaths are the paths of the large fields of trees (top-level attributes), looking into
// nested objects but not into large fields.
func largePaths(trees ...specField) []largevalue.Path {
	var out []largevalue.Path
	for _, f := range trees {
		if f.large {
			out = append(out, largevalue.Path{f.attr})
			continue
		}
		if f.kind == kindObject {
			for _, p := range largePaths(f.children...) {
				out = append(out, append(largevalue.Path{f.attr}, p...))
			}
		}
	}
	return out
}

// entryWithKey describes an entry of a kindKeyedObjects field with its key as a Required string
// attribute of its own, as the key's JSON name; for a provider function's argument, which holds
// one entry.
func (f specField) entryWithKey() []specField {
	key := specField{json: f.key, attr: f.key, kind: kindString, required: true}
	return append([]specField{key}, f.children...)
}

// child returns the child with the given Terraform name.
func (f specField) child(attrName string) (specField, bool) {
	for _, c := range f.children {
		if c.attr == attrName {
			return c, true
		}
	}
	return specField{}, false
}

const (
	quantityNote  = " The value is a Kubernetes quantity string; Gardener stores it in canonical form (`2000m` becomes `2`, `1024Mi` becomes `1Gi`), and an equal quantity in another spelling is not a change."
	timestampNote = " RFC 3339 timestamp such as `2027-03-01T00:00:00Z`; Gardener stores it in UTC with second precision, and the same instant written with an offset is not a change."
	jsonNote      = " A JSON object, best written with `jsonencode({ ... })`; formatting and key order do not matter."
	qualifiedName = "a qualified name without `/` (letters, digits, `-`, `_` and `.`, starting and ending with a letter or digit, at most 63 characters)"
)

// lifecycleStageFields describes LifecycleStage.
var lifecycleStageFields = []specField{
	{json: "classification", attr: "classification", kind: kindString, required: true,
		description: "Classification the version has from `start_time` on: `preview`, `supported`, `deprecated` or `expired`. " +
			"`unavailable` cannot be written (a version is `unavailable` before its first stage starts). " +
			"Each classification may occur once, and stages must be listed in the order `preview`, `supported`, `deprecated`, `expired`."},
	{json: "startTime", attr: "start_time", kind: kindTimestamp,
		description: "When the stage begins." + timestampNote + " Only the first stage may omit it (it is then active from the beginning of time); " +
			"start times must not decrease from one stage to the next."},
}

// expirableVersionFields describes ExpirableVersion without its key, `version`.
func expirableVersionFields() []specField {
	return []specField{
		{json: "expirationDate", attr: "expiration_date", kind: kindTimestamp,
			description: "When the version expires (legacy field; Gardener prefers `lifecycle`)." + timestampNote +
				" From this instant on the version is classified `expired` and shoots must be updated. Cannot be combined with `lifecycle`."},
		{json: "classification", attr: "classification", kind: kindString,
			description: "Classification of the version (legacy field; Gardener prefers `lifecycle`): `preview`, `supported` or `deprecated`. " +
				"`expired` is accepted only together with `lifecycle` (which in turn cannot be combined with `classification`, so in practice never), " +
				"and `unavailable` is never accepted. Unset means `supported`. Cannot be combined with a non-empty `lifecycle`."},
		{json: "lifecycle", attr: "lifecycle", kind: kindObjectList, children: lifecycleStageFields,
			description: "Lifecycle of the version as classification stages with start times; at any instant the version has the classification " +
				"of the last stage whose `start_time` has passed, and is `unavailable` before the first one. " +
				"Needs Gardener's `VersionClassificationLifecycle` feature gate (alpha, off by default): without it a non-empty lifecycle is rejected. " +
				"Cannot be combined with `classification` or `expiration_date`."},
	}
}

// kubernetesField describes KubernetesSettings.
var kubernetesField = specField{
	json: "kubernetes", attr: "kubernetes", kind: kindObject,
	description: "Kubernetes versions shoots may run (`kubernetes`).",
	children: []specField{
		{json: "versions", attr: "versions", kind: kindKeyedObjects, key: "version", order: newestVersionFirst,
			description: "Offered Kubernetes versions, keyed by the version, exactly `MAJOR.MINOR.PATCH` such as `1.31.2`: no `v` prefix, " +
				"no pre-release or build suffix. A map, because Gardener identifies a version by this string. A CloudProfile needs at least one. " +
				"The highest version must not have an `expiration_date` and its `lifecycle` must not end in `expired`. " +
				"Per minor version at most one version may have `classification = \"supported\"`. " +
				"On creation of a CloudProfile, versions that are already expired (or whose lifecycle has not started yet) are dropped by Gardener. " +
				"The provider writes them newest first.",
			children: expirableVersionFields()},
	},
}

// machineImagesField describes the list of MachineImage.
var machineImagesField = specField{
	json: "machineImages", attr: "machine_images", kind: kindKeyedObjects, key: "name",
	description: "Machine images (operating systems) worker pools may use (`machineImages`), keyed by the image's name, e.g. `gardenlinux`; " +
		qualifiedName + ". A map, because Gardener identifies an image by its name. A CloudProfile needs at least one.",
	children: []specField{
		{json: "versions", attr: "versions", kind: kindKeyedObjects, key: "version", order: newestVersionFirst,
			description: "Versions of the image, keyed by the version, a semantic version such as `1592.1.0` or `1877.12.0-inplace` (a leading `v` " +
				"and missing components are tolerated). Two images may offer the same version; Gardener only rejects two images whose name and " +
				"version join to the same `<image>-<version>`, such as image `x-1.0.0` with version `1.0.0` and image `x` with version `1.0.0-1.0.0` " +
				"(rule F-1). At least one is required (in a " +
				"NamespacedCloudProfile only for images its parent lacks). On creation, versions that are already expired are dropped by Gardener. " +
				"The provider writes them newest first.",
			children: append(expirableVersionFields(),
				specField{json: "cri", attr: "cri", kind: kindKeyedObjects, key: "name", computedOn: onCloudProfile,
					description: "Container runtime interfaces the version supports, keyed by the interface's name; only `containerd` is accepted. " +
						"A map, because each CRI may occur once. On a CloudProfile Gardener sets `{ containerd = {} }` when it is empty; " +
						"a NamespacedCloudProfile is not defaulted.",
					children: []specField{
						{json: "containerRuntimes", attr: "container_runtimes", kind: kindKeyedObjects, key: "type",
							description: "Additional container runtimes offered through this CRI, keyed by the runtime's type, e.g. `gvisor`; " +
								qualifiedName + ". A map, because the types must be unique.",
							children: []specField{
								{json: "providerConfig", attr: "provider_config", kind: kindJSON,
									description: "Provider-specific configuration of the container runtime." + jsonNote + " Not validated by Gardener core."},
							}},
					}},
				specField{json: "architectures", attr: "architectures", kind: kindStringList, computedOn: onCloudProfile,
					description: "CPU architectures the version is built for: `amd64` or `arm64`. On a CloudProfile without `machine_capabilities` " +
						"Gardener sets `[\"amd64\"]` when it is empty (a NamespacedCloudProfile is not defaulted). With `machine_capabilities` the values " +
						"must be defined by the `architecture` capability and agree with `capability_flavors`, and Gardener fills an empty list from the " +
						"flavors (in no particular order)."},
				specField{json: "kubeletVersionConstraint", attr: "kubelet_version_constraint", kind: kindString,
					description: "Constraint on the kubelet versions the image version supports, in Masterminds semver syntax, e.g. `< 1.26`, " +
						"`>= 1.26, < 1.28` or `~1.31`. Equality is `=` (`==` is rejected), and an empty string is rejected. Unset means every kubelet version."},
				specField{json: "inPlaceUpdates", attr: "in_place_updates", kind: kindObject,
					description: "Whether worker pools can be updated to this version in place, without replacing their machines.",
					children: []specField{
						{json: "supported", attr: "supported", kind: kindBool, required: true,
							description: "Whether in-place updates to this version are supported."},
						{json: "minVersionForUpdate", attr: "min_version_for_update", kind: kindString,
							description: "Lowest version from which an in-place update to this version is possible; must be a semantic version."},
					}},
				specField{json: "capabilityFlavors", attr: "capability_flavors", kind: kindCapabilityFlavors, computedOn: onBoth,
					description: "Flavors of the version under capability-based profiles: each element maps capability names to values, " +
						"e.g. `[{ architecture = [\"amd64\"] }, { architecture = [\"arm64\"] }]`. Only allowed when the CloudProfile (or the parent) defines " +
						"`machine_capabilities`; names and values must come from those definitions, and each flavor has at most one `architecture` value. " +
						"Required when more than one architecture is defined. On a CloudProfile Gardener derives them from `architectures` when capabilities are first introduced; " +
						"the mutating webhooks of the public provider extensions fill them from `provider_config` where they are not set (see the Provider extensions guide)."},
			)},
		{json: "updateStrategy", attr: "update_strategy", kind: kindString, computedOn: onCloudProfile,
			description: "How far Gardener's maintenance may update worker pools to newer versions of this image: `patch`, `minor` or `major`. " +
				"On a CloudProfile Gardener sets `major` when it is omitted. A NamespacedCloudProfile is not defaulted, and there the strategy " +
				"of an entry that extends a parent image cannot be changed once the entry exists."},
	},
}

// machineTypesField describes the list of MachineType.
var machineTypesField = specField{
	json: "machineTypes", attr: "machine_types", kind: kindKeyedObjects, key: "name",
	description: "Machine types worker pools may use (`machineTypes`), keyed by the type's name, e.g. `m5.large`; " + qualifiedName +
		". A map, because Gardener identifies a machine type by its name. A CloudProfile needs at least one.",
	children: []specField{
		{json: "cpu", attr: "cpu", kind: kindQuantity, computedOn: onBoth,
			description: "Number of CPUs, e.g. `2` or `500m`; must not be negative. Gardener stores `0` when it is omitted." + quantityNote},
		{json: "gpu", attr: "gpu", kind: kindQuantity, computedOn: onBoth,
			description: "Number of GPUs, e.g. `0` or `1`; must not be negative. Gardener stores `0` when it is omitted." + quantityNote},
		{json: "memory", attr: "memory", kind: kindQuantity, computedOn: onBoth,
			description: "Amount of memory, e.g. `8Gi`; must not be negative. Gardener stores `0` when it is omitted." + quantityNote},
		{json: "storage", attr: "storage", kind: kindObject,
			description: "Root disk of the machine type. Exactly one of `size` (a fixed disk) and `min_size` (a configurable disk with a minimum) must be set.",
			children: []specField{
				{json: "class", attr: "class", kind: kindString,
					description: "Class of the root disk, e.g. `standard` or `premium`. Not validated by Gardener."},
				{json: "size", attr: "size", kind: kindQuantity,
					description: "Fixed size of the root disk, e.g. `50Gi`; must not be negative. Cannot be combined with `min_size`." + quantityNote},
				{json: "type", attr: "type", kind: kindString,
					description: "Provider-specific type of the root disk, e.g. `gp3`. Not validated by Gardener."},
				{json: "minSize", attr: "min_size", kind: kindQuantity,
					description: "Minimum size of a configurable root disk, e.g. `20Gi`; must not be negative. Cannot be combined with `size`." + quantityNote},
			}},
		{json: "usable", attr: "usable", kind: kindBool, computedOn: onBoth,
			description: "Whether shoots may use the machine type. Gardener sets `true` when it is omitted."},
		{json: "architecture", attr: "architecture", kind: kindString, computedOn: onCloudProfile,
			description: "CPU architecture of the machine type: `amd64` or `arm64`. On a CloudProfile without `machine_capabilities` Gardener sets " +
				"`amd64` when it is omitted (a NamespacedCloudProfile is not defaulted). With `machine_capabilities` it must agree with " +
				"`capabilities.architecture`, and Gardener fills it in from there."},
		{json: "capabilities", attr: "capabilities", kind: kindCapabilities, computedOn: onCloudProfile,
			description: "Capabilities of the machine type, mapping capability names to values, e.g. `{ architecture = [\"arm64\"] }`. " +
				"Only allowed when the CloudProfile defines `machine_capabilities`; names and values must come from those definitions, and " +
				"`architecture` has at most one value. Capabilities left out count as having all values of their definition. " +
				"On a CloudProfile Gardener fills in `architecture` when capabilities are first introduced."},
		{json: "machineControllerManager", attr: "machine_controller_manager", kind: kindObject,
			description: "Defaults for the machine-controller-manager settings of worker pools using this machine type.",
			children: []specField{
				{json: "machineCreationTimeout", attr: "machine_creation_timeout", kind: kindDuration,
					description: "How long the machine-controller-manager waits for a machine of this type to be created, as a Go duration such as " +
						"`20m` or `1h30m`. Gardener stores it in canonical form (`20m0s`); an equal duration in another spelling is not a change. Not validated by Gardener."},
			}},
	},
}

// volumeTypesField describes the list of VolumeType.
var volumeTypesField = specField{
	json: "volumeTypes", attr: "volume_types", kind: kindKeyedObjects, key: "name",
	description: "Volume (disk) types worker pools may use (`volumeTypes`), keyed by the type's name, e.g. `gp3`; " + qualifiedName +
		". A map, because Gardener identifies a volume type by its name. May be empty.",
	children: []specField{
		{json: "class", attr: "class", kind: kindString, required: true,
			description: "Class of the volume type, e.g. `standard` or `premium`; " + qualifiedName + "."},
		{json: "usable", attr: "usable", kind: kindBool, computedOn: onBoth,
			description: "Whether shoots may use the volume type. Gardener sets `true` when it is omitted."},
		{json: "minSize", attr: "min_size", kind: kindQuantity,
			description: "Smallest size of a volume of this type, e.g. `20Gi`; must not be negative." + quantityNote},
	},
}

// caBundleField describes spec.caBundle.
var caBundleField = specField{
	json: "caBundle", attr: "ca_bundle", kind: kindString,
	description: "PEM-encoded certificate bundle installed onto every machine of shoots using this profile (`caBundle`). " +
		"The first PEM block must be an X.509 `CERTIFICATE` that parses; an empty string is rejected.",
}

// limitsField describes spec.limits.
var limitsField = specField{
	json: "limits", attr: "limits", kind: kindObject,
	description: "Operational limits for shoots using this profile (`limits`).",
	children: []specField{
		{json: "maxNodesTotal", attr: "max_nodes_total", kind: kindInt32,
			description: "Largest number of nodes a shoot may have across all worker pools; must be positive. A CloudProfile update may not " +
				"lower it (remove it first, then set the lower value); a NamespacedCloudProfile may set any positive value, higher or lower than its parent's."},
	},
}

// providerConfigField describes spec.providerConfig.
var providerConfigField = specField{
	json: "providerConfig", attr: "provider_config", kind: kindJSON,
	description: "Provider-specific configuration of the profile (`providerConfig`), typically with `apiVersion` and `kind` of the provider " +
		"extension, e.g. its machine image mapping." + jsonNote + " Validated by the provider extension, not by Gardener core.",
}

// cloudProfileSpecFields describes CloudProfileSpec.
var cloudProfileSpecFields = []specField{
	caBundleField,
	func() specField {
		f := kubernetesField.withDescription("Kubernetes versions shoots may run (`kubernetes`); at least one version is required.")
		f.emptyIsNull = true // a struct, always serialised
		return f
	}(),
	machineImagesField,
	machineTypesField,
	providerConfigField,
	{json: "regions", attr: "regions", kind: kindKeyedObjects, key: "name",
		description: "Regions (and their zones) where shoots may be created (`regions`), keyed by the region's name, e.g. `eu-west-1` (any " +
			"non-empty string). A map, because Gardener identifies a region by its name. At least one is required.",
		children: []specField{
			{json: "zones", attr: "zones", kind: kindKeyedObjects, key: "name",
				description: "Availability zones of the region, keyed by the zone's name, e.g. `eu-west-1a` (any non-empty string). A map, " +
					"because zone names are unique in the region.",
				children: []specField{
					{json: "unavailableMachineTypes", attr: "unavailable_machine_types", kind: kindStringList,
						description: "Names of machine types that cannot be used in this zone. Not validated by Gardener."},
					{json: "unavailableVolumeTypes", attr: "unavailable_volume_types", kind: kindStringList,
						description: "Names of volume types that cannot be used in this zone. Not validated by Gardener."},
				}},
			{json: "labels", attr: "labels", kind: kindStringMap,
				description: "Labels of the region, e.g. to describe its quality or reliability. Keys must be qualified names and values valid Kubernetes label values."},
			{json: "accessRestrictions", attr: "access_restrictions", kind: kindObjectList,
				description: "Access restrictions shoots in this region may request, e.g. `eu-access-only`. Not validated by Gardener. " +
					"A list, not a map by name: Gardener does not require the names to be unique, so a stored region may list one twice.",
				children: []specField{
					{json: "name", attr: "name", kind: kindString, required: true,
						description: "Name of the access restriction."},
				}},
		}},
	{json: "seedSelector", attr: "seed_selector", kind: kindObject,
		description: "Seeds that may host the control planes of shoots using this profile (`seedSelector`): a Kubernetes label selector over seed labels, " +
			"plus the seeds' provider types. Unset means all seeds of the profile's provider type.",
		children: []specField{
			{json: "matchLabels", attr: "match_labels", kind: kindStringMap,
				description: "Labels a seed must carry, as in a Kubernetes label selector. Keys must be qualified names and values valid label values."},
			{json: "matchExpressions", attr: "match_expressions", kind: kindObjectList,
				description: "Label requirements a seed must meet, as in a Kubernetes label selector; all must hold.",
				children: []specField{
					{json: "key", attr: "key", kind: kindString, required: true,
						description: "Label key the requirement applies to."},
					{json: "operator", attr: "operator", kind: kindString, required: true,
						description: "How the label relates to `values`: `In`, `NotIn`, `Exists` or `DoesNotExist`."},
					{json: "values", attr: "values", kind: kindStringList,
						description: "Label values; must be non-empty for `In` and `NotIn`, and empty for `Exists` and `DoesNotExist`."},
				}},
			{json: "providerTypes", attr: "provider_types", kind: kindStringList,
				description: "Provider types of seeds that may host the control planes, e.g. `[\"aws\", \"gcp\"]`; `*` allows every provider type. " +
					"Unset means only seeds of the profile's own provider type. Not validated by Gardener."},
		}},
	{json: "type", attr: "type", kind: kindString,
		description: "Provider type of the profile (`type`), e.g. `aws`, `gcp` or `openstack`; must not be empty. Gardener labels the profile " +
			"`provider.extensions.gardener.cloud/<type>: \"true\"`."},
	volumeTypesField,
	{json: "bastion", attr: "bastion", kind: kindObject,
		description: "Machine image and machine type of bastion hosts (SSH jump hosts into shoots) (`bastion`). If set, at least one of `machine_image` and `machine_type` is required.",
		children: []specField{
			{json: "machineImage", attr: "machine_image", kind: kindObject,
				description: "Image of bastion hosts. It needs a version with the legacy `classification = \"supported\"` (a version classified only by " +
					"`lifecycle`, or not at all, does not count) that supports the architecture of `machine_type`.",
				children: []specField{
					{json: "name", attr: "name", kind: kindString, required: true,
						description: "Name of one of the `machine_images`."},
					{json: "version", attr: "version", kind: kindString,
						description: "Version of that image to use; must exist in the image. Unset means the latest suitable version."},
				}},
			{json: "machineType", attr: "machine_type", kind: kindObject,
				description: "Machine type of bastion hosts.",
				children: []specField{
					{json: "name", attr: "name", kind: kindString, required: true,
						description: "Name of one of the `machine_types`."},
				}},
		}},
	limitsField,
	{json: "machineCapabilities", attr: "machine_capabilities", kind: kindObjectList,
		description: "Capabilities machine types and image versions may declare, with their possible values (`machineCapabilities`). The order is " +
			"significant: it expresses preference when Gardener picks an image. When set, a capability named `architecture` (values `amd64`, `arm64`) " +
			"is required, and `capabilities`/`capability_flavors` replace the legacy `architecture`/`architectures` fields. Needs Gardener's " +
			"`CloudProfileCapabilities` feature gate (beta, on by default since v1.146).",
		children: []specField{
			{json: "name", attr: "name", kind: kindString, required: true,
				description: "Name of the capability, e.g. `architecture`; " + qualifiedName + ", unique, and not starting with `gardener-`."},
			{json: "values", attr: "values", kind: kindStringList,
				description: "Possible values of the capability, most preferred first; at least one, each a qualified name."},
		}},
}

// namespacedKubernetesField is kubernetesField as a NamespacedCloudProfile has it: overrides of
// the parent's versions (rules K-3, K-4 and L-1 to L-3), of which Gardener's merge takes only the
// expiration date.
var namespacedKubernetesField = kubernetesField.
	describedAt("", "Overrides of the parent's Kubernetes versions (`kubernetes`): a project can give a version of the parent "+
		"another expiration date, and nothing else. Versions cannot be added here.").
	describedAt("versions", "One entry per parent version whose expiration date this project changes, keyed by the version as the "+
		"parent CloudProfile writes it (such as `1.31.2`); a version the parent lacks is rejected (rule L-1). Each entry needs "+
		"`expiration_date`; `classification` and `lifecycle` stay unset. In the merged profile the entry's `expiration_date` "+
		"replaces the parent's; the parent's other fields stay. May be empty.").
	describedAt("versions.expiration_date", "Required. When the version expires for this project's shoots, instead of the "+
		"parent's date. RFC 3339 timestamp such as `2027-03-01T00:00:00Z`; Gardener stores it in UTC with second precision, and "+
		"the same instant written with an offset is not a change. On update, a changed date in the past is rejected (rule L-3).").
	describedAt("versions.classification", "Must stay unset: a NamespacedCloudProfile cannot classify Kubernetes versions "+
		"(rule K-3). The parent's classification applies.").
	describedAt("versions.lifecycle", "Leave unset. A lifecycle cannot be combined with the required `expiration_date` "+
		"(rule D-4), needs Gardener's `VersionClassificationLifecycle` feature gate (rule D-1), and Gardener v1.149's merge "+
		"ignores it.")

// namespacedCloudProfileSpecFields describes NamespacedCloudProfileSpec.
var namespacedCloudProfileSpecFields = []specField{
	caBundleField,
	namespacedKubernetesField,
	machineImagesField.withDescription("Machine images added to the parent's, or extending them (`machineImages`). An entry named like a parent image " +
		"may add new versions, and may give parent versions an `expiration_date` (their other fields must stay unset). An entry with a new name adds a " +
		"whole image, with the same requirements as in a CloudProfile (`versions`, `cri`, `architectures`, `update_strategy`). Nothing is defaulted."),
	machineTypesField.withDescription("Machine types added to the parent's (`machineTypes`); an entry named like a parent machine type replaces it. Names must be unique."),
	volumeTypesField.withDescription("Volume types added to the parent's (`volumeTypes`); an entry named like a parent volume type replaces it. Names must be unique."),
	{json: "parent", attr: "parent", kind: kindObject, required: true, emptyIsNull: true,
		description: "The CloudProfile this profile extends (`parent`). Gardener does not allow changing it after creation.",
		children: []specField{
			{json: "kind", attr: "kind", kind: kindString, required: true,
				description: "Kind of the parent; must be `CloudProfile`."},
			{json: "name", attr: "name", kind: kindString, required: true,
				description: "Name of the parent CloudProfile; it must exist."},
		}},
	providerConfigField.withDescription("Provider-specific configuration of the profile (`providerConfig`)." + jsonNote +
		" Gardener core does not merge it with the parent's: the provider extension decides how the two combine, and changing it needs the " +
		"`modify-spec-providerconfig` RBAC verb on `namespacedcloudprofiles`."),
	limitsField,
}

// cloudProfileSpecRoot and namespacedCloudProfileSpecRoot are the `spec` attributes themselves.
var (
	cloudProfileSpecRoot = specField{
		json: "spec", attr: "spec", kind: kindObject, children: cloudProfileSpecFields, required: true, large: true,
		description: "Specification of the CloudProfile (`spec`): the Kubernetes versions, machine images, machine types, volume types and regions " +
			"that shoots of this provider type may use. Attribute names are Gardener's JSON names in snake_case.",
	}
	namespacedCloudProfileSpecRoot = specField{
		json: "spec", attr: "spec", kind: kindObject, children: namespacedCloudProfileSpecFields, required: true, large: true,
		description: "Specification of the NamespacedCloudProfile (`spec`): a parent CloudProfile and the changes this project makes to it. " +
			"Gardener merges both into the effective profile (`status.cloudProfileSpec`). Attribute names are Gardener's JSON names in snake_case.",
	}
)
