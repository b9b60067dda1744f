package gen

import (
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// The rules over the big profile of make bench, as the provider runs them at plan (validation of
// the request) and in the namespaced data source (merge and conditions).

var benchNow = time.Date(2026, time.November, 1, 0, 0, 0, 0, time.UTC)

func BenchmarkBigProfileValidateRequest(b *testing.B) {
	cp := BigProfile()
	opts := cloudprofile.OptionsWithAllGates(benchNow)
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

// BenchmarkWorkspaceLookupRules is what a default lookup of one of the workspace's namespaced
// profiles computes besides the conversion of its values: the merge with the parent, the
// comparison with the rendered status, the newest supported versions and the conditions.
func BenchmarkWorkspaceLookupRules(b *testing.B) {
	parent := WorkspaceParent()
	ncp := WorkspaceProfile(parent, 7)
	merged := cloudprofile.MergeNamespacedCloudProfile(parent.Spec, ncp.Spec, cloudprofile.MergeOptions{})
	status := gardencorev1beta1.NamespacedCloudProfileStatus{ObservedGeneration: 1, CloudProfileSpec: *merged.DeepCopy()}
	b.ReportAllocs()
	for b.Loop() {
		spec := cloudprofile.MergeNamespacedCloudProfile(parent.Spec, ncp.Spec, cloudprofile.MergeOptions{})
		if !cloudprofile.CompareNamespacedStatus(1, ncp.Spec, status, spec, false).InSync {
			b.Fatal("the rendered status differs from the merge")
		}
		_ = cloudprofile.LatestSupportedKubernetesVersionsByMinor(spec.Kubernetes.Versions, benchNow)
		_ = cloudprofile.LatestSupportedImageVersions(spec, benchNow, cloudprofile.ImageFilter{})
		_ = cloudprofile.ProfileConditions(&spec, benchNow, cloudprofile.DefaultExpiryWarningWindow)
	}
}
