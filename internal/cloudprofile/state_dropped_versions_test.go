package cloudprofile

import (
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
