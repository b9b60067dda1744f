package provider_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"regexp"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
	"github.com/gardener-community/terraform-provider-gardener/internal/provider"
)

// serverPair is the provider served twice: by the bare framework, and with the large values kept
// out of it (provider.NewProtocol6Server, what Terraform runs).
type serverPair struct {
	framework, shim tfprotov6.ProviderServer
	schemas         *tfprotov6.GetProviderSchemaResponse
}

// TestAccLargeValueServer_AnswersAsTheFramework: every RPC the server of largevalue.NewServer touches answers,
// against the local Garden, exactly as the bare framework does: import, read, upgrade, plan and
// apply of both resources, and the read of both data sources.
func TestAccLargeValueServer_AnswersAsTheFramework(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	ctx := acctest.Context(t)
	owner := acctest.ClientAs(t, kube.DefaultFieldManager) // the objects are the provider's own
	parent, team := acctest.UniqueName("parity-parent"), acctest.UniqueName("parity-team")
	if _, err := owner.ApplyCloudProfile(ctx, lifecycleCloudProfile(parent), kube.ApplyOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = owner.DeleteCloudProfile(context.Background(), parent, "") })
	if _, err := owner.ApplyNamespacedCloudProfile(ctx, teamProfile(projectNamespace, team, parent), kube.ApplyOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = owner.DeleteNamespacedCloudProfile(context.Background(), projectNamespace, team, "") })
	servers := newServerPair(t, kubeconfig)

	memory := func(machineType, v string) map[string]tftypes.Value {
		return map[string]tftypes.Value{`spec.machine_types["` + machineType + `"].memory`: tftypes.NewValue(tftypes.String, v)}
	}
	servers.checkResource(t, "gardener_cloud_profile", parent, memory("m5.large", "16Gi"))
	servers.checkResource(t, "gardener_namespaced_cloud_profile", projectNamespace+"/"+team, memory("x1.metal", "2Ti"))
	keep := memory("x1.metal", "3Ti")
	keep["keep_merged_status"] = tftypes.NewValue(tftypes.Bool, true)
	servers.checkResource(t, "gardener_namespaced_cloud_profile", projectNamespace+"/"+team, keep)
	servers.checkDataSource(t, "gardener_cloud_profile", map[string]string{"name": parent, "at": "2030-07-01T00:00:00Z"})
	servers.checkDataSource(t, "gardener_namespaced_cloud_profile", map[string]string{"namespace": projectNamespace, "name": team, "at": "2030-07-01T00:00:00Z"})
}

// newServerPair configures both servers for the local Garden.
func newServerPair(t *testing.T, kubeconfig string) *serverPair {
	t.Helper()
	noEnv := func(string) (string, bool) { return "", false }
	framework, err := providerserver.NewProtocol6WithError(provider.NewWithEnvironment("test", noEnv)())()
	if err != nil {
		t.Fatal(err)
	}
	shim, err := provider.NewProtocol6Server(provider.NewWithEnvironment("test", noEnv))()
	if err != nil {
		t.Fatal(err)
	}
	p := &serverPair{framework: framework, shim: shim}
	if p.schemas, err = shim.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{}); err != nil {
		t.Fatal(err)
	}
	gates, err := acctest.GardenFeatureGates()
	if err != nil {
		t.Fatal(err)
	}
	gateValues := map[string]tftypes.Value{}
	for name, on := range gates {
		gateValues[name] = tftypes.NewValue(tftypes.Bool, on)
	}
	config := objectWith(t, p.schemas.Provider.ValueType(), map[string]tftypes.Value{
		"config_path":   tftypes.NewValue(tftypes.String, kubeconfig),
		"feature_gates": tftypes.NewValue(tftypes.Map{ElementType: tftypes.Bool}, gateValues),
	})
	for _, s := range []tfprotov6.ProviderServer{framework, shim} {
		resp, err := s.ConfigureProvider(context.Background(), &tfprotov6.ConfigureProviderRequest{TerraformVersion: "1.11.4", Config: config})
		if err != nil || len(resp.Diagnostics) > 0 {
			t.Fatalf("configuring: %v %v", err, diagnosticsOf(resp.Diagnostics))
		}
	}
	return p
}

// checkResource imports the object of id through both servers and compares, step by step, what
// each answers to the read of the import, an upgrade of the read state, a plan setting the values
// of changes, its apply, and the read after it.
func (p *serverPair) checkResource(t *testing.T, typeName, id string, changes map[string]tftypes.Value) {
	t.Helper()
	ctx := context.Background()
	typ := p.schemas.ResourceSchemas[typeName].ValueType()
	imported := p.compare(t, typeName+" import", typ, false, func(s tfprotov6.ProviderServer) (*tfprotov6.DynamicValue, []*tfprotov6.Diagnostic) {
		resp, err := s.ImportResourceState(ctx, &tfprotov6.ImportResourceStateRequest{TypeName: typeName, ID: id})
		if err != nil || len(resp.ImportedResources) != 1 {
			t.Fatalf("%s import: %v, %d resources", typeName, err, len(resp.ImportedResources))
		}
		return resp.ImportedResources[0].State, resp.Diagnostics
	})
	read := p.read(t, typeName+" read of the import", typeName, imported)
	p.compare(t, typeName+" upgrade", typ, false, func(s tfprotov6.ProviderServer) (*tfprotov6.DynamicValue, []*tfprotov6.Diagnostic) {
		resp, err := s.UpgradeResourceState(ctx, &tfprotov6.UpgradeResourceStateRequest{
			TypeName: typeName, Version: p.schemas.ResourceSchemas[typeName].Version, RawState: &tfprotov6.RawState{JSON: stateJSON(t, typ, read)},
		})
		if err != nil {
			t.Fatal(err)
		}
		return resp.UpgradedState, resp.Diagnostics
	})
	config := withValuesAt(t, read, changes)
	configDV := encode(t, typ, config)
	planned := p.compare(t, typeName+" plan", typ, false, func(s tfprotov6.ProviderServer) (*tfprotov6.DynamicValue, []*tfprotov6.Diagnostic) {
		resp, err := s.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{
			TypeName: typeName, Config: configDV, PriorState: encode(t, typ, read), ProposedNewState: configDV,
		})
		if err != nil {
			t.Fatal(err)
		}
		if hasError(resp.Diagnostics) {
			t.Fatalf("%s plan: %s", typeName, diagnosticsOf(resp.Diagnostics))
		}
		return resp.PlannedState, resp.Diagnostics
	})
	// The shim applies first; the framework's apply of the same request is then a no-op on the
	// server, so both answers describe the same object.
	applied := p.compare(t, typeName+" apply", typ, true, func(s tfprotov6.ProviderServer) (*tfprotov6.DynamicValue, []*tfprotov6.Diagnostic) {
		resp, err := s.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{
			TypeName: typeName, Config: configDV, PriorState: encode(t, typ, read), PlannedState: encode(t, typ, planned),
		})
		if err != nil {
			t.Fatal(err)
		}
		return resp.NewState, resp.Diagnostics
	})
	for at, want := range changes {
		if got := valueAt(t, applied, at); !got.Equal(want) {
			t.Fatalf("%s: the apply stored %s = %v, want %v", typeName, at, got, want)
		}
	}
	p.read(t, typeName+" read after the apply", typeName, applied)
}

// read compares both servers' reads of state.
func (p *serverPair) read(t *testing.T, step, typeName string, state tftypes.Value) tftypes.Value {
	t.Helper()
	typ := p.schemas.ResourceSchemas[typeName].ValueType()
	return p.compare(t, step, typ, false, func(s tfprotov6.ProviderServer) (*tfprotov6.DynamicValue, []*tfprotov6.Diagnostic) {
		resp, err := s.ReadResource(context.Background(), &tfprotov6.ReadResourceRequest{TypeName: typeName, CurrentState: encode(t, typ, state)})
		if err != nil {
			t.Fatal(err)
		}
		return resp.NewState, resp.Diagnostics
	})
}

// checkDataSource compares both servers' reads of a data source configured with the strings.
func (p *serverPair) checkDataSource(t *testing.T, typeName string, settings map[string]string) {
	t.Helper()
	typ := p.schemas.DataSourceSchemas[typeName].ValueType()
	set := map[string]tftypes.Value{}
	for k, v := range settings {
		set[k] = tftypes.NewValue(tftypes.String, v)
	}
	config := objectWith(t, typ, set)
	state := p.compare(t, typeName+" data source", typ, false, func(s tfprotov6.ProviderServer) (*tfprotov6.DynamicValue, []*tfprotov6.Diagnostic) {
		resp, err := s.ReadDataSource(context.Background(), &tfprotov6.ReadDataSourceRequest{TypeName: typeName, Config: config})
		if err != nil {
			t.Fatal(err)
		}
		return resp.State, resp.Diagnostics
	})
	if !state.IsFullyKnown() || state.IsNull() {
		t.Fatalf("%s data source: state not fully known", typeName)
	}
}

// compare runs call on both servers (the framework's first, unless shimFirst), fails on differing
// answers, and returns the shim's. metadata.resource_version is not compared: Gardener's
// controllers may write the object between the two calls.
func (p *serverPair) compare(t *testing.T, step string, typ tftypes.Type, shimFirst bool, call func(tfprotov6.ProviderServer) (*tfprotov6.DynamicValue, []*tfprotov6.Diagnostic)) tftypes.Value {
	t.Helper()
	order, shim := []tfprotov6.ProviderServer{p.framework, p.shim}, 1
	if shimFirst {
		order, shim = []tfprotov6.ProviderServer{p.shim, p.framework}, 0
	}
	var values [2]tftypes.Value
	var diags [2][]*tfprotov6.Diagnostic
	for i, s := range order {
		dv, d := call(s)
		diags[i] = d
		if dv == nil {
			t.Fatalf("%s: no value (%s)", step, diagnosticsOf(d))
		}
		v, err := dv.Unmarshal(typ)
		if err != nil {
			t.Fatal(err)
		}
		values[i] = v
	}
	if len(diags[0]) != len(diags[1]) {
		t.Fatalf("%s: %s vs %s", step, diagnosticsOf(diags[0]), diagnosticsOf(diags[1]))
	}
	if !withoutResourceVersion(t, values[0]).Equal(withoutResourceVersion(t, values[1])) {
		diffs, _ := values[0].Diff(values[1])
		var at []string
		for i := 0; i < len(diffs) && i < 3; i++ {
			at = append(at, diffs[i].Path.String())
		}
		t.Fatalf("%s: the answers differ at %d places, e.g. %v", step, len(diffs), at)
	}
	return values[shim]
}

// objectWith is a value of the object type with the given attributes set and every other null.
func objectWith(t *testing.T, typ tftypes.Type, set map[string]tftypes.Value) *tfprotov6.DynamicValue {
	t.Helper()
	obj := typ.(tftypes.Object)
	attrs := map[string]tftypes.Value{}
	for name, at := range obj.AttributeTypes {
		attrs[name] = tftypes.NewValue(at, nil)
	}
	for name, v := range set {
		attrs[name] = v
	}
	return encode(t, typ, tftypes.NewValue(typ, attrs))
}

func encode(t *testing.T, typ tftypes.Type, v tftypes.Value) *tfprotov6.DynamicValue {
	t.Helper()
	dv, err := tfprotov6.NewDynamicValue(typ, v)
	if err != nil {
		t.Fatal(err)
	}
	return &dv
}

// stateJSON is a state as Terraform stores it, for UpgradeResourceState.
func stateJSON(t *testing.T, typ tftypes.Type, v tftypes.Value) []byte {
	t.Helper()
	var walk func(tftypes.Value) any
	walk = func(v tftypes.Value) any {
		if v.IsNull() {
			return nil
		}
		switch {
		case v.Type().Is(tftypes.Object{}), v.Type().Is(tftypes.Map{}):
			var m map[string]tftypes.Value
			_ = v.As(&m)
			out := map[string]any{}
			for k, e := range m {
				out[k] = walk(e)
			}
			return out
		case v.Type().Is(tftypes.List{}):
			var l []tftypes.Value
			_ = v.As(&l)
			out := []any{}
			for _, e := range l {
				out = append(out, walk(e))
			}
			return out
		case v.Type().Is(tftypes.Number):
			var f big.Float
			_ = v.As(&f)
			return json.Number(f.Text('g', -1))
		case v.Type().Is(tftypes.Bool):
			var b bool
			_ = v.As(&b)
			return b
		}
		var s string
		_ = v.As(&s)
		return s
	}
	data, err := json.Marshal(walk(v))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// attributePath parses a path such as `spec.machine_types["m5.large"].memory` or
// "spec.lifecycle[0].start_time".
func attributePath(t *testing.T, p string) *tftypes.AttributePath {
	t.Helper()
	out := tftypes.NewAttributePath()
	for _, m := range pathStep.FindAllStringSubmatch(p, -1) {
		switch {
		case m[1] != "":
			out = out.WithAttributeName(m[1])
		case m[2] != "":
			i, err := strconv.Atoi(m[2])
			if err != nil {
				t.Fatal(err)
			}
			out = out.WithElementKeyInt(i)
		default:
			out = out.WithElementKeyString(m[3])
		}
	}
	return out
}

// pathStep matches one step of a path: a name, an index or a quoted key.
var pathStep = regexp.MustCompile(`([a-z_]+)|\[([0-9]+)\]|\["([^"]*)"\]`)

// withValuesAt is v with the values at the paths replaced.
func withValuesAt(t *testing.T, v tftypes.Value, values map[string]tftypes.Value) tftypes.Value {
	t.Helper()
	out, err := tftypes.Transform(v, func(path *tftypes.AttributePath, old tftypes.Value) (tftypes.Value, error) {
		for at, value := range values {
			if path.Equal(attributePath(t, at)) {
				return value, nil
			}
		}
		return old, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// valueAt is the value at the path of v.
func valueAt(t *testing.T, v tftypes.Value, p string) tftypes.Value {
	t.Helper()
	got, _, err := tftypes.WalkAttributePath(v, attributePath(t, p))
	if err != nil {
		t.Fatal(err)
	}
	return got.(tftypes.Value)
}

// diagnosticsOf renders diagnostics for a failure message.
func diagnosticsOf(diags []*tfprotov6.Diagnostic) string {
	var out []string
	for _, d := range diags {
		out = append(out, fmt.Sprintf("%s: %s: %s", d.Severity, d.Summary, d.Detail))
	}
	return fmt.Sprintf("%d diagnostics %q", len(diags), out)
}

// withoutResourceVersion is v with a null metadata.resource_version.
func withoutResourceVersion(t *testing.T, v tftypes.Value) tftypes.Value {
	t.Helper()
	at := attributePath(t, "metadata.resource_version")
	out, err := tftypes.Transform(v, func(p *tftypes.AttributePath, old tftypes.Value) (tftypes.Value, error) {
		if p.Equal(at) {
			return tftypes.NewValue(tftypes.String, nil), nil
		}
		return old, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// hasError tells whether the diagnostics hold an error.
func hasError(diags []*tfprotov6.Diagnostic) bool {
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return true
		}
	}
	return false
}
