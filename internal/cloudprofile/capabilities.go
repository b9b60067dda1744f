package cloudprofile

import (
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	v1beta1constants "github.com/gardener/gardener/pkg/apis/core/v1beta1/constants"
)

// Capability definitions as the rules see them, and the architectures Gardener knows.

const (
	architectureCapability = v1beta1constants.ArchitectureName
	defaultArchitecture    = v1beta1constants.ArchitectureAMD64
)

// validArchitectures are the CPU architectures Gardener accepts without capability definitions.
var validArchitectures = v1beta1constants.ValidArchitectures

// capabilities is the map of capability names to values that Gardener derives from
// spec.machineCapabilities (a later definition of the same name wins), plus the names in
// definition order so that messages listing them are deterministic (Gardener lists them in map
// order).
type capabilities struct {
	values map[string]gardencorev1beta1.CapabilityValues
	names  []string
}

// capabilitiesOf converts capability definitions as Gardener's CapabilityDefinitionsToCapabilities
// does; no definitions give an empty set.
func capabilitiesOf(defs []gardencorev1beta1.CapabilityDefinition) capabilities {
	if len(defs) == 0 {
		return capabilities{}
	}
	c := capabilities{values: make(map[string]gardencorev1beta1.CapabilityValues, len(defs))}
	for _, d := range defs {
		if _, ok := c.values[d.Name]; !ok {
			c.names = append(c.names, d.Name)
		}
		c.values[d.Name] = d.Values
	}
	return c
}

func (c capabilities) defined() bool { return len(c.values) > 0 }

func (c capabilities) architectures() gardencorev1beta1.CapabilityValues {
	return c.values[architectureCapability]
}
