package cloudprofile

import (
	"slices"

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
	// allowed holds the values of each name as a set, for lookups in constant time.
	allowed map[string]map[string]bool
	// details holds the detail of the NotSupported errors that list the values of a name (and,
	// under the key namesDetail, the names), rendered when first needed: every error about the
	// same list shares one string, however long the list.
	details map[string]string
}

// namesDetail is the key of the names' detail in capabilities.details; no capability name is empty
// (rule I-5).
const namesDetail = ""

// capabilitiesOf converts capability definitions as Gardener's CapabilityDefinitionsToCapabilities
// does; no definitions give an empty set.
func capabilitiesOf(defs []gardencorev1beta1.CapabilityDefinition) capabilities {
	if len(defs) == 0 {
		return capabilities{}
	}
	c := capabilities{values: make(map[string]gardencorev1beta1.CapabilityValues, len(defs)), details: map[string]string{}}
	for _, d := range defs {
		if _, ok := c.values[d.Name]; !ok {
			c.names = append(c.names, d.Name)
		}
		c.values[d.Name] = d.Values
	}
	c.allowed = make(map[string]map[string]bool, len(c.values))
	for name, values := range c.values {
		set := make(map[string]bool, len(values))
		for _, v := range values {
			set[v] = true
		}
		c.allowed[name] = set
	}
	return c
}

// allows tells whether value is one of the values defined for name.
func (c capabilities) allows(name, value string) bool {
	return c.allowed[name][value]
}

// notSupportedValue is the NotSupported error of value, which is none of name's values.
func (c capabilities) notSupportedValue(rule string, p Path, value, name string) Problem {
	return c.notSupportedIn(rule, p, value, name, c.values[name])
}

// notSupportedName is the NotSupported error of name, which is no defined capability.
func (c capabilities) notSupportedName(rule string, p Path, name string) Problem {
	return c.notSupportedIn(rule, p, name, namesDetail, c.names)
}

// notSupportedIn is notSupported with the detail about the list of the key list of c.details.
func (c capabilities) notSupportedIn(rule string, p Path, bad, list string, supported []string) Problem {
	detail, ok := c.details[list]
	if !ok {
		detail = notSupportedDetail(supported)
		c.details[list] = detail
	}
	return Problem{Rule: rule, Type: NotSupported, Path: p, BadValue: bad, Detail: detail}
}

func (c capabilities) defined() bool { return len(c.values) > 0 }

func (c capabilities) architectures() gardencorev1beta1.CapabilityValues {
	return c.values[architectureCapability]
}

// archSet is a set of architectures that keeps the order in which they were first added. A few
// values are looked up in the list; past smallArchSet values a map indexes them, so that adding n
// values stays linear however large n is.
type archSet struct {
	order []string
	index map[string]bool
}

// smallArchSet is the most values an archSet looks up without a map.
const smallArchSet = 16

// add adds the values not in the set yet.
func (s *archSet) add(values ...string) {
	for _, v := range values {
		if s.has(v) {
			continue
		}
		s.order = append(s.order, v)
		switch {
		case s.index != nil:
			s.index[v] = true
		case len(s.order) > smallArchSet:
			s.index = make(map[string]bool, 2*len(s.order))
			for _, known := range s.order {
				s.index[known] = true
			}
		}
	}
}

// has tells whether v is in the set.
func (s *archSet) has(v string) bool {
	if s.index != nil {
		return s.index[v]
	}
	return slices.Contains(s.order, v)
}
