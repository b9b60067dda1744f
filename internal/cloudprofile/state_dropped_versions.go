package cloudprofile

import (
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// WithDroppedVersions returns stored with the versions of desired put back that Gardener drops
// when they are written: Kubernetes versions that are not active at `at`, and machine image
// versions that are expired at `at` (W-dropped). Each is put back after the version that precedes
// it in desired. Versions missing from stored for any other reason stay missing.
//
// The provider records such versions in its state as configured, so that a plan after apply shows
// no change for a version Gardener would only drop again, while the plan warns about it.
func WithDroppedVersions(stored, desired gardencorev1beta1.CloudProfileSpec, at time.Time) gardencorev1beta1.CloudProfileSpec {
	out := *stored.DeepCopy()
	out.Kubernetes.Versions = withDropped(out.Kubernetes.Versions, desired.Kubernetes.Versions,
		func(v gardencorev1beta1.ExpirableVersion) string { return v.Version },
		func(v gardencorev1beta1.ExpirableVersion) bool { return !IsActive(v, at) })
	out.MachineImages = withDroppedImageVersions(out.MachineImages, desired.MachineImages, at)
	return out
}

// WithDroppedNamespacedVersions is WithDroppedVersions for a NamespacedCloudProfile's spec, where
// Gardener drops new Kubernetes and machine image versions alike when they are not active.
func WithDroppedNamespacedVersions(stored, desired gardencorev1beta1.NamespacedCloudProfileSpec, at time.Time) gardencorev1beta1.NamespacedCloudProfileSpec {
	out := *stored.DeepCopy()
	if desired.Kubernetes != nil {
		if out.Kubernetes == nil {
			out.Kubernetes = &gardencorev1beta1.KubernetesSettings{}
		}
		out.Kubernetes.Versions = withDropped(out.Kubernetes.Versions, desired.Kubernetes.Versions,
			func(v gardencorev1beta1.ExpirableVersion) string { return v.Version },
			func(v gardencorev1beta1.ExpirableVersion) bool { return !IsActive(v, at) })
	}
	out.MachineImages = withDroppedImages(out.MachineImages, desired.MachineImages,
		func(v gardencorev1beta1.MachineImageVersion) bool { return !IsActive(v.ExpirableVersion, at) })
	return out
}

func withDroppedImageVersions(stored, desired []gardencorev1beta1.MachineImage, at time.Time) []gardencorev1beta1.MachineImage {
	expired := func(v gardencorev1beta1.MachineImageVersion) bool { return IsExpired(v.ExpirableVersion, at) }
	byName := make(map[string]int, len(stored))
	for i, img := range stored {
		byName[img.Name] = i
	}
	for _, want := range desired {
		if i, ok := byName[want.Name]; ok {
			stored[i].Versions = withDropped(stored[i].Versions, want.Versions, droppedVersionKey, expired)
		}
	}
	return stored
}

// withDroppedImages also puts back whole image entries that Gardener removed from a
// NamespacedCloudProfile because all of their versions were dropped.
func withDroppedImages(stored, desired []gardencorev1beta1.MachineImage, dropped func(gardencorev1beta1.MachineImageVersion) bool) []gardencorev1beta1.MachineImage {
	wholeImageDropped := func(img gardencorev1beta1.MachineImage) bool {
		for _, v := range img.Versions {
			if !dropped(v) {
				return false
			}
		}
		return img.UpdateStrategy == nil || *img.UpdateStrategy == ""
	}
	stored = withDropped(stored, desired, func(img gardencorev1beta1.MachineImage) string { return img.Name }, wholeImageDropped)
	byName := make(map[string]int, len(stored))
	for i, img := range stored {
		byName[img.Name] = i
	}
	for _, want := range desired {
		if i, ok := byName[want.Name]; ok {
			stored[i].Versions = withDropped(stored[i].Versions, want.Versions, droppedVersionKey, dropped)
		}
	}
	return stored
}

func droppedVersionKey(v gardencorev1beta1.MachineImageVersion) string { return v.Version }

// withDropped re-inserts the elements of desired that are missing from stored and that dropped
// says Gardener drops, each after its predecessor in desired (or first).
func withDropped[T any](stored, desired []T, key func(T) string, dropped func(T) bool) []T {
	present := make(map[string]bool, len(stored))
	for _, e := range stored {
		present[key(e)] = true
	}
	out := stored
	for i, want := range desired {
		k := key(want)
		if present[k] || !dropped(want) {
			continue
		}
		pos := 0
		for j := i - 1; j >= 0; j-- {
			if at := indexOf(out, key(desired[j]), key); at >= 0 {
				pos = at + 1
				break
			}
		}
		out = append(out[:pos:pos], append([]T{want}, out[pos:]...)...)
		present[k] = true
	}
	return out
}

func indexOf[T any](list []T, k string, key func(T) string) int {
	for i, e := range list {
		if key(e) == k {
			return i
		}
	}
	return -1
}
