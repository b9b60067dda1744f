package tfvalue

import (
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func TestElementsUpTo_CountsTheElementsOfNestedCollections(t *testing.T) {
	version := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"architectures": tftypes.List{ElementType: tftypes.String}}}
	versions := tftypes.Map{ElementType: version}
	spec := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"versions": versions, "labels": tftypes.Set{ElementType: tftypes.String}}}
	arch := func(names ...string) tftypes.Value {
		var elems []tftypes.Value
		for _, n := range names {
			elems = append(elems, tftypes.NewValue(tftypes.String, n))
		}
		return tftypes.NewValue(version, map[string]tftypes.Value{"architectures": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, elems)})
	}
	for _, c := range []struct {
		name  string
		value tftypes.Value
		want  int
	}{
		{"null", tftypes.NewValue(spec, nil), 0},
		{"unknown", tftypes.NewValue(spec, tftypes.UnknownValue), 0},
		{"no type", tftypes.Value{}, 0},
		{"a string", tftypes.NewValue(tftypes.String, "x"), 0},
		{"two versions of one and two architectures, one label", tftypes.NewValue(spec, map[string]tftypes.Value{
			"versions": tftypes.NewValue(versions, map[string]tftypes.Value{"1.0.0": arch("amd64"), "2.0.0": arch("amd64", "arm64")}),
			"labels":   tftypes.NewValue(tftypes.Set{ElementType: tftypes.String}, []tftypes.Value{tftypes.NewValue(tftypes.String, "a")}),
		}), 2 + 1 + 2 + 1},
		{"an unknown map holds none", tftypes.NewValue(spec, map[string]tftypes.Value{
			"versions": tftypes.NewValue(versions, tftypes.UnknownValue),
			"labels":   tftypes.NewValue(tftypes.Set{ElementType: tftypes.String}, nil),
		}), 0},
	} {
		if got := ElementsUpTo(c.value, 100); got != c.want {
			t.Errorf("%s: ElementsUpTo(100) = %d, want %d", c.name, got, c.want)
		}
	}
}

// ElementsUpTo counts a map of 10,000 lists of 10 elements (110,000 in all) up to its bound.
func TestElementsUpTo_StopsAtTheBound(t *testing.T) {
	list := tftypes.List{ElementType: tftypes.String}
	ten := make([]tftypes.Value, 10)
	for i := range ten {
		ten[i] = tftypes.NewValue(tftypes.String, "x")
	}
	entries := map[string]tftypes.Value{}
	for i := range 10_000 {
		entries[string(rune('a'+i%26))+strconv.Itoa(i)] = tftypes.NewValue(list, ten)
	}
	v := tftypes.NewValue(tftypes.Map{ElementType: list}, entries)
	for _, c := range []struct{ atMost, want int }{{0, 0}, {5_000, 5_000}, {10_000, 10_000}, {10_005, 10_005}, {200_000, 110_000}} {
		if got := ElementsUpTo(v, c.atMost); got != c.want {
			t.Errorf("ElementsUpTo(%d) = %d, want %d", c.atMost, got, c.want)
		}
	}
}
