package main

import (
	"context"
	"fmt"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	pschema "github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The framework floor is the least any provider built on terraform-plugin-framework pays for a
// workspace: a provider that stores each payload as terraform_data does (input, output, id) and
// talks to nothing. Terraform starts this binary under floorProviderName (a link in the work
// folder, found through dev_overrides) and it serves that provider.
const (
	floorProviderName    = "terraform-provider-benchfloor"
	floorProviderAddress = "registry.terraform.io/gardener-community/benchfloor"
	floorResourceType    = "benchfloor_data"
)

// serveFloorProvider serves the framework floor's provider until Terraform stops it.
func serveFloorProvider() int {
	err := providerserver.Serve(context.Background(), func() provider.Provider { return floorProvider{} },
		providerserver.ServeOpts{Address: floorProviderAddress})
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench floor provider:", err)
		return 1
	}
	return 0
}

type floorProvider struct{}

func (floorProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "benchfloor"
}

func (floorProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = pschema.Schema{}
}

func (floorProvider) Configure(context.Context, provider.ConfigureRequest, *provider.ConfigureResponse) {
}

func (floorProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return floorData{} }}
}

func (floorProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }

// floorData is terraform_data's shape: the payload in input, copied to output.
type floorData struct{}

type floorDataModel struct {
	ID     types.String  `tfsdk:"id"`
	Input  types.Dynamic `tfsdk:"input"`
	Output types.Dynamic `tfsdk:"output"`
}

func (floorData) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = floorResourceType
}

func (floorData) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{Attributes: map[string]schema.Attribute{
		"id":     schema.StringAttribute{Computed: true, PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
		"input":  schema.DynamicAttribute{Optional: true},
		"output": schema.DynamicAttribute{Computed: true},
	}}
}

func (floorData) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var input types.Dynamic
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("input"), &input)...)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("output"), input)...)
}

func (floorData) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var m floorDataModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	m.ID = types.StringValue("floor")
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (floorData) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var m floorDataModel
	resp.Diagnostics.Append(req.State.Get(ctx, &m)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (floorData) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var m floorDataModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func (floorData) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}
