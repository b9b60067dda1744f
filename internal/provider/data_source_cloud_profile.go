package provider

import (
	"context"
	"maps"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/provider/largevalue"
)

var _ datasource.DataSourceWithConfigure = (*cloudProfileDataSource)(nil)

// cloudProfileDataSource reads one CloudProfile (one request) and evaluates it at an instant.
type cloudProfileDataSource struct {
	data *providerData
}

func newCloudProfileDataSource() datasource.DataSource { return &cloudProfileDataSource{} }

type cloudProfileDataSourceModel struct {
	Name            types.String `tfsdk:"name"`
	UID             types.String `tfsdk:"uid"`
	ResourceVersion types.String `tfsdk:"resource_version"`
	Generation      types.Int64  `tfsdk:"generation"`
	Labels          types.Map    `tfsdk:"labels"`
	Annotations     types.Map    `tfsdk:"annotations"`
	Type            types.String `tfsdk:"type"`
	StatusInSync    types.Bool   `tfsdk:"status_in_sync"`
	profileInputs
	profileOutputs
	shootUsage
}

// Metadata names the data source.
func (d *cloudProfileDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_cloud_profile"
}

// trees are the attributes built from descriptors: the spec and the lists derived from it.
func (d *cloudProfileDataSource) trees() []specField {
	return append([]specField{cloudProfileSpecRoot}, profileOutputFields(false)...)
}

// LargeAttributes are the large fields of trees, kept from the framework.
func (d *cloudProfileDataSource) LargeAttributes() []largevalue.Path { return largePaths(d.trees()...) }

// Schema describes the data source.
func (d *cloudProfileDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := map[string]schema.Attribute{
		"name":             schema.StringAttribute{Required: true, MarkdownDescription: "Name of the CloudProfile."},
		"uid":              schema.StringAttribute{Computed: true, MarkdownDescription: "UID the API server gave the object."},
		"resource_version": schema.StringAttribute{Computed: true, MarkdownDescription: "Resource version of the object as read."},
		"generation":       schema.Int64Attribute{Computed: true, MarkdownDescription: "Generation of the object's spec."},
		"labels":           schema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Labels of the object."},
		"annotations":      schema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Annotations of the object."},
		"type":             schema.StringAttribute{Computed: true, MarkdownDescription: "Provider type of the profile (`spec.type`), e.g. `aws`."},
		"status_in_sync": schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the classifications Gardener's CloudProfile " +
			"controller wrote to `status` are exactly those of the spec at the time of reading (not at `at`). False while the controller has " +
			"not caught up with a change, or where no controller runs. Shoots do not depend on it: Gardener classifies versions from the spec."},
	}
	for k, v := range profileInputAttributes() {
		attrs[k] = v
	}
	maps.Copy(attrs, profileLookupAttributes())
	maps.Copy(attrs, dataSourceAttributes(d.trees()))
	for k, v := range shootUsageAttributes("of all namespaces that refer to the CloudProfile directly") {
		attrs[k] = v
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one Gardener `CloudProfile` (one API request) and evaluates it at an instant `at`: the classification and next " +
			"transition of every Kubernetes and machine image version, computed locally with Gardener's rules (so it is right for any instant, " +
			"and where no controller has written status) beside the classification Gardener's controller wrote; the newest supported versions " +
			"shoot modules pick; the machine and volume types usable per region and zone; and conditions with a summarising `Ready`.",
		Attributes: attrs,
	}
	resp.Schema.Attributes = withDataSourceNestedTypes(resp.Schema.Attributes)
}

// Configure receives the provider's data.
func (d *cloudProfileDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	if data := providerDataOf(req.ProviderData, &resp.Diagnostics); data != nil {
		d.data = data
	}
}

// Read fetches the CloudProfile with one request and evaluates it.
func (d *cloudProfileDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m cloudProfileDataSourceModel
	resp.Diagnostics.Append(largevalue.Get(ctx, req.Config.Schema, req.Config.Raw, d.LargeAttributes(), &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ev, diags := m.resolve(d.data)
	resp.Diagnostics.Append(diags...)
	client, diags := clientFrom(d.data)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	reqCtx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cp, err := client.GetCloudProfile(reqCtx, m.Name.ValueString())
	if err != nil {
		resp.Diagnostics.Append(lookupError("Reading the CloudProfile", objectRef{"CloudProfile", m.Name.ValueString()}, err))
		return
	}
	readAt := d.data.now()

	m.UID = types.StringValue(string(cp.UID))
	m.ResourceVersion = types.StringValue(cp.ResourceVersion)
	m.Generation = types.Int64Value(cp.Generation)
	m.Type = types.StringValue(cp.Spec.Type)
	m.Labels, diags = types.MapValueFrom(ctx, types.StringType, cp.Labels)
	resp.Diagnostics.Append(diags...)
	m.Annotations, diags = types.MapValueFrom(ctx, types.StringType, cp.Annotations)
	resp.Diagnostics.Append(diags...)
	spec, diags := flattenSpecTerraform(cloudProfileSpecRoot, cp.Spec)
	resp.Diagnostics.Append(diags...)
	m.StatusInSync = types.BoolValue(cloudprofile.StatusInSync(cp.Spec, cp.Status, readAt))
	m.profileOutputs, diags = computeProfileOutputs(ctx, &cp.Spec, newStatusClassifications(cp.Status), ev, wholeProfile)
	resp.Diagnostics.Append(diags...)
	m.readShootUsage(ctx, d.data, "", &cp.Spec, func(s []gardencorev1beta1.Shoot) cloudprofile.VersionUsage {
		return cloudprofile.VersionUsageOfCloudProfile(cp.Name, s)
	}, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(largevalue.SetState(ctx, &resp.State, d.LargeAttributes(), &m, append(m.lists, largevalue.ValueAtPath{Path: specLargePath, Value: spec})...)...)
}
