package provider

import (
	"context"
	"reflect"
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"k8s.io/utils/ptr"
)

// TestLargeAttributesHaveNothingTheServerWouldSkip: the largeValueServer plans the large
// attributes itself and knows only unknown marking and semantic equality, so no attribute below
// them may carry a default or a plan modifier, and nesting is single or list only.
func TestLargeAttributesHaveNothingTheServerWouldSkip(t *testing.T) {
	ctx := context.Background()
	for _, r := range []resource.Resource{newCloudProfileResource(), newNamespacedCloudProfileResource()} {
		name, ls := resourceLargeSchema(ctx, r)
		if len(ls.paths) == 0 {
			t.Fatalf("%s: no large attributes", name)
		}
		for key, a := range ls.attributes {
			if a == nil {
				t.Fatalf("%s: no attribute at %s", name, key)
			}
			checkNothingToSkip(t, name+"."+key, a)
		}
	}
}

func checkNothingToSkip(t *testing.T, at string, a rschema.Attribute) {
	v := reflect.ValueOf(a)
	if f := v.FieldByName("PlanModifiers"); f.IsValid() && f.Len() > 0 {
		t.Errorf("%s has plan modifiers", at)
	}
	if f := v.FieldByName("Default"); f.IsValid() && !f.IsNil() {
		t.Errorf("%s has a default", at)
	}
	switch a.(type) {
	case rschema.SetNestedAttribute, rschema.MapNestedAttribute:
		t.Errorf("%s is nested as a set or map, which the server's walks do not handle", at)
	}
	for name, child := range nestedAttributes(a) {
		checkNothingToSkip(t, at+"."+name, child)
	}
}

// planRequest encodes a PlanResourceChangeRequest of the CloudProfile resource.
func planRequest(t *testing.T, typ tftypes.Type, config, prior, proposed tftypes.Value) *tfprotov6.PlanResourceChangeRequest {
	t.Helper()
	enc := func(v tftypes.Value) *tfprotov6.DynamicValue {
		dv, err := encodeValue(typ, v)
		if err != nil {
			t.Fatal(err)
		}
		return dv
	}
	return &tfprotov6.PlanResourceChangeRequest{TypeName: TypeName + "_cloud_profile", Config: enc(config), PriorState: enc(prior), ProposedNewState: enc(proposed)}
}

// cloudProfileResourceValue is a value of the CloudProfile resource with the given spec; state
// adds what a stored object has (id, uid, status, force_conflicts, adopt_existing).
func cloudProfileResourceValue(t *testing.T, typ tftypes.Type, spec gardencorev1beta1.CloudProfileSpec, state bool) tftypes.Value {
	t.Helper()
	specValue, diags := flattenSpecTerraform(cloudProfileSpecRoot, spec)
	requireNoDiags(t, diags)
	attrs := nullAttributes(typ.(tftypes.Object))
	attrs["spec"] = specValue
	meta := attrs["metadata"].Type().(tftypes.Object)
	metaAttrs := nullAttributes(meta)
	metaAttrs["name"] = tftypes.NewValue(tftypes.String, "big")
	if state {
		attrs["id"] = tftypes.NewValue(tftypes.String, "big")
		attrs["force_conflicts"] = tftypes.NewValue(tftypes.Bool, false)
		attrs["adopt_existing"] = tftypes.NewValue(tftypes.Bool, false)
		metaAttrs["uid"] = tftypes.NewValue(tftypes.String, "0b6c")
		metaAttrs["resource_version"] = tftypes.NewValue(tftypes.String, "7")
		statusType := attrs["status"].Type().(tftypes.Object)
		statusAttrs := map[string]tftypes.Value{}
		for name, at := range statusType.AttributeTypes {
			statusAttrs[name] = tftypes.NewValue(at, []tftypes.Value{})
		}
		attrs["status"] = tftypes.NewValue(statusType, statusAttrs)
	}
	attrs["metadata"] = tftypes.NewValue(meta, metaAttrs)
	return tftypes.NewValue(typ, attrs)
}

// TestLargeValueServerPlansAsTheFramework: for a create, an update of the spec, an update of
// something else and no change, the planned state with the large values kept out of the framework
// is exactly the framework's own plan (including which Computed values become unknown), followed
// by the step the server adds: entries the configuration leaves as they were keep their prior
// values (keepUnchangedSpecEntries). What the API server fills in is predicted by ModifyPlan in
// both (planLarge).
func TestLargeValueServerPlansAsTheFramework(t *testing.T) {
	ctx := context.Background()
	_, ls := resourceLargeSchema(ctx, newCloudProfileResource())
	specA := richCloudProfileSpec()
	specB := richCloudProfileSpec()
	specB.Kubernetes.Versions[1].ExpirationDate = at(2027, 4, 1)
	specB.Bastion = nil
	withDefaults := richCloudProfileSpec() // as stored: Gardener filled in a default the configuration leaves out
	withDefaults.VolumeTypes[0].Usable = ptr.To(true)
	configA := cloudProfileResourceValue(t, ls.typ, specA, false)
	configB := cloudProfileResourceValue(t, ls.typ, specB, false)
	stateA := cloudProfileResourceValue(t, ls.typ, withDefaults, true)
	relabelled, err := withValueAt(configA, largePath{"force_conflicts"}, tftypes.NewValue(tftypes.Bool, true))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name                     string
		config, prior, proposed  tftypes.Value
		wantUnknownInPlannedSpec bool
	}{
		{"create", configA, tftypes.NewValue(ls.typ, nil), configA, false},
		{"spec changed", configB, stateA, configB, false},
		{"other attribute changed", relabelled, stateA, relabelled, false},
		{"no change", stateA, stateA, stateA, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := planRequest(t, ls.typ, c.config, c.prior, c.proposed)
			framework, err := providerserver.NewProtocol6WithError(New("test")())()
			if err != nil {
				t.Fatal(err)
			}
			shim, err := NewProtocol6Server(New("test"))()
			if err != nil {
				t.Fatal(err)
			}
			want, err := framework.PlanResourceChange(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			got, err := shim.PlanResourceChange(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			wantState, err := want.PlannedState.Unmarshal(ls.typ)
			if err != nil {
				t.Fatal(err)
			}
			wantState = withProviderPlanSteps(t, ls, wantState, c.config, c.prior)
			gotState, err := got.PlannedState.Unmarshal(ls.typ)
			if err != nil {
				t.Fatal(err)
			}
			if !gotState.Equal(wantState) {
				diffs, _ := gotState.Diff(wantState)
				t.Errorf("planned state differs from the framework's at %d places, e.g. %v", len(diffs), firstDiffs(diffs))
			}
			if len(got.Diagnostics) != len(want.Diagnostics) {
				t.Errorf("%d diagnostics, the framework gives %d", len(got.Diagnostics), len(want.Diagnostics))
			}
			spec, _ := valueAt(gotState, specLargePath)
			if spec.IsFullyKnown() == c.wantUnknownInPlannedSpec {
				t.Errorf("planned spec fully known = %v, want %v", spec.IsFullyKnown(), !c.wantUnknownInPlannedSpec)
			}
		})
	}
}

// withProviderPlanSteps applies the server's own step after the framework's plan to a changing
// planned state.
func withProviderPlanSteps(t *testing.T, ls largeSchema, planned, config, prior tftypes.Value) tftypes.Value {
	t.Helper()
	if planned.Equal(prior) {
		return planned
	}
	spec, _ := valueAt(planned, specLargePath)
	configSpec, _ := valueAt(config, specLargePath)
	priorSpec, _ := valueAt(prior, specLargePath)
	if kept, changed := keepUnchangedSpecEntries(ls.attributes[specLargePath.key()], spec, configSpec, priorSpec); changed {
		var err error
		if planned, err = withValueAt(planned, specLargePath, kept); err != nil {
			t.Fatal(err)
		}
	}
	return planned
}

func firstDiffs(diffs []tftypes.ValueDiff) []string {
	var out []string
	for i, d := range diffs {
		if i == 3 {
			break
		}
		out = append(out, d.Path.String())
	}
	return out
}

// recordingServer stands in for the framework's server: it keeps the requests it gets and answers
// with the given state, after letting the test act as the provider's code.
type recordingServer struct {
	tfprotov6.ProviderServer
	typ      tftypes.Type
	readReq  *tfprotov6.ReadResourceRequest
	readCtx  func(ctx context.Context)
	newState func(current *tfprotov6.DynamicValue) *tfprotov6.DynamicValue
}

func (r *recordingServer) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	r.readReq = req
	r.readCtx(ctx)
	return &tfprotov6.ReadResourceResponse{NewState: r.newState(req.CurrentState)}, nil
}

// TestLargeValueServerReadResource: the framework gets a stand-in; the provider's code reads the
// real value from the context; what it writes comes back, with the prior value kept where the new
// one only writes it differently; where it wrote nothing (an error), the prior value comes back.
func TestLargeValueServerReadResource(t *testing.T) {
	ctx := context.Background()
	_, ls := resourceLargeSchema(ctx, newCloudProfileResource())
	// The state holds the quantity as configured, 51200Mi; the API server answers 50Gi.
	storageSize := tftypes.NewAttributePath().WithAttributeName("spec").WithAttributeName("machine_types").
		WithElementKeyInt(0).WithAttributeName("storage").WithAttributeName("size")
	current, err := tftypes.Transform(cloudProfileResourceValue(t, ls.typ, richCloudProfileSpec(), true), func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if p.Equal(storageSize) {
			return tftypes.NewValue(tftypes.String, "51200Mi"), nil
		}
		return v, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	currentDV, err := encodeValue(ls.typ, current)
	if err != nil {
		t.Fatal(err)
	}
	reread := richCloudProfileSpec()
	reread.Regions[0].Name = "renamed"
	rereadValue, diags := flattenSpecTerraform(cloudProfileSpecRoot, reread)
	requireNoDiags(t, diags)

	for _, writes := range []bool{true, false} {
		rec := &recordingServer{typ: ls.typ, newState: func(cur *tfprotov6.DynamicValue) *tfprotov6.DynamicValue { return cur }}
		rec.readCtx = func(ctx context.Context) {
			if got := largeInput(ctx, rolePrior, specLargePath, tftypes.Value{}); !sameValue(got, valueAtOrFail(t, current, specLargePath)) {
				t.Error("the provider's code does not get the real spec from the context")
			}
			if writes && !largeValuesFrom(ctx).capture(path.Root("spec"), rereadValue) {
				t.Error("spec is not captured")
			}
		}
		s := newLargeValueServer(ctx, rec)
		resp, err := s.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: TypeName + "_cloud_profile", CurrentState: currentDV})
		if err != nil {
			t.Fatal(err)
		}
		sent, err := rec.readReq.CurrentState.Unmarshal(ls.typ)
		if err != nil {
			t.Fatal(err)
		}
		if standInSpec := valueAtOrFail(t, sent, specLargePath); !sameValue(standInSpec, standIn(standInSpec, false)) {
			t.Error("the framework got the real spec, not a stand-in")
		}
		state, err := resp.NewState.Unmarshal(ls.typ)
		if err != nil {
			t.Fatal(err)
		}
		gotSpec := valueAtOrFail(t, state, specLargePath)
		got, _, d := expandCloudProfileSpecTerraform(gotSpec, path.Root("spec"))
		requireNoDiags(t, d)
		stored, _, err := tftypes.WalkAttributePath(state, storageSize)
		if err != nil {
			t.Fatal(err)
		}
		if !writes {
			if !sameValue(gotSpec, valueAtOrFail(t, current, specLargePath)) {
				t.Error("without a write the prior spec must come back")
			}
			continue
		}
		if got.Regions[0].Name != "renamed" {
			t.Errorf("the written spec did not come back: region %q", got.Regions[0].Name)
		}
		if !stored.(tftypes.Value).Equal(tftypes.NewValue(tftypes.String, "51200Mi")) {
			t.Errorf("a quantity only written differently (50Gi) must keep the prior form 51200Mi, got %v", stored)
		}
	}
}

func valueAtOrFail(t *testing.T, v tftypes.Value, p largePath) tftypes.Value {
	t.Helper()
	got, ok := valueAt(v, p)
	if !ok {
		t.Fatalf("no value at %s", p.key())
	}
	return got
}

// TestLargeValuesAreReleased: once a request is answered nothing it decoded stays reachable through
// a context somebody kept (a connection's last request kept whole profiles alive).
func TestLargeValuesAreReleased(t *testing.T) {
	lv := newLargeValues([]largePath{specLargePath})
	lv.in[rolePrior]["spec"] = tftypes.NewValue(tftypes.String, "x")
	lv.capture(path.Root("spec"), tftypes.NewValue(tftypes.String, "y"))
	lv.release()
	for role, m := range lv.in {
		if len(m) != 0 {
			t.Errorf("role %d still holds %d values", role, len(m))
		}
	}
	if len(lv.out) != 0 {
		t.Errorf("written values still held: %v", lv.out)
	}
	if lv.capture(path.Root("spec"), tftypes.NewValue(tftypes.String, "z")) {
		t.Error("a released request captures no more values")
	}
}

// TestStandInsOfChangedValuesDiffer: the framework decides whether a plan changes the resource by
// comparing it with the prior state, so a changed large value must give a different stand-in.
func TestStandInsOfChangedValuesDiffer(t *testing.T) {
	v, diags := flattenSpecTerraform(cloudProfileSpecRoot, richCloudProfileSpec())
	requireNoDiags(t, diags)
	if sameValue(standIn(v, false), standIn(v, true)) {
		t.Error("the stand-ins of a changed and an unchanged value are equal")
	}
	if !strings.Contains(standIn(v, false).String(), "null") {
		t.Error("a stand-in holds null attributes only")
	}
	for _, special := range []tftypes.Value{tftypes.NewValue(v.Type(), nil), tftypes.NewValue(v.Type(), tftypes.UnknownValue)} {
		if !sameValue(standIn(special, true), special) {
			t.Errorf("a null or unknown value is its own stand-in: %s", special)
		}
	}
}

// TestLargeValueServerFailedWriteKeepsThePriorState: an update whose write fails (here: the
// provider has no client) answers with the prior state and the error, as the bare framework does;
// the large values of the plan (with their unknowns) must not come back into that answer.
func TestLargeValueServerFailedWriteKeepsThePriorState(t *testing.T) {
	ctx := context.Background()
	_, ls := resourceLargeSchema(ctx, newCloudProfileResource())
	prior := cloudProfileResourceValue(t, ls.typ, richCloudProfileSpec(), true)
	changed := richCloudProfileSpec()
	changed.Regions[0].Name = "renamed"
	planned := cloudProfileResourceValue(t, ls.typ, changed, true)
	planned, err := withValueAt(planned, largePath{"metadata", "resource_version"}, tftypes.NewValue(tftypes.String, tftypes.UnknownValue))
	if err != nil {
		t.Fatal(err)
	}
	planned, err = withValueAt(planned, largePath{"adopt_existing"}, tftypes.NewValue(tftypes.Bool, false))
	if err != nil {
		t.Fatal(err)
	}
	enc := func(v tftypes.Value) *tfprotov6.DynamicValue {
		dv, err := encodeValue(ls.typ, v)
		if err != nil {
			t.Fatal(err)
		}
		return dv
	}
	req := &tfprotov6.ApplyResourceChangeRequest{TypeName: TypeName + "_cloud_profile", PriorState: enc(prior), PlannedState: enc(planned), Config: enc(planned)}

	framework, err := providerserver.NewProtocol6WithError(New("test")())()
	if err != nil {
		t.Fatal(err)
	}
	bare, err := framework.ApplyResourceChange(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if bareState, _ := bare.NewState.Unmarshal(ls.typ); !bareState.Equal(prior) {
		t.Fatal("the bare framework no longer answers a failed update with the prior state: revisit the wrapper's rule")
	}

	shim, err := NewProtocol6Server(New("test"))()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := shim.ApplyResourceChange(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if !hasError(resp.Diagnostics) {
		t.Fatal("want the write's error")
	}
	got, err := resp.NewState.Unmarshal(ls.typ)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Equal(prior) {
		diffs, _ := got.Diff(prior)
		t.Fatalf("the failed update's state differs from the prior state at %d places, e.g. %v", len(diffs), firstDiffs(diffs))
	}
}
