package cloudprofile

import (
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// VersionUsage counts the Shoots that use a profile by the versions they run. Shoots being deleted
// are not counted.
type VersionUsage struct {
	// Kubernetes counts the Shoots by the Kubernetes version of their control plane.
	Kubernetes map[string]int
	// MachineImages counts, by image name and version, the Shoots with at least one worker pool on
	// that version.
	MachineImages map[string]map[string]int
}

// VersionUsageOfCloudProfile counts the Shoots that refer to the named CloudProfile directly.
func VersionUsageOfCloudProfile(name string, shoots []gardencorev1beta1.Shoot) VersionUsage {
	return versionUsage(shootsReferring(shoots, func(s *gardencorev1beta1.Shoot) bool {
		kind, ref, ok := shootCloudProfile(s)
		return ok && kind == kindCloudProfile && ref == name
	}))
}

// VersionUsageOfNamespacedCloudProfile counts the Shoots of the namespace that refer to the named
// NamespacedCloudProfile.
func VersionUsageOfNamespacedCloudProfile(namespace, name string, shoots []gardencorev1beta1.Shoot) VersionUsage {
	return versionUsage(shootsReferring(shoots, func(s *gardencorev1beta1.Shoot) bool {
		kind, ref, ok := shootCloudProfile(s)
		return ok && kind == kindNamespacedCloudProfile && ref == name && s.Namespace == namespace
	}))
}

// versionUsage counts the versions users run.
func versionUsage(users []*gardencorev1beta1.Shoot) VersionUsage {
	u := VersionUsage{Kubernetes: map[string]int{}, MachineImages: map[string]map[string]int{}}
	for _, s := range users {
		u.Kubernetes[s.Spec.Kubernetes.Version]++
		seen := map[imageVersionKey]bool{}
		for _, w := range s.Spec.Provider.Workers {
			img := w.Machine.Image
			if img == nil || img.Version == nil || seen[imageVersionKey{img.Name, *img.Version}] {
				continue
			}
			seen[imageVersionKey{img.Name, *img.Version}] = true
			if u.MachineImages[img.Name] == nil {
				u.MachineImages[img.Name] = map[string]int{}
			}
			u.MachineImages[img.Name][*img.Version]++
		}
	}
	return u
}
