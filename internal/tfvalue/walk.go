package tfvalue

import (
	"maps"
	"slices"

	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

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
