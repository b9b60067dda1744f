package largevalue

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/gardener-community/terraform-provider-gardener/internal/tfvalue"
)

// Path is the path of a large attribute: attribute names from the root.
type Path []string

// Key names the path as path.Path.String() does ("status.cloud_profile_spec").
func (p Path) Key() string { return strings.Join(p, ".") }

// Framework is the path as the framework's path.Path.
func (p Path) Framework() path.Path {
	out := path.Empty()
	for _, name := range p {
		out = out.AtName(name)
	}
	return out
}

// origin says which value of a request a large value comes from.
type origin int

const (
	// fromConfig is the configuration (PlanResourceChange, ValidateResourceConfig).
	fromConfig origin = iota
	// fromPrior is the prior state (PlanResourceChange, ApplyResourceChange) or the current state
	// (ReadResource).
	fromPrior
	// fromPlanned is the proposed new state (PlanResourceChange) or the planned state
	// (ApplyResourceChange).
	fromPlanned
	originCount
)

// values are the large attribute values of one request, as Terraform sent them, and what the
// provider's code wrote for them.
type values struct {
	// ticket names the request in the reduced values the framework gets (server.begin).
	ticket string
	paths  map[string]bool
	in     [originCount]map[string]tftypes.Value
	out    map[string]tftypes.Value
	// planners are how the provider's code plans large attributes of a changing plan (Plan).
	planners map[string]planner
	// private are the keys of the plan's private state the planners recorded (PlannedPrivate).
	private map[string][]byte
}

// planner plans a large attribute of a changing plan: it gets the attribute's schema and the
// value as the framework's steps leave it (Computed nulls unknown, unchanged entries kept) and
// returns the planned value, with diagnostics for the plan (such as the server checks' findings).
type planner func(a rschema.Attribute, planned tftypes.Value) (tftypes.Value, diag.Diagnostics)

func newValues(paths []Path) *values {
	lv := &values{paths: map[string]bool{}, out: map[string]tftypes.Value{}, planners: map[string]planner{}, private: map[string][]byte{}}
	for _, p := range paths {
		lv.paths[p.Key()] = true
	}
	for i := range lv.in {
		lv.in[i] = map[string]tftypes.Value{}
	}
	return lv
}

// release drops the values at the end of a request: whatever still holds the request's Values
// (a resource the framework keeps) must not keep a whole profile alive.
func (lv *values) release() {
	lv.paths = nil
	lv.in = [originCount]map[string]tftypes.Value{}
	lv.out = nil
	lv.planners = nil
	lv.private = nil
}

// Values are the large values of one request as the provider's code reads, writes and plans
// them. The Server hands them to a resource (WithLargeValues) or data source (SetLargeValues);
// the zero Values (the bare framework, in parity tests, or a request the Server does not reduce,
// such as a list result) works on the request's own values.
type Values struct{ lv *values }

// Plan lets ModifyPlan plan a large attribute of a changing plan (see planner). Through the
// server the planner runs after the server's own steps, the planners of a request in the order of
// LargeAttributes; without it (the bare framework, in parity tests) it runs at once on the
// plan's value, so ModifyPlan registers them in that order too.
func (v Values) Plan(plan *tfsdk.Plan, p Path, f planner) diag.Diagnostics {
	if v.lv != nil && v.lv.paths[p.Key()] {
		v.lv.planners[p.Key()] = f
		return nil
	}
	current, ok := tfvalue.At(plan.Raw, p)
	if !ok {
		return nil
	}
	sch, _ := plan.Schema.(rschema.Schema)
	value, diags := f(attributeAt(sch.Attributes, p), current)
	planned, err := tfvalue.Replace(plan.Raw, p, value)
	if err != nil {
		diags.AddError("Planning "+p.Key(), err.Error())
		return diags
	}
	plan.Raw = planned
	return diags
}

// privateKeys is the framework's private state of a resource as ModifyPlan writes it.
type privateKeys interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// PlannedPrivate returns how a planner (see Plan) records a key of the plan's private state,
// which the apply of the plan receives (an empty value removes the key): through the Server, into
// its response once the planners have run; without it, into private (ModifyPlan's) at once, as
// the planner then runs within ModifyPlan.
func (v Values) PlannedPrivate(ctx context.Context, private privateKeys) func(key string, value []byte) diag.Diagnostics {
	if v.lv == nil {
		return func(key string, value []byte) diag.Diagnostics { return private.SetKey(ctx, key, value) }
	}
	return func(key string, value []byte) diag.Diagnostics {
		v.lv.private[key] = value
		return nil
	}
}

// Changing tells whether a plan creates or changes the resource of state. Through the Server, the
// large values of both are placeholders that differ only where the value changed.
func Changing(plan tfsdk.Plan, state tfsdk.State) bool {
	return state.Raw.IsNull() || !plan.Raw.Equal(state.Raw)
}

// Config is the value at p of a large attribute in the configuration.
func (v Values) Config(config tfsdk.Config, p Path) tftypes.Value {
	return v.input(fromConfig, p, config.Raw)
}

// Prior is the value at p of a large attribute in the prior or current state.
func (v Values) Prior(state tfsdk.State, p Path) tftypes.Value {
	return v.input(fromPrior, p, state.Raw)
}

// Planned is the value at p of a large attribute in the proposed new or the planned state.
func (v Values) Planned(plan tfsdk.Plan, p Path) tftypes.Value {
	return v.input(fromPlanned, p, plan.Raw)
}

// input returns the value of a large attribute as the request carried it: from the Server when
// the request came through it, else from the framework's raw value (whose value there is then the
// real one).
func (v Values) input(from origin, p Path, raw tftypes.Value) tftypes.Value {
	if v.lv != nil {
		if value, ok := v.lv.in[from][p.Key()]; ok {
			return value
		}
	}
	value, _ := tfvalue.At(raw, p)
	return value
}

// capture records a value the provider's code wrote for a large attribute; false when the path is
// not one of this request's large attributes.
func (lv *values) capture(p Path, v tftypes.Value) bool {
	if lv == nil || !lv.paths[p.Key()] {
		return false
	}
	lv.out[p.Key()] = v
	return true
}
