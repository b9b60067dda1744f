package gen

import (
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// The generated objects must be valid for Gardener now and for decades (fixed dates).
func TestGeneratedProfilesAreValid(t *testing.T) {
	cp := BigProfile()
	if n := len(cp.Spec.Kubernetes.Versions); n != KubernetesVersions {
		t.Fatalf("%d kubernetes versions", n)
	}
	checkProfiles(t, "big profile", cp, NamespacedProfiles(cp))
}

// The workspace's parent has the sizes of the issue and is valid with its namespaced profiles.
func TestWorkspaceProfilesAreValid(t *testing.T) {
	cp := WorkspaceParent()
	var imageVersions int
	for _, image := range cp.Spec.MachineImages {
		imageVersions += len(image.Versions)
	}
	if k, i, m, r := len(cp.Spec.Kubernetes.Versions), imageVersions, len(cp.Spec.MachineTypes), len(cp.Spec.Regions); k != 43 || i != 80 || m != 60 || r != 10 {
		t.Fatalf("sizes: %d kubernetes versions, %d image versions, %d machine types, %d regions; want 43, 80 (4 × 20), 60, 10", k, i, m, r)
	}
	ncps := WorkspaceProfiles(cp)
	if len(ncps) != 300 || len(ncps[299].Spec.Kubernetes.Versions) != 3 || len(ncps[299].Spec.MachineTypes) != 2 {
		t.Fatalf("%d namespaced profiles; the last has %d version overrides and %d machine types", len(ncps), len(ncps[299].Spec.Kubernetes.Versions), len(ncps[299].Spec.MachineTypes))
	}
	checkProfiles(t, "workspace parent", cp, ncps)
}

func checkProfiles(t *testing.T, what string, cp *gardencorev1beta1.CloudProfile, ncps []*gardencorev1beta1.NamespacedCloudProfile) {
	t.Helper()
	for _, now := range []time.Time{time.Now(), time.Date(2060, 1, 1, 0, 0, 0, 0, time.UTC)} {
		opts := cloudprofile.OptionsWithAllGates(now)
		for _, p := range cloudprofile.ValidateCloudProfileRequest(cp, nil, opts) {
			if p.Severity == cloudprofile.SeverityError {
				t.Errorf("%s at %s: %v", what, now.Format(time.DateOnly), p)
			}
		}
		for i, ncp := range ncps {
			for _, p := range append(cloudprofile.ValidateNamespacedCloudProfileRequest(ncp, nil, opts), cloudprofile.AdmitNamespacedCloudProfileRequest(ncp, nil, cp, opts)...) {
				if p.Severity == cloudprofile.SeverityError {
					t.Errorf("namespaced profile %d at %s: %v", i, now.Format(time.DateOnly), p)
				}
			}
		}
	}
}
