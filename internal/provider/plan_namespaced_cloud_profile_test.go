package provider

import (
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// L-3 compares an expired override with the old object's merged status. Without the merged status
// in the state, the plan compares with the merge of the parent and the old spec, which is what
// Gardener's controller renders: an unchanged expired override is no L-3 error, a changed one is.
func TestWithMergedStatus_L3ComparesWithTheRenderedMerge(t *testing.T) {
	date := func(y int) *metav1.Time { d := metav1.NewTime(time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)); return &d }
	deprecated := gardencorev1beta1.ClassificationDeprecated
	parent := &gardencorev1beta1.CloudProfile{
		ObjectMeta: metav1.ObjectMeta{Name: "parent"},
		Spec: gardencorev1beta1.CloudProfileSpec{Type: "local", Kubernetes: gardencorev1beta1.KubernetesSettings{
			Versions: []gardencorev1beta1.ExpirableVersion{{Version: "1.30.5", Classification: &deprecated, ExpirationDate: date(2030)}},
		}},
	}
	namespaced := func(expiry int) *gardencorev1beta1.NamespacedCloudProfile {
		return &gardencorev1beta1.NamespacedCloudProfile{
			ObjectMeta: metav1.ObjectMeta{Name: "team", Namespace: "garden-team"},
			Spec: gardencorev1beta1.NamespacedCloudProfileSpec{
				Parent:     gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: "parent"},
				Kubernetes: &gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{{Version: "1.30.5", ExpirationDate: date(expiry)}}},
			},
		}
	}
	opts := cloudprofile.OptionsWithAllGates(time.Date(2032, 6, 1, 0, 0, 0, 0, time.UTC))
	old := namespaced(2031) // expired at the instant of the plan
	// The update changes something else (Gardener checks nothing on an unchanged spec).
	changed := func(expiry int) *gardencorev1beta1.NamespacedCloudProfile {
		ncp := namespaced(expiry)
		ncp.Spec.Limits = &gardencorev1beta1.Limits{MaxNodesTotal: ptrTo(int32(50))}
		return ncp
	}
	hasL3 := func(ps cloudprofile.Problems) bool {
		for _, p := range ps.Errors() {
			if p.Rule == "L-3" {
				return true
			}
		}
		return false
	}
	if !hasL3(cloudprofile.AdmitNamespacedCloudProfileRequest(changed(2031), old, parent, opts)) {
		t.Fatalf("against an empty status the unchanged expired override is L-3: the test proves nothing: %v", cloudprofile.AdmitNamespacedCloudProfileRequest(changed(2031), old, parent, opts))
	}
	if ps := cloudprofile.AdmitNamespacedCloudProfileRequest(changed(2031), withMergedStatus(old, parent, opts), parent, opts); hasL3(ps) {
		t.Errorf("an unchanged expired override is an L-3 error against the rendered merge: %v", ps)
	}
	if ps := cloudprofile.AdmitNamespacedCloudProfileRequest(changed(2031), withMergedStatus(namespaced(2029), parent, opts), parent, opts); !hasL3(ps) {
		t.Errorf("a changed expired override is no L-3 error: %v", ps)
	}
	if withMergedStatus(nil, parent, opts) != nil {
		t.Error("a create has no old object")
	}
}

func ptrTo[T any](v T) *T { return &v }
