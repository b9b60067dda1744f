package provider

import (
	"context"
	"os"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/gardener-community/terraform-provider-gardener/internal/provider/largevalue"
)

// TypeName is the provider's type name, the prefix of every resource and data source.
const TypeName = "gardener"

var (
	_ provider.ProviderWithFunctions      = (*gardenerProvider)(nil)
	_ provider.ProviderWithValidateConfig = (*gardenerProvider)(nil)
)

type gardenerProvider struct {
	version string
	lookup  func(string) (string, bool)
	// validated holds the feature gates and gardener_version of the configuration Terraform
	// validated, for the resources' checks at `terraform validate`.
	validated *validatedSettings
}

// New returns a constructor of the provider at the given version, reading the process environment.
func New(version string) func() provider.Provider {
	return NewWithEnvironment(version, os.LookupEnv)
}

// NewWithEnvironment returns a constructor of the provider that reads environment variables with
// lookup, so tests can pin the environment.
func NewWithEnvironment(version string, lookup func(string) (string, bool)) func() provider.Provider {
	return func() provider.Provider {
		return &gardenerProvider{version: version, lookup: lookup, validated: &validatedSettings{}}
	}
}

// Metadata names the provider.
func (p *gardenerProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = TypeName
	resp.Version = p.version
}

// Schema describes the provider's configuration.
func (p *gardenerProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = providerSchema()
}

// Configure records the settings and, when all are known, builds the Kubernetes client without a
// request, so that a setting that cannot be used fails the plan (settingDiagnostics); `terraform
// validate` does not configure the provider and needs no cluster, and settings unknown at plan
// time never reach a client.
func (p *gardenerProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var m providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	data, diags := newProviderData(ctx, m, p.lookup)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(data.settingDiagnostics(m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.DataSourceData = data
	resp.ResourceData = data
	resp.ListResourceData = data
}

// ValidateConfig checks every setting as Configure reads it, so that `terraform validate` reports
// a bad setting on its attribute, and records feature_gates and gardener_version for the
// resources' offline checks (see validatedSettings). Only errors are reported here: Configure repeats the warnings.
func (p *gardenerProvider) ValidateConfig(ctx context.Context, req provider.ValidateConfigRequest, resp *provider.ValidateConfigResponse) {
	var m providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	data, diags := newProviderData(ctx, m, p.lookup)
	resp.Diagnostics.Append(diags.Errors()...)
	p.validated.record(data.gates, data.releaseSetting)
}

// The resources of the two kinds of profile (see profileResourceOf).
type (
	cloudProfileResourceOf           = profileResourceOf[*cloudProfileResource, cloudProfileModel, *gardencorev1beta1.CloudProfile, gardencorev1beta1.CloudProfileSpec]
	namespacedCloudProfileResourceOf = profileResourceOf[*namespacedCloudProfileResource, namespacedCloudProfileModel, *gardencorev1beta1.NamespacedCloudProfile, gardencorev1beta1.NamespacedCloudProfileSpec]
)

var (
	_ servedResource = (*cloudProfileResourceOf)(nil)
	_ servedResource = (*namespacedCloudProfileResourceOf)(nil)
)

// newCloudProfileResource is the resource of CloudProfiles, not configured.
func newCloudProfileResource() resource.Resource {
	return newProfileResource(&cloudProfileResource{}, cloudProfileTraits())
}

// newNamespacedCloudProfileResource is the resource of NamespacedCloudProfiles, not configured.
func newNamespacedCloudProfileResource() resource.Resource {
	return newProfileResource(&namespacedCloudProfileResource{}, namespacedCloudProfileTraits())
}

// Resources lists the provider's resources.
func (p *gardenerProvider) Resources(_ context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		func() resource.Resource {
			return newProfileResource(&cloudProfileResource{profileResource{validated: p.validated}}, cloudProfileTraits())
		},
		func() resource.Resource {
			return newProfileResource(&namespacedCloudProfileResource{profileResource{validated: p.validated}}, namespacedCloudProfileTraits())
		},
	}
}

// DataSources lists the provider's data sources.
func (p *gardenerProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{newCloudProfileDataSource, newNamespacedCloudProfileDataSource, newEffectiveCloudProfileDataSource}
}

var (
	_ datasource.DataSourceWithConfigure = (*cloudProfileDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*namespacedCloudProfileDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*effectiveCloudProfileDataSource)(nil)
)

// newCloudProfileDataSource is the gardener_cloud_profile data source, not configured.
func newCloudProfileDataSource() datasource.DataSource {
	return &cloudProfileDataSource{profileDataSource{typeName: "_cloud_profile"}}
}

// newNamespacedCloudProfileDataSource is the gardener_namespaced_cloud_profile data source.
func newNamespacedCloudProfileDataSource() datasource.DataSource {
	return &namespacedCloudProfileDataSource{profileDataSource{typeName: "_namespaced_cloud_profile"}}
}

// newEffectiveCloudProfileDataSource is the gardener_effective_cloud_profile data source.
func newEffectiveCloudProfileDataSource() datasource.DataSource {
	return &effectiveCloudProfileDataSource{profileDataSource{typeName: "_effective_cloud_profile"}}
}

// Functions lists the provider's functions.
func (p *gardenerProvider) Functions(_ context.Context) []func() function.Function {
	return []func() function.Function{newClassificationFunction, newNextTransitionFunction, newMergeFunction}
}

// NewProtocol6Server serves the provider over Terraform's plugin protocol 6: the framework's
// server, with the profile specs kept out of the framework (largevalue.NewServer).
func NewProtocol6Server(newProvider func() provider.Provider) func() (tfprotov6.ProviderServer, error) {
	return func() (tfprotov6.ProviderServer, error) {
		return largevalue.NewServer(context.Background(), newProvider(), func(p provider.Provider) (tfprotov6.ProviderServer, error) {
			return providerserver.NewProtocol6WithError(p)()
		})
	}
}
