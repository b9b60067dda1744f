package provider

import (
	"context"
	"fmt"
	"maps"
	"math/big"
	"reflect"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/provider/largevalue"
)

// What both data sources compute from a profile's (merged) spec at an instant: per-version
// classifications, the convenience lookups shoot modules use, and the conditions. The rules live in
// the cloudprofile package; this file only describes and converts.

// Descriptions shared by the schemas of both data sources.
const (
	atDescription = "Instant at which classifications, next transitions, lookups and conditions are evaluated, as an RFC 3339 timestamp " +
		"such as `2030-01-01T00:00:00Z`. Defaults to the time of reading, which is then stored here (in UTC). Like Gardener, a stage " +
		"(or expiration date) starting exactly at `at` is not active yet: it takes effect right after that instant."
	windowDescription = "How far ahead of `at` the `ExpirationsHaveSuccessors` condition looks for expirations, as a Go duration such as `720h` " +
		"(30 days); `0s` turns it off. Defaults to the provider's `expiry_warning_window`."
	architectureFilterDescription = "CPU architecture (e.g. `arm64`) of the worker pools a module plans. Only machine image versions supporting it " +
		"count for `latest_machine_image_versions` and `machine_images[*].latest_supported_version`, and only machine types of it appear in " +
		"`machine_types` and in the `usable_machine_types` of `regions`. A version's architectures are its `architectures`, else (with " +
		"`machine_capabilities`) those of its capability flavors, else `amd64`; a machine type's is its `architecture` capability, else its " +
		"`architecture`, else `amd64`. Unset means any architecture."
	criFilterDescription = "Only versions offering this container runtime interface (e.g. `containerd`) count for `latest_machine_image_versions` and " +
		"`machine_images[*].latest_supported_version`. A version without `cri` counts as `containerd`, Gardener's default. Unset means any."
	classificationValues = "`unavailable` (a lifecycle that has not started yet), `preview`, `supported`, `deprecated` or `expired`"
)

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
		"`NoSupportedKubernetesVersion`, Error), and every minor with a supported or deprecated version has a supported one (else " +
		"`MinorWithoutSupportedVersion`, Warning; minors with only preview versions are exempt); `EveryMinorSupported` when met. " +
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

// profileInputs are the optional inputs both data sources share.
type profileInputs struct {
	At                       types.String `tfsdk:"at"`
	ExpiryWarningWindow      types.String `tfsdk:"expiry_warning_window"`
	MachineImageArchitecture types.String `tfsdk:"machine_image_architecture"`
	MachineImageCRI          types.String `tfsdk:"machine_image_cri"`
}

func profileInputAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"at":                         schema.StringAttribute{Optional: true, Computed: true, MarkdownDescription: atDescription},
		"expiry_warning_window":      schema.StringAttribute{Optional: true, MarkdownDescription: windowDescription},
		"machine_image_architecture": schema.StringAttribute{Optional: true, MarkdownDescription: architectureFilterDescription},
		"machine_image_cri":          schema.StringAttribute{Optional: true, MarkdownDescription: criFilterDescription},
	}
}

// evaluation is what the inputs resolve to.
type evaluation struct {
	at     time.Time
	window time.Duration
	filter cloudprofile.ImageFilter
}

// resolve parses the inputs, defaulting `at` to the provider's clock (and recording it) and the
// window to the provider's setting.
func (in *profileInputs) resolve(data *providerData) (evaluation, diag.Diagnostics) {
	var diags diag.Diagnostics
	ev := evaluation{at: data.now().UTC(), window: cloudprofile.DefaultExpiryWarningWindow}
	if data != nil {
		ev.window = data.expiryWarningWindow
	}
	if s := in.At.ValueString(); !in.At.IsNull() && !in.At.IsUnknown() {
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			diags.AddAttributeError(path.Root("at"), "Invalid instant", fmt.Sprintf("%q is not an RFC 3339 timestamp such as \"2030-01-01T00:00:00Z\": %v.", s, err))
		}
		ev.at = t
	} else {
		in.At = types.StringValue(formatInstant(ev.at))
	}
	if s := in.ExpiryWarningWindow.ValueString(); s != "" {
		w, err := time.ParseDuration(s)
		if err != nil || w < 0 {
			diags.AddAttributeError(path.Root("expiry_warning_window"), "Invalid expiry warning window",
				fmt.Sprintf("%q is not a non-negative Go duration such as \"720h\" (30 days) or \"0s\".", s))
		}
		ev.window = w
	}
	ev.filter = cloudprofile.ImageFilter{Architecture: in.MachineImageArchitecture.ValueString(), CRI: in.MachineImageCRI.ValueString()}
	return ev, diags
}

// formatInstant renders an instant as RFC 3339 in UTC, with fractional seconds only when present.
func formatInstant(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// profileOutputs are the computed attributes both data sources derive from a spec.
type profileOutputs struct {
	LatestKubernetesVersion         types.String `tfsdk:"latest_kubernetes_version"`
	LatestKubernetesVersionsByMinor types.Map    `tfsdk:"latest_kubernetes_versions_by_minor"`
	LatestMachineImageVersions      types.Map    `tfsdk:"latest_machine_image_versions"`
	MachineTypes                    types.Map    `tfsdk:"machine_types"`
	VolumeTypes                     types.Map    `tfsdk:"volume_types"`
	// lists are the values of the lists and maps of objects, which are null in the fields above or,
	// for the large ones (derivedListPaths), not in the model: written with largevalue.SetState.
	lists []largevalue.ValueAtPath `tfsdk:"-"`
}

func lifecycleStageAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"classification": schema.StringAttribute{Computed: true, MarkdownDescription: "Classification from `start_time` on."},
		"start_time":     schema.StringAttribute{Computed: true, MarkdownDescription: "When the stage begins (RFC 3339); null for a stage active since the beginning of time."},
	}
}

func nextTransitionAttribute() schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{
		Computed: true,
		MarkdownDescription: "The next change of the classification after `at`, or null when it never changes again. The version still has its " +
			"old classification at `at` itself and the new one right after it.",
		Attributes: map[string]schema.Attribute{
			"at":             schema.StringAttribute{Computed: true, MarkdownDescription: "Start time of the stage that causes the change (RFC 3339)."},
			"classification": schema.StringAttribute{Computed: true, MarkdownDescription: "Classification right after `at`."},
		},
	}
}

// versionAttributes are the per-version attributes; image versions add architectures and cri.
func versionAttributes(image bool, namespaced bool) map[string]schema.Attribute {
	statusDescription := "Classification Gardener's CloudProfile controller last wrote to `status` for this version; null where it has written none. " +
		"It reflects the controller's clock, not `at`."
	if namespaced {
		statusDescription = "Always null: Gardener writes no classifications for NamespacedCloudProfiles (shoots evaluate them from the merged spec)."
	}
	m := map[string]schema.Attribute{
		"version": schema.StringAttribute{Computed: true, MarkdownDescription: "The version."},
		"classification": schema.StringAttribute{Computed: true, MarkdownDescription: "Classification at `at`, computed locally exactly as Gardener " +
			"does (from `lifecycle`, else from the legacy `classification` and `expiration_date`): " + classificationValues + "."},
		"status_classification": schema.StringAttribute{Computed: true, MarkdownDescription: statusDescription},
		"expiration_date":       schema.StringAttribute{Computed: true, MarkdownDescription: "Legacy expiration date of the version (RFC 3339), if set."},
		"lifecycle": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "Lifecycle stages of the version, if set.",
			NestedObject: schema.NestedAttributeObject{Attributes: lifecycleStageAttributes()}},
		"next_transition": nextTransitionAttribute(),
	}
	if image {
		m["architectures"] = schema.ListAttribute{Computed: true, ElementType: types.StringType,
			MarkdownDescription: "CPU architectures the version supports: `architectures`, else those of its capability flavors, else `amd64`."}
		m["cri"] = schema.ListAttribute{Computed: true, ElementType: types.StringType,
			MarkdownDescription: "Names of the container runtime interfaces the version offers (`containerd` when none is listed)."}
	}
	return m
}

func profileOutputAttributes(namespaced bool) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"kubernetes_versions": schema.ListNestedAttribute{
			Computed:            true,
			MarkdownDescription: "Every Kubernetes version of the profile, in spec order, with its classification at `at`.",
			NestedObject:        schema.NestedAttributeObject{Attributes: versionAttributes(false, namespaced)},
		},
		"machine_images": schema.ListNestedAttribute{
			Computed:            true,
			MarkdownDescription: "Every machine image of the profile, in spec order, with the classification of each version at `at`.",
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"name": schema.StringAttribute{Computed: true, MarkdownDescription: "Name of the image."},
				"latest_supported_version": schema.StringAttribute{Computed: true, MarkdownDescription: "Highest version of the image that is " +
					"`supported` at `at` and passes `machine_image_architecture` and `machine_image_cri`; null when there is none."},
				"versions": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "Versions of the image, in spec order.",
					NestedObject: schema.NestedAttributeObject{Attributes: versionAttributes(true, namespaced)}},
			}},
		},
		"latest_kubernetes_version": schema.StringAttribute{Computed: true, MarkdownDescription: "Highest Kubernetes version that is `supported` " +
			"at `at` (in semantic version order); null when none is."},
		"latest_kubernetes_versions_by_minor": schema.MapAttribute{Computed: true, ElementType: types.StringType,
			MarkdownDescription: "For each minor `MAJOR.MINOR` (such as `1.31`) with a version `supported` at `at`, the highest such version."},
		"latest_machine_image_versions": schema.MapAttribute{Computed: true, ElementType: types.StringType,
			MarkdownDescription: "For each machine image with a version `supported` at `at` that passes `machine_image_architecture` and " +
				"`machine_image_cri`, the highest such version, by image name."},
		"machine_types": schema.MapNestedAttribute{
			Computed: true,
			MarkdownDescription: "The machine types shoots can use (`usable`, and of `machine_image_architecture` when set), by name. Which " +
				"of them a region or zone offers is in `regions`.",
			NestedObject: schema.NestedAttributeObject{Attributes: machineTypeAttributes()},
		},
		"volume_types": schema.MapNestedAttribute{
			Computed:            true,
			MarkdownDescription: "The volume types shoots can use (`usable`), by name. Which of them a region or zone offers is in `regions`.",
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"name":     schema.StringAttribute{Computed: true, MarkdownDescription: "Name of the volume type."},
				"class":    schema.StringAttribute{Computed: true, MarkdownDescription: "Class of the volume type."},
				"min_size": schema.StringAttribute{Computed: true, MarkdownDescription: "Minimal size of a volume, e.g. `20Gi`; null when unset."},
			}},
		},
		"regions": schema.MapNestedAttribute{
			Computed: true,
			MarkdownDescription: "The regions, by name, with the machine and volume types shoots can use in each region and zone, following " +
				"Gardener's admission of worker pools: a type must be `usable` and, in a zone, not be listed in the zone's " +
				"`unavailable_machine_types` or `unavailable_volume_types`; machine types must have `machine_image_architecture` when set. " +
				"Machine types are listed " + smallestFirst + "; details are in `machine_types`. A worker pool spanning several zones needs " +
				"a type every one of them offers.",
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"name": schema.StringAttribute{Computed: true, MarkdownDescription: "Name of the region."},
				"usable_machine_types": schema.ListAttribute{Computed: true, ElementType: types.StringType,
					MarkdownDescription: "Names of the machine types usable in at least one zone of the region (every usable type when the region has no zones), " + smallestFirst + "."},
				"usable_volume_types": schema.ListAttribute{Computed: true, ElementType: types.StringType,
					MarkdownDescription: "Names of the volume types usable in at least one zone of the region (every usable type when the region has no zones), in spec order."},
				"zones": schema.MapNestedAttribute{Computed: true, MarkdownDescription: "The region's zones, by name.",
					NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
						"name": schema.StringAttribute{Computed: true, MarkdownDescription: "Name of the zone."},
						"usable_machine_types": schema.ListAttribute{Computed: true, ElementType: types.StringType,
							MarkdownDescription: "Names of the machine types usable in the zone, " + smallestFirst + "."},
						"usable_volume_types": schema.ListAttribute{Computed: true, ElementType: types.StringType,
							MarkdownDescription: "Names of the volume types usable in the zone, in spec order."},
					}}},
			}},
		},
		"conditions": schema.ListNestedAttribute{
			Computed:            true,
			MarkdownDescription: conditionsDescription(namespaced),
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"type":     schema.StringAttribute{Computed: true, MarkdownDescription: "Type of the condition, e.g. `Ready`."},
				"status":   schema.StringAttribute{Computed: true, MarkdownDescription: "`True`, `False` or `Unknown`."},
				"severity": schema.StringAttribute{Computed: true, MarkdownDescription: "`Error` or `Warning` when the condition is `False`; null otherwise."},
				"reason":   schema.StringAttribute{Computed: true, MarkdownDescription: "Why the condition has its status, in CamelCase."},
				"message":  schema.StringAttribute{Computed: true, MarkdownDescription: "Human-readable details."},
				"last_transition_time": schema.StringAttribute{Computed: true, MarkdownDescription: "When the condition's current status began " +
					"(RFC 3339), derived from the lifecycle where possible, else `at`."},
			}},
		},
	}
}

// smallestFirst is the order of machine type lists.
const smallestFirst = "smallest first (by `cpu`, then `memory`, then `gpu`; ties in spec order)"

func machineTypeAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"name":         schema.StringAttribute{Computed: true, MarkdownDescription: "Name of the machine type."},
		"cpu":          schema.NumberAttribute{Computed: true, MarkdownDescription: "Number of CPUs, e.g. `4` (`500m` is `0.5`)."},
		"gpu":          schema.NumberAttribute{Computed: true, MarkdownDescription: "Number of GPUs."},
		"memory":       schema.StringAttribute{Computed: true, MarkdownDescription: "Memory as in the spec, e.g. `16Gi`."},
		"memory_gib":   schema.NumberAttribute{Computed: true, MarkdownDescription: "Memory in GiB (2^30 bytes), e.g. `16` for `16Gi`, for comparisons."},
		"architecture": schema.StringAttribute{Computed: true, MarkdownDescription: "CPU architecture: the `architecture` capability, else `architecture`, else `amd64`."},
		"storage": schema.SingleNestedAttribute{Computed: true, MarkdownDescription: "Root disk of the machine type; null when unset.",
			Attributes: map[string]schema.Attribute{
				"class":    schema.StringAttribute{Computed: true, MarkdownDescription: "Class of the disk."},
				"type":     schema.StringAttribute{Computed: true, MarkdownDescription: "Type of the disk."},
				"size":     schema.StringAttribute{Computed: true, MarkdownDescription: "Fixed size of the disk, e.g. `50Gi`; null when unset."},
				"min_size": schema.StringAttribute{Computed: true, MarkdownDescription: "Minimal size of a configurable disk; null when unset."},
			}},
	}
}

// Go models of the nested values; converted with terraformValueOf.
type (
	stageModel struct {
		Classification string  `tfsdk:"classification"`
		StartTime      *string `tfsdk:"start_time"`
	}
	transitionModel struct {
		At             string `tfsdk:"at"`
		Classification string `tfsdk:"classification"`
	}
	kubernetesVersionModel struct {
		Version              string           `tfsdk:"version"`
		Classification       string           `tfsdk:"classification"`
		StatusClassification *string          `tfsdk:"status_classification"`
		ExpirationDate       *string          `tfsdk:"expiration_date"`
		Lifecycle            []stageModel     `tfsdk:"lifecycle"`
		NextTransition       *transitionModel `tfsdk:"next_transition"`
	}
	imageVersionModel struct {
		Version              string           `tfsdk:"version"`
		Classification       string           `tfsdk:"classification"`
		StatusClassification *string          `tfsdk:"status_classification"`
		ExpirationDate       *string          `tfsdk:"expiration_date"`
		Lifecycle            []stageModel     `tfsdk:"lifecycle"`
		NextTransition       *transitionModel `tfsdk:"next_transition"`
		Architectures        []string         `tfsdk:"architectures"`
		CRI                  []string         `tfsdk:"cri"`
	}
	imageModel struct {
		Name                   string              `tfsdk:"name"`
		LatestSupportedVersion *string             `tfsdk:"latest_supported_version"`
		Versions               []imageVersionModel `tfsdk:"versions"`
	}
	zoneModel struct {
		Name               string   `tfsdk:"name"`
		UsableMachineTypes []string `tfsdk:"usable_machine_types"`
		UsableVolumeTypes  []string `tfsdk:"usable_volume_types"`
	}
	regionModel struct {
		Name               string               `tfsdk:"name"`
		UsableMachineTypes []string             `tfsdk:"usable_machine_types"`
		UsableVolumeTypes  []string             `tfsdk:"usable_volume_types"`
		Zones              map[string]zoneModel `tfsdk:"zones"`
	}
	machineTypeModel struct {
		Name         string                   `tfsdk:"name"`
		CPU          *big.Float               `tfsdk:"cpu"`
		GPU          *big.Float               `tfsdk:"gpu"`
		Memory       string                   `tfsdk:"memory"`
		MemoryGiB    *big.Float               `tfsdk:"memory_gib"`
		Architecture string                   `tfsdk:"architecture"`
		Storage      *machineTypeStorageModel `tfsdk:"storage"`
	}
	machineTypeStorageModel struct {
		Class   string  `tfsdk:"class"`
		Type    string  `tfsdk:"type"`
		Size    *string `tfsdk:"size"`
		MinSize *string `tfsdk:"min_size"`
	}
	volumeTypeModel struct {
		Name    string  `tfsdk:"name"`
		Class   string  `tfsdk:"class"`
		MinSize *string `tfsdk:"min_size"`
	}
	conditionModel struct {
		Type               string  `tfsdk:"type"`
		Status             string  `tfsdk:"status"`
		Severity           *string `tfsdk:"severity"`
		Reason             string  `tfsdk:"reason"`
		Message            string  `tfsdk:"message"`
		LastTransitionTime string  `tfsdk:"last_transition_time"`
	}
)

// statusClassifications indexes the classifications a CloudProfile controller wrote; nil for
// namespaced profiles.
type statusClassifications struct {
	kubernetes map[string]string
	images     map[string]map[string]string
}

func newStatusClassifications(s gardencorev1beta1.CloudProfileStatus) *statusClassifications {
	sc := &statusClassifications{kubernetes: map[string]string{}, images: map[string]map[string]string{}}
	if s.Kubernetes != nil {
		for _, v := range s.Kubernetes.Versions {
			sc.kubernetes[v.Version] = string(v.Classification)
		}
	}
	for _, img := range s.MachineImages {
		m := map[string]string{}
		for _, v := range img.Versions {
			m[v.Version] = string(v.Classification)
		}
		sc.images[img.Name] = m
	}
	return sc
}

func lookup(m map[string]string, k string) *string {
	if v, ok := m[k]; ok {
		return &v
	}
	return nil
}

func optionalTime(t *metav1.Time) *string {
	if t == nil {
		return nil
	}
	s := formatInstant(t.Time)
	return &s
}

// versionDetails are the classification attributes shared by Kubernetes and image versions.
func versionDetails(v gardencorev1beta1.ExpirableVersion, at time.Time) (string, *string, []stageModel, *transitionModel) {
	var stages []stageModel
	for _, s := range v.Lifecycle {
		stages = append(stages, stageModel{Classification: string(s.Classification), StartTime: optionalTime(s.StartTime)})
	}
	var next *transitionModel
	if tr, ok := cloudprofile.NextTransition(v, at); ok {
		next = &transitionModel{At: formatInstant(tr.At), Classification: string(tr.To)}
	}
	return string(cloudprofile.Classify(v, at)), optionalTime(v.ExpirationDate), stages, next
}

// computeProfileOutputs derives every computed attribute of a spec (nil when the profile cannot be
// computed: the lists are then empty and the lookups null). status is nil for namespaced profiles.
// fixed are conditions the caller determined (see cloudprofile.ProfileConditions).
func computeProfileOutputs(ctx context.Context, spec *gardencorev1beta1.CloudProfileSpec, status *statusClassifications, ev evaluation, fixed ...cloudprofile.Condition) (profileOutputs, diag.Diagnostics) {
	var diags diag.Diagnostics
	at := ev.at
	var (
		k8s       []kubernetesVersionModel
		images    []imageModel
		usability = newUsabilityModels(cloudprofile.Usability{}, nil)
		latest    *string
		byMinor   = map[string]string{}
		imageMaps = map[string]string{}
	)
	if status == nil {
		status = &statusClassifications{}
	}
	if spec != nil {
		for _, v := range spec.Kubernetes.Versions {
			m := kubernetesVersionModel{Version: v.Version, StatusClassification: lookup(status.kubernetes, v.Version)}
			m.Classification, m.ExpirationDate, m.Lifecycle, m.NextTransition = versionDetails(v, at)
			k8s = append(k8s, m)
		}
		for _, image := range spec.MachineImages {
			im := imageModel{Name: image.Name}
			if v, ok := cloudprofile.LatestSupportedImageVersion(image, spec.MachineCapabilities, at, ev.filter); ok {
				im.LatestSupportedVersion = &v
			}
			for _, v := range image.Versions {
				vm := imageVersionModel{Version: v.Version, StatusClassification: lookup(status.images[image.Name], v.Version),
					Architectures: cloudprofile.ImageVersionArchitectures(v, spec.MachineCapabilities), CRI: cloudprofile.ImageVersionCRINames(v)}
				vm.Classification, vm.ExpirationDate, vm.Lifecycle, vm.NextTransition = versionDetails(v.ExpirableVersion, at)
				im.Versions = append(im.Versions, vm)
			}
			images = append(images, im)
		}
		if v, ok := cloudprofile.LatestSupportedKubernetesVersion(spec.Kubernetes.Versions, at); ok {
			latest = &v
		}
		byMinor = cloudprofile.LatestSupportedKubernetesVersionsByMinor(spec.Kubernetes.Versions, at)
		imageMaps = cloudprofile.LatestSupportedImageVersions(*spec, at, ev.filter)
		usability = newUsabilityModels(cloudprofile.UsableTypes(*spec, ev.filter.Architecture), spec.MachineCapabilities)
	}

	var conds []conditionModel
	for _, c := range cloudprofile.ProfileConditions(spec, at, ev.window, fixed...) {
		cm := conditionModel{Type: c.Type, Status: string(c.Status), Reason: c.Reason, Message: c.Message, LastTransitionTime: formatInstant(c.LastTransitionTime)}
		if c.Severity != cloudprofile.ConditionSeverityNone {
			s := string(c.Severity)
			cm.Severity = &s
		}
		conds = append(conds, cm)
	}

	attrs := profileOutputAttributes(false) // the types do not depend on the descriptions
	out := profileOutputs{
		MachineTypes: types.MapNull(mapElemTypeOf(attrs["machine_types"])),
		VolumeTypes:  types.MapNull(mapElemTypeOf(attrs["volume_types"])),
	}
	var d diag.Diagnostics
	for _, l := range []struct {
		name  string
		value any
	}{{"kubernetes_versions", nonNil(k8s)}, {"machine_images", nonNil(images)}, {"machine_types", usability.machineTypes},
		{"volume_types", usability.volumeTypes}, {"regions", usability.regions}, {"conditions", nonNil(conds)}} {
		v, err := terraformValueOf(reflect.ValueOf(l.value), attrs[l.name].GetType().TerraformType(ctx))
		if err != nil {
			diags.AddAttributeError(path.Root(l.name), "Converting the value", err.Error()+". This is a bug in the provider.")
			continue
		}
		out.lists = append(out.lists, largevalue.ValueAtPath{Path: largevalue.Path{l.name}, Value: v})
	}
	out.LatestKubernetesVersion = types.StringPointerValue(latest)
	out.LatestKubernetesVersionsByMinor, d = types.MapValueFrom(ctx, types.StringType, maps.Clone(byMinor))
	diags.Append(d...)
	out.LatestMachineImageVersions, d = types.MapValueFrom(ctx, types.StringType, imageMaps)
	diags.Append(d...)
	return out, diags
}

// nonNil turns a nil slice into an empty one, so that an empty answer is [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// elemTypeOf is the element type of a list attribute.
func elemTypeOf(a schema.Attribute) attr.Type {
	return a.GetType().(types.ListType).ElemType
}

// mapElemTypeOf is the element type of a map attribute.
func mapElemTypeOf(a schema.Attribute) attr.Type {
	return a.GetType().(types.MapType).ElemType
}
