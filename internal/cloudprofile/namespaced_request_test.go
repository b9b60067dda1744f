package cloudprofile

import (
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestNamespacedRequest_ProblemAttributesPointAtTheUsersIndices: Gardener drops an expired new
// version and the image entry it emptied before validating; problems in later entries must still
// name the user's indices.
func TestNamespacedRequest_ProblemAttributesPointAtTheUsersIndices(t *testing.T) {
	now := time.Date(2027, 1, 15, 0, 0, 0, 0, time.UTC)
	past := metav1.NewTime(now.Add(-24 * time.Hour))
	ncp := &gardencorev1beta1.NamespacedCloudProfile{
		ObjectMeta: metav1.ObjectMeta{Name: "n", Namespace: "garden-p"},
		Spec: gardencorev1beta1.NamespacedCloudProfileSpec{
			Parent: gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: "p"},
			MachineImages: []gardencorev1beta1.MachineImage{
				{Name: "dropped", Versions: []gardencorev1beta1.MachineImageVersion{{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1.0.0", ExpirationDate: &past}}}},
				{Name: "kept", Versions: []gardencorev1beta1.MachineImageVersion{
					{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "0.9.0", ExpirationDate: &past}},
					{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "not-semver"}},
				}},
			},
		},
	}
	opts := OptionsWithAllGates(now)
	var found bool
	for _, p := range ValidateNamespacedCloudProfileRequest(ncp, nil, opts) {
		if p.Path.Field() == "spec.machineImages[0].versions[0].version" {
			found = true
			if got := p.Path.Attribute(); got != "spec.machine_images[1].versions[1].version" {
				t.Errorf("attribute %s, want spec.machine_images[1].versions[1].version", got)
			}
		}
	}
	if !found {
		t.Fatalf("want F-3 on the stored object's spec.machineImages[0].versions[0].version, got %v", ValidateNamespacedCloudProfileRequest(ncp, nil, opts))
	}
}

// TestHoldsBackLaterChecks: the errors of the override stages (L-1 … L-10) stop Gardener's
// admission before the merged profile is checked; a missing parent (L-0), the merged profile's own
// errors (M rules) and warnings do not.
func TestHoldsBackLaterChecks(t *testing.T) {
	ncp := admNCP()
	future := metav1.NewTime(testNow.Add(24 * time.Hour))
	ncp.Spec.Kubernetes = &gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{{Version: "1.29.9", ExpirationDate: &future}}}
	problems := admit(ncp, nil, admParent())
	if len(problems) != 1 || problems[0].Rule != "L-1" || !HoldsBackLaterChecks(problems[0]) {
		t.Fatalf("an override of a version the parent lacks holds back the later checks: %v", problems)
	}
	for _, p := range []Problem{
		{Rule: "L-9/F-6", Severity: SeverityError},
		{Rule: "L-10", Severity: SeverityError},
	} {
		if !HoldsBackLaterChecks(p) {
			t.Errorf("%s holds back the later checks", p.Rule)
		}
	}
	for _, p := range []Problem{
		{Rule: "L-0", Severity: SeverityError},
		{Rule: "M-2/F-7", Severity: SeverityError},
		{Rule: "L-1", Severity: SeverityWarning},
		{Rule: "C-3", Severity: SeverityError},
	} {
		if HoldsBackLaterChecks(p) {
			t.Errorf("%s (severity %v) holds back nothing", p.Rule, p.Severity)
		}
	}
}
