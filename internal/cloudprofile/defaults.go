package cloudprofile

import (
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
