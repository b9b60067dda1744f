package largevalue

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// What terraform-plugin-framework does to a value during a plan, an apply and a read, done here
// for the large attributes it never sees (see Server). Their attributes carry no
// defaults, plan modifiers, validators or deprecations (TestLargeAttributesHaveNothingTheServerWouldSkip),
// so three steps remain: marking Computed values unknown in a changing plan, keeping a value
// Terraform already has when the new one is only written differently (semantic equality), and
// checking that a configuration sets no read-only attribute and every required one.

// NestedAttributes are the attributes of a nested attribute's objects; nil for other attributes.
func NestedAttributes(a rschema.Attribute) map[string]rschema.Attribute {
	switch n := a.(type) {
	case rschema.SingleNestedAttribute:
		return n.Attributes
	case rschema.ListNestedAttribute:
		return n.NestedObject.Attributes
	case rschema.MapNestedAttribute:
		return n.NestedObject.Attributes
	}
	return nil
}

// HoldsElements tells whether a nested attribute is a list or a map of objects (rather than one
// object).
func HoldsElements(a rschema.Attribute) bool {
	switch a.(type) {
	case rschema.ListNestedAttribute, rschema.MapNestedAttribute:
		return true
	}
	return false
}

// markComputedNullsUnknown plans a value as the framework plans a changing resource: every null
// value of a Computed attribute whose configuration is null becomes unknown ("known after
// apply"). config is the configuration at the same place or, where it ends above it (a null or
// unknown parent, a shorter list), the deepest configuration value on the way.
func markComputedNullsUnknown(a rschema.Attribute, planned, config tftypes.Value) (tftypes.Value, bool) {
	if planned.IsNull() {
		if config.IsNull() && a.IsComputed() {
			return tftypes.NewValue(planned.Type(), tftypes.UnknownValue), true
		}
		return planned, false
	}
	attrs := NestedAttributes(a)
	if !planned.IsKnown() || attrs == nil {
		return planned, false
	}
	if !HoldsElements(a) {
		return markObject(attrs, planned, config)
	}
	return MapElements(planned, config, func(element, configElement tftypes.Value) (tftypes.Value, bool) {
		return markObject(attrs, element, configElement)
	})
}

func markObject(attrs map[string]rschema.Attribute, planned, config tftypes.Value) (tftypes.Value, bool) {
	return MapAttributes(planned, config, func(name string, value, configValue tftypes.Value) (tftypes.Value, bool) {
		return markComputedNullsUnknown(attrs[name], value, configValue)
	})
}

// equivalence says which values stand for the same stored value.
type equivalence uint8

const (
	// sameSpelling: a string value that only writes another one differently (the framework's
	// semantic equality).
	sameSpelling equivalence = iota
	// sameStored: also an empty list or map for null, as Kubernetes APIs omit empty collections.
	sameStored
)

// keepSemanticallyEqual returns next with every value that only writes the prior one differently
// (a quantity "1Gi" for "1024Mi", a timestamp in another zone) replaced by the prior one, as the
// framework does after a read or an apply with the prior or planned state. With sameStored, beyond
// the framework, an empty list or map where next is null is kept too: `[]` comes back as null.
func keepSemanticallyEqual(ctx context.Context, eq equivalence, a rschema.Attribute, prior, next tftypes.Value) (tftypes.Value, bool) {
	if eq == sameStored && next.IsKnown() && next.IsNull() && isEmptyCollection(prior) && prior.Type().Equal(next.Type()) {
		return prior, true
	}
	if !prior.IsKnown() || prior.IsNull() || !next.IsKnown() || next.IsNull() || !prior.Type().Equal(next.Type()) {
		return next, false
	}
	if s, ok := a.(rschema.StringAttribute); ok {
		return semanticallyEqualString(ctx, s, prior, next)
	}
	attrs := NestedAttributes(a)
	if attrs == nil {
		return next, false
	}
	keepInObject := func(p, n tftypes.Value) (tftypes.Value, bool) {
		return MapAttributes(n, p, func(name string, value, priorValue tftypes.Value) (tftypes.Value, bool) {
			return keepSemanticallyEqual(ctx, eq, attrs[name], priorValue, value)
		})
	}
	if !HoldsElements(a) {
		return keepInObject(prior, next)
	}
	return MapElements(next, prior, func(element, priorElement tftypes.Value) (tftypes.Value, bool) {
		return keepInObject(priorElement, element)
	})
}

func semanticallyEqualString(ctx context.Context, a rschema.StringAttribute, prior, next tftypes.Value) (tftypes.Value, bool) {
	if a.CustomType == nil || prior.Equal(next) {
		return next, false
	}
	priorValue, err := a.CustomType.ValueFromTerraform(ctx, prior)
	if err != nil {
		return next, false
	}
	nextValue, err := a.CustomType.ValueFromTerraform(ctx, next)
	if err != nil {
		return next, false
	}
	withEquality, ok := priorValue.(basetypes.StringValuableWithSemanticEquals)
	nextString, isString := nextValue.(basetypes.StringValuable)
	if !ok || !isString {
		return next, false
	}
	if equal, diags := withEquality.StringSemanticEquals(ctx, nextString); equal && !diags.HasError() {
		return prior, true
	}
	return next, false
}

// MapAttributes applies f to each attribute of the object v with the attribute of other at the
// same name (other itself where it has none), and rebuilds v only when f changed something.
func MapAttributes(v, other tftypes.Value, f func(name string, value, otherValue tftypes.Value) (tftypes.Value, bool)) (tftypes.Value, bool) {
	var attrs map[string]tftypes.Value
	if err := v.As(&attrs); err != nil {
		return v, false
	}
	var otherAttrs map[string]tftypes.Value
	if other.IsKnown() && !other.IsNull() {
		_ = other.As(&otherAttrs)
	}
	var rebuilt map[string]tftypes.Value // As returns v's own map: copy before the first change
	for name, value := range attrs {
		o, ok := otherAttrs[name]
		if !ok {
			o = other
		}
		if nv, c := f(name, value, o); c {
			if rebuilt == nil {
				rebuilt = maps.Clone(attrs)
			}
			rebuilt[name] = nv
		}
	}
	if rebuilt == nil {
		return v, false
	}
	return tftypes.NewValue(v.Type(), rebuilt), true
}

// MapElements applies f to each element of the list or map v with the element of other at the same
// index or key (other itself where it has none), and rebuilds v only when f changed something.
func MapElements(v, other tftypes.Value, f func(element, otherElement tftypes.Value) (tftypes.Value, bool)) (tftypes.Value, bool) {
	if v.Type() != nil && v.Type().Is(tftypes.Map{}) {
		return mapMapElements(v, other, f)
	}
	var elements []tftypes.Value
	if err := v.As(&elements); err != nil {
		return v, false
	}
	var otherElements []tftypes.Value
	if other.IsKnown() && !other.IsNull() {
		_ = other.As(&otherElements)
	}
	var rebuilt []tftypes.Value // As returns v's own slice: copy before the first change
	for i, element := range elements {
		o := other
		if i < len(otherElements) {
			o = otherElements[i]
		}
		if ne, c := f(element, o); c {
			if rebuilt == nil {
				rebuilt = slices.Clone(elements)
			}
			rebuilt[i] = ne
		}
	}
	if rebuilt == nil {
		return v, false
	}
	return tftypes.NewValue(v.Type(), rebuilt), true
}

// mapMapElements is MapElements of a map, pairing elements by key. An element without a partner
// in a known map other is paired with a null element.
func mapMapElements(v, other tftypes.Value, f func(element, otherElement tftypes.Value) (tftypes.Value, bool)) (tftypes.Value, bool) {
	var elements map[string]tftypes.Value
	if err := v.As(&elements); err != nil {
		return v, false
	}
	var otherElements map[string]tftypes.Value
	otherIsMap := other.IsKnown() && !other.IsNull() && other.Type().Is(tftypes.Map{})
	if otherIsMap {
		_ = other.As(&otherElements)
	}
	var rebuilt map[string]tftypes.Value // As returns v's own map: copy before the first change
	for key, element := range elements {
		o, ok := otherElements[key]
		switch {
		case !ok && otherIsMap:
			o = tftypes.NewValue(element.Type(), nil)
		case !ok:
			o = other
		}
		if ne, c := f(element, o); c {
			if rebuilt == nil {
				rebuilt = maps.Clone(elements)
			}
			rebuilt[key] = ne
		}
	}
	if rebuilt == nil {
		return v, false
	}
	return tftypes.NewValue(v.Type(), rebuilt), true
}

// configurationProblems are the errors the framework's validation of a configuration reports
// below a large attribute (fwserver.AttributeValidate without validators): a read-only attribute
// that is set, and a required one that is null. at is the path of the attribute, v its value; the
// attribute itself is checked by the framework, whose stand-in is null exactly where v is.
func configurationProblems(a rschema.Attribute, v tftypes.Value, at path.Path) diag.Diagnostics {
	attrs := NestedAttributes(a)
	if attrs == nil || v.IsNull() || !v.IsKnown() {
		return nil
	}
	if !HoldsElements(a) {
		return objectProblems(attrs, v, at)
	}
	var diags diag.Diagnostics
	if _, isMap := a.(rschema.MapNestedAttribute); isMap {
		var elements map[string]tftypes.Value
		if err := v.As(&elements); err != nil {
			return nil
		}
		for _, key := range slices.Sorted(maps.Keys(elements)) {
			diags.Append(objectProblems(attrs, elements[key], at.AtMapKey(key))...)
		}
		return diags
	}
	var elements []tftypes.Value
	if err := v.As(&elements); err != nil {
		return nil
	}
	for i, element := range elements {
		diags.Append(objectProblems(attrs, element, at.AtListIndex(i))...)
	}
	return diags
}

// objectProblems checks each attribute of an object of a nested attribute, as the framework does
// for every object it walks: the attributes of a null object are null, those of an unknown one
// unknown.
func objectProblems(attrs map[string]rschema.Attribute, object tftypes.Value, at path.Path) diag.Diagnostics {
	var values map[string]tftypes.Value
	if object.IsKnown() && !object.IsNull() {
		if err := object.As(&values); err != nil {
			return nil
		}
	}
	var diags diag.Diagnostics
	for _, name := range slices.Sorted(maps.Keys(attrs)) {
		a := attrs[name]
		value, ok := values[name]
		switch {
		case ok:
		case !object.IsKnown():
			value = tftypes.NewValue(tftypes.DynamicPseudoType, tftypes.UnknownValue)
		default:
			value = tftypes.NewValue(tftypes.DynamicPseudoType, nil)
		}
		p := at.AtName(name)
		if a.IsComputed() && !a.IsOptional() && !value.IsNull() {
			diags.AddAttributeError(p, "Invalid Configuration for Read-Only Attribute",
				"Cannot set value for this attribute as the provider has marked it as read-only. Remove the configuration line setting the value.\n\n"+
					"Refer to the provider documentation or contact the provider developers for additional information about configurable and read-only attributes that are supported.")
		}
		if a.IsRequired() && value.IsNull() {
			diags.AddAttributeError(p, "Missing Configuration for Required Attribute",
				fmt.Sprintf("Must set a configuration value for the %s attribute as the provider has marked it as required.\n\n", p)+
					"Refer to the provider documentation or contact the provider developers for additional information about configurable attributes that are required.")
		}
		diags.Append(configurationProblems(a, value, p)...)
	}
	return diags
}

// isEmptyCollection tells whether v is a known list, set or map without elements.
func isEmptyCollection(v tftypes.Value) bool {
	if !v.IsKnown() || v.IsNull() {
		return false
	}
	switch v.Type().(type) {
	case tftypes.List, tftypes.Set:
		var elements []tftypes.Value
		return v.As(&elements) == nil && len(elements) == 0
	case tftypes.Map:
		var elements map[string]tftypes.Value
		return v.As(&elements) == nil && len(elements) == 0
	}
	return false
}
