package cloudprofile

import (
	"slices"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// RegionUsability lists the machine and volume types shoots can use in one region.
type RegionUsability struct {
	Name string
	// MachineTypes and VolumeTypes are usable in at least one zone of the region, or, for a region
	// without zones, usable at all. Spec order.
	MachineTypes []string
	VolumeTypes  []string
	Zones        []ZoneUsability
}

// ZoneUsability lists the machine and volume types shoots can use in one zone.
type ZoneUsability struct {
	Name string
	// MachineTypes and VolumeTypes are usable (usable unset or true) and not listed in the zone's
	// unavailableMachineTypes and unavailableVolumeTypes. Spec order.
	MachineTypes []string
	VolumeTypes  []string
}

// UsableByRegion tells, per region and zone of spec, which machine and volume types shoots may use
// there: a type must be usable (`usable` unset counts as true, Gardener's default) and, in a zone,
// not be listed as unavailable in that zone. In a region it must be available in at least one of
// its zones; a region without zones offers every usable type. The result is never nil-sliced for
// types, so that an empty answer is an empty list.
func UsableByRegion(spec gardencorev1beta1.CloudProfileSpec) []RegionUsability {
	var machineTypes, volumeTypes []string
	for _, m := range spec.MachineTypes {
		if m.Usable == nil || *m.Usable {
			machineTypes = append(machineTypes, m.Name)
		}
	}
	for _, v := range spec.VolumeTypes {
		if v.Usable == nil || *v.Usable {
			volumeTypes = append(volumeTypes, v.Name)
		}
	}

	out := make([]RegionUsability, 0, len(spec.Regions))
	for _, region := range spec.Regions {
		r := RegionUsability{Name: region.Name, Zones: make([]ZoneUsability, 0, len(region.Zones))}
		if len(region.Zones) == 0 {
			r.MachineTypes = append([]string{}, machineTypes...)
			r.VolumeTypes = append([]string{}, volumeTypes...)
			out = append(out, r)
			continue
		}
		inSomeZone := map[string]bool{}
		for _, zone := range region.Zones {
			z := ZoneUsability{
				Name:         zone.Name,
				MachineTypes: without(machineTypes, zone.UnavailableMachineTypes),
				VolumeTypes:  without(volumeTypes, zone.UnavailableVolumeTypes),
			}
			for _, n := range z.MachineTypes {
				inSomeZone["m/"+n] = true
			}
			for _, n := range z.VolumeTypes {
				inSomeZone["v/"+n] = true
			}
			r.Zones = append(r.Zones, z)
		}
		r.MachineTypes = filterNames(machineTypes, func(n string) bool { return inSomeZone["m/"+n] })
		r.VolumeTypes = filterNames(volumeTypes, func(n string) bool { return inSomeZone["v/"+n] })
		out = append(out, r)
	}
	return out
}

func without(names, excluded []string) []string {
	return filterNames(names, func(n string) bool { return !slices.Contains(excluded, n) })
}

func filterNames(names []string, keep func(string) bool) []string {
	out := make([]string, 0, len(names))
	for _, n := range names {
		if keep(n) {
			out = append(out, n)
		}
	}
	return out
}
