package extcommon

import (
	"maps"
	"slices"
	"sort"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// ArchitectureName is the capability name of the CPU architecture.
const ArchitectureName = "architecture"

// ValidArchitectures are the architectures Gardener v1.149 knows (v1beta1constants.ValidArchitectures).
var ValidArchitectures = []string{"amd64", "arm64"}

// ImageFlavorsWithDefaults is Gardener's GetImageFlavorsWithAppliedDefaults: every flavor with
// the definitions' defaults applied; no flavors at all mean one flavor with every defined value.
func ImageFlavorsWithDefaults(flavors []gardencorev1beta1.MachineImageFlavor, defs []gardencorev1beta1.CapabilityDefinition) []gardencorev1beta1.MachineImageFlavor {
	if len(flavors) == 0 {
		return []gardencorev1beta1.MachineImageFlavor{{Capabilities: gardencorev1beta1.GetCapabilitiesWithAppliedDefaults(gardencorev1beta1.Capabilities{}, defs)}}
	}
	out := make([]gardencorev1beta1.MachineImageFlavor, len(flavors))
	for i, f := range flavors {
		out[i] = gardencorev1beta1.MachineImageFlavor{Capabilities: gardencorev1beta1.GetCapabilitiesWithAppliedDefaults(f.Capabilities, defs)}
	}
	return out
}

// CapabilitiesEqual is Gardener's AreCapabilitiesEqual: every name and value of each set is in the
// other. Its cost is linear in the values of both sets (Gardener's is their product, which for
// a definition of thousands of values applied as the default on both sides is millions of
// comparisons per flavor); the values of a name that both sets share as one list (a definition's
// values, applied as the default) are not compared at all.
func CapabilitiesEqual(a, b gardencorev1beta1.Capabilities) bool {
	return capabilitiesSubset(a, b) && capabilitiesSubset(b, a)
}

// capabilitiesSubset tells whether every name of src is in dst with every one of its values.
func capabilitiesSubset(src, dst gardencorev1beta1.Capabilities) bool {
	for k, vs := range src {
		dvs, ok := dst[k]
		if !ok {
			return false
		}
		if !valuesSubset(vs, dvs) {
			return false
		}
	}
	return true
}

// smallValueComparisons is the most comparisons valuesSubset makes pairwise before it makes a
// set of the values it looks in.
const smallValueComparisons = 64

// valuesSubset tells whether every value of vs is in dvs, in time linear in their lengths.
func valuesSubset(vs, dvs []string) bool {
	switch {
	case len(vs) == 0:
		return true
	case len(vs) == len(dvs) && &vs[0] == &dvs[0]:
		return true // one list
	case len(vs)*len(dvs) <= smallValueComparisons:
		for _, v := range vs {
			if !slices.Contains(dvs, v) {
				return false
			}
		}
		return true
	}
	set := make(map[string]struct{}, len(dvs))
	for _, v := range dvs {
		set[v] = struct{}{}
	}
	for _, v := range vs {
		if _, ok := set[v]; !ok {
			return false
		}
	}
	return true
}

// DefinedCapabilities is what a profile's capability definitions allow, built once per profile
// (DefineCapabilities) so that checking a value is a lookup rather than a walk of the definition.
type DefinedCapabilities struct {
	// supported is each defined name's values (the last definition of a name wins, as in a map
	// built from the definitions), allowed the same as sets, names the defined names in order.
	supported map[string][]string
	allowed   map[string]map[string]struct{}
	names     []string
}

// DefineCapabilities indexes the capability definitions defs.
func DefineCapabilities(defs []gardencorev1beta1.CapabilityDefinition) DefinedCapabilities {
	d := DefinedCapabilities{supported: map[string][]string{}, allowed: map[string]map[string]struct{}{}}
	for _, def := range defs {
		d.supported[def.Name] = def.Values
	}
	for name, values := range d.supported {
		set := make(map[string]struct{}, len(values))
		for _, v := range values {
			set[v] = struct{}{}
		}
		d.allowed[name] = set
		d.names = append(d.names, name)
	}
	sort.Strings(d.names)
	return d
}

// ValidateCapabilities is Gardener's utils/gardener ValidateCapabilities (v1.149): every capability
// name must be defined and every value supported, and with more than one defined architecture the
// capabilities must name exactly one. Gardener walks maps; names are taken in sorted order here so
// that the output is deterministic.
func ValidateCapabilities(rule string, caps gardencorev1beta1.Capabilities, defined DefinedCapabilities, at ConfigPath) cloudprofile.Problems {
	var ps cloudprofile.Problems
	names := slices.Sorted(maps.Keys(caps))
	for _, name := range names {
		allowed, ok := defined.allowed[name]
		if !ok {
			ps = append(ps, NotSupported(rule, at.Path(), name, defined.names))
			continue
		}
		for i, v := range caps[name] {
			if _, ok := allowed[v]; !ok {
				ps = append(ps, NotSupported(rule, at.Child(name).Index(i).Path(), v, defined.supported[name]))
			}
		}
	}
	archs := caps[ArchitectureName]
	if len(defined.supported[ArchitectureName]) > 1 && len(archs) != 1 {
		ps = append(ps, Invalid(rule, at.Child(ArchitectureName).Path(), archs, "must define exactly one architecture when multiple architectures are supported by the cloud profile"))
	}
	return ps
}
