package extcommon

import (
	"slices"
	"sort"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// The extensions' mutating webhooks for CloudProfiles and NamespacedCloudProfiles (each
// extension's pkg/admission/mutator) run before gardener-apiserver validates the object and before
// the validating webhooks. Under capability definitions (of the CloudProfile, or of the parent of a
// NamespacedCloudProfile) they overwrite the capability flavors of every spec.machineImages version
// that the providerConfig maps with the flavors the providerConfig gives for it. These helpers are
// the parts they share.

// SpecVersion returns the first version of that version string of the first image of that name,
// as the mutators find them (slices.IndexFunc), or nil.
func SpecVersion(images []gardencorev1beta1.MachineImage, name, version string) *gardencorev1beta1.MachineImageVersion {
	i := slices.IndexFunc(images, func(m gardencorev1beta1.MachineImage) bool { return m.Name == name })
	if i < 0 {
		return nil
	}
	j := slices.IndexFunc(images[i].Versions, func(v gardencorev1beta1.MachineImageVersion) bool { return v.Version == version })
	if j < 0 {
		return nil
	}
	return &images[i].Versions[j]
}

// ArchitectureFlavors returns one flavor {architecture: [a]} per distinct architecture, sorted,
// as the mutators convert the old (per-architecture) format.
func ArchitectureFlavors(archs []string) []gardencorev1beta1.MachineImageFlavor {
	distinct := slices.Clone(archs)
	sort.Strings(distinct)
	distinct = slices.Compact(distinct)
	out := make([]gardencorev1beta1.MachineImageFlavor, 0, len(distinct))
	for _, a := range distinct {
		out = append(out, gardencorev1beta1.MachineImageFlavor{Capabilities: gardencorev1beta1.Capabilities{ArchitectureName: {a}}})
	}
	return out
}

// Flavors converts capability sets to flavors, as the mutators convert the new format.
func Flavors(sets []gardencorev1beta1.Capabilities) []gardencorev1beta1.MachineImageFlavor {
	out := make([]gardencorev1beta1.MachineImageFlavor, 0, len(sets))
	for _, c := range sets {
		out = append(out, gardencorev1beta1.MachineImageFlavor{Capabilities: c})
	}
	return out
}
