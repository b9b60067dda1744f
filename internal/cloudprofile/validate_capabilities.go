package cloudprofile

import (
	"fmt"
	"slices"
	"strings"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Capability definition rules (I rules), CloudProfile only. Gardener reports most of them at paths
// built from the capability name (e.g. "spec.machineCapabilities.architecture[1]"); the attribute
// steps point at the definition that holds the name: machine_capabilities[k].name or
// machine_capabilities[k].values[v], where k is the last definition of that name (the one whose
// values Gardener uses).

const gardenerReservedCapabilityPrefix = "gardener-"

// validateCapabilityDefinitions applies I-1 … I-5 when definitions exist (I-3 from v1.147.0).
// Duplicate values within a capability are accepted, as by Gardener.
func validateCapabilityDefinitions(defs []gardencorev1beta1.CapabilityDefinition, fld Path, opts Options) Problems {
	if len(defs) == 0 {
		return nil
	}
	var ps Problems
	if !opts.Gates.CloudProfileCapabilities {
		ps = append(ps, forbidden("I-1", fld, "machineCapabilities are not allowed with disabled CloudProfileCapabilities feature gate"))
	}

	last := make(map[string]int, len(defs))
	var order []string
	for k, d := range defs {
		namePath := fld.Index(k).Child("name")
		if _, seen := last[d.Name]; seen {
			ps = append(ps, duplicate("I-2", namePath, d.Name))
		} else {
			order = append(order, d.Name)
		}
		if opts.from(release147) && strings.HasPrefix(d.Name, gardenerReservedCapabilityPrefix) {
			ps = append(ps, forbidden("I-3", namePath, fmt.Sprintf("the %q prefix is reserved for Gardener-core capabilities", gardenerReservedCapabilityPrefix)))
		}
		last[d.Name] = k
	}

	ps = append(ps, validateArchitectureCapability(defs, last, fld)...)
	for _, name := range order {
		ps = append(ps, validateCapabilityDefinition(name, defs[last[name]].Values, last[name], fld)...)
	}
	return ps
}

// validateArchitectureCapability is I-4: a definition named "architecture" is required, and its
// values must be amd64 or arm64.
func validateArchitectureCapability(defs []gardencorev1beta1.CapabilityDefinition, last map[string]int, fld Path) Problems {
	k, ok := last[architectureCapability]
	if !ok {
		return Problems{required("I-4", fld.FieldOnly(architectureCapability), "architecture capability is required")}
	}
	var ps Problems
	for v, value := range defs[k].Values {
		if !slices.Contains(validArchitectures, value) {
			p := fld.FieldOnly(architectureCapability).AttributeOnly(Step{Kind: StepIndex, Index: k}, Step{Kind: StepAttribute, Name: "values"}, Step{Kind: StepIndex, Index: v})
			ps = append(ps, invalid("I-4", p, value, "allowed architectures are: "+strings.Join(validArchitectures, ", ")))
		}
	}
	return ps
}

// validateCapabilityDefinition is I-5 for one name: the name is non-empty and an unprefixed
// qualified name, the values are non-empty and each is a non-empty qualified name. k is the index
// of the definition Gardener keeps for the name.
func validateCapabilityDefinition(name string, values []string, k int, fld Path) Problems {
	var ps Problems
	nameAttr := fld.AttributeOnly(Step{Kind: StepIndex, Index: k}, Step{Kind: StepAttribute, Name: "name"})
	if name == "" {
		ps = append(ps, required("I-5", nameAttr, "capability keys must not be empty"))
	} else if errs := validateUnprefixedQualifiedName(name); len(errs) > 0 {
		ps = append(ps, invalid("I-5", nameAttr, name, "capability key must be qualified name: "+strings.Join(errs, ", ")))
	}
	if len(values) == 0 {
		p := fld.FieldOnly(name).AttributeOnly(Step{Kind: StepIndex, Index: k}, Step{Kind: StepAttribute, Name: "values"})
		ps = append(ps, required("I-5", p, "capability values must not be empty"))
	}
	for v, value := range values {
		p := capabilityValuePath(fld, name, k, v)
		if value == "" {
			ps = append(ps, required("I-5", p, "capability values must not be empty"))
		} else if errs := validateUnprefixedQualifiedName(value); len(errs) > 0 {
			ps = append(ps, invalid("I-5", p, value, "capability value must be qualified name: "+strings.Join(errs, ", ")))
		}
	}
	return ps
}

// capabilityValuePath is Gardener's "<fld>.<name>[v]" with the attribute
// machine_capabilities[k].values[v].
func capabilityValuePath(fld Path, name string, k, v int) Path {
	return fld.FieldOnly(name).AttributeOnly(Step{Kind: StepIndex, Index: k}, Step{Kind: StepAttribute, Name: "values"}).Index(v)
}
