package provider

import (
	"context"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/provider/largevalue"
)

// cloudProfileDataSource reads one CloudProfile (one request) and evaluates it at an instant.
type cloudProfileDataSource struct{ profileDataSource }

type cloudProfileDataSourceModel struct {
	Type types.String `tfsdk:"type"`
	profileReadModel
	objectModel
	shootUsage
}

// trees are the attributes built from descriptors: the spec and the lists derived from it.
func (d *cloudProfileDataSource) trees() []specField {
	return append([]specField{cloudProfileSpecRoot}, profileOutputFields(false)...)
}

// LargeAttributes are the large fields of trees, kept from the framework.
func (d *cloudProfileDataSource) LargeAttributes() []largevalue.Path { return largePaths(d.trees()...) }

// Schema describes the data source.
func (d *cloudProfileDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = profileDataSourceSchema(
		"Reads one Gardener `CloudProfile` (one API request) and evaluates it at an instant `at`: the classification and next "+
			"transition of every Kubernetes and machine image version, computed locally with Gardener's rules (so it is right for any instant, "+
			"and where no controller has written status) beside the classification Gardener's controller wrote; the newest supported versions "+
			"shoot modules pick; the machine and volume types usable per region and zone; and conditions with a summarising `Ready`.",
		d.trees(), "of all namespaces that refer to the CloudProfile directly",
		objectAttributes("Generation of the object's spec."),
		profileAttributes("Name of the CloudProfile.", "Whether the classifications Gardener's CloudProfile "+
			"controller wrote to `status` are exactly those of the spec at the time of reading (not at `at`). False while the controller has "+
			"not caught up with a change, or where no controller runs. The controller writes `status` from Gardener v1.149.0 on: under the rules of "+
			"an older release (see the provider's `gardener_version`) an empty `status` is in sync. Shoots do not depend on it: Gardener classifies versions from the spec."),
		map[string]schema.Attribute{
			"type": schema.StringAttribute{Computed: true, MarkdownDescription: "Provider type of the profile (`spec.type`), e.g. `aws`."},
		})
}

// Read fetches the CloudProfile with one request and evaluates it.
func (d *cloudProfileDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m cloudProfileDataSourceModel
	ev, client, ok := d.readConfig(ctx, req.Config, d.LargeAttributes(), &m, &resp.Diagnostics)
	if !ok {
		return
	}
	cp := readCloudProfile(ctx, client, m.Name.ValueString(), &resp.Diagnostics)
	if cp == nil {
		return
	}
	readAt := d.data.now()

	m.read(ctx, cp, &resp.Diagnostics)
	m.Type = types.StringValue(cp.Spec.Type)
	spec, diags := flattenSpecTerraform(cloudProfileSpecRoot, cp.Spec)
	resp.Diagnostics.Append(diags...)
	m.StatusInSync = types.BoolValue(cloudprofile.StatusInSyncFor(cp.Spec, cp.Status, d.data.statusOptions(ctx, readAt, &resp.Diagnostics)))
	m.profileOutputs, diags = computeProfileOutputs(ctx, &cp.Spec, newStatusClassifications(cp.Status), ev, wholeProfile)
	resp.Diagnostics.Append(diags...)
	m.readShootUsage(ctx, d.data, "", &cp.Spec, func(s []gardencorev1beta1.Shoot) cloudprofile.VersionUsage {
		return cloudprofile.VersionUsageOfCloudProfile(cp.Name, s)
	}, &resp.Diagnostics)
	d.writeState(ctx, &resp.State, d.LargeAttributes(), &m, append(m.lists, largevalue.ValueAtPath{Path: specLargePath, Value: spec}), &resp.Diagnostics)
}
