package cloudprofile

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

func TestWithDroppedVersions_PutsBackWhatGardenerDropsOnCreate(t *testing.T) {
	at := time.Date(2027, 1, 15, 0, 0, 0, 0, time.UTC)
	past := metav1.NewTime(at.Add(-time.Hour))
	future := metav1.NewTime(at.Add(time.Hour))
	expired := gardencorev1beta1.ExpirableVersion{Version: "1.30.1", ExpirationDate: &past}
	notYet := gardencorev1beta1.ExpirableVersion{Version: "1.32.0", Lifecycle: []gardencorev1beta1.LifecycleStage{{Classification: "preview", StartTime: &future}}}
	desired := gardencorev1beta1.CloudProfileSpec{
		Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{{Version: "1.31.2"}, expired, notYet}},
		MachineImages: []gardencorev1beta1.MachineImage{{Name: "gl", Versions: []gardencorev1beta1.MachineImageVersion{
			{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1.0.0", ExpirationDate: &past}},
			{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "2.0.0"}},
			// Unavailable machine image versions are kept by Gardener, so one missing was removed by someone.
			{ExpirableVersion: notYet},
		}}},
	}
	stored := gardencorev1beta1.CloudProfileSpec{
		Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{{Version: "1.31.2"}}},
		MachineImages: []gardencorev1beta1.MachineImage{{Name: "gl", UpdateStrategy: ptr.To(gardencorev1beta1.UpdateStrategyMajor),
			Versions: []gardencorev1beta1.MachineImageVersion{{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "2.0.0"}}}}},
	}
	got := WithDroppedVersions(stored, desired, at)
	if v := got.Kubernetes.Versions; len(v) != 3 || v[0].Version != "1.31.2" || v[1].Version != "1.30.1" || v[2].Version != "1.32.0" {
		t.Fatalf("kubernetes versions: %+v", v)
	}
	if v := got.MachineImages[0].Versions; len(v) != 2 || v[0].Version != "1.0.0" || v[1].Version != "2.0.0" {
		t.Fatalf("image versions: want 1.0.0 put back first and the unavailable one still missing, got %+v", v)
	}
	if len(stored.Kubernetes.Versions) != 1 {
		t.Fatal("input modified")
	}
}

func TestWithDroppedNamespacedVersions_PutsBackEmptiedImages(t *testing.T) {
	at := time.Date(2027, 1, 15, 0, 0, 0, 0, time.UTC)
	past := metav1.NewTime(at.Add(-time.Hour))
	desired := gardencorev1beta1.NamespacedCloudProfileSpec{
		Kubernetes: &gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{{Version: "1.30.1", ExpirationDate: &past}}},
		MachineImages: []gardencorev1beta1.MachineImage{{Name: "gl", Versions: []gardencorev1beta1.MachineImageVersion{
			{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1.0.0", ExpirationDate: &past}},
		}}},
	}
	got := WithDroppedNamespacedVersions(gardencorev1beta1.NamespacedCloudProfileSpec{Kubernetes: &gardencorev1beta1.KubernetesSettings{}}, desired, at)
	if len(got.Kubernetes.Versions) != 1 || len(got.MachineImages) != 1 || len(got.MachineImages[0].Versions) != 1 {
		t.Fatalf("got %+v", got)
	}
}

// withDroppedByInsertion is withDropped as a search and an insertion per element put back: the
// oracle of its linked list.
func withDroppedByInsertion(stored, desired []string, dropped func(string) bool) []string {
	present := map[string]bool{}
	for _, e := range stored {
		present[e] = true
	}
	out := stored
	for i, want := range desired {
		if present[want] || !dropped(want) {
			continue
		}
		pos := 0
		for j := i - 1; j >= 0; j-- {
			if at := slices.Index(out, desired[j]); at >= 0 {
				pos = at + 1
				break
			}
		}
		out = append(out[:pos:pos], append([]string{want}, out[pos:]...)...)
		present[want] = true
	}
	return out
}

func TestWithDropped_PutsBackAfterTheNearestPredecessorAsOneInsertionAtATimeWould(t *testing.T) {
	r := rand.New(rand.NewPCG(44, 1))
	identity := func(s string) string { return s }
	droppedIfUpper := func(s string) bool { return strings.ToUpper(s) == s }
	for round := range 5000 {
		draw := func() []string {
			out := make([]string, r.IntN(8))
			for i := range out {
				out[i] = string(rune("aAbBcCdD"[r.IntN(8)]))
			}
			return out
		}
		stored, desired := draw(), draw()
		want := withDroppedByInsertion(slices.Clone(stored), desired, droppedIfUpper)
		if got := withDropped(slices.Clone(stored), desired, identity, droppedIfUpper); !slices.Equal(got, want) {
			t.Fatalf("round %d: stored %q, desired %q: got %q, want %q", round, stored, desired, got, want)
		}
	}
}
