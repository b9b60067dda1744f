package tfvalue

import (
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// At returns the value at the path of attribute names, and whether the path leads to one.
func At(v tftypes.Value, p []string) (tftypes.Value, bool) {
	for _, name := range p {
		if !v.IsKnown() || v.IsNull() || !v.Type().Is(tftypes.Object{}) {
			return tftypes.Value{}, false
		}
		var attrs map[string]tftypes.Value
		if err := v.As(&attrs); err != nil {
			return tftypes.Value{}, false
		}
		child, ok := attrs[name]
		if !ok {
			return tftypes.Value{}, false
		}
		v = child
	}
	return v, true
}

// Replace returns v with the value at the path replaced; v unchanged when a parent on the path
// is null or unknown (a null status has no cloud_profile_spec to set).
func Replace(v tftypes.Value, p []string, replacement tftypes.Value) (tftypes.Value, error) {
	if len(p) == 0 {
		return replacement, nil
	}
	if !v.IsKnown() || v.IsNull() {
		return v, nil
	}
	var attrs map[string]tftypes.Value
	if err := v.As(&attrs); err != nil {
		return v, err
	}
	child, ok := attrs[p[0]]
	if !ok {
		return v, nil
	}
	child, err := Replace(child, p[1:], replacement)
	if err != nil {
		return v, err
	}
	copied := make(map[string]tftypes.Value, len(attrs))
	for k, a := range attrs {
		copied[k] = a
	}
	copied[p[0]] = child
	return tftypes.NewValue(v.Type(), copied), nil
}

// Equal reports whether two values of the same type are equal. tftypes.Value.Equal builds an
// attribute path for every value it visits; this walk allocates nothing.
func Equal(a, b tftypes.Value) bool {
	if a.IsKnown() != b.IsKnown() || a.IsNull() != b.IsNull() {
		return false
	}
	if !a.IsKnown() || a.IsNull() {
		return true
	}
	t := a.Type()
	switch {
	case t.Is(tftypes.Object{}), t.Is(tftypes.Map{}):
		var am, bm map[string]tftypes.Value
		if a.As(&am) != nil || b.As(&bm) != nil || len(am) != len(bm) {
			return false
		}
		for k, av := range am {
			if bv, ok := bm[k]; !ok || !Equal(av, bv) {
				return false
			}
		}
		return true
	case t.Is(tftypes.List{}), t.Is(tftypes.Tuple{}):
		var as, bs []tftypes.Value
		if a.As(&as) != nil || b.As(&bs) != nil || len(as) != len(bs) {
			return false
		}
		for i := range as {
			if !Equal(as[i], bs[i]) {
				return false
			}
		}
		return true
	case t.Is(tftypes.String):
		var as, bs string
		return a.As(&as) == nil && b.As(&bs) == nil && as == bs
	case t.Is(tftypes.Bool):
		var ab, bb bool
		return a.As(&ab) == nil && b.As(&bb) == nil && ab == bb
	}
	return a.Equal(b) // numbers, sets, dynamic values: rare in profiles
}

// Attribute returns the named attribute of a known object value, or the zero value.
func Attribute(v tftypes.Value, name string) tftypes.Value {
	var attrs map[string]tftypes.Value
	if !v.IsKnown() || v.IsNull() || v.As(&attrs) != nil {
		return tftypes.Value{}
	}
	return attrs[name]
}

// Element returns the i-th element of a known list value, or the zero value.
func Element(v tftypes.Value, i int) tftypes.Value {
	var elems []tftypes.Value
	if !v.IsKnown() || v.IsNull() || v.As(&elems) != nil || i < 0 || i >= len(elems) {
		return tftypes.Value{}
	}
	return elems[i]
}

// ElementsUpTo counts the elements of every map, list, set and tuple in v, nested ones included,
// up to atMost: it stops walking v once it has counted that many. Null and unknown values hold
// none.
func ElementsUpTo(v tftypes.Value, atMost int) int {
	if atMost <= 0 || v.Type() == nil || !v.IsKnown() || v.IsNull() {
		return 0
	}
	count := 0
	switch t := v.Type(); {
	case t.Is(tftypes.Object{}), t.Is(tftypes.Map{}):
		var m map[string]tftypes.Value
		if v.As(&m) != nil {
			return 0
		}
		if t.Is(tftypes.Map{}) {
			count = len(m)
		}
		for _, c := range m {
			if count >= atMost {
				break
			}
			count += ElementsUpTo(c, atMost-count)
		}
	case t.Is(tftypes.List{}), t.Is(tftypes.Set{}), t.Is(tftypes.Tuple{}):
		var elems []tftypes.Value
		if v.As(&elems) != nil {
			return 0
		}
		count = len(elems)
		for _, c := range elems {
			if count >= atMost {
				break
			}
			count += ElementsUpTo(c, atMost-count)
		}
	}
	return min(count, atMost)
}
