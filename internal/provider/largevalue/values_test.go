package largevalue

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/gardener-community/terraform-provider-gardener/internal/tfvalue"
)

// profileLike is a value shaped like a small spec: an object with a list of objects.
func profileLike(versions ...string) tftypes.Value {
	entry := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"version": tftypes.String, "usable": tftypes.Bool}}
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"type": tftypes.String, "versions": tftypes.List{ElementType: entry}}}
	var list []tftypes.Value
	for _, v := range versions {
		list = append(list, tftypes.NewValue(entry, map[string]tftypes.Value{"version": tftypes.NewValue(tftypes.String, v), "usable": tftypes.NewValue(tftypes.Bool, nil)}))
	}
	return tftypes.NewValue(typ, map[string]tftypes.Value{"type": tftypes.NewValue(tftypes.String, "local"), "versions": tftypes.NewValue(typ.AttributeTypes["versions"], list)})
}

// TestValuesAreReleased: once a request is answered nothing it decoded stays reachable through a
// context somebody kept (a connection's last request kept whole profiles alive).
func TestValuesAreReleased(t *testing.T) {
	lv := newValues([]Path{{"spec"}})
	lv.in[fromPrior]["spec"] = profileLike("1.33.1")
	lv.capture(Path{"spec"}, profileLike("1.33.2"))
	lv.release()
	for role, m := range lv.in {
		if len(m) != 0 {
			t.Errorf("role %d still holds %d values", role, len(m))
		}
	}
	if len(lv.out) != 0 {
		t.Errorf("written values still held: %v", lv.out)
	}
	if lv.capture(Path{"spec"}, profileLike("1.33.3")) {
		t.Error("a released request captures no more values")
	}
}

// TestStandInsOfChangedValuesDiffer: the framework decides whether a plan changes the resource by
// comparing it with the prior state, so a changed large value must give a different stand-in.
func TestStandInsOfChangedValuesDiffer(t *testing.T) {
	v := profileLike("1.33.1", "1.32.4")
	if tfvalue.Equal(standIn(v, false), standIn(v, true)) {
		t.Error("the stand-ins of a changed and an unchanged value are equal")
	}
	if !strings.Contains(standIn(v, false).String(), "null") {
		t.Error("a stand-in holds null attributes only")
	}
	for _, special := range []tftypes.Value{tftypes.NewValue(v.Type(), nil), tftypes.NewValue(v.Type(), tftypes.UnknownValue)} {
		if !tfvalue.Equal(standIn(special, true), special) {
			t.Errorf("a null or unknown value is its own stand-in: %s", special)
		}
	}
}

// TestEqualAndReplace: Equal compares values as tftypes does, and Replace changes the value at a
// path only, leaving a null parent alone.
func TestEqualAndReplace(t *testing.T) {
	a, b := profileLike("1.33.1"), profileLike("1.33.1")
	if !tfvalue.Equal(a, b) || tfvalue.Equal(a, profileLike("1.33.2")) || tfvalue.Equal(a, profileLike("1.33.1", "1.32.4")) {
		t.Fatal("Equal disagrees with tftypes")
	}
	replaced, err := tfvalue.Replace(a, Path{"type"}, tftypes.NewValue(tftypes.String, "aws"))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := tfvalue.At(replaced, Path{"type"}); !got.Equal(tftypes.NewValue(tftypes.String, "aws")) {
		t.Errorf("type = %v after Replace", got)
	}
	if versions, _ := tfvalue.At(replaced, Path{"versions"}); !tfvalue.Equal(versions, mustAt(t, a, Path{"versions"})) {
		t.Error("Replace changed another attribute")
	}
	null := tftypes.NewValue(a.Type(), nil)
	if out, err := tfvalue.Replace(null, Path{"type"}, tftypes.NewValue(tftypes.String, "aws")); err != nil || !out.IsNull() {
		t.Errorf("Replace below a null value: %v, %v", out, err)
	}
}

func mustAt(t *testing.T, v tftypes.Value, p Path) tftypes.Value {
	t.Helper()
	got, ok := tfvalue.At(v, p)
	if !ok {
		t.Fatalf("no value at %s", p.Key())
	}
	return got
}
