package provider

import (
	"context"
	"math/big"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The seam between Terraform values and the provider's code.
//
// Why: a profile's spec holds tens of thousands of values. terraform-plugin-framework walks and
// copies every value of a request several times (plan modification, unknown marking, semantic
// equality), which for such a profile made the provider's memory peak several times the size of
// the data and its plan three times slower. The largeValueServer therefore takes the large
// attributes out of each request before the framework sees it (leaving a stand-in of the same
// type) and puts them back into its response.
//
// What it mirrors: for the large attributes only, the framework's marking of Computed nulls as
// unknown in a changing plan (markComputedNullsUnknown) and its semantic equality after a read or
// an apply (keepSemanticallyEqual); TestLargeValueServer_MirrorsThePinnedFramework names the
// framework functions and fails when the framework's version changes, and
// TestLargeValueServerPlansAsTheFramework compares whole plans with the bare framework's.
//
// How the provider's code meets it: it reads a large value with largeInput, writes one into a
// state with setStateWithValues, and plans one with planLarge. The request's largeValues travel
// in the context because the framework hands a resource nothing else per request; they are
// released when the request ends.
//
// How to remove it: when the framework plans, reads and applies large nested values without
// walking them per value (terraform-plugin-framework issue 775), drop the largeValueServer from
// NewProtocol6Server, make largeInput read the request's own value, setStateWithValues set the
// attribute and planLarge run its planner at once (their fallbacks already do exactly that, and
// the parity test runs them), and delete this file's stand-ins.

// largePath is the path of a large attribute: attribute names from the root.
type largePath []string

// key names the path as path.Path.String() does ("status.cloud_profile_spec").
func (p largePath) key() string { return strings.Join(p, ".") }

// requestRole says which value of a request a large value comes from.
type requestRole int

const (
	// roleConfig is the configuration (PlanResourceChange).
	roleConfig requestRole = iota
	// rolePrior is the prior state (PlanResourceChange, ApplyResourceChange) or the current state
	// (ReadResource).
	rolePrior
	// rolePlanned is the proposed new state (PlanResourceChange) or the planned state
	// (ApplyResourceChange).
	rolePlanned
	requestRoles
)

// largeValues are the large attribute values of one request, as Terraform sent them, and what the
// provider's code wrote for them.
type largeValues struct {
	paths map[string]bool
	in    [requestRoles]map[string]tftypes.Value
	out   map[string]tftypes.Value
	// planners are how the provider's code plans large attributes of a changing plan (planLarge).
	planners map[string]largePlanner
}

// largePlanner plans a large attribute of a changing plan: it gets the attribute's schema and the
// value as the framework's steps leave it (Computed nulls unknown, unchanged entries kept) and
// returns the planned value.
type largePlanner func(a rschema.Attribute, planned tftypes.Value) tftypes.Value

type largeValuesKey struct{}

func withLargeValues(ctx context.Context, lv *largeValues) context.Context {
	return context.WithValue(ctx, largeValuesKey{}, lv)
}

func largeValuesFrom(ctx context.Context) *largeValues {
	lv, _ := ctx.Value(largeValuesKey{}).(*largeValues)
	return lv
}

func newLargeValues(paths []largePath) *largeValues {
	lv := &largeValues{paths: map[string]bool{}, out: map[string]tftypes.Value{}, planners: map[string]largePlanner{}}
	for _, p := range paths {
		lv.paths[p.key()] = true
	}
	for i := range lv.in {
		lv.in[i] = map[string]tftypes.Value{}
	}
	return lv
}

// release drops the values at the end of a request: whatever still holds the request's context
// (an HTTP connection's last request, a logger) must not keep a whole profile alive.
func (lv *largeValues) release() {
	lv.paths = nil
	lv.in = [requestRoles]map[string]tftypes.Value{}
	lv.out = nil
	lv.planners = nil
}

// planLarge lets ModifyPlan plan a large attribute of a changing plan (see largePlanner). Through
// the largeValueServer the planner runs after the server's own steps; without it (the bare
// framework, in parity tests) it runs at once on the plan's value.
func planLarge(ctx context.Context, plan *tfsdk.Plan, p largePath, planner largePlanner) diag.Diagnostics {
	if lv := largeValuesFrom(ctx); lv != nil && lv.paths[p.key()] {
		lv.planners[p.key()] = planner
		return nil
	}
	current, ok := valueAt(plan.Raw, p)
	if !ok {
		return nil
	}
	sch, _ := plan.Schema.(rschema.Schema)
	planned, err := withValueAt(plan.Raw, p, planner(resourceAttributeAt(sch.Attributes, p), current))
	if err != nil {
		var diags diag.Diagnostics
		diags.AddError("Planning "+p.key(), err.Error())
		return diags
	}
	plan.Raw = planned
	return nil
}

// largeInput returns the value of a large attribute as the request carried it: from the
// largeValueServer when the request came through it, else from the framework's raw value (whose
// value there is then the real one).
func largeInput(ctx context.Context, role requestRole, p largePath, raw tftypes.Value) tftypes.Value {
	if lv := largeValuesFrom(ctx); lv != nil {
		if v, ok := lv.in[role][p.key()]; ok {
			return v
		}
	}
	v, _ := valueAt(raw, p)
	return v
}

// capture records a value the provider's code wrote for a large attribute; false when the path is
// not one of this request's large attributes.
func (lv *largeValues) capture(p path.Path, v tftypes.Value) bool {
	if lv == nil || !lv.paths[p.String()] {
		return false
	}
	lv.out[p.String()] = v
	return true
}

// valueAt returns the value at the path, and whether the path leads to one.
func valueAt(v tftypes.Value, p largePath) (tftypes.Value, bool) {
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

// withValueAt returns v with the value at the path replaced; v unchanged when a parent on the path
// is null or unknown (a null status has no cloud_profile_spec to set).
func withValueAt(v tftypes.Value, p largePath, replacement tftypes.Value) (tftypes.Value, error) {
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
	child, err := withValueAt(child, p[1:], replacement)
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

// standIn is what the framework gets instead of a large value: the value itself when it is null or
// unknown, else an object of the same type whose attributes are all null. changed gives one
// attribute a known value, so that the stand-in of a changed value differs from the unchanged one.
func standIn(v tftypes.Value, changed bool) tftypes.Value {
	if !v.IsKnown() || v.IsNull() {
		return v
	}
	obj, ok := v.Type().(tftypes.Object)
	if !ok {
		return v
	}
	attrs := nullAttributes(obj)
	if changed {
		first := ""
		for name := range attrs {
			if first == "" || name < first {
				first = name
			}
		}
		if first != "" {
			attrs[first] = emptyValueOf(obj.AttributeTypes[first])
		}
	}
	return tftypes.NewValue(obj, attrs)
}

// nullAttributes are the attributes of an object of the type, every one null.
func nullAttributes(obj tftypes.Object) map[string]tftypes.Value {
	attrs := make(map[string]tftypes.Value, len(obj.AttributeTypes))
	for name, t := range obj.AttributeTypes {
		attrs[name] = tftypes.NewValue(t, nil)
	}
	return attrs
}

// emptyValueOf is a known, non-null value of the type: an empty collection, an object of null
// attributes, or a primitive's zero.
func emptyValueOf(t tftypes.Type) tftypes.Value {
	switch {
	case t.Is(tftypes.String):
		return tftypes.NewValue(t, "")
	case t.Is(tftypes.Bool):
		return tftypes.NewValue(t, false)
	case t.Is(tftypes.Number):
		return tftypes.NewValue(t, big.NewFloat(0))
	case t.Is(tftypes.Object{}):
		return tftypes.NewValue(t, nullAttributes(t.(tftypes.Object)))
	case t.Is(tftypes.List{}), t.Is(tftypes.Set{}):
		return tftypes.NewValue(t, []tftypes.Value{})
	case t.Is(tftypes.Map{}):
		return tftypes.NewValue(t, map[string]tftypes.Value{})
	}
	return tftypes.NewValue(t, tftypes.UnknownValue)
}

// sameValue reports whether two values of the same type are equal. tftypes.Value.Equal builds an
// attribute path for every value it visits; this walk allocates nothing.
func sameValue(a, b tftypes.Value) bool {
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
			if bv, ok := bm[k]; !ok || !sameValue(av, bv) {
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
			if !sameValue(as[i], bs[i]) {
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
