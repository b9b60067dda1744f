package provider

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/path"
	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"k8s.io/utils/ptr"

	"github.com/gardener-community/terraform-provider-gardener/internal/provider/largevalue"
	"github.com/gardener-community/terraform-provider-gardener/internal/tfvalue"
)

// TestLargeAttributesHaveNothingTheServerWouldSkip: the server of largevalue.NewServer plans the large
// attributes itself and knows only unknown marking and semantic equality, and it validates them
// with the provider's ValidateConfig only, so no attribute below them may carry a default, a plan
// modifier, a validator or a deprecation, and nesting is single or list only.
func TestLargeAttributesHaveNothingTheServerWouldSkip(t *testing.T) {
	for _, r := range []resource.Resource{newCloudProfileResource(), newNamespacedCloudProfileResource()} {
		ls := largeSchemaOf(r)
		name := ls.name
		if len(ls.Paths()) == 0 {
			t.Fatalf("%s: no large attributes", name)
		}
		for _, p := range ls.Paths() {
			a := ls.Attribute(p)
			if a == nil {
				t.Fatalf("%s: no attribute at %s", name, p.Key())
			}
			checkNothingToSkip(t, name+"."+p.Key(), a)
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
	if f := v.FieldByName("Validators"); f.IsValid() && f.Len() > 0 {
		t.Errorf("%s has validators", at)
	}
	if a.GetDeprecationMessage() != "" {
		t.Errorf("%s is deprecated", at)
	}
	if _, isSet := a.(rschema.SetNestedAttribute); isSet {
		t.Errorf("%s is nested as a set, which the server's walks do not handle", at)
	}
	for name, child := range tfvalue.NestedAttributes(a) {
		checkNothingToSkip(t, at+"."+name, child)
	}
}

// planRequest encodes a PlanResourceChangeRequest of the CloudProfile resource.
func planRequest(t *testing.T, typ tftypes.Type, config, prior, proposed tftypes.Value) *tfprotov6.PlanResourceChangeRequest {
	t.Helper()
	enc := func(v tftypes.Value) *tfprotov6.DynamicValue {
		dv, err := tfprotov6.NewDynamicValue(typ, v)
		if err != nil {
			t.Fatal(err)
		}
		return &dv
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
// is exactly the framework's own plan (including which Computed values become unknown), with the
// provider's own planning of the large values (largevalue.Plan: unchanged entries kept by key, what the
// API server fills in predicted) run in both.
func TestLargeValueServerPlansAsTheFramework(t *testing.T) {
	ctx := context.Background()
	ls := largeSchemaOf(newCloudProfileResource())
	specA := richCloudProfileSpec()
	specB := richCloudProfileSpec()
	specB.Kubernetes.Versions[1].ExpirationDate = at(2027, 4, 1)
	specB.Bastion = nil
	withDefaults := richCloudProfileSpec() // as stored: Gardener filled in a default the configuration leaves out
	withDefaults.VolumeTypes[0].Usable = ptr.To(true)
	configA := cloudProfileResourceValue(t, ls.Type(), specA, false)
	configB := cloudProfileResourceValue(t, ls.Type(), specB, false)
	stateA := cloudProfileResourceValue(t, ls.Type(), withDefaults, true)
	relabelled, err := tfvalue.Replace(configA, largevalue.Path{"force_conflicts"}, tftypes.NewValue(tftypes.Bool, true))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name                     string
		config, prior, proposed  tftypes.Value
		wantUnknownInPlannedSpec bool
	}{
		{"create", configA, tftypes.NewValue(ls.Type(), nil), configA, false},
		{"spec changed", configB, stateA, configB, false},
		{"other attribute changed", relabelled, stateA, relabelled, false},
		{"no change", stateA, stateA, stateA, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := planRequest(t, ls.Type(), c.config, c.prior, c.proposed)
			framework, shim := frameworkAndShim(t)
			want, err := framework.PlanResourceChange(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			got, err := shim.PlanResourceChange(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			wantState, err := want.PlannedState.Unmarshal(ls.Type())
			if err != nil {
				t.Fatal(err)
			}
			gotState, err := got.PlannedState.Unmarshal(ls.Type())
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
			spec, _ := tfvalue.At(gotState, specLargePath)
			if spec.IsFullyKnown() == c.wantUnknownInPlannedSpec {
				t.Errorf("planned spec fully known = %v, want %v", spec.IsFullyKnown(), !c.wantUnknownInPlannedSpec)
			}
		})
	}
}

// TestLargeValueServerValidatesAsTheFramework: with the large values kept out of the framework,
// validation answers exactly as the bare framework's for both resources: nothing for a valid
// spec, the same diagnostics (severity, summary, detail, attribute) for specs that break
// Gardener's rules or leave a required attribute below the spec unset (which the Server checks
// itself), and nothing for a spec not yet known.
func TestLargeValueServerValidatesAsTheFramework(t *testing.T) {
	ctx := context.Background()
	cp := validationCase{t: t, resource: newCloudProfileResource(), root: cloudProfileSpecRoot}
	ncp := validationCase{t: t, resource: newNamespacedCloudProfileResource(), root: namespacedCloudProfileSpecRoot}
	badVersion := plainCloudProfileSpec()
	badVersion.Kubernetes.Versions[0].Version = "v1.30"
	validNamespaced := gardencorev1beta1.NamespacedCloudProfileSpec{
		Parent:     gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: "aws"},
		Kubernetes: &gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{{Version: "1.30.5", ExpirationDate: at(2028, 1, 1)}}},
	}
	withoutVersion := validNamespaced
	withoutVersion.Kubernetes = &gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{{ExpirationDate: at(2028, 1, 1)}}}
	for _, c := range []struct {
		name       string
		validation validationCase
		spec       tftypes.Value
		wantErrors bool
	}{
		{"valid", cp, cp.spec(plainCloudProfileSpec()), false},
		{"a version that is no MAJOR.MINOR.PATCH", cp, cp.spec(badVersion), true},
		{"lifecycles without the feature gate, and more", cp, cp.spec(richCloudProfileSpec()), true},
		{"unknown spec", cp, cp.unknownSpec(), false},
		{"namespaced, valid", ncp, ncp.spec(validNamespaced), false},
		{"namespaced, rules broken", ncp, ncp.spec(richNamespacedCloudProfileSpec()), true},
		{"namespaced, no parent", ncp, ncp.spec(gardencorev1beta1.NamespacedCloudProfileSpec{Kubernetes: validNamespaced.Kubernetes}), true},
		{"namespaced, a version without its version", ncp, ncp.spec(withoutVersion), true},
		{"namespaced, unknown spec", ncp, ncp.unknownSpec(), false},
	} {
		t.Run(c.name, func(t *testing.T) {
			req := c.validation.request(c.spec)
			framework, shim := frameworkAndShim(t)
			want, err := framework.ValidateResourceConfig(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			got, err := shim.ValidateResourceConfig(ctx, req)
			if err != nil {
				t.Fatal(err)
			}
			if hasErrorDiagnostic(want.Diagnostics) != c.wantErrors {
				t.Fatalf("the framework's validation has errors = %v, want %v: %s", !c.wantErrors, c.wantErrors, diagnosticText(want.Diagnostics))
			}
			if diagnosticText(got.Diagnostics) != diagnosticText(want.Diagnostics) {
				t.Errorf("diagnostics differ from the framework's:\n got: %s\nwant: %s", diagnosticText(got.Diagnostics), diagnosticText(want.Diagnostics))
			}
		})
	}
}

// validationCase builds the ValidateResourceConfig requests of one resource.
type validationCase struct {
	t        *testing.T
	resource resource.Resource
	root     specField
}

func (c validationCase) schema() largeSchema { return largeSchemaOf(c.resource) }

// spec is the Terraform value of a spec of the resource's kind.
func (c validationCase) spec(spec any) tftypes.Value {
	c.t.Helper()
	v, diags := flattenSpecTerraform(c.root, spec)
	requireNoDiags(c.t, diags)
	return v
}

func (c validationCase) unknownSpec() tftypes.Value {
	return tftypes.NewValue(c.schema().Attribute(specLargePath).GetType().TerraformType(context.Background()), tftypes.UnknownValue)
}

// request is the validation of a configuration with metadata.name, metadata.namespace and spec set.
func (c validationCase) request(spec tftypes.Value) *tfprotov6.ValidateResourceConfigRequest {
	c.t.Helper()
	typ := c.schema().Type().(tftypes.Object)
	attrs := nullAttributes(typ)
	meta := attrs["metadata"].Type().(tftypes.Object)
	metaAttrs := nullAttributes(meta)
	metaAttrs["name"] = tftypes.NewValue(tftypes.String, "aws")
	if _, namespaced := meta.AttributeTypes["namespace"]; namespaced {
		metaAttrs["namespace"] = tftypes.NewValue(tftypes.String, "garden-team")
	}
	attrs["metadata"] = tftypes.NewValue(meta, metaAttrs)
	attrs["spec"] = spec
	dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, attrs))
	if err != nil {
		c.t.Fatal(err)
	}
	var names resource.MetadataResponse
	c.resource.Metadata(context.Background(), resource.MetadataRequest{ProviderTypeName: TypeName}, &names)
	return &tfprotov6.ValidateResourceConfigRequest{TypeName: names.TypeName, Config: &dv}
}

// frameworkAndShim are the bare framework's server of the provider and the provider's own server
// (the framework behind largevalue.NewServer), unconfigured.
func frameworkAndShim(t *testing.T) (framework, shim tfprotov6.ProviderServer) {
	t.Helper()
	framework, err := providerserver.NewProtocol6WithError(New("test")())()
	if err != nil {
		t.Fatal(err)
	}
	if shim, err = NewProtocol6Server(New("test"))(); err != nil {
		t.Fatal(err)
	}
	return framework, shim
}

// hasErrorDiagnostic tells whether the protocol diagnostics hold an error.
func hasErrorDiagnostic(diags []*tfprotov6.Diagnostic) bool {
	return slices.ContainsFunc(diags, func(d *tfprotov6.Diagnostic) bool { return d.Severity == tfprotov6.DiagnosticSeverityError })
}

// diagnosticText is every field of the protocol diagnostics that a user sees, one sorted line
// each: the framework checks the attributes of an object in no fixed order.
func diagnosticText(diags []*tfprotov6.Diagnostic) string {
	lines := make([]string, 0, len(diags))
	for _, d := range diags {
		lines = append(lines, fmt.Sprintf("%s | %s | %s | %v", d.Severity, d.Summary, d.Detail, d.Attribute))
	}
	slices.Sort(lines)
	return strings.Join(lines, "\n")
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

// recordingServer stands in for the framework's server of the provider it serves: it keeps the
// requests it gets, has the provider's resource read the request (as the framework would), and
// answers with the given state.
type recordingServer struct {
	tfprotov6.ProviderServer
	served   fwprovider.Provider
	readReq  *tfprotov6.ReadResourceRequest
	newState func(current *tfprotov6.DynamicValue) *tfprotov6.DynamicValue
}

func (r *recordingServer) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	r.readReq = req
	res := r.served.Resources(ctx)[0]()
	var sch resource.SchemaResponse
	res.Schema(ctx, resource.SchemaRequest{}, &sch)
	current, err := req.CurrentState.Unmarshal(sch.Schema.Type().TerraformType(ctx))
	if err != nil {
		return nil, err
	}
	res.Read(ctx, resource.ReadRequest{State: tfsdk.State{Schema: sch.Schema, Raw: current}}, &resource.ReadResponse{})
	return &tfprotov6.ReadResourceResponse{NewState: r.newState(req.CurrentState)}, nil
}

// probeProvider is the provider with a probe as its only resource.
type probeProvider struct {
	fwprovider.Provider
	probe probeResource
}

func (p probeProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{func() resource.Resource { return p.probe }}
}

// probeResource is the CloudProfile resource whose Read lets the test act as the provider's code.
type probeResource struct {
	*cloudProfileResourceOf
	read func(large largevalue.Values)
}

func (p probeResource) WithLargeValues(v largevalue.Values) resource.Resource {
	p.cloudProfileResourceOf = p.cloudProfileResourceOf.WithLargeValues(v).(*cloudProfileResourceOf)
	return p
}

func (p probeResource) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {
	p.read(p.large)
}

// TestLargeValueServerReadResource: the framework gets a placeholder; the provider's code reads the
// real value from the Values the Server hands it; what it writes comes back, with the prior value kept where the new
// one only writes it differently; where it wrote nothing (an error), the prior value comes back.
func TestLargeValueServerReadResource(t *testing.T) {
	ctx := context.Background()
	ls := largeSchemaOf(newCloudProfileResource())
	// The state holds the quantity as configured, 51200Mi; the API server answers 50Gi.
	storageSize := tftypes.NewAttributePath().WithAttributeName("spec").WithAttributeName("machine_types").
		WithElementKeyString("m5.large").WithAttributeName("storage").WithAttributeName("size")
	current, err := tftypes.Transform(cloudProfileResourceValue(t, ls.Type(), richCloudProfileSpec(), true), func(p *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if p.Equal(storageSize) {
			return tftypes.NewValue(tftypes.String, "51200Mi"), nil
		}
		return v, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	currentDV, err := tfprotov6.NewDynamicValue(ls.Type(), current)
	if err != nil {
		t.Fatal(err)
	}
	reread := richCloudProfileSpec()
	reread.Regions[0].Name = "renamed"
	rereadValue, diags := flattenSpecTerraform(cloudProfileSpecRoot, reread)
	requireNoDiags(t, diags)

	for _, writes := range []bool{true, false} {
		rec := &recordingServer{newState: func(cur *tfprotov6.DynamicValue) *tfprotov6.DynamicValue { return cur }}
		read := func(large largevalue.Values) {
			if got := large.Prior(tfsdk.State{}, specLargePath); !tfvalue.Equal(got, valueAtOrFail(t, current, specLargePath)) {
				t.Error("the provider's code does not get the real spec from the Server")
			}
			if writes {
				requireNoDiags(t, large.SetState(ctx, discardedState(ctx), cloudProfileTraits().largeAttributes(), nullCloudProfileModel(), largevalue.ValueAtPath{Path: specLargePath, Value: rereadValue}))
			}
		}
		probe := probeProvider{New("test")(), probeResource{newCloudProfileResource().(*cloudProfileResourceOf), read}}
		s, err := largevalue.NewServer(ctx, probe, func(served fwprovider.Provider) (tfprotov6.ProviderServer, error) {
			rec.served = served // the whole provider, then the reduced one, which serves ReadResource
			return rec, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		resp, err := s.ReadResource(ctx, &tfprotov6.ReadResourceRequest{TypeName: TypeName + "_cloud_profile", CurrentState: &currentDV})
		if err != nil {
			t.Fatal(err)
		}
		sent, err := rec.readReq.CurrentState.Unmarshal(withStringsAt(ls.Type(), "spec", "status", "largevalue_ticket"))
		if err != nil {
			t.Fatalf("the framework did not get the reduced state: %v", err)
		}
		if placeholder := valueAtOrFail(t, sent, specLargePath); !placeholder.IsKnown() || placeholder.IsNull() {
			t.Errorf("the framework got %s for the spec, not a placeholder", placeholder)
		}
		state, err := resp.NewState.Unmarshal(ls.Type())
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
			if !tfvalue.Equal(gotSpec, valueAtOrFail(t, current, specLargePath)) {
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

// discardedState is a state of the CloudProfile resource that nobody reads: what the provider's
// code writes through largevalue.SetState reaches the server all the same.
func discardedState(ctx context.Context) *tfsdk.State {
	var sch resource.SchemaResponse
	newCloudProfileResource().Schema(ctx, resource.SchemaRequest{}, &sch)
	return &tfsdk.State{Schema: sch.Schema, Raw: tftypes.NewValue(sch.Schema.Type().TerraformType(ctx), nil)}
}

// nullCloudProfileModel is a model of the CloudProfile resource whose attributes are all null.
func nullCloudProfileModel() *cloudProfileModel {
	return &cloudProfileModel{profileResourceModel: profileResourceModel{
		Metadata: types.ObjectNull(clusterMetadataType().AttrTypes),
		Timeouts: timeouts.Value{Object: types.ObjectNull(timeoutsAttrTypes())},
	}}
}

// withStringsAt is the object type with strings for the named attributes: the reduced schema's
// type, with placeholders for large attributes.
func withStringsAt(t tftypes.Type, names ...string) tftypes.Type {
	attrs := maps.Clone(t.(tftypes.Object).AttributeTypes)
	for _, name := range names {
		attrs[name] = tftypes.String
	}
	return tftypes.Object{AttributeTypes: attrs}
}

// nullAttributes are the attributes of an object of the type, every one null.
func nullAttributes(obj tftypes.Object) map[string]tftypes.Value {
	attrs := make(map[string]tftypes.Value, len(obj.AttributeTypes))
	for name, t := range obj.AttributeTypes {
		attrs[name] = tftypes.NewValue(t, nil)
	}
	return attrs
}

func valueAtOrFail(t *testing.T, v tftypes.Value, p largevalue.Path) tftypes.Value {
	t.Helper()
	got, ok := tfvalue.At(v, p)
	if !ok {
		t.Fatalf("no value at %s", p.Key())
	}
	return got
}

// TestLargeValueServerFailedWriteKeepsThePriorState: an update whose write fails (here: the
// provider has no client) answers with the prior state and the error, as the bare framework does;
// the large values of the plan (with their unknowns) must not come back into that answer.
func TestLargeValueServerFailedWriteKeepsThePriorState(t *testing.T) {
	ctx := context.Background()
	ls := largeSchemaOf(newCloudProfileResource())
	prior := cloudProfileResourceValue(t, ls.Type(), richCloudProfileSpec(), true)
	changed := richCloudProfileSpec()
	changed.Regions[0].Name = "renamed"
	planned := cloudProfileResourceValue(t, ls.Type(), changed, true)
	planned, err := tfvalue.Replace(planned, largevalue.Path{"metadata", "resource_version"}, tftypes.NewValue(tftypes.String, tftypes.UnknownValue))
	if err != nil {
		t.Fatal(err)
	}
	planned, err = tfvalue.Replace(planned, largevalue.Path{"adopt_existing"}, tftypes.NewValue(tftypes.Bool, false))
	if err != nil {
		t.Fatal(err)
	}
	enc := func(v tftypes.Value) *tfprotov6.DynamicValue {
		dv, err := tfprotov6.NewDynamicValue(ls.Type(), v)
		if err != nil {
			t.Fatal(err)
		}
		return &dv
	}
	req := &tfprotov6.ApplyResourceChangeRequest{TypeName: TypeName + "_cloud_profile", PriorState: enc(prior), PlannedState: enc(planned), Config: enc(planned)}

	framework, shim := frameworkAndShim(t)
	bare, err := framework.ApplyResourceChange(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if bareState, _ := bare.NewState.Unmarshal(ls.Type()); !bareState.Equal(prior) {
		t.Fatal("the bare framework no longer answers a failed update with the prior state: revisit the wrapper's rule")
	}

	resp, err := shim.ApplyResourceChange(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if !hasErrorDiagnostic(resp.Diagnostics) {
		t.Fatal("want the write's error")
	}
	got, err := resp.NewState.Unmarshal(ls.Type())
	if err != nil {
		t.Fatal(err)
	}
	if !got.Equal(prior) {
		diffs, _ := got.Diff(prior)
		t.Fatalf("the failed update's state differs from the prior state at %d places, e.g. %v", len(diffs), firstDiffs(diffs))
	}
}
