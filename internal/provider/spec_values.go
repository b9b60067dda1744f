package provider

import (
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// attributeOf returns the named attribute of a known object value, or the zero value.
func attributeOf(v tftypes.Value, name string) tftypes.Value {
	var attrs map[string]tftypes.Value
	if !v.IsKnown() || v.IsNull() || v.As(&attrs) != nil {
		return tftypes.Value{}
	}
	return attrs[name]
}

// elementOf returns the i-th element of a known list value, or the zero value.
func elementOf(v tftypes.Value, i int) tftypes.Value {
	var elems []tftypes.Value
	if !v.IsKnown() || v.IsNull() || v.As(&elems) != nil || i < 0 || i >= len(elems) {
		return tftypes.Value{}
	}
	return elems[i]
}
