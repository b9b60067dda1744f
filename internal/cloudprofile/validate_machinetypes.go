package cloudprofile

import (
	"fmt"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Machine type rules (G rules):
//
//	validateMachineTypesPresent(types []gardencorev1beta1.MachineType, fld Path) Problems
//	    G-1 (CloudProfile only); fld is spec.machineTypes.
//	validateMachineTypes(types []gardencorev1beta1.MachineType, defs []gardencorev1beta1.CapabilityDefinition, fld Path, cpLevel bool) Problems
//	    G-2 … G-6, and G-7 when cpLevel (CloudProfile and merged NamespacedCloudProfile status).

// validateMachineTypesPresent is G-1: a CloudProfile has at least one machine type.
func validateMachineTypesPresent(types []gardencorev1beta1.MachineType, fld Path) Problems {
	if len(types) == 0 {
		return Problems{required("G-1", fld, "must provide at least one machine type")}
	}
	return nil
}

// validateMachineTypes applies G-2 … G-6 to every machine type and, when cpLevel, G-7.
func validateMachineTypes(types []gardencorev1beta1.MachineType, defs []gardencorev1beta1.CapabilityDefinition, fld Path, cpLevel bool) Problems {
	caps := capabilitiesOf(defs)
	var ps Problems
	names := make(map[string]bool, len(types))
	for i, m := range types {
		ps = append(ps, validateMachineType(m, caps, names, fld.Index(i))...)
	}
	if cpLevel {
		for i, m := range types {
			ps = append(ps, validateMachineTypeLegacyFields(m, caps, fld.Index(i))...)
		}
	}
	return ps
}

// validateMachineType is Gardener's ValidateMachineType: G-2 (name required and an unprefixed
// qualified name), G-3 (a repeated name; the remaining checks of that element are skipped), G-4
// (cpu, gpu and memory not negative), G-5 (architecture and capabilities) and G-6 (storage).
func validateMachineType(m gardencorev1beta1.MachineType, caps capabilities, names map[string]bool, fld Path) Problems {
	var ps Problems
	namePath := func() Path { return fld.Child("name") }
	if m.Name == "" {
		ps = append(ps, required("G-2", namePath(), "must provide a name"))
	} else if errs := validateUnprefixedQualifiedName(m.Name); len(errs) > 0 {
		ps = append(ps, invalid("G-2", namePath(), m.Name, fmt.Sprintf("machine type name must be a qualified name: %v", errs)))
	}

	if names[m.Name] {
		return append(ps, duplicate("G-3", namePath(), m.Name))
	}
	names[m.Name] = true

	ps = append(ps, validateNonNegativeQuantity("G-4", m.CPU, func() Path { return fld.Child("cpu") })...)
	ps = append(ps, validateNonNegativeQuantity("G-4", m.GPU, func() Path { return fld.Child("gpu") })...)
	ps = append(ps, validateNonNegativeQuantity("G-4", m.Memory, func() Path { return fld.Child("memory") })...)
	ps = append(ps, validateMachineTypeCapabilities(m, caps, fld)...)
	if m.Storage != nil {
		ps = append(ps, validateMachineTypeStorage(*m.Storage, fld)...)
	}
	return ps
}

// validateMachineTypeStorage is G-6: exactly one of size and minSize, and neither negative. fld is
// the machine type's path.
func validateMachineTypeStorage(storage gardencorev1beta1.MachineTypeStorage, fld Path) Problems {
	switch {
	case storage.StorageSize == nil && storage.MinSize == nil:
		return Problems{invalid("G-6", fld.Child("storage"), storage, `must either configure "size" or "minSize"`)}
	case storage.StorageSize != nil && storage.MinSize != nil:
		return Problems{invalid("G-6", fld.Child("storage"), storage, `not allowed to configure both "size" and "minSize"`)}
	case storage.StorageSize != nil:
		return validateNonNegativeQuantity("G-6", *storage.StorageSize, func() Path { return fld.Child("storage").Child("size") })
	default:
		return validateNonNegativeQuantity("G-6", *storage.MinSize, func() Path { return fld.Child("storage").Child("minSize") })
	}
}

// validateMachineTypeLegacyFields is G-7: without capability definitions a machine type needs an
// architecture and must not have capabilities. It runs for every element, duplicates included.
func validateMachineTypeLegacyFields(m gardencorev1beta1.MachineType, caps capabilities, fld Path) Problems {
	if caps.defined() {
		return nil
	}
	var ps Problems
	if m.Architecture == nil || *m.Architecture == "" {
		ps = append(ps, required("G-7", fld.Child("architecture"), "must provide an architecture"))
	}
	if len(m.Capabilities) > 0 {
		ps = append(ps, forbidden("G-7", fld.Child("capabilities"), "must not provide capabilities without global definition"))
	}
	return ps
}
