package gen

import (
	"testing"
	"time"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// The rules over the big profile of make bench, as the provider runs them at plan (validation of
// the request) and in the namespaced data source (merge and conditions).

var benchNow = time.Date(2026, time.November, 1, 0, 0, 0, 0, time.UTC)

func BenchmarkBigProfileValidateRequest(b *testing.B) {
	cp := BigProfile()
	opts := cloudprofile.DefaultOptions(benchNow)
	b.ReportAllocs()
	for b.Loop() {
		_ = cloudprofile.ValidateCloudProfileRequest(cp, cp, opts)
	}
}

func BenchmarkBigProfileConditions(b *testing.B) {
	cp := BigProfile()
	b.ReportAllocs()
	for b.Loop() {
		_ = cloudprofile.ProfileConditions(&cp.Spec, benchNow, cloudprofile.DefaultExpiryWarningWindow)
	}
}

func BenchmarkBigProfileMergeNamespaced(b *testing.B) {
	cp := BigProfile()
	ncp := NamespacedProfile(cp, 7)
	b.ReportAllocs()
	for b.Loop() {
		_ = cloudprofile.MergeNamespacedCloudProfile(cp.Spec, ncp.Spec, cloudprofile.MergeOptions{})
	}
}
