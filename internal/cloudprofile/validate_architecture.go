package cloudprofile

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Architecture and capability rules of machine image versions (F-6) and machine types (G-5).
// Gardener iterates capability maps in random order; here keys are visited sorted and the lists
// of supported keys follow the definition order, so results are deterministic.

// validateMachineImageVersionFlavors is F-6: without capability definitions (every
// architecture is amd64 or arm64), and with them (flavors carry exactly one architecture when
// several are defined, architectures agree with the flavors, every flavor key and value is
// defined).
func validateMachineImageVersionFlavors(v gardencorev1beta1.MachineImageVersion, caps capabilities, fld func() Path) Problems {
	ps := validateMachineImageVersionArchitectures(v, caps, fld)
	if !caps.defined() {
		return ps
	}
	for f, flavor := range v.CapabilityFlavors {
		ps = append(ps, validateCapabilityValues("F-6", flavor.Capabilities, caps, func() Path { return fld().Child("capabilityFlavors").Index(f) })...)
	}
	return ps
}

// validateMachineImageVersionArchitectures checks the architectures of one version: steps 1–4 of
// F-6 with capability definitions, then every architecture against the
// supported list.
func validateMachineImageVersionArchitectures(v gardencorev1beta1.MachineImageVersion, caps capabilities, fld func() Path) Problems {
	var ps Problems
	if caps.defined() {
		supported := caps.architectures()
		if len(supported) > 1 && len(v.CapabilityFlavors) == 0 {
			return Problems{required("F-6", fld().Child("capabilityFlavors"), "must provide at least one image flavor when multiple architectures are defined in spec.machineCapabilities")}
		}
		ps = append(ps, validateFlavorArchitectures(v.CapabilityFlavors, supported, fld)...)
		ps = append(ps, validateArchitecturesMatchFlavors(v, supported, fld)...)
	}
	for k, arch := range v.Architectures {
		switch {
		case caps.defined() && !caps.allows(architectureCapability, arch):
			ps = append(ps, caps.notSupportedValue("F-6", fld().Child("architectures").Index(k), arch, architectureCapability))
		case !caps.defined() && !slices.Contains(validArchitectures, arch):
			ps = append(ps, notSupported("F-6", fld().Child("architectures").Index(k), arch, validArchitectures))
		}
	}
	return ps
}

// validateFlavorArchitectures is part of F-6: a flavor names exactly one architecture; it may omit
// it only when a single architecture is defined.
func validateFlavorArchitectures(flavors []gardencorev1beta1.MachineImageFlavor, supported []string, fld func() Path) Problems {
	var ps Problems
	for f, flavor := range flavors {
		values := flavor.Capabilities[architectureCapability]
		p := func() Path { return fld().Child("capabilityFlavors").Index(f).ChildKey(architectureCapability) }
		switch {
		case len(values) == 0 && len(supported) > 1:
			ps = append(ps, required("F-6", p(), "must specify one architecture explicitly as multiple architectures are defined in spec.machineCapabilities"))
		case len(values) > 1:
			ps = append(ps, invalid("F-6", p(), values, "must not define more than one architecture within an image flavor"))
		}
	}
	return ps
}

// validateArchitecturesMatchFlavors is part of F-6: set architectures must be a subset of the
// flavors' architectures (or of the single defined architecture when no flavor names one).
func validateArchitecturesMatchFlavors(v gardencorev1beta1.MachineImageVersion, supported []string, fld func() Path) Problems {
	if len(v.Architectures) == 0 {
		return nil
	}
	flavorArchitectures := flavorArchitectureUnion(v.CapabilityFlavors)
	if len(flavorArchitectures.order) == 0 && len(supported) == 1 {
		flavorArchitectures.add(supported...)
	}
	for _, arch := range v.Architectures {
		if !flavorArchitectures.has(arch) {
			return Problems{invalid("F-6", fld().Child("architectures"), v.Architectures,
				fmt.Sprintf("architecture field values set (%s) conflict with the capability architectures (%s)",
					strings.Join(v.Architectures, ","), strings.Join(flavorArchitectures.order, ",")))}
		}
	}
	return nil
}

// flavorArchitectureUnion returns the distinct architecture values of the flavors in order of
// first occurrence (Gardener builds an unordered set).
func flavorArchitectureUnion(flavors []gardencorev1beta1.MachineImageFlavor) archSet {
	var union archSet
	for _, flavor := range flavors {
		union.add(flavor.Capabilities[architectureCapability]...)
	}
	return union
}

// validateCapabilityValues is part of F-6 and the corresponding part of G-5: every key is a
// defined capability (NotSupported at the map's path, bad value the key, attribute the key's
// entry) and every value is one of the key's defined values (NotSupported at <path>.<key>[v]).
// fld builds the map's path when a problem needs it.
func validateCapabilityValues(rule string, values gardencorev1beta1.Capabilities, caps capabilities, fld func() Path) Problems {
	var ps Problems
	for _, key := range sortedKeys(values) {
		if _, ok := caps.values[key]; !ok {
			ps = append(ps, caps.notSupportedName(rule, fld().AttributeOnly(Step{Kind: StepKey, Key: key}), key))
			continue
		}
		for i, value := range values[key] {
			if !caps.allows(key, value) {
				ps = append(ps, caps.notSupportedValue(rule, fld().ChildKey(key).Index(i), value, key))
			}
		}
	}
	return ps
}

func sortedKeys(m gardencorev1beta1.Capabilities) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// validateMachineTypeCapabilities is G-5: with capability definitions, the machine type's
// architecture capability holds at most one value, which must agree with a set architecture field;
// a set architecture field must be amd64 or arm64 in any case; with definitions, every capability
// key and value must be defined.
func validateMachineTypeCapabilities(m gardencorev1beta1.MachineType, caps capabilities, fld Path) Problems {
	var ps Problems
	arch := ""
	if m.Architecture != nil {
		arch = *m.Architecture
	}
	if caps.defined() {
		values := m.Capabilities[architectureCapability]
		if len(values) > 1 {
			ps = append(ps, invalid("G-5", fld.Child("capabilities").ChildKey(architectureCapability), values, "must not define more than one architecture"))
		}
		if len(values) == 1 && arch != "" && arch != values[0] {
			ps = append(ps, invalid("G-5", fld.Child("architecture"), values[0],
				fmt.Sprintf("machine type architecture (%s) conflicts with the capability architecture (%s)", arch, values[0])))
		}
	}
	if arch != "" && !slices.Contains(validArchitectures, arch) {
		ps = append(ps, notSupported("G-5", fld.Child("architecture"), arch, validArchitectures))
	}
	if caps.defined() {
		ps = append(ps, validateCapabilityValues("G-5", m.Capabilities, caps, func() Path { return fld.Child("capabilities") })...)
	}
	return ps
}
