package provider

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// configureResult is what Configure of a resource or data source kept, and its diagnostics.
type configureResult struct {
	data  *providerData
	diags diag.Diagnostics
}

// configured runs Configure of every resource and data source of the provider with given as the
// provider data and returns the results by Go type.
func configured(t *testing.T, given any) map[string]configureResult {
	t.Helper()
	ctx := context.Background()
	p := &gardenerProvider{}
	out := map[string]configureResult{}
	for _, newResource := range p.Resources(ctx) {
		r := newResource()
		var resp resource.ConfigureResponse
		r.(resource.ResourceWithConfigure).Configure(ctx, resource.ConfigureRequest{ProviderData: given}, &resp)
		out[fmt.Sprintf("%T", r)] = configureResult{keptData(t, r), resp.Diagnostics}
	}
	for _, newDataSource := range p.DataSources(ctx) {
		d := newDataSource()
		var resp datasource.ConfigureResponse
		d.(datasource.DataSourceWithConfigure).Configure(ctx, datasource.ConfigureRequest{ProviderData: given}, &resp)
		out[fmt.Sprintf("%T", d)] = configureResult{keptData(t, d), resp.Diagnostics}
	}
	if len(out) != 5 {
		t.Fatalf("configured %d resources and data sources, want 5", len(out))
	}
	return out
}

// keptData returns the provider data a configured resource or data source holds.
func keptData(t *testing.T, configured any) *providerData {
	t.Helper()
	switch c := configured.(type) {
	case *cloudProfileResourceOf:
		return c.kind.data
	case *namespacedCloudProfileResourceOf:
		return c.kind.data
	case *cloudProfileDataSource:
		return c.data
	case *namespacedCloudProfileDataSource:
		return c.data
	case *effectiveCloudProfileDataSource:
		return c.data
	}
	t.Fatalf("unknown resource or data source %T", configured)
	return nil
}

func TestConfigure_KeepsTheProviderData(t *testing.T) {
	want := &providerData{fieldManager: "test"}
	for name, got := range configured(t, want) {
		if got.data != want || got.diags.HasError() {
			t.Errorf("%s: kept %p with %v, want %p without errors", name, got.data, got.diags, want)
		}
	}
}

func TestConfigure_BeforeTheProviderIsConfiguredKeepsNothing(t *testing.T) {
	for name, got := range configured(t, nil) {
		if got.data != nil || got.diags.HasError() {
			t.Errorf("%s: kept %p with %v, want nothing", name, got.data, got.diags)
		}
	}
}

func TestConfigure_OtherProviderDataIsABug(t *testing.T) {
	for name, got := range configured(t, "not provider data") {
		if got.data != nil || !got.diags.HasError() || got.diags[0].Summary() != "Unexpected provider data" {
			t.Errorf("%s: kept %p with %v, want the error 'Unexpected provider data'", name, got.data, got.diags)
		}
	}
}
