package provider

import (
	"context"
	"testing"
	"time"

	"github.com/gardener-community/terraform-provider-gardener/bench/gen"
	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// BenchmarkBigProfileDataSourceValues: the large values a data source builds for the big profile
// of make bench: the spec and the lists derived from it.
func BenchmarkBigProfileDataSourceValues(b *testing.B) {
	ctx := context.Background()
	cp := gen.BigProfile()
	status := newStatusClassifications(cp.Status)
	ev := evaluation{at: time.Date(2026, time.November, 1, 0, 0, 0, 0, time.UTC), window: cloudprofile.DefaultExpiryWarningWindow}
	b.ReportAllocs()
	for b.Loop() {
		if _, diags := flattenSpecTerraform(cloudProfileSpecRoot, cp.Spec); diags.HasError() {
			b.Fatal(diags)
		}
		if _, diags := computeProfileOutputs(ctx, &cp.Spec, status, ev, wholeProfile); diags.HasError() {
			b.Fatal(diags)
		}
	}
}

// BenchmarkBigProfileDerivedLists: the lists alone.
func BenchmarkBigProfileDerivedLists(b *testing.B) {
	ctx := context.Background()
	cp := gen.BigProfile()
	status := newStatusClassifications(cp.Status)
	ev := evaluation{at: time.Date(2026, time.November, 1, 0, 0, 0, 0, time.UTC), window: cloudprofile.DefaultExpiryWarningWindow}
	b.ReportAllocs()
	for b.Loop() {
		if _, diags := computeProfileOutputs(ctx, &cp.Spec, status, ev, wholeProfile); diags.HasError() {
			b.Fatal(diags)
		}
	}
}
