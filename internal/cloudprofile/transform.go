package cloudprofile

import (
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// TransformToParentFormat brings the machine images and machine types of a NamespacedCloudProfile
// spec into the architecture format of its parent (Gardener's
// TransformSpecToParentFormat). defs are the parent's spec.machineCapabilities. The merge uses it
// (MergeNamespacedCloudProfile) and so does parent-aware admission (before the L rules), which validates
// the transformed spec. The input is not modified; all other fields are copied unchanged.
//
// Capability parent (defs non-empty):
//   - a version without capabilityFlavors gets one flavor {architecture: [a]} per entry a of its
//     architectures, in that order (an empty, non-nil list when it has none); architectures stay;
//   - a machine type without capabilities gets {architecture: [a]}, a being its effective
//     architecture under defs (the single defaulted architecture value, else the architecture
//     field), else amd64.
//
// Legacy parent (no defs):
//   - a version with empty architectures gets the union of its flavors' architecture values (an
//     empty, non-nil list without flavors), then its capabilityFlavors are cleared;
//   - a machine type without architecture takes the first value of capabilities.architecture, then
//     its capabilities are cleared.
//
// Architectures derived from flavors form a set whose order Gardener leaves unspecified; this
// package lists them in order of first occurrence (flavor order, then value order) so that the
// result is deterministic. Compare such lists with a server's as sets.
func TransformToParentFormat(spec gardencorev1beta1.NamespacedCloudProfileSpec, defs []gardencorev1beta1.CapabilityDefinition) gardencorev1beta1.NamespacedCloudProfileSpec {
	out := spec.DeepCopy()
	transformInPlace(out, defs)
	return *out
}

// transformInPlace applies TransformToParentFormat to a spec the caller owns.
func transformInPlace(spec *gardencorev1beta1.NamespacedCloudProfileSpec, defs []gardencorev1beta1.CapabilityDefinition) {
	capabilityParent := len(defs) > 0
	for i := range spec.MachineImages {
		for j := range spec.MachineImages[i].Versions {
			transformImageVersion(&spec.MachineImages[i].Versions[j], capabilityParent)
		}
	}
	for i := range spec.MachineTypes {
		transformMachineType(&spec.MachineTypes[i], defs)
	}
}

func transformImageVersion(v *gardencorev1beta1.MachineImageVersion, capabilityParent bool) {
	if capabilityParent {
		if len(v.CapabilityFlavors) > 0 {
			return
		}
		flavors := make([]gardencorev1beta1.MachineImageFlavor, 0, len(v.Architectures))
		for _, arch := range v.Architectures {
			flavors = append(flavors, gardencorev1beta1.MachineImageFlavor{
				Capabilities: gardencorev1beta1.Capabilities{architectureCapability: gardencorev1beta1.CapabilityValues{arch}},
			})
		}
		v.CapabilityFlavors = flavors
		return
	}
	if len(v.Architectures) == 0 {
		v.Architectures = flavorArchitectureUnion(v.CapabilityFlavors).order
		if v.Architectures == nil {
			v.Architectures = []string{}
		}
	}
	v.CapabilityFlavors = nil
}

func transformMachineType(m *gardencorev1beta1.MachineType, defs []gardencorev1beta1.CapabilityDefinition) {
	if len(defs) > 0 {
		if len(m.Capabilities) > 0 {
			return
		}
		arch := m.GetArchitecture(defs)
		if arch == "" && m.Architecture == nil {
			// An explicit empty architecture stays empty, as in Gardener (ptr.Deref).
			arch = defaultArchitecture
		}
		m.Capabilities = gardencorev1beta1.Capabilities{architectureCapability: gardencorev1beta1.CapabilityValues{arch}}
		return
	}
	if m.Architecture == nil {
		if archs := m.Capabilities[architectureCapability]; len(archs) > 0 {
			arch := archs[0]
			m.Architecture = &arch
		}
	}
	m.Capabilities = nil
}
