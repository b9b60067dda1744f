package cloudprofile

import (
	"slices"
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
// says Gardener drops, each right after its nearest predecessor in desired that the result holds
// (the first element of the result with that key), or first. The result is built as a linked
// list, so that each insertion costs the same however many elements are put back.
func withDropped[T any](stored, desired []T, key func(T) string, dropped func(T) bool) []T {
	const none = -1
	nodes := slices.Clone(stored)
	next := make([]int, len(stored), len(stored)+len(desired))
	node := make(map[string]int, len(stored)) // the first node of each key
	for i := range stored {
		next[i] = i + 1
		if _, seen := node[key(stored[i])]; !seen {
			node[key(stored[i])] = i
		}
	}
	head := 0
	if len(stored) == 0 {
		head = none
	} else {
		next[len(stored)-1] = none
	}
	inserted := false
	anchor := none // the node of the nearest predecessor the result holds
	for _, want := range desired {
		k := key(want)
		if at, ok := node[k]; ok {
			anchor = at
			continue
		}
		if !dropped(want) {
			continue
		}
		nodes = append(nodes, want)
		added := len(nodes) - 1
		if anchor == none {
			next = append(next, head)
			head = added
		} else {
			next = append(next, next[anchor])
			next[anchor] = added
		}
		node[k], anchor, inserted = added, added, true
	}
	if !inserted {
		return stored
	}
	out := make([]T, 0, len(nodes))
	for i := head; i != none; i = next[i] {
		out = append(out, nodes[i])
	}
	return out
}
