package extcommon

import (
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
// other.
func CapabilitiesEqual(a, b gardencorev1beta1.Capabilities) bool {
	return capabilitiesSubset(a, b) && capabilitiesSubset(b, a)
}

func capabilitiesSubset(src, dst gardencorev1beta1.Capabilities) bool {
	for k, vs := range src {
		dvs, ok := dst[k]
		if !ok {
			return false
		}
		for _, v := range vs {
			if !slices.Contains(dvs, v) {
				return false
			}
		}
	}
	return true
}

// ValidateCapabilities is Gardener's utils/gardener ValidateCapabilities (v1.149): every capability
// name must be defined and every value supported, and with more than one defined architecture the
// capabilities must name exactly one. Gardener walks maps; names are taken in sorted order here so
// that the output is deterministic.
func ValidateCapabilities(rule string, caps gardencorev1beta1.Capabilities, defs []gardencorev1beta1.CapabilityDefinition, at ConfigPath) cloudprofile.Problems {
	var ps cloudprofile.Problems
	defined := map[string][]string{}
	for _, d := range defs {
		defined[d.Name] = d.Values
	}
	var keys []string
	for k := range defined {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var names []string
	for k := range caps {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, name := range names {
		supported, ok := defined[name]
		if !ok {
			ps = append(ps, NotSupported(rule, at.Path(), name, keys))
			continue
		}
		for i, v := range caps[name] {
			if !slices.Contains(supported, v) {
				ps = append(ps, NotSupported(rule, at.Child(name).Index(i).Path(), v, supported))
			}
		}
	}
	archs := caps[ArchitectureName]
	if len(defined[ArchitectureName]) > 1 && len(archs) != 1 {
		ps = append(ps, Invalid(rule, at.Child(ArchitectureName).Path(), archs, "must define exactly one architecture when multiple architectures are supported by the cloud profile"))
	}
	return ps
}
