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

// The worst cases named valid pass Gardener's rules (make bench fails a valid case that does not
// validate), and the others fail them.
func TestWorstCasesAreValidOrNotAsNamed(t *testing.T) {
	for _, c := range WorstCases(100) {
		if c.Valid {
			for _, cp := range c.Profiles { // the parent as the Garden stores it, with Gardener's defaults
				checkProfiles(t, c.Name, cloudprofile.DefaultedCloudProfile(cp), c.Namespaced)
			}
			continue
		}
		opts := cloudprofile.OptionsWithAllGates(time.Date(2026, time.November, 29, 0, 0, 0, 0, time.UTC))
		var ps cloudprofile.Problems
		for _, cp := range c.Profiles {
			ps = append(ps, cloudprofile.ValidateCloudProfileRequest(cp, nil, opts)...)
		}
		for _, ncp := range c.Namespaced {
			ps = append(ps, cloudprofile.ValidateNamespacedCloudProfileRequest(ncp, nil, opts)...)
		}
		if len(ps.Errors()) == 0 {
			t.Errorf("%s: the rules find no error", c.Name)
		}
	}
}
