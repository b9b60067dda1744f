package cloudprofile

import (
	"slices"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Defaulting is Gardener's own v1beta1 defaulting, which gardener-apiserver runs on every
// decode: without capability definitions, empty image version architectures become ["amd64"] and
// nil machine type architectures "amd64"; nil update strategies become "major"; empty CRI lists
// [{name: containerd}]; nil machine and volume type usable flags true.

// DefaultedCloudProfile returns a deep copy of cp with Gardener's v1beta1 defaults applied.
func DefaultedCloudProfile(cp *gardencorev1beta1.CloudProfile) *gardencorev1beta1.CloudProfile {
	if cp == nil {
		return nil
	}
	out := cp.DeepCopy()
	gardencorev1beta1.SetObjectDefaults_CloudProfile(out)
	return out
}

// defaultedSharing returns cp with Gardener's v1beta1 defaults applied, copying only the entries
// that defaulting and the preparation for validation assign to (the machine images and their
// versions, the machine types, the volume types); everything below them, and the rest of the
// profile, is shared with cp and must not be changed. A deep copy of 10,000 versions costs more
// than validating them.
func defaultedSharing(cp *gardencorev1beta1.CloudProfile) *gardencorev1beta1.CloudProfile {
	if cp == nil {
		return nil
	}
	out := *cp
	out.Spec.MachineImages = slices.Clone(cp.Spec.MachineImages)
	for i := range out.Spec.MachineImages {
		out.Spec.MachineImages[i].Versions = slices.Clone(out.Spec.MachineImages[i].Versions)
	}
	out.Spec.MachineTypes = slices.Clone(cp.Spec.MachineTypes)
	out.Spec.VolumeTypes = slices.Clone(cp.Spec.VolumeTypes)
	gardencorev1beta1.SetObjectDefaults_CloudProfile(&out)
	return &out
}
