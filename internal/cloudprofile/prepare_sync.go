package cloudprofile

import (
	"slices"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Architecture/capability synchronisation (Gardener's SyncArchitectureCapabilityFields).
// gardener-apiserver runs it in PrepareForUpdate with the real old spec and in Canonicalize (after
// validation, on create and update) with an empty old spec.
//
// Where Gardener derives a list of architectures from a set (order unspecified), this
// implementation uses the order of first occurrence; compare such lists as sets.

// SyncArchitectureCapabilities mutates newSpec as Gardener does given the old spec:
//
//   - Initial migration (old has no capability definitions, new has some, and the architecture
//     definition has more than one value): every version without flavors gets one flavor
//     {architecture: [a]} per entry of its architectures (["amd64"] if empty); every machine type
//     without capabilities gets {architecture: [its architecture or "amd64"]}.
//   - Whenever old or new has definitions: without new definitions all flavors and machine type
//     capabilities are cleared; otherwise versions with empty architectures get the union of their
//     defaulted flavors' architectures (if any) and machine types with nil architecture get the
//     single defaulted architecture capability value (if exactly one).
func SyncArchitectureCapabilities(newSpec *gardencorev1beta1.CloudProfileSpec, oldSpec *gardencorev1beta1.CloudProfileSpec) {
	hasNew := len(newSpec.MachineCapabilities) > 0
	hasOld := oldSpec != nil && len(oldSpec.MachineCapabilities) > 0

	if hasNew && !hasOld && len(capabilitiesOf(newSpec.MachineCapabilities).architectures()) > 1 {
		migrateImagesToFlavors(newSpec.MachineImages)
		migrateMachineTypesToCapabilities(newSpec.MachineTypes)
	}
	if hasNew || hasOld {
		syncImageArchitectures(newSpec.MachineImages, newSpec.MachineCapabilities)
		syncMachineTypeArchitectures(newSpec.MachineTypes, newSpec.MachineCapabilities)
	}
}

func migrateImagesToFlavors(images []gardencorev1beta1.MachineImage) {
	for i := range images {
		for j := range images[i].Versions {
			v := &images[i].Versions[j]
			if len(v.CapabilityFlavors) > 0 {
				continue
			}
			architectures := v.Architectures
			if len(architectures) == 0 {
				architectures = []string{defaultArchitecture}
			}
			for _, arch := range architectures {
				v.CapabilityFlavors = append(v.CapabilityFlavors, gardencorev1beta1.MachineImageFlavor{
					Capabilities: gardencorev1beta1.Capabilities{architectureCapability: {arch}},
				})
			}
		}
	}
}

func migrateMachineTypesToCapabilities(types []gardencorev1beta1.MachineType) {
	for i := range types {
		m := &types[i]
		if len(m.Capabilities) > 0 {
			continue
		}
		arch := defaultArchitecture
		if m.Architecture != nil {
			arch = *m.Architecture
		}
		m.Capabilities = gardencorev1beta1.Capabilities{architectureCapability: {arch}}
	}
}

// syncImageArchitectures sets the architectures of the image versions that have none to those of
// their flavors. The versions without flavors share one list of every defined architecture: a
// definition of many values is not copied for each version.
func syncImageArchitectures(images []gardencorev1beta1.MachineImage, defs []gardencorev1beta1.CapabilityDefinition) {
	var everyDefined []string
	for i := range images {
		for j := range images[i].Versions {
			v := &images[i].Versions[j]
			if len(defs) == 0 {
				v.CapabilityFlavors = nil
				continue
			}
			if len(v.Architectures) > 0 {
				continue
			}
			var archs []string
			if len(v.CapabilityFlavors) == 0 {
				if everyDefined == nil {
					everyDefined = slices.Clip(defaultedFlavorArchitectures(nil, defs))
				}
				archs = everyDefined
			} else {
				archs = defaultedFlavorArchitectures(v.CapabilityFlavors, defs)
			}
			if len(archs) > 0 {
				v.Architectures = archs
			}
		}
	}
}

func syncMachineTypeArchitectures(types []gardencorev1beta1.MachineType, defs []gardencorev1beta1.CapabilityDefinition) {
	for i := range types {
		m := &types[i]
		if len(defs) == 0 {
			m.Capabilities = nil
			continue
		}
		if m.Architecture != nil {
			continue
		}
		if archs := gardencorev1beta1.GetCapabilitiesWithAppliedDefaults(m.Capabilities, defs)[architectureCapability]; len(archs) == 1 {
			arch := archs[0]
			m.Architecture = &arch
		}
	}
}

// defaultedFlavorArchitectures is the union of the architecture values of the flavors with the
// definitions' defaults applied; no flavors count as one flavor supporting every defined value.
func defaultedFlavorArchitectures(flavors []gardencorev1beta1.MachineImageFlavor, defs []gardencorev1beta1.CapabilityDefinition) []string {
	if len(flavors) == 0 {
		flavors = []gardencorev1beta1.MachineImageFlavor{{}}
	}
	var union archSet
	for _, flavor := range flavors {
		union.add(gardencorev1beta1.GetCapabilitiesWithAppliedDefaults(flavor.Capabilities, defs)[architectureCapability]...)
	}
	return union.order
}
