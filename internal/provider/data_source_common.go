package provider

import (
	"context"
	"fmt"
	"maps"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
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
)

// profileReadModel is what the models of all profile data sources hold: the profile's name, whether
// its status is in sync, the inputs and the outputs.
type profileReadModel struct {
	Name         types.String `tfsdk:"name"`
	StatusInSync types.Bool   `tfsdk:"status_in_sync"`
	profileInputs
	profileOutputs
}

// profileAttributes describe the name and status_in_sync of profileReadModel (its inputs and outputs
// are profileDataSourceSchema's); statusInSync describes status_in_sync.
func profileAttributes(name, statusInSync string) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"name":           schema.StringAttribute{Required: true, MarkdownDescription: name},
		"status_in_sync": schema.BoolAttribute{Computed: true, MarkdownDescription: statusInSync},
	}
}

// profileInputs are the optional inputs both data sources share.
type profileInputs struct {
	At                       types.String `tfsdk:"at"`
	ExpiryWarningWindow      types.String `tfsdk:"expiry_warning_window"`
	MachineImageArchitecture types.String `tfsdk:"machine_image_architecture"`
	MachineImageCRI          types.String `tfsdk:"machine_image_cri"`
	MachineImageRegion       types.String `tfsdk:"machine_image_region"`
}

func profileInputAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"at":                         schema.StringAttribute{Optional: true, Computed: true, MarkdownDescription: atDescription},
		"expiry_warning_window":      schema.StringAttribute{Optional: true, MarkdownDescription: windowDescription},
		"machine_image_architecture": schema.StringAttribute{Optional: true, MarkdownDescription: architectureFilterDescription},
		"machine_image_cri":          schema.StringAttribute{Optional: true, MarkdownDescription: criFilterDescription},
		"machine_image_region":       schema.StringAttribute{Optional: true, MarkdownDescription: machineImageRegionDescription},
	}
}

// evaluation is what the inputs resolve to.
type evaluation struct {
	at     time.Time
	window time.Duration
	filter cloudprofile.ImageFilter
	// region is machine_image_region (see providerImages.filter).
	region string
}

// resolve parses the inputs, defaulting `at` to the provider's clock (and recording it) and the
// window to the provider's setting.
func (in *profileInputs) resolve(data *providerData) (evaluation, diag.Diagnostics) {
	var diags diag.Diagnostics
	now := data.now()
	ev := evaluation{at: now.UTC(), window: data.warningWindow()}
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
		ev.window = parseExpiryWarningWindow(s, &diags)
	}
	ev.filter = cloudprofile.ImageFilter{Architecture: in.MachineImageArchitecture.ValueString(), CRI: in.MachineImageCRI.ValueString()}
	ev.region = in.MachineImageRegion.ValueString()
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
	// lists are the values of the lists and maps of objects (profileOutputFields), which are null in
	// the fields above or, for the large ones, not in the model: written with largevalue.Values.SetState.
	lists []largevalue.ValueAtPath `tfsdk:"-"`
}

// profileLookupAttributes are the computed lookups both data sources derive from a spec, besides
// the lists and maps of profileOutputFields.
func profileLookupAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"latest_kubernetes_version": schema.StringAttribute{Computed: true, MarkdownDescription: "Highest Kubernetes version that is `supported` " +
			"at `at` (in semantic version order); null when none is."},
		"latest_kubernetes_versions_by_minor": schema.MapAttribute{Computed: true, ElementType: types.StringType,
			MarkdownDescription: "For each minor `MAJOR.MINOR` (such as `1.31`) with a version `supported` at `at`, the highest such version."},
		"latest_machine_image_versions": schema.MapAttribute{Computed: true, ElementType: types.StringType,
			MarkdownDescription: "For each machine image with a version `supported` at `at` that passes `machine_image_architecture` and " +
				"`machine_image_cri`, the highest such version, by image name."},
	}
}

// Go models of the nested values, converted with terraformValueOf along profileOutputFields. The
// json tags are the descriptors' names; the tfsdk tags let tests compare with the framework's
// conversion.
type (
	stageModel struct {
		Classification string  `json:"classification" tfsdk:"classification"`
		StartTime      *string `json:"start_time" tfsdk:"start_time"`
	}
	transitionModel struct {
		At             string `json:"at" tfsdk:"at"`
		Classification string `json:"classification" tfsdk:"classification"`
	}
	// versionModel is a Kubernetes version, and the attributes every image version has too.
	versionModel struct {
		Version              string           `json:"version" tfsdk:"version"`
		Classification       string           `json:"classification" tfsdk:"classification"`
		StatusClassification *string          `json:"status_classification" tfsdk:"status_classification"`
		ExpirationDate       *string          `json:"expiration_date" tfsdk:"expiration_date"`
		Lifecycle            []stageModel     `json:"lifecycle" tfsdk:"lifecycle"`
		NextTransition       *transitionModel `json:"next_transition" tfsdk:"next_transition"`
	}
	// imageVersionModel is an image version: its JSON has versionModel's attributes inline.
	imageVersionModel struct {
		versionModel
		Architectures []string             `json:"architectures" tfsdk:"architectures"`
		CRI           []string             `json:"cri" tfsdk:"cri"`
		Provider      []providerImageModel `json:"provider_images" tfsdk:"provider_images"`
	}
	imageModel struct {
		Name                   string                       `json:"name" tfsdk:"name"`
		LatestSupportedVersion *string                      `json:"latest_supported_version" tfsdk:"latest_supported_version"`
		Versions               map[string]imageVersionModel `json:"versions" tfsdk:"versions"`
	}
	conditionModel struct {
		Type               string  `json:"type" tfsdk:"type"`
		Status             string  `json:"status" tfsdk:"status"`
		Severity           *string `json:"severity" tfsdk:"severity"`
		Reason             string  `json:"reason" tfsdk:"reason"`
		Message            string  `json:"message" tfsdk:"message"`
		LastTransitionTime string  `json:"last_transition_time" tfsdk:"last_transition_time"`
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

// optionalEntry is the entry of m at k, nil where m has none.
func optionalEntry(m map[string]string, k string) *string {
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

// newVersionModel is version v at the instant at; status is the controller's classification.
func newVersionModel(v gardencorev1beta1.ExpirableVersion, status *string, at time.Time) versionModel {
	var stages []stageModel
	for _, s := range v.Lifecycle {
		stages = append(stages, stageModel{Classification: string(s.Classification), StartTime: optionalTime(s.StartTime)})
	}
	var next *transitionModel
	if tr, ok := cloudprofile.NextTransition(v, at); ok {
		next = &transitionModel{At: formatInstant(tr.At), Classification: string(tr.To)}
	}
	return versionModel{Version: v.Version, Classification: string(cloudprofile.Classify(v, at)), StatusClassification: status,
		ExpirationDate: optionalTime(v.ExpirationDate), Lifecycle: stages, NextTransition: next}
}

// profileDetail says which computed attributes a lookup returns.
type profileDetail int

const (
	// wholeProfile returns every attribute: the lookups, the conditions, and the per-version maps
	// and type maps of profileOutputFields.
	wholeProfile profileDetail = iota
	// summaryOnly returns the lookups and the conditions; the per-version maps and the type maps
	// (everything of profileOutputFields but `conditions`) stay null and are not computed.
	summaryOnly
)

// computeProfileOutputs derives the computed attributes of a spec that detail asks for (nil when
// the profile cannot be computed: the lists are then empty and the lookups null). status is nil
// for namespaced profiles. fixed are conditions the caller determined (see
// cloudprofile.ProfileConditions).
func computeProfileOutputs(ctx context.Context, spec *gardencorev1beta1.CloudProfileSpec, status *statusClassifications, ev evaluation, detail profileDetail, fixed ...cloudprofile.Condition) (profileOutputs, diag.Diagnostics) {
	var diags diag.Diagnostics
	at := ev.at
	var (
		latest    *string
		byMinor   = map[string]string{}
		imageMaps = map[string]string{}
		provider  providerImages
	)
	if spec != nil && (ev.region != "" || detail == wholeProfile) {
		provider = newProviderImages(*spec)
		ev.filter = provider.filter(ev.filter, ev.region)
	}
	if spec != nil {
		if v, ok := cloudprofile.LatestSupportedKubernetesVersion(spec.Kubernetes.Versions, at); ok {
			latest = &v
		}
		byMinor = cloudprofile.LatestSupportedKubernetesVersionsByMinor(spec.Kubernetes.Versions, at)
		imageMaps = cloudprofile.LatestSupportedImageVersions(*spec, at, ev.filter)
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

	out := profileOutputs{
		MachineTypes: types.MapNull(profileOutputTypes["machine_types"].(types.MapType).ElemType),
		VolumeTypes:  types.MapNull(profileOutputTypes["volume_types"].(types.MapType).ElemType),
	}
	var d diag.Diagnostics
	values := map[string]any{"conditions": nonNil(conds)}
	if detail == wholeProfile {
		maps.Copy(values, profileLists(spec, status, ev, provider))
	}
	for _, f := range profileOutputRoots {
		value, ok := values[f.attr]
		if !ok {
			continue // null: not asked for
		}
		v, dv := terraformValueOf(f, value)
		diags.Append(dv...)
		out.lists = append(out.lists, largevalue.ValueAtPath{Path: largevalue.Path{f.attr}, Value: v})
	}
	out.LatestKubernetesVersion = types.StringPointerValue(latest)
	out.LatestKubernetesVersionsByMinor, d = types.MapValueFrom(ctx, types.StringType, maps.Clone(byMinor))
	diags.Append(d...)
	out.LatestMachineImageVersions, d = types.MapValueFrom(ctx, types.StringType, imageMaps)
	diags.Append(d...)
	return out, diags
}

// profileLists are the per-version maps and the type maps of a spec (empty for nil), by attribute
// name. status is nil for namespaced profiles; provider are the images of spec's versions.
func profileLists(spec *gardencorev1beta1.CloudProfileSpec, status *statusClassifications, ev evaluation, provider providerImages) map[string]any {
	var (
		k8s       = map[string]versionModel{}
		images    = map[string]imageModel{}
		usability = newUsabilityModels(cloudprofile.Usability{}, nil)
	)
	if status == nil {
		status = &statusClassifications{}
	}
	if spec != nil {
		for _, v := range spec.Kubernetes.Versions {
			k8s[v.Version] = newVersionModel(v, optionalEntry(status.kubernetes, v.Version), ev.at)
		}
		for _, image := range spec.MachineImages {
			images[image.Name] = newImageModel(image, spec.MachineCapabilities, status.images[image.Name], ev, provider)
		}
		usability = newUsabilityModels(cloudprofile.UsableTypes(*spec, ev.filter.Architecture), spec.MachineCapabilities)
	}
	return map[string]any{"kubernetes_versions": k8s, "machine_images": images, "machine_types": usability.machineTypes,
		"volume_types": usability.volumeTypes, "regions": usability.regions}
}

// newImageModel is a machine image with the classification of each version at ev.at; status are
// the classifications the controller wrote for its versions, provider the extension's images.
func newImageModel(image gardencorev1beta1.MachineImage, capabilities []gardencorev1beta1.CapabilityDefinition, status map[string]string, ev evaluation, provider providerImages) imageModel {
	im := imageModel{Name: image.Name, Versions: make(map[string]imageVersionModel, len(image.Versions))}
	if v, ok := cloudprofile.LatestSupportedImageVersion(image, capabilities, ev.at, ev.filter); ok {
		im.LatestSupportedVersion = &v
	}
	for _, v := range image.Versions {
		im.Versions[v.Version] = imageVersionModel{
			versionModel:  newVersionModel(v.ExpirableVersion, optionalEntry(status, v.Version), ev.at),
			Architectures: cloudprofile.ImageVersionArchitectures(v, capabilities),
			CRI:           cloudprofile.ImageVersionCRINames(v),
			Provider:      provider.of(image.Name, v.Version),
		}
	}
	return im
}

// nonNil turns a nil slice into an empty one, so that an empty answer is [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// profileOutputRoots are the descriptors of profileOutputFields with their types, which do not
// depend on the descriptions; profileOutputTypes are those types by name.
var (
	profileOutputRoots = preparedFields(profileOutputFields(false))
	profileOutputTypes = typesOf(profileOutputRoots)
)

// profileDataSource is what the data sources hold: the provider's data, and the data source's
// type name after the provider's.
type profileDataSource struct {
	data     *providerData
	typeName string
	large    largevalue.Values
}

// SetLargeValues binds the data source to the large values of the request it serves: the
// framework makes a data source for each request.
func (d *profileDataSource) SetLargeValues(v largevalue.Values) { d.large = v }

// Metadata names the data source.
func (d *profileDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + d.typeName
}

// Configure receives the provider's data.
func (d *profileDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	if data := providerDataOf(req.ProviderData, &resp.Diagnostics); data != nil {
		d.data = data
	}
}

// configOf reads a data source's configuration into model, without the large attributes; false
// after errors.
func configOf(ctx context.Context, config tfsdk.Config, large []largevalue.Path, model any, diags *diag.Diagnostics) bool {
	diags.Append(largevalue.Get(ctx, config.Schema, config.Raw, large, model)...)
	return !diags.HasError()
}

// profileConfig is the model of a profile data source's configuration, which holds the inputs.
type profileConfig interface {
	evaluationAndClient(data *providerData, diags *diag.Diagnostics) (evaluation, *kube.Client, bool)
}

// readConfig is the prologue of Read: it reads the configuration into model (see configOf),
// resolves the inputs and gets the client (see evaluationAndClient); false after errors.
func (d *profileDataSource) readConfig(ctx context.Context, config tfsdk.Config, large []largevalue.Path, model profileConfig, diags *diag.Diagnostics) (evaluation, *kube.Client, bool) {
	if !configOf(ctx, config, large, model, diags) {
		return evaluation{}, nil, false
	}
	return model.evaluationAndClient(d.data, diags)
}

// evaluationAndClient resolves the inputs (see resolve) and gets the client; false after errors,
// earlier ones included.
func (in *profileInputs) evaluationAndClient(data *providerData, diags *diag.Diagnostics) (evaluation, *kube.Client, bool) {
	ev, d := in.resolve(data)
	diags.Append(d...)
	client, ok := clientAfter(data, diags)
	return ev, client, ok
}

// writeState is the epilogue of Read: unless diags has errors, it writes model and the large
// values (see largevalue.Values.SetState).
func (d *profileDataSource) writeState(ctx context.Context, state *tfsdk.State, large []largevalue.Path, model any, values []largevalue.ValueAtPath, diags *diag.Diagnostics) {
	if diags.HasError() {
		return
	}
	diags.Append(d.large.SetState(ctx, state, large, model, values...)...)
}

// readCloudProfile reads the named CloudProfile within a minute; nil after an error in diags.
func readCloudProfile(ctx context.Context, client *kube.Client, name string, diags *diag.Diagnostics) *gardencorev1beta1.CloudProfile {
	reqCtx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cp, err := client.GetCloudProfile(reqCtx, name)
	if err != nil {
		diags.Append(lookupError("Reading the CloudProfile", objectRef{"CloudProfile", name}, err))
		return nil
	}
	return cp
}

// objectModel is the object as read, which the data sources of both kinds return.
type objectModel struct {
	UID             types.String `tfsdk:"uid"`
	ResourceVersion types.String `tfsdk:"resource_version"`
	Generation      types.Int64  `tfsdk:"generation"`
	Labels          types.Map    `tfsdk:"labels"`
	Annotations     types.Map    `tfsdk:"annotations"`
}

// objectAttributes describe objectModel; generation describes its generation.
func objectAttributes(generation string) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"uid":              schema.StringAttribute{Computed: true, MarkdownDescription: "UID the API server gave the object."},
		"resource_version": schema.StringAttribute{Computed: true, MarkdownDescription: "Resource version of the object as read."},
		"generation":       schema.Int64Attribute{Computed: true, MarkdownDescription: generation},
		"labels":           schema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Labels of the object."},
		"annotations":      schema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Annotations of the object."},
	}
}

// read sets the model from the object as read.
func (m *objectModel) read(ctx context.Context, obj metav1.Object, diags *diag.Diagnostics) {
	m.UID = types.StringValue(string(obj.GetUID()))
	m.ResourceVersion = types.StringValue(obj.GetResourceVersion())
	m.Generation = types.Int64Value(obj.GetGeneration())
	var d diag.Diagnostics
	m.Labels, d = types.MapValueFrom(ctx, types.StringType, obj.GetLabels())
	diags.Append(d...)
	m.Annotations, d = types.MapValueFrom(ctx, types.StringType, obj.GetAnnotations())
	diags.Append(d...)
}

// profileDataSourceSchema is the schema of a data source of profiles: its own attributes, the
// inputs and lookups every one has, the attributes of trees, and with a usage description the
// shoots that use each version.
func profileDataSourceSchema(description string, trees []specField, usage string, own ...map[string]schema.Attribute) schema.Schema {
	attrs := map[string]schema.Attribute{}
	for _, a := range own {
		maps.Copy(attrs, a)
	}
	maps.Copy(attrs, profileInputAttributes())
	maps.Copy(attrs, profileLookupAttributes())
	maps.Copy(attrs, dataSourceAttributes(trees))
	if usage != "" {
		maps.Copy(attrs, shootUsageAttributes(usage))
	}
	return schema.Schema{MarkdownDescription: description, Attributes: withDataSourceNestedTypes(attrs)}
}
