package cloudprofile

import (
	"reflect"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

func k8sSpec(versions ...ev) gardencorev1beta1.CloudProfileSpec {
	return gardencorev1beta1.CloudProfileSpec{Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: versions}}
}

// The status the CloudProfile controller writes (entries of Gardener's reconciler and integration tests).
func TestStatusAt_ControllerStatus(t *testing.T) {
	evs := func(pairs ...any) []gardencorev1beta1.ExpirableVersionStatus {
		out := make([]gardencorev1beta1.ExpirableVersionStatus, 0, len(pairs)/2)
		for i := 0; i < len(pairs); i += 2 {
			out = append(out, gardencorev1beta1.ExpirableVersionStatus{Version: pairs[i].(string), Classification: pairs[i+1].(gardencorev1beta1.VersionClassification)})
		}
		return out
	}
	tests := []struct {
		name string
		spec gardencorev1beta1.CloudProfileSpec
		want gardencorev1beta1.CloudProfileStatus
	}{
		{"an empty spec gives nil kubernetes and nil machine images", gardencorev1beta1.CloudProfileSpec{}, gardencorev1beta1.CloudProfileStatus{}},
		{"old classifications: a version with a future expiration date keeps its classification",
			k8sSpec(ev{Version: "1.28.2", Classification: cls(deprecated), ExpirationDate: at(day)}, ev{Version: "1.28.1", ExpirationDate: at(-day)}),
			gardencorev1beta1.CloudProfileStatus{Kubernetes: &gardencorev1beta1.KubernetesStatus{Versions: evs("1.28.2", deprecated, "1.28.1", expired)}}},
		{"lifecycle classifications: the stage that started last is reported",
			k8sSpec(ev{Version: "1.28.2", Lifecycle: lc{stageAt(preview, -day), stageAt(supported, day), stageAt(deprecated, 2*day)}}),
			gardencorev1beta1.CloudProfileStatus{Kubernetes: &gardencorev1beta1.KubernetesStatus{Versions: evs("1.28.2", preview)}}},
		{"lifecycle classifications without initial start time",
			k8sSpec(ev{Version: "1.28.2", Lifecycle: lc{stageOpen(preview), stageAt(supported, day)}}),
			gardencorev1beta1.CloudProfileStatus{Kubernetes: &gardencorev1beta1.KubernetesStatus{Versions: evs("1.28.2", preview)}}},
		{"a lifecycle in the future is unavailable",
			k8sSpec(ev{Version: "1.28.2", Lifecycle: lc{stageAt(supported, day)}}),
			gardencorev1beta1.CloudProfileStatus{Kubernetes: &gardencorev1beta1.KubernetesStatus{Versions: evs("1.28.2", unavailable)}}},
		{"machine images in spec order, an image without versions gets an empty list",
			gardencorev1beta1.CloudProfileSpec{MachineImages: []gardencorev1beta1.MachineImage{
				{Name: "b", Versions: []gardencorev1beta1.MachineImageVersion{imageVersion("2.0.0"), {ExpirableVersion: ev{Version: "1.0.0", ExpirationDate: at(-hour)}}}},
				{Name: "a"},
			}},
			gardencorev1beta1.CloudProfileStatus{MachineImages: []gardencorev1beta1.MachineImageStatus{
				{Name: "b", Versions: evs("2.0.0", supported, "1.0.0", expired)},
				{Name: "a", Versions: evs()},
			}}},
		{"duplicates are listed twice",
			k8sSpec(ev{Version: "1.1.1"}, ev{Version: "1.1.1"}),
			gardencorev1beta1.CloudProfileStatus{Kubernetes: &gardencorev1beta1.KubernetesStatus{Versions: evs("1.1.1", supported, "1.1.1", supported)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := StatusAt(tt.spec, testNow)
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("StatusAt = %#v\nwant %#v", got, tt.want)
			}
		})
	}
	t.Run("an image without versions has a non-nil empty list", func(t *testing.T) {
		got := StatusAt(gardencorev1beta1.CloudProfileSpec{MachineImages: []gardencorev1beta1.MachineImage{{Name: "a"}}}, testNow)
		if got.MachineImages[0].Versions == nil {
			t.Fatal("versions is nil, want empty")
		}
	})
}

// The requeue of the CloudProfile controller (entries of the tests of DurationUntilNextVersionTransition).
func TestNextRequeue_ControllerRequeue(t *testing.T) {
	withStarts := func(ds ...time.Duration) ev {
		v := ev{Version: "1.0.0"}
		for _, d := range ds {
			v.Lifecycle = append(v.Lifecycle, gardencorev1beta1.LifecycleStage{StartTime: at(d)})
		}
		return v
	}
	imageSpec := func(v ev) gardencorev1beta1.CloudProfileSpec {
		return gardencorev1beta1.CloudProfileSpec{MachineImages: []gardencorev1beta1.MachineImage{{Versions: []gardencorev1beta1.MachineImageVersion{{ExpirableVersion: v}}}}}
	}
	preferLifecycle := withStarts(2*hour, 5*hour)
	preferLifecycle.ExpirationDate = at(hour)
	both := k8sSpec(withStarts(hour, 2*hour))
	both.MachineImages = imageSpec(withStarts(3*hour, 4*hour)).MachineImages

	tests := []struct {
		name string
		spec gardencorev1beta1.CloudProfileSpec
		want time.Duration
	}{
		{"the lifecycle is preferred over the expiration date", k8sSpec(preferLifecycle), 2 * hour},
		{"the expiration date is used without lifecycle", k8sSpec(ev{Version: "1", ExpirationDate: at(hour)}), hour},
		{"kubernetes lifecycle in chronological order", k8sSpec(withStarts(2*hour, 5*hour)), 2 * hour},
		{"kubernetes lifecycle without chronological order", k8sSpec(withStarts(3*hour, hour)), hour},
		{"kubernetes lifecycle with a start time in the past", k8sSpec(withStarts(3*hour, -hour)), 3 * hour},
		{"machine image lifecycle in chronological order", imageSpec(withStarts(2*hour, 5*hour)), 2 * hour},
		{"machine image lifecycle without chronological order", imageSpec(withStarts(3*hour, hour)), hour},
		{"machine image lifecycle with a start time in the past", imageSpec(withStarts(3*hour, -hour)), 3 * hour},
		{"kubernetes and machine image lifecycles: the earliest wins", both, hour},
		{"no candidate gives 0", k8sSpec(ev{Version: "1", Classification: cls(supported)}), 0},
		{"only past candidates give 0", k8sSpec(withStarts(-2*hour, -hour)), 0},
		{"a candidate equal to now gives 0", k8sSpec(ev{Version: "1", ExpirationDate: at(0)}), 0},
		{"a candidate at which the classification does not change still counts",
			k8sSpec(ev{Version: "1", Lifecycle: lc{stageOpen(supported), stageAt(deprecated, 2*hour), stageAt(supported, hour)}}), hour},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := NextRequeue(tt.spec, testNow); got != tt.want {
				t.Fatalf("NextRequeue = %s, want %s", got, tt.want)
			}
		})
	}
}
