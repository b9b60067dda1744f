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
		var data *providerData
		switch r := r.(type) {
		case *cloudProfileResource:
			data = r.data
		case *namespacedCloudProfileResource:
			data = r.data
		default:
			t.Fatalf("unknown resource %T", r)
		}
		out[fmt.Sprintf("%T", r)] = configureResult{data, resp.Diagnostics}
	}
	for _, newDataSource := range p.DataSources(ctx) {
		d := newDataSource()
		var resp datasource.ConfigureResponse
		d.(datasource.DataSourceWithConfigure).Configure(ctx, datasource.ConfigureRequest{ProviderData: given}, &resp)
		var data *providerData
		switch d := d.(type) {
		case *cloudProfileDataSource:
			data = d.data
		case *namespacedCloudProfileDataSource:
			data = d.data
		default:
			t.Fatalf("unknown data source %T", d)
		}
		out[fmt.Sprintf("%T", d)] = configureResult{data, resp.Diagnostics}
	}
	if len(out) != 4 {
		t.Fatalf("configured %d resources and data sources, want 4", len(out))
	}
	return out
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
