package provider

// The values the provider computes rather than reads from a spec (the data sources' derived lists
// and a CloudProfile's status) are described by specField descriptors too: their schema attributes,
// their Terraform types and their conversion (terraformValueOf) come from the same tree as the
// spec's. Their JSON names are their Terraform names: the Go models below carry both as tags.

// computedField describes a computed value whose JSON name is its Terraform name.
func computedField(name string, kind specKind, description string, children ...specField) specField {
	return specField{json: name, attr: name, kind: kind, description: description, children: children}
}

// versionFields are the per-version attributes of the data sources; image versions add
// architectures and cri.
func versionFields(image bool, namespaced bool) []specField {
	statusDescription := "Classification Gardener's CloudProfile controller last wrote to `status` for this version; null where it has written none. " +
		"It reflects the controller's clock, not `at`."
	if namespaced {
		statusDescription = "Always null: Gardener writes no classifications for NamespacedCloudProfiles (shoots evaluate them from the merged spec)."
	}
	fields := []specField{
		computedField("version", kindString, "The version, the same as the key of the entry."),
		computedField("classification", kindString, "Classification at `at`, computed locally exactly as Gardener "+
			"does (from `lifecycle`, else from the legacy `classification` and `expiration_date`): "+classificationValues+"."),
		computedField("status_classification", kindString, statusDescription),
		computedField("expiration_date", kindString, "Legacy expiration date of the version (RFC 3339), if set."),
		computedField("lifecycle", kindObjectList, "Lifecycle stages of the version, if set.",
			computedField("classification", kindString, "Classification from `start_time` on."),
			computedField("start_time", kindString, "When the stage begins (RFC 3339); null for a stage active since the beginning of time.")),
		computedField("next_transition", kindObject, "The next change of the classification after `at`, or null when it never changes again. "+
			"The version still has its old classification at `at` itself and the new one right after it.",
			computedField("at", kindString, "Start time of the stage that causes the change (RFC 3339)."),
			computedField("classification", kindString, "Classification right after `at`.")),
	}
	if image {
		fields = append(fields,
			computedField("architectures", kindStringList, "CPU architectures the version supports: `architectures`, else those of its capability flavors, else `amd64`."),
			computedField("cri", kindStringList, "Names of the container runtime interfaces the version offers (`containerd` when none is listed)."),
			providerImagesField)
	}
	return fields
}

// machineTypeFields describe a machine type of the data sources.
var machineTypeFields = []specField{
	computedField("name", kindString, "Name of the machine type."),
	computedField("cpu", kindNumber, "Number of CPUs, e.g. `4` (`500m` is `0.5`)."),
	computedField("gpu", kindNumber, "Number of GPUs."),
	computedField("memory", kindString, "Memory as in the spec, e.g. `16Gi`."),
	computedField("memory_gib", kindNumber, "Memory in GiB (2^30 bytes), e.g. `16` for `16Gi`, for comparisons."),
	computedField("architecture", kindString, "CPU architecture: the `architecture` capability, else `architecture`, else `amd64`."),
	computedField("storage", kindObject, "Root disk of the machine type; null when unset.",
		computedField("class", kindString, "Class of the disk."),
		computedField("type", kindString, "Type of the disk."),
		computedField("size", kindString, "Fixed size of the disk, e.g. `50Gi`; null when unset."),
		computedField("min_size", kindString, "Minimal size of a configurable disk; null when unset.")),
}

// profileOutputFields describe the lists and maps of objects both data sources derive from a
// spec; the lists are large.
func profileOutputFields(namespaced bool) []specField {
	large := func(f specField) specField {
		f.large = true
		return f
	}
	fields := []specField{
		large(computedField("kubernetes_versions", kindObjectMap, "Every Kubernetes version of the profile, keyed by the version as in "+
			"`spec.kubernetes.versions` (such as `1.33.3`), with its classification at `at`.",
			versionFields(false, namespaced)...)),
		large(computedField("machine_images", kindObjectMap, "Every machine image of the profile, keyed by its name as in `spec.machine_images` "+
			"(such as `gardenlinux`), with the classification of each version at `at`.",
			computedField("name", kindString, "Name of the image, the same as the key of the entry."),
			computedField("latest_supported_version", kindString, "Highest version of the image that is "+
				"`supported` at `at` and passes `machine_image_architecture`, `machine_image_cri` and `machine_image_region`; null when there is none."),
			computedField("versions", kindObjectMap, "Versions of the image, keyed by the version (such as `1877.3.0`).", versionFields(true, namespaced)...))),
		computedField("machine_types", kindObjectMap, "The machine types shoots can use (`usable`, and of `machine_image_architecture` when set), by name. Which "+
			"of them a region or zone offers is in `regions`.", machineTypeFields...),
		computedField("volume_types", kindObjectMap, "The volume types shoots can use (`usable`), by name. Which of them a region or zone offers is in `regions`.",
			computedField("name", kindString, "Name of the volume type."),
			computedField("class", kindString, "Class of the volume type."),
			computedField("min_size", kindString, "Minimal size of a volume, e.g. `20Gi`; null when unset.")),
		large(computedField("regions", kindObjectMap, "The regions, by name, with the machine and volume types shoots can use in each region and zone, following "+
			"Gardener's admission of worker pools: a type must be `usable` and, in a zone, not be listed in the zone's "+
			"`unavailable_machine_types` or `unavailable_volume_types`; machine types must have `machine_image_architecture` when set. "+
			"Machine types are listed "+smallestFirst+"; details are in `machine_types`. A worker pool spanning several zones needs "+
			"a type every one of them offers.",
			computedField("name", kindString, "Name of the region."),
			computedField("usable_machine_types", kindStringList, "Names of the machine types usable in at least one zone of the region (every usable type when the region has no zones), "+smallestFirst+"."),
			computedField("usable_volume_types", kindStringList, "Names of the volume types usable in at least one zone of the region (every usable type when the region has no zones), in spec order."),
			computedField("zones", kindObjectMap, "The region's zones, by name.",
				computedField("name", kindString, "Name of the zone."),
				computedField("usable_machine_types", kindStringList, "Names of the machine types usable in the zone, "+smallestFirst+"."),
				computedField("usable_volume_types", kindStringList, "Names of the volume types usable in the zone, in spec order.")))),
		large(computedField("conditions", kindObjectList, conditionsDescription(namespaced),
			computedField("type", kindString, "Type of the condition, e.g. `Ready`."),
			computedField("status", kindString, "`True`, `False` or `Unknown`."),
			computedField("severity", kindString, "`Error` or `Warning` when the condition is `False`; null otherwise."),
			computedField("reason", kindString, "Why the condition has its status, in CamelCase."),
			computedField("message", kindString, "Human-readable details."),
			computedField("last_transition_time", kindString, "When the condition's current status began "+
				"(RFC 3339), derived from the lifecycle where possible, else `at`."))),
	}
	if namespaced {
		for i := range fields {
			if fields[i].attr != "conditions" {
				fields[i].description += " Null unless `include_merged_profile` is true."
			}
		}
	}
	return fields
}

// versionStatusFields describe the classification of a version in a CloudProfile's status.
var versionStatusFields = []specField{
	computedField("version", kindString, "The version."),
	computedField("classification", kindString, "Its classification when the controller last reconciled: `unavailable`, `preview`, `supported`, `deprecated` or `expired`."),
}

// cloudProfileStatusRoot is the `status` attribute of the CloudProfile resource.
var cloudProfileStatusRoot = specField{json: "status", attr: "status", kind: kindObject, large: true,
	description: "Status written by Gardener's CloudProfile controller, read as-is; null unless `keep_status = true`. " +
		"It lags behind the spec until the controller has reconciled; the `gardener_cloud_profile` data source computes classifications at any instant instead.",
	children: []specField{
		computedField("kubernetes_versions", kindObjectList, "Classification of each Kubernetes version, in spec order.", versionStatusFields...),
		computedField("machine_images", kindObjectList, "Classification of each machine image version, per image in spec order.",
			computedField("name", kindString, "Name of the machine image."),
			computedField("versions", kindObjectList, "Classification of each version of the image.", versionStatusFields...)),
	}}

// conditionsDescription documents the conditions of both data sources in one paragraph (the docs
// templates have a table).
func conditionsDescription(namespaced bool) string {
	d := "Conditions of the profile at `at`, after the Cluster API conditions model: every condition has positive polarity (`True` is good); " +
		"one that is `False` has a `severity` (`Error` or `Warning`). The summarising `Ready` condition comes first: `False` with the " +
		"severity, reason and message of the first `Error` condition, else of the first `Warning` condition; `Unknown` if none is `False` " +
		"but one is `Unknown`; else `True` (reason `AllConditionsMet`). The other conditions, in this order: "
	if namespaced {
		d += "`ParentExists`: the parent CloudProfile exists (`ParentFound`; else `ParentNotFound`, Error). " +
			"`StatusInSync`: Gardener's controller has rendered the current generation and `status.cloud_profile_spec` equals `merged_spec` " +
			"(`StatusMatchesMerge`; else `GenerationNotObserved` or `StatusDiffers`, Warning; `Unknown` with `ParentNotFound` without parent). "
	}
	d += "`KubernetesVersionsSupported`: some Kubernetes version is active (else `NoActiveKubernetesVersion`, Error) and supported (else " +
		"`NoSupportedKubernetesVersion`, Error), and every minor with a supported or deprecated version has a supported one in it or in a " +
		"newer minor, so that its shoots can update to a supported version (else `MinorWithoutSupportedVersion`, Warning; an older minor " +
		"with only deprecated versions below a supported one is fine; minors with only preview versions are exempt); `EveryMinorSupported` when met. " +
		"`LatestKubernetesVersionNotDeprecated`: the highest Kubernetes version is not deprecated (`LatestVersionDeprecated`, Warning) or " +
		"expired (`LatestVersionExpired`, Error; `NoKubernetesVersion`, Error, without versions); met with `LatestVersionSupported`, " +
		"`LatestVersionInPreview` or `LatestVersionNotYetAvailable`. " +
		"`ExpirationsHaveSuccessors`: no active version expires before `at` + `expiry_warning_window` without a successor that is " +
		"supported right after it expires: for Kubernetes a higher version of the same or the next minor, for a machine image a higher " +
		"version of the same image for each of its architectures (else `ExpirationWithoutSuccessor`, Warning; `NoExpirationWithoutSuccessor` when met). " +
		"`MachineImagesSupported`: some image has a supported version (else `NoSupportedMachineImage`, Error); every image has an active " +
		"version (else `ImageWithoutActiveVersion`, Warning) and a supported version for each architecture its supported or deprecated " +
		"versions cover (else `ArchitectureWithoutSupportedVersion`, Warning); the architecture of every usable machine type has a supported " +
		"image version (else `MachineTypeArchitectureWithoutImage`, Warning); `EveryArchitectureSupported` when met. " +
		"The lifecycle conditions are computed from the spec alone, so their `last_transition_time` is derived: the instant at which the " +
		"condition's current status began (e.g. when the version whose expiry made it `False` expired, or when an expiration entered the " +
		"warning window), or `at` when the status has been the same since the beginning of time"
	if namespaced {
		d += "; for `ParentExists` and `StatusInSync` it is `at`"
	}
	return d + "."
}

// smallestFirst is the order of machine type lists.
const smallestFirst = "smallest first (by `cpu`, then `memory`, then `gpu`; ties in spec order)"

const classificationValues = "`unavailable` (a lifecycle that has not started yet), `preview`, `supported`, `deprecated` or `expired`"

// providerImagesField describes the provider_images of an image version of the data sources.
var providerImagesField = computedField("provider_images", kindObjectList, "The images the provider extension's `provider_config` "+
	"gives the version, one per region and architecture (or capability flavor architecture), in the order of the configuration: "+
	"a version without one cannot boot machines there. Known for the types whose extension the provider knows (`local`, `aws`, `azure`, "+
	"`gcp`, `openstack`, `alicloud`; empty when the configuration cannot be read); null for other types. A shoot module picks the "+
	"newest supported version with an image in its region for its architecture with `machine_image_region` and "+
	"`machine_image_architecture` and reads `latest_machine_image_versions`.",
	computedField("region", kindString, "Region of the image; null when the image serves every region (GCP and Azure images, "+
		"provider-local's, an OpenStack image given by name)."),
	computedField("architecture", kindString, "CPU architecture of the machines the image is for."),
	computedField("image", kindString, "The image as the extension names it: the AMI on AWS, the image on GCP, the URN or image id on "+
		"Azure, the image id (or name) on OpenStack, the image id on Alibaba Cloud, the image on provider-local."))
