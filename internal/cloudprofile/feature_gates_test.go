package cloudprofile

import (
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// TestGardenerDefaultFeatureGates: Gardener v1.149's pkg/features defaults of the two gates that
// decide D-1 and I-1.
func TestGardenerDefaultFeatureGates(t *testing.T) {
	got := GardenerDefaultFeatureGates()
	if got.VersionClassificationLifecycle || !got.CloudProfileCapabilities {
		t.Fatalf("defaults = %+v, want VersionClassificationLifecycle off and CloudProfileCapabilities on", got)
	}
}

// TestFeatureGates_With sets the known gates and explains the names it does not know.
func TestFeatureGates_With(t *testing.T) {
	g, err := GardenerDefaultFeatureGates().With(GateVersionClassificationLifecycle, true)
	if err != nil || !g.VersionClassificationLifecycle {
		t.Fatalf("With(lifecycle, true) = %+v, %v", g, err)
	}
	g, err = g.With(GateCloudProfileCapabilities, false)
	if err != nil || g.CloudProfileCapabilities {
		t.Fatalf("With(capabilities, false) = %+v, %v", g, err)
	}
	for name, want := range map[string]string{
		"versionClassificationLifecycle": `is spelled "VersionClassificationLifecycle"`,
		"InPlaceNodeUpdates":             "concerns Shoots only",
		"NoSuchGate":                     "those are CloudProfileCapabilities and VersionClassificationLifecycle",
	} {
		if _, err := g.With(name, true); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("With(%q) error = %v, want it to contain %q", name, err, want)
		}
	}
}

// TestFeatureGates_D1FollowsTheGate: rule D-1 rejects a lifecycle only while the gate is off.
func TestFeatureGates_D1FollowsTheGate(t *testing.T) {
	cp := validCloudProfile()
	cp.Spec.Kubernetes.Versions[0].Lifecycle = []gardencorev1beta1.LifecycleStage{stageOpen(supported)}
	opts := Options{Now: testNow, Gates: GardenerDefaultFeatureGates()}
	expectProblems(t, ValidateCloudProfile(cp, opts), want{rule: "D-1", typ: Forbidden, field: "spec.kubernetes.versions[0].lifecycle"})
	opts.Gates, _ = opts.Gates.With(GateVersionClassificationLifecycle, true)
	expectProblems(t, ValidateCloudProfile(cp, opts))
}
