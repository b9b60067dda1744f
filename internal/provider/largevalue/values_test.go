package largevalue

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
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

// TestPlaceholdersOfChangedValuesDiffer: the framework decides whether a plan changes the resource
// by comparing it with the prior state, so a changed large value must give a different
// placeholder; null and unknown stand for themselves.
func TestPlaceholdersOfChangedValuesDiffer(t *testing.T) {
	v := profileLike("1.33.1", "1.32.4")
	if tfvalue.Equal(placeholder(v, false), placeholder(v, true)) {
		t.Error("the placeholders of a changed and an unchanged value are equal")
	}
	if p := placeholder(tftypes.NewValue(v.Type(), nil), true); !p.IsNull() {
		t.Errorf("the placeholder of null is %s", p)
	}
	if p := placeholder(tftypes.NewValue(v.Type(), tftypes.UnknownValue), true); p.IsKnown() {
		t.Errorf("the placeholder of an unknown value is %s", p)
	}
}

// TestConvertSwapsOnlyTheLargeAttributes: a value converted to the reduced form and back is the
// value again, with the placeholder's type at a nested large path only, and nothing below a null
// parent.
func TestConvertSwapsOnlyTheLargeAttributes(t *testing.T) {
	spec := profileLike("1.33.1")
	status := func(inner tftypes.Type) tftypes.Object {
		return tftypes.Object{AttributeTypes: map[string]tftypes.Type{"generation": tftypes.Number, "spec": inner}}
	}
	whole := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"id": tftypes.String, "status": status(spec.Type())}}
	reduced := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"id": tftypes.String, "status": status(tftypes.String)}}
	v := tftypes.NewValue(whole, map[string]tftypes.Value{
		"id":     tftypes.NewValue(tftypes.String, "a"),
		"status": tftypes.NewValue(whole.AttributeTypes["status"], map[string]tftypes.Value{"generation": tftypes.NewValue(tftypes.Number, 1), "spec": spec}),
	})
	paths := []Path{{"status", "spec"}}
	small, err := convert(v, reduced, paths, func(_ Path, real tftypes.Value, _ tftypes.Type) tftypes.Value { return placeholder(real, false) })
	if err != nil {
		t.Fatal(err)
	}
	if got := mustAt(t, small, Path{"status", "spec"}); !got.Equal(tftypes.NewValue(tftypes.String, placeholderSame)) {
		t.Errorf("reduced spec = %s", got)
	}
	back, err := convert(small, whole, paths, func(Path, tftypes.Value, tftypes.Type) tftypes.Value { return spec })
	if err != nil {
		t.Fatal(err)
	}
	if !tfvalue.Equal(back, v) {
		t.Errorf("converted back: %s", back)
	}
	called := false
	nullStatus := tftypes.NewValue(whole, map[string]tftypes.Value{"id": tftypes.NewValue(tftypes.String, "a"), "status": tftypes.NewValue(whole.AttributeTypes["status"], nil)})
	if _, err := convert(nullStatus, reduced, paths, func(Path, tftypes.Value, tftypes.Type) tftypes.Value { called = true; return tftypes.Value{} }); err != nil || called {
		t.Errorf("below a null parent: called %v, %v", called, err)
	}
	if _, err := convert(v, reduced, paths, func(Path, tftypes.Value, tftypes.Type) tftypes.Value { return spec }); err == nil {
		t.Error("a value of the wrong type converts without an error")
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

// TestValuesOf_FindsARequestByItsTicketOnlyWhileItRuns: the framework hands a resource nothing of
// a request but its values, so the ticket the Server writes into the reduced values is how a
// resource gets the request's large values; a value without a ticket, or one of a request that
// has ended, gets the zero Values (the request's own values).
func TestValuesOf_FindsARequestByItsTicketOnlyWhileItRuns(t *testing.T) {
	spec := profileLike("1.33.1")
	whole := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"id": tftypes.String, "spec": spec.Type()}}
	reduced := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"id": tftypes.String, "spec": tftypes.String, ticketPath[0]: tftypes.String}}
	ls := largeSchema{typ: whole, reduced: reduced, paths: []Path{{"spec"}}, converted: []Path{{"spec"}, ticketPath}}
	s := &server{}
	lv := s.begin(ls)
	other := s.begin(ls)
	value := tftypes.NewValue(whole, map[string]tftypes.Value{"id": tftypes.NewValue(tftypes.String, "a"), "spec": spec})
	_, sent, err := lv.reduce(ls, fromPrior, value, nil)
	if err != nil {
		t.Fatal(err)
	}
	withoutTicket := tftypes.NewValue(whole, nil)
	if got := s.valuesOf(withoutTicket, sent); got.lv != lv {
		t.Fatalf("the values of the request are not found by its ticket: got %p, want %p (the other request's %p)", got.lv, lv, other)
	}
	if got := s.valuesOf(sent).Prior(tfsdk.State{}, Path{"spec"}); !tfvalue.Equal(got, spec) {
		t.Errorf("Prior = %s, want the request's spec", got)
	}
	back, err := ls.toWhole(sent, func(_ Path, _ tftypes.Value, t tftypes.Type) tftypes.Value { return tftypes.NewValue(t, nil) })
	if err != nil || !back.Type().Equal(whole) {
		t.Errorf("the whole form keeps the ticket: %v, %v", back, err)
	}
	s.end(lv)
	if got := s.valuesOf(sent); got.lv != nil {
		t.Error("an ended request's values are still found")
	}
}
