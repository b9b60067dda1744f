package gen

import (
	"testing"
	"time"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// The generated objects must be valid for Gardener now and for decades (fixed dates).
func TestGeneratedProfilesAreValid(t *testing.T) {
	cp := BigProfile()
	if n := len(cp.Spec.Kubernetes.Versions); n != KubernetesVersions {
		t.Fatalf("%d kubernetes versions", n)
	}
	for _, now := range []time.Time{time.Now(), time.Date(2060, 1, 1, 0, 0, 0, 0, time.UTC)} {
		opts := cloudprofile.DefaultOptions(now)
		for _, p := range cloudprofile.ValidateCloudProfileRequest(cp, nil, opts) {
			if p.Severity == cloudprofile.SeverityError {
				t.Errorf("big profile at %s: %v", now.Format(time.DateOnly), p)
			}
		}
		for i, ncp := range NamespacedProfiles(cp) {
			for _, p := range append(cloudprofile.ValidateNamespacedCloudProfileRequest(ncp, nil, opts), cloudprofile.AdmitNamespacedCloudProfileRequest(ncp, nil, cp, opts)...) {
				if p.Severity == cloudprofile.SeverityError {
					t.Errorf("namespaced profile %d at %s: %v", i, now.Format(time.DateOnly), p)
				}
			}
		}
	}
}
