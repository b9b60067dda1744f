package provider

import (
	"context"
	"fmt"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ datasource.DataSourceWithConfigure = (*cloudProfileDataSource)(nil)

type cloudProfileDataSource struct {
	data *providerData
}

func newCloudProfileDataSource() datasource.DataSource { return &cloudProfileDataSource{} }

type cloudProfileDataSourceModel struct {
	Name               types.String `tfsdk:"name"`
	UID                types.String `tfsdk:"uid"`
	ResourceVersion    types.String `tfsdk:"resource_version"`
	Generation         types.Int64  `tfsdk:"generation"`
	Labels             types.Map    `tfsdk:"labels"`
	Annotations        types.Map    `tfsdk:"annotations"`
	Type               types.String `tfsdk:"type"`
	KubernetesVersions types.List   `tfsdk:"kubernetes_versions"`
}

var versionClassificationType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"version":               types.StringType,
	"status_classification": types.StringType,
}}

// Metadata names the data source.
func (d *cloudProfileDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_cloud_profile"
}

// Schema describes the data source.
func (d *cloudProfileDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one Gardener `CloudProfile` with a single GET.",
		Attributes: map[string]schema.Attribute{
			"name":             schema.StringAttribute{Required: true, MarkdownDescription: "Name of the CloudProfile."},
			"uid":              schema.StringAttribute{Computed: true, MarkdownDescription: "UID the API server gave the object."},
			"resource_version": schema.StringAttribute{Computed: true, MarkdownDescription: "Resource version of the object as read."},
			"generation":       schema.Int64Attribute{Computed: true, MarkdownDescription: "Generation of the object's spec."},
			"labels":           schema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Labels of the object."},
			"annotations":      schema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Annotations of the object."},
			"type":             schema.StringAttribute{Computed: true, MarkdownDescription: "Provider type of the profile (`spec.type`), e.g. `aws`."},
			"kubernetes_versions": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "Kubernetes versions of the profile, in spec order.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"version":               schema.StringAttribute{Computed: true, MarkdownDescription: "The version, e.g. `1.31.2`."},
					"status_classification": schema.StringAttribute{Computed: true, MarkdownDescription: "Classification Gardener's controller last wrote to `status`; null where it has written none."},
				}},
			},
		},
	}
}

// Configure receives the provider's data.
func (d *cloudProfileDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	if req.ProviderData == nil {
		return
	}
	data, ok := req.ProviderData.(*providerData)
	if !ok {
		resp.Diagnostics.AddError("Unexpected provider data", fmt.Sprintf("expected *providerData, got %T; this is a bug in the provider", req.ProviderData))
		return
	}
	d.data = data
}

// Read fetches the CloudProfile.
func (d *cloudProfileDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m cloudProfileDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	client, diags := clientFrom(d.data)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	cp, err := client.GetCloudProfile(ctx, m.Name.ValueString())
	if err != nil {
		resp.Diagnostics.Append(requestError("Reading the CloudProfile", err))
		return
	}
	m.UID = types.StringValue(string(cp.UID))
	m.ResourceVersion = types.StringValue(cp.ResourceVersion)
	m.Generation = types.Int64Value(cp.Generation)
	m.Type = types.StringValue(cp.Spec.Type)
	m.Labels, diags = types.MapValueFrom(ctx, types.StringType, cp.Labels)
	resp.Diagnostics.Append(diags...)
	m.Annotations, diags = types.MapValueFrom(ctx, types.StringType, cp.Annotations)
	resp.Diagnostics.Append(diags...)
	m.KubernetesVersions, diags = kubernetesVersionsValue(cp)
	resp.Diagnostics.Append(diags...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func kubernetesVersionsValue(cp *gardencorev1beta1.CloudProfile) (types.List, diag.Diagnostics) {
	status := map[string]string{}
	if cp.Status.Kubernetes != nil {
		for _, v := range cp.Status.Kubernetes.Versions {
			status[v.Version] = string(v.Classification)
		}
	}
	elems := make([]attr.Value, 0, len(cp.Spec.Kubernetes.Versions))
	for _, v := range cp.Spec.Kubernetes.Versions {
		sc := types.StringNull()
		if c, ok := status[v.Version]; ok {
			sc = types.StringValue(c)
		}
		obj, diags := types.ObjectValue(versionClassificationType.AttrTypes, map[string]attr.Value{
			"version":               types.StringValue(v.Version),
			"status_classification": sc,
		})
		if diags.HasError() {
			return types.ListNull(versionClassificationType), diags
		}
		elems = append(elems, obj)
	}
	return types.ListValue(versionClassificationType, elems)
}
