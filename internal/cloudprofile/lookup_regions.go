package cloudprofile

import (
	"cmp"
	"slices"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// The rules by which Gardener's shoot admission accepts the machine and volume type of a worker
// pool, read as lookups: a machine type must be in the profile, be usable, have the worker's
// architecture and not be listed in the `unavailableMachineTypes` of any zone the worker uses; a
// volume type must be in the profile, be usable and not be listed in the `unavailableVolumeTypes`
// of any of those zones. An unset `usable` counts as true, which is what Gardener's defaulting sets
// on both kinds of profile.

// Usability is what shoots can use in a profile: the usable machine and volume types, and which of
// them each region and zone offers.
type Usability struct {
	// MachineTypes are the usable machine types (of the architecture asked for, if any), smallest
	// first (see CompareMachineTypeSize).
	MachineTypes []gardencorev1beta1.MachineType
	// VolumeTypes are the usable volume types, in spec order.
	VolumeTypes []gardencorev1beta1.VolumeType
	// Regions are the profile's regions, in spec order.
	Regions []RegionUsability
}

// RegionUsability lists the machine and volume types shoots can use in one region.
type RegionUsability struct {
	Name string
	// MachineTypes and VolumeTypes are usable in at least one zone of the region, or, for a region
	// without zones, usable at all. In the order of Usability's lists.
	MachineTypes []string
	VolumeTypes  []string
	Zones        []ZoneUsability
}

// ZoneUsability lists the machine and volume types shoots can use in one zone.
type ZoneUsability struct {
	Name string
	// MachineTypes and VolumeTypes are usable and not listed in the zone's unavailableMachineTypes
	// and unavailableVolumeTypes. In the order of Usability's lists.
	MachineTypes []string
	VolumeTypes  []string
}

// UsableTypes tells which machine and volume types shoots may use in spec, per region and zone.
// With architecture set (e.g. "arm64") only machine types of that architecture count (see
// MachineTypeArchitecture); volume types have none. Type lists are never nil, so that an empty
// answer is an empty list.
func UsableTypes(spec gardencorev1beta1.CloudProfileSpec, architecture string) Usability {
	u := Usability{
		MachineTypes: UsableMachineTypes(spec, architecture),
		VolumeTypes:  UsableVolumeTypes(spec),
		Regions:      make([]RegionUsability, 0, len(spec.Regions)),
	}
	machineTypes := make([]string, len(u.MachineTypes))
	for i, m := range u.MachineTypes {
		machineTypes[i] = m.Name
	}
	volumeTypes := make([]string, len(u.VolumeTypes))
	for i, v := range u.VolumeTypes {
		volumeTypes[i] = v.Name
	}
	for _, region := range spec.Regions {
		u.Regions = append(u.Regions, regionUsability(region, machineTypes, volumeTypes))
	}
	return u
}

// regionUsability applies a region's zones to the usable types (names, in order).
func regionUsability(region gardencorev1beta1.Region, machineTypes, volumeTypes []string) RegionUsability {
	r := RegionUsability{Name: region.Name, Zones: make([]ZoneUsability, 0, len(region.Zones))}
	if len(region.Zones) == 0 {
		r.MachineTypes = slices.Clone(machineTypes)
		r.VolumeTypes = slices.Clone(volumeTypes)
		return r
	}
	machineInSomeZone := make([]bool, len(machineTypes))
	volumeInSomeZone := make([]bool, len(volumeTypes))
	for _, zone := range region.Zones {
		r.Zones = append(r.Zones, ZoneUsability{
			Name:         zone.Name,
			MachineTypes: availableIn(machineTypes, zone.UnavailableMachineTypes, machineInSomeZone),
			VolumeTypes:  availableIn(volumeTypes, zone.UnavailableVolumeTypes, volumeInSomeZone),
		})
	}
	r.MachineTypes = marked(machineTypes, machineInSomeZone)
	r.VolumeTypes = marked(volumeTypes, volumeInSomeZone)
	return r
}

// availableIn returns the names not listed in unavailable, in order, and marks them in seen.
func availableIn(names, unavailable []string, seen []bool) []string {
	var excluded map[string]bool
	if len(unavailable) > 0 {
		excluded = make(map[string]bool, len(unavailable))
		for _, n := range unavailable {
			excluded[n] = true
		}
	}
	out := make([]string, 0, len(names))
	for i, n := range names {
		if !excluded[n] {
			out = append(out, n)
			seen[i] = true
		}
	}
	return out
}

// marked returns the names whose mark is set, in order.
func marked(names []string, marks []bool) []string {
	out := make([]string, 0, len(names))
	for i, n := range names {
		if marks[i] {
			out = append(out, n)
		}
	}
	return out
}

// isUsable is Gardener's reading of a type's `usable` after defaulting: unset counts as true.
func isUsable(usable *bool) bool { return usable == nil || *usable }

// UsableMachineTypes returns the machine types of spec that are usable and, when architecture is
// not empty, of that architecture, smallest first (CompareMachineTypeSize; ties keep spec order).
func UsableMachineTypes(spec gardencorev1beta1.CloudProfileSpec, architecture string) []gardencorev1beta1.MachineType {
	out := make([]gardencorev1beta1.MachineType, 0, len(spec.MachineTypes))
	for _, m := range spec.MachineTypes {
		if !isUsable(m.Usable) || (architecture != "" && MachineTypeArchitecture(m, spec.MachineCapabilities) != architecture) {
			continue
		}
		out = append(out, m)
	}
	slices.SortStableFunc(out, CompareMachineTypeSize)
	return out
}

// UsableVolumeTypes returns the volume types of spec that are usable, in spec order.
func UsableVolumeTypes(spec gardencorev1beta1.CloudProfileSpec) []gardencorev1beta1.VolumeType {
	out := make([]gardencorev1beta1.VolumeType, 0, len(spec.VolumeTypes))
	for _, v := range spec.VolumeTypes {
		if isUsable(v.Usable) {
			out = append(out, v)
		}
	}
	return out
}

// MachineTypeArchitecture returns the CPU architecture of m as Gardener compares it with a worker's:
// the single value of its `architecture` capability (definitions' defaults applied) under
// capability definitions, else its `architecture`, else amd64, which Gardener's defaulting sets on
// CloudProfiles and its NamespacedCloudProfile merge sets on merged profiles.
func MachineTypeArchitecture(m gardencorev1beta1.MachineType, defs []gardencorev1beta1.CapabilityDefinition) string {
	if arch := m.GetArchitecture(defs); arch != "" {
		return arch
	}
	return defaultArchitecture
}

// CompareMachineTypeSize orders machine types by size: by CPU, then memory, then GPU.
func CompareMachineTypeSize(a, b gardencorev1beta1.MachineType) int {
	return cmp.Or(a.CPU.Cmp(b.CPU), a.Memory.Cmp(b.Memory), a.GPU.Cmp(b.GPU))
}
