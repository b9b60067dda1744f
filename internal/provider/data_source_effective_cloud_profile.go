package provider

import (
	"context"
	"fmt"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
	"github.com/gardener-community/terraform-provider-gardener/internal/provider/largevalue"
)

var (
	_ datasource.DataSourceWithConfigure      = (*effectiveCloudProfileDataSource)(nil)
	_ datasource.DataSourceWithValidateConfig = (*effectiveCloudProfileDataSource)(nil)
)

// The kinds a Shoot's spec.cloudProfile may reference.
const (
	kindCloudProfile           = "CloudProfile"
	kindNamespacedCloudProfile = "NamespacedCloudProfile"
)

// effectiveCloudProfileDataSource reads the profile a Shoot's spec.cloudProfile references, of
// either kind, and evaluates its effective spec: the CloudProfile's spec, or the local merge of a
// NamespacedCloudProfile with its parent.
type effectiveCloudProfileDataSource struct{ profileDataSource }

type effectiveCloudProfileDataSourceModel struct {
	Kind      types.String `tfsdk:"kind"`
	Namespace types.String `tfsdk:"namespace"`
	Parent    types.String `tfsdk:"parent"`
	profileReadModel
}

// trees are the attributes built from descriptors: the effective spec and the lists derived from it.
func (d *effectiveCloudProfileDataSource) trees() []specField {
	trees := append([]specField{cloudProfileSpecRoot.withDescription("The effective profile: the CloudProfile's `spec`, or for a " +
		"NamespacedCloudProfile the parent's spec with the namespaced profile merged in, computed locally exactly as Gardener's controller " +
		"renders `status.cloudProfileSpec` (the `merged_spec` of `gardener_namespaced_cloud_profile`). Null when a NamespacedCloudProfile's " +
		"parent does not exist.")}, profileOutputFields(false)...)
	for i := range trees {
		if trees[i].attr == "conditions" {
			trees[i].description = conditionsDescription(true) + " `ParentExists` and `StatusInSync` are present only for a `NamespacedCloudProfile`."
		}
	}
	return trees
}

// modelOmits are the attributes its model leaves out and Read writes as ready Terraform values:
// the large fields of trees. This data source is not served through largevalue.NewServer, so they
// pass through the framework.
func (d *effectiveCloudProfileDataSource) modelOmits() []largevalue.Path {
	return largePaths(d.trees()...)
}

// Schema describes the data source.
func (d *effectiveCloudProfileDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := map[string]schema.Attribute{
		"kind": schema.StringAttribute{Optional: true, Computed: true, MarkdownDescription: "Kind of the referenced profile, as in a Shoot's " +
			"`spec.cloudProfile.kind`: `CloudProfile` (the default, as in Gardener) or `NamespacedCloudProfile`."},
		"namespace": schema.StringAttribute{Optional: true, MarkdownDescription: "Namespace of the Shoot (`garden-<project>`). A " +
			"NamespacedCloudProfile is looked up there, so it is required for that kind; a CloudProfile is cluster-scoped and the namespace " +
			"is ignored, so a module can always pass its Shoot's namespace."},
		"parent": schema.StringAttribute{Computed: true, MarkdownDescription: "Name of the parent CloudProfile of a NamespacedCloudProfile; " +
			"null for a CloudProfile."},
	}
	resp.Schema = profileDataSourceSchema(
		"Reads the profile a Shoot's `spec.cloudProfile` references, of either kind, given as the Shoot gives it (`kind` "+
			"and `name`, and the Shoot's `namespace`), and evaluates its effective spec at an instant `at` with the same lookups as "+
			"`gardener_cloud_profile`: the newest supported versions, the machine and volume types usable per region and zone, the "+
			"classification of every version, and conditions. A CloudProfile takes one API request; a NamespacedCloudProfile two (it and its "+
			"parent), merged locally exactly as Gardener's controller merges them. Use it in modules that accept either kind; the data sources "+
			"of each kind add the object's own fields (a NamespacedCloudProfile's own `spec` and `status`).",
		d.trees(), "", attrs,
		profileAttributes("Name of the referenced profile, as in a Shoot's `spec.cloudProfile.name`.", "Whether what Gardener's controller last wrote to the "+
			"object's status matches: for a CloudProfile, the classifications of the spec at the time of reading (see `gardener_cloud_profile`); "+
			"for a NamespacedCloudProfile, the rendered `status.cloudProfileSpec` of the current generation equals `spec` (see "+
			"`gardener_namespaced_cloud_profile`). False without a parent."))
}

// ValidateConfig checks the reference: a known kind, and a namespace for a NamespacedCloudProfile.
func (d *effectiveCloudProfileDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m effectiveCloudProfileDataSourceModel
	if !configOf(ctx, req.Config, d.modelOmits(), &m, &resp.Diagnostics) {
		return
	}
	resp.Diagnostics.Append(validateProfileReference(m.Kind, m.Namespace)...)
}

// validateProfileReference checks kind and namespace where they are known.
func validateProfileReference(kind, namespace types.String) diag.Diagnostics {
	var diags diag.Diagnostics
	if kind.IsUnknown() {
		return diags
	}
	switch kind.ValueString() {
	case "", kindCloudProfile:
	case kindNamespacedCloudProfile:
		if namespace.IsNull() || (!namespace.IsUnknown() && namespace.ValueString() == "") {
			diags.AddAttributeError(path.Root("namespace"), "Missing namespace",
				"A NamespacedCloudProfile is namespaced: set namespace to the Shoot's namespace (garden-<project>).")
		}
	default:
		diags.AddAttributeError(path.Root("kind"), "Invalid kind",
			fmt.Sprintf("A Shoot references a CloudProfile or a NamespacedCloudProfile, not %q.", shortBadValue(kind.ValueString())))
	}
	return diags
}

// Read fetches the referenced profile (and a NamespacedCloudProfile's parent) and evaluates it.
func (d *effectiveCloudProfileDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m effectiveCloudProfileDataSourceModel
	ev, client, ok := d.readConfig(ctx, req.Config, d.modelOmits(), &m, &resp.Diagnostics)
	if !ok {
		return
	}

	var (
		spec   *gardencorev1beta1.CloudProfileSpec
		status *statusClassifications
		fixed  []cloudprofile.Condition
	)
	m.Parent = types.StringNull()
	if m.Kind.ValueString() == kindNamespacedCloudProfile {
		r, diags := readNamespacedProfile(ctx, client, m.Namespace.ValueString(), m.Name.ValueString(), cloudprofile.MergeOptions{Now: ev.at})
		resp.Diagnostics.Append(diags...)
		if resp.Diagnostics.HasError() {
			return
		}
		spec, fixed = r.merged, r.conditions(ev.at)
		m.Parent = types.StringValue(r.ncp.Spec.Parent.Name)
		m.StatusInSync = types.BoolValue(r.sync != nil && r.sync.InSync)
	} else {
		cp := readCloudProfile(ctx, client, m.Name.ValueString(), &resp.Diagnostics)
		if cp == nil {
			return
		}
		spec, status = &cp.Spec, newStatusClassifications(cp.Status)
		m.StatusInSync = types.BoolValue(cloudprofile.StatusInSyncFor(cp.Spec, cp.Status, d.data.statusOptions(ctx, d.data.now(), &resp.Diagnostics)))
	}

	var large []largevalue.ValueAtPath
	if spec != nil {
		value, diags := flattenSpecTerraform(cloudProfileSpecRoot, *spec)
		resp.Diagnostics.Append(diags...)
		large = append(large, largevalue.ValueAtPath{Path: specLargePath, Value: value})
	}
	var diags diag.Diagnostics
	m.profileOutputs, diags = computeProfileOutputs(ctx, spec, status, ev, wholeProfile, fixed...)
	resp.Diagnostics.Append(diags...)
	d.writeState(ctx, &resp.State, d.modelOmits(), &m, append(large, m.lists...), &resp.Diagnostics)
}

// evaluationAndClient defaults the kind to CloudProfile and checks the reference (see
// validateProfileReference) before it resolves the inputs and gets the client (see
// profileInputs.evaluationAndClient); false after errors, earlier ones included.
func (m *effectiveCloudProfileDataSourceModel) evaluationAndClient(data *providerData, diags *diag.Diagnostics) (evaluation, *kube.Client, bool) {
	if m.Kind.IsNull() || m.Kind.ValueString() == "" {
		m.Kind = types.StringValue(kindCloudProfile)
	}
	diags.Append(validateProfileReference(m.Kind, m.Namespace)...)
	return m.profileInputs.evaluationAndClient(data, diags)
}
