package cloudprofile

import (
	"fmt"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// ValidateCloudProfile returns what gardener-apiserver's static validation reports for a
// CloudProfile on create (rules A to J): every rule with Gardener's field path, type, bad
// value and message.
//
// It validates cp as it is given. Gardener validates the object after v1beta1 defaulting and after
// PrepareForCreate dropped inactive versions; use PrepareCloudProfileForCreate to obtain that
// object, or ValidateCloudProfileRequest to run the whole pipeline on a user's object.
func ValidateCloudProfile(cp *gardencorev1beta1.CloudProfile, opts Options) Problems {
	if cp == nil {
		return nil
	}
	var ps Problems
	ps = append(ps, validateCloudProfileMetadata(cp, NewPath("metadata"))...)
	ps = append(ps, validateCloudProfileSpec(&cp.Spec, NewPath("spec"), opts)...)
	return ps
}

// validateCloudProfileSpec validates a CloudProfile spec in the order Gardener does.
func validateCloudProfileSpec(spec *gardencorev1beta1.CloudProfileSpec, fld Path, opts Options) Problems {
	var ps Problems
	ps = append(ps, validateProviderType(spec.Type, fld.Child("type"))...)
	ps = append(ps, validateCapabilityDefinitions(spec.MachineCapabilities, fld.Child("machineCapabilities"), opts)...)
	ps = append(ps, validateKubernetesVersions(spec.Kubernetes.Versions, fld.Child("kubernetes").Child("versions"), opts)...)
	ps = append(ps, validateMachineImages(spec.MachineImages, spec.MachineCapabilities, fld.Child("machineImages"), opts)...)
	ps = append(ps, validateMachineTypesPresent(spec.MachineTypes, fld.Child("machineTypes"))...)
	ps = append(ps, validateMachineTypes(spec.MachineTypes, spec.MachineCapabilities, fld.Child("machineTypes"), true)...)
	ps = append(ps, validateVolumeTypes(spec.VolumeTypes, fld.Child("volumeTypes"))...)
	ps = append(ps, validateRegions(spec.Regions, fld.Child("regions"))...)
	ps = append(ps, validateBastion(spec, fld.Child("bastion"), opts)...)
	ps = append(ps, validateLimits(spec.Limits, fld.Child("limits"))...)
	ps = append(ps, validateSeedSelector(spec.SeedSelector, fld.Child("seedSelector"))...)
	ps = append(ps, validateCABundle(spec.CABundle, fld.Child("caBundle"))...)
	return ps
}

// Constructors of problems, mirroring Kubernetes' field.Required, field.Invalid, ... (Required and
// Forbidden carry the bad value "" as Kubernetes' constructors do).

func required(rule string, p Path, detail string) Problem {
	return Problem{Rule: rule, Type: Required, Path: p, BadValue: "", Detail: detail}
}

func forbidden(rule string, p Path, detail string) Problem {
	return Problem{Rule: rule, Type: Forbidden, Path: p, BadValue: "", Detail: detail}
}

func invalid(rule string, p Path, bad any, detail string) Problem {
	return Problem{Rule: rule, Type: Invalid, Path: p, BadValue: bad, Detail: detail}
}

func duplicate(rule string, p Path, bad any) Problem {
	return Problem{Rule: rule, Type: Duplicate, Path: p, BadValue: bad}
}

// notSupported renders the supported values as Kubernetes does: `supported values: "a", "b"`, or
// no detail at all when the list is empty.
func notSupported[T ~string](rule string, p Path, bad any, supported []T) Problem {
	detail := ""
	if len(supported) > 0 {
		quoted := make([]string, len(supported))
		for i, v := range supported {
			quoted[i] = strconv.Quote(string(v))
		}
		detail = "supported values: " + strings.Join(quoted, ", ")
	}
	return Problem{Rule: rule, Type: NotSupported, Path: p, BadValue: bad, Detail: detail}
}

// fromFieldErrors turns the field errors of an apimachinery validator that was called with
// base.field into problems. The part of each error's field path below base becomes attribute
// steps: ".name" a snake_case attribute, "[3]" an index, "[key]" a map key.
func fromFieldErrors(rule string, base Path, errs field.ErrorList) Problems {
	ps := make(Problems, 0, len(errs))
	prefix := base.Field()
	for _, e := range errs {
		p := base
		if suffix, ok := strings.CutPrefix(e.Field, prefix); ok {
			p = appendFieldSuffix(base, suffix)
		}
		ps = append(ps, Problem{Rule: rule, Type: problemTypeOf(e.Type), Path: p, BadValue: e.BadValue, Detail: e.Detail})
	}
	return ps
}

// appendFieldSuffix appends a rendered field path suffix such as ".matchExpressions[0].key".
func appendFieldSuffix(p Path, suffix string) Path {
	for suffix != "" {
		switch suffix[0] {
		case '.':
			end := strings.IndexAny(suffix[1:], ".[")
			if end < 0 {
				end = len(suffix) - 1
			}
			p = p.Child(suffix[1 : end+1])
			suffix = suffix[end+1:]
		case '[':
			end := strings.IndexByte(suffix, ']')
			if end < 0 {
				return p.FieldOnly(suffix)
			}
			sub := suffix[1:end]
			if n, err := strconv.Atoi(sub); err == nil && n >= 0 && strconv.Itoa(n) == sub {
				p = p.Index(n)
			} else {
				p = p.Key(sub)
			}
			suffix = suffix[end+1:]
		default:
			return p.FieldOnly(suffix)
		}
	}
	return p
}

// validateUnprefixedQualifiedName returns the messages for a name that is not a Kubernetes
// qualified name, or that has a prefix (contains "/").
func validateUnprefixedQualifiedName(name string) []string {
	if errs := validation.IsQualifiedName(name); len(errs) > 0 {
		return errs
	}
	if strings.Contains(name, "/") {
		return []string{fmt.Sprintf("name '%s' must not contain a prefix", name)}
	}
	return nil
}

// isNegativeErrorMsg is Kubernetes' message for a negative quantity.
const isNegativeErrorMsg = "must be greater than or equal to 0"

// validateNonNegativeQuantity is Gardener's ValidateResourceQuantityValue for the resources a
// CloudProfile names (cpu, gpu, memory, size, minSize), none of which must be an integer.
// p builds the path only when the quantity is negative.
func validateNonNegativeQuantity(rule string, q resource.Quantity, p func() Path) Problems {
	if q.Sign() < 0 {
		return Problems{invalid(rule, p(), q.String(), isNegativeErrorMsg)}
	}
	return nil
}

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
