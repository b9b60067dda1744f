package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	k8sresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
	"github.com/gardener-community/terraform-provider-gardener/internal/provider/largevalue"
	"github.com/gardener-community/terraform-provider-gardener/internal/tfvalue"
)

// fakeDryRun is an API server that answers every dry-run apply with answer, a read with live when
// set, and counts the requests.
type fakeDryRun struct {
	requests atomic.Int32
	answer   func(w http.ResponseWriter, body []byte)
	live     *gardencorev1beta1.CloudProfile
}

func (f *fakeDryRun) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.requests.Add(1)
	body, _ := io.ReadAll(r.Body)
	if r.Method == http.MethodGet && f.live != nil {
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "/cloudprofiles") { // a read is a list of the name
			_ = json.NewEncoder(w).Encode(gardencorev1beta1.CloudProfileList{TypeMeta: metav1.TypeMeta{APIVersion: "core.gardener.cloud/v1beta1",
				Kind: "CloudProfileList"}, Items: []gardencorev1beta1.CloudProfile{*f.live}})
			return
		}
		_ = json.NewEncoder(w).Encode(f.live)
		return
	}
	if r.Method != http.MethodPatch || r.URL.Query().Get("dryRun") != "All" {
		http.Error(w, "only dry-run applies expected, got "+r.Method+" "+r.URL.String(), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	f.answer(w, body)
}

// statusAnswer answers with a failure Status.
func statusAnswer(code int32, reason metav1.StatusReason, message string, causes ...metav1.StatusCause) func(http.ResponseWriter, []byte) {
	return func(w http.ResponseWriter, _ []byte) {
		w.WriteHeader(int(code))
		_ = json.NewEncoder(w).Encode(metav1.Status{TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: metav1.StatusFailure,
			Code: code, Reason: reason, Message: message, Details: &metav1.StatusDetails{Name: "big", Causes: causes}})
	}
}

// serverCheckFixture is a create plan of the CloudProfile resource, with the unknown value the
// framework leaves in a changing plan where the configuration sets no update strategy, checked
// against a fake API server.
type serverCheckFixture struct {
	check serverCheck
	// spec is the planned spec; config the configuration.
	spec, config tftypes.Value
	fake         *fakeDryRun
	// state is a prior state of the same object, for an update plan.
	state tftypes.Value
}

func newServerCheckFixture(t *testing.T, answer func(http.ResponseWriter, []byte)) serverCheckFixture {
	t.Helper()
	fake := &fakeDryRun{answer: answer}
	srv := httptest.NewServer(fake)
	t.Cleanup(srv.Close)
	ls := largeSchemaOf(newCloudProfileResource())
	spec := richCloudProfileSpec()
	spec.MachineImages[0].UpdateStrategy = nil // left to the Garden: unknown in the plan
	config := cloudProfileResourceValue(t, ls.Type(), spec, false)
	configSpec, _ := tfvalue.At(config, specLargePath)
	data := &providerData{settings: kube.Settings{Host: srv.URL}, fieldManager: kube.DefaultFieldManager, serverChecks: true}
	return serverCheckFixture{fake: fake, spec: unknownUpdateStrategies(configSpec), config: config, state: cloudProfileResourceValue(t, ls.Type(), spec, true),
		check: serverCheck{data: data, kind: cloudProfileServerCheck, specAttr: ls.Attribute(specLargePath), prior: tftypes.NewValue(ls.Type(), nil), planned: config}}
}

// unknownUpdateStrategies is spec with every null update_strategy of a machine image unknown, as
// a changing plan has it.
func unknownUpdateStrategies(spec tftypes.Value) tftypes.Value {
	out, _ := tfvalue.MapAttributes(spec, spec, func(name string, images, _ tftypes.Value) (tftypes.Value, bool) {
		if name != "machine_images" {
			return images, false
		}
		return tfvalue.MapElements(images, images, func(image, _ tftypes.Value) (tftypes.Value, bool) {
			return tfvalue.MapAttributes(image, image, func(name string, v, _ tftypes.Value) (tftypes.Value, bool) {
				if name != "update_strategy" || !v.IsNull() {
					return v, false
				}
				return tftypes.NewValue(v.Type(), tftypes.UnknownValue), true
			})
		})
	})
	return out
}

// TestServerCheck_makesNoRequestWhenOffOrNotKnown: server_checks = false, and a configuration
// with a value unknown until apply, make no request and change nothing.
func TestServerCheck_makesNoRequestWhenOffOrNotKnown(t *testing.T) {
	f := newServerCheckFixture(t, statusAnswer(http.StatusForbidden, metav1.StatusReasonForbidden, "must not be asked"))
	ctx := context.Background()
	req := resource.ModifyPlanRequest{Config: tfsdk.Config{Raw: f.config}, State: tfsdk.State{Raw: f.check.prior}}
	resp := &resource.ModifyPlanResponse{Plan: tfsdk.Plan{Raw: f.config}}
	off := &providerData{settings: f.check.data.settings, serverChecks: false}
	if check := serverCheckFor(ctx, off, cloudProfileServerCheck, req, largevalue.Values{}, resp); check != nil {
		t.Fatal("server_checks = false: want no check")
	}
	unknown, err := tfvalue.Replace(f.config, largevalue.Path{"metadata"}, tftypes.NewValue(f.check.planned.Type().(tftypes.Object).AttributeTypes["metadata"], tftypes.UnknownValue))
	if err != nil {
		t.Fatal(err)
	}
	req.Config.Raw = unknown
	check := serverCheckFor(ctx, f.check.data, cloudProfileServerCheck, req, largevalue.Values{}, resp)
	if spec, diags := check(f.check.specAttr, f.spec); len(diags) > 0 || !spec.Equal(f.spec) {
		t.Fatalf("unknown configuration: got %v", diags)
	}
	if n := f.fake.requests.Load(); n != 0 {
		t.Fatalf("%d requests, want none", n)
	}
}

// TestServerCheck_readOnlyCredentialsWarnOnce: a dry run the RBAC denies leaves the plan as it is
// and warns once per provider configuration, not per resource.
func TestServerCheck_readOnlyCredentialsWarnOnce(t *testing.T) {
	f := newServerCheckFixture(t, statusAnswer(http.StatusForbidden, metav1.StatusReasonForbidden,
		`cloudprofiles.core.gardener.cloud "big" is forbidden: User "robot" cannot patch resource "cloudprofiles" in API group "core.gardener.cloud" at the cluster scope`))
	planned, first := checkOnServer(context.Background(), f.check, f.spec)
	_, second := checkOnServer(context.Background(), f.check, f.spec)
	if len(first) != 1 || first[0].Severity() != diag.SeverityWarning || first[0].Summary() != serverChecksSkipped ||
		!strings.Contains(first[0].Detail(), "read-only credentials") || !strings.Contains(first[0].Detail(), "server_checks = false") {
		t.Fatalf("first check: want the warning that server checks were skipped, got %v", first)
	}
	if len(second) != 0 {
		t.Fatalf("second check: want nothing more, got %v", second)
	}
	if !planned.Equal(f.spec) {
		t.Fatal("a skipped check changed the plan")
	}
}

// TestServerCheck_driftIsAWarningOnTheAttribute: a 409 of an update's dry run (another field
// manager owns a field the plan sets back) is one warning per manager on its first attribute,
// naming the manager, the field with both values and force_conflicts: drift plans as a diff and
// only the apply fails. A create's 409 means that the name is taken (a warning: a replacement
// destroys it first).
func TestServerCheck_driftIsAWarningOnTheAttribute(t *testing.T) {
	f := newServerCheckFixture(t, statusAnswer(http.StatusConflict, metav1.StatusReasonConflict,
		`Apply failed with 1 conflict: conflict with "team-a" using core.gardener.cloud/v1beta1: .spec.machineTypes[name="m5.large"].memory`,
		metav1.StatusCause{Type: "FieldManagerConflict", Message: `conflict with "team-a" using core.gardener.cloud/v1beta1`, Field: `.spec.machineTypes[name="m5.large"].memory`}))
	create := f.check
	if _, diags := checkOnServer(context.Background(), create, f.spec); len(diags) != 1 || diags[0].Severity() != diag.SeverityWarning ||
		diags[0].Summary() != "CloudProfile already exists" {
		t.Fatalf("a create that conflicts: want the warning that the name is taken, got %v", diags)
	}
	update := f.check
	update.prior = f.state
	memory := tftypes.NewAttributePath().WithAttributeName("machine_types").WithElementKeyString("m5.large").WithAttributeName("memory")
	update.priorSpec, _ = tftypes.Transform(f.spec, func(at *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if at.Equal(memory) {
			return tftypes.NewValue(tftypes.String, "16Gi"), nil // what team-a set
		}
		return v, nil
	})
	_, diags := checkOnServer(context.Background(), update, f.spec)
	if len(diags) != 1 || diags[0].Severity() != diag.SeverityWarning || diags[0].Summary() != `Drift: field manager "team-a" changed 1 field this plan sets back` {
		t.Fatalf("want one drift warning, got %v", diags)
	}
	at := diags[0].(diag.DiagnosticWithPath).Path()
	if want := path.Root("spec").AtName("machine_types").AtMapKey("m5.large").AtName("memory"); !at.Equal(want) {
		t.Fatalf("drift on %s, want %s", at, want)
	}
	d := diags[0].Detail()
	for _, want := range []string{`spec.machine_types["m5.large"].memory: "16Gi" in the Garden, "8Gi" planned`, "force_conflicts = true"} {
		if !strings.Contains(d, want) {
			t.Fatalf("the detail lacks %q:\n%s", want, d)
		}
	}
}

// conflictOnMemory is the fixture of an update whose dry run conflicts with team-a (an update of
// kubectl, or a server-side apply) on the first machine type's memory, with the object as it is
// read: 16Gi, and the managed fields given; the prior state holds team-a's 16Gi.
func conflictOnMemory(t *testing.T, teamAUpdates bool, entries ...metav1.ManagedFieldsEntry) serverCheckFixture {
	t.Helper()
	manager := `"team-a"`
	if teamAUpdates {
		manager += " using core.gardener.cloud/v1beta1"
	}
	field := `.spec.machineTypes[name="m5.large"].memory`
	f := newServerCheckFixture(t, statusAnswer(http.StatusConflict, metav1.StatusReasonConflict,
		"Apply failed with 1 conflict: conflict with "+manager+": "+field,
		metav1.StatusCause{Type: "FieldManagerConflict", Message: "conflict with " + manager, Field: field}))
	live := &gardencorev1beta1.CloudProfile{TypeMeta: metav1.TypeMeta{APIVersion: "core.gardener.cloud/v1beta1", Kind: "CloudProfile"},
		ObjectMeta: metav1.ObjectMeta{Name: "big", UID: "0b6c", ResourceVersion: "9", ManagedFields: entries}, Spec: richCloudProfileSpec()}
	live.Spec.MachineTypes[0].Memory = k8sresource.MustParse("16Gi")
	f.fake.live = live
	f.check.prior = f.state
	memory := tftypes.NewAttributePath().WithAttributeName("machine_types").WithElementKeyString("m5.large").WithAttributeName("memory")
	f.check.priorSpec, _ = tftypes.Transform(f.spec, func(at *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
		if at.Equal(memory) {
			return tftypes.NewValue(tftypes.String, "16Gi"), nil
		}
		return v, nil
	})
	return f
}

// managedEntry is a managed-fields entry of the object itself.
func managedEntry(manager string, operation metav1.ManagedFieldsOperationType, fields string) metav1.ManagedFieldsEntry {
	return metav1.ManagedFieldsEntry{Manager: manager, Operation: operation, APIVersion: "core.gardener.cloud/v1beta1", FieldsV1: metav1.NewFieldsV1(fields)}
}

// recordedPrivate records the keys a check writes into the plan's private state.
func recordedPrivate(c *serverCheck) map[string]string {
	keys := map[string]string{}
	c.recordPrivate = func(key string, value []byte) diag.Diagnostics {
		keys[key] = string(value)
		return nil
	}
	return keys
}

// TestServerCheck_driftIsSetBackAsPlanned: another manager took a field from the provider's
// manager (kubectl patch): the plan warns on the attribute with both values, says the apply takes
// exactly that field back, and records it with the value it saw for the apply.
func TestServerCheck_driftIsSetBackAsPlanned(t *testing.T) {
	f := conflictOnMemory(t, true,
		managedEntry(kube.DefaultFieldManager, metav1.ManagedFieldsOperationApply, `{"f:spec":{"f:machineTypes":{"k:{\"name\":\"m5.large\"}":{"f:cpu":{}}}}}`),
		managedEntry("team-a", metav1.ManagedFieldsOperationUpdate, `{"f:spec":{"f:machineTypes":{"k:{\"name\":\"m5.large\"}":{"f:memory":{}}}}}`))
	keys := recordedPrivate(&f.check)
	_, diags := checkOnServer(context.Background(), f.check, f.spec)
	if len(diags) != 1 || diags[0].Severity() != diag.SeverityWarning || diags[0].Summary() != `Drift: field manager "team-a" changed 1 field this plan sets back` {
		t.Fatalf("want one drift warning, got %v", diags)
	}
	for _, want := range []string{`spec.machine_types["m5.large"].memory: "16Gi" in the Garden, "8Gi" planned`, `The apply takes exactly these fields over from "team-a"`} {
		if !strings.Contains(diags[0].Detail(), want) {
			t.Errorf("the detail lacks %q:\n%s", want, diags[0].Detail())
		}
	}
	if want := `[{"Field":".spec.machineTypes[name=\"m5.large\"].memory","Manager":"team-a","Value":"\"16Gi\""}]`; keys[setBackKey] != want {
		t.Errorf("recorded %q, want %q", keys[setBackKey], want)
	}
}

// TestServerCheck_sharedFieldsFailAtPlanUnlessForced: a field the provider's manager shares with
// team-a (both applied the same value) is not taken on its own: the plan fails naming the manager
// and force_conflicts, records nothing, and with force_conflicts warns that it takes it over.
func TestServerCheck_sharedFieldsFailAtPlanUnlessForced(t *testing.T) {
	shared := `{"f:spec":{"f:machineTypes":{"k:{\"name\":\"m5.large\"}":{"f:memory":{}}}}}`
	f := conflictOnMemory(t, false, managedEntry(kube.DefaultFieldManager, metav1.ManagedFieldsOperationApply, shared),
		managedEntry("team-a", metav1.ManagedFieldsOperationApply, shared))
	keys := recordedPrivate(&f.check)
	_, diags := checkOnServer(context.Background(), f.check, f.spec)
	if len(diags) != 1 || diags[0].Severity() != diag.SeverityError || diags[0].Summary() != `Conflict with field manager "team-a" on 1 field` ||
		!strings.Contains(diags[0].Detail(), "To fix: set force_conflicts = true") {
		t.Fatalf("want one conflict error, got %v", diags)
	}
	if keys[setBackKey] != "" {
		t.Errorf("recorded %q for a plan that fails", keys[setBackKey])
	}
	f.check.force = true
	if _, diags = checkOnServer(context.Background(), f.check, f.spec); len(diags) != 1 || diags[0].Severity() != diag.SeverityWarning ||
		diags[0].Summary() != `force_conflicts takes 1 field over from field manager "team-a"` {
		t.Fatalf("force_conflicts: want one warning, got %v", diags)
	}
}

// TestServerCheck_anImportsFirstApplyTakesOverWhatKubectlWrote: an object the provider's manager
// has not applied, created with kubectl create: the apply takes kubectl's fields over, so the
// plan says nothing of a conflict and records nothing to set back.
func TestServerCheck_anImportsFirstApplyTakesOverWhatKubectlWrote(t *testing.T) {
	f := conflictOnMemory(t, true, managedEntry("team-a", metav1.ManagedFieldsOperationUpdate,
		`{"f:metadata":{"f:labels":{"f:team":{}}},"f:spec":{"f:machineTypes":{"k:{\"name\":\"m5.large\"}":{"f:memory":{}}}}}`))
	keys := recordedPrivate(&f.check)
	if _, diags := checkOnServer(context.Background(), f.check, f.spec); len(diags) != 0 {
		t.Fatalf("want no diagnostic, got %v", diags)
	}
	if keys[setBackKey] != "" {
		t.Errorf("recorded %q, want nothing", keys[setBackKey])
	}
}

// TestServerCheck_driftOfALabelNamesTheLabelWithBothValues: a label another manager changed
// (kubectl label --overwrite) is a drift warning on that label, quoting the Garden's value (the
// refreshed state) and the planned one, its key whole although it holds dots and a slash.
func TestServerCheck_driftOfALabelNamesTheLabelWithBothValues(t *testing.T) {
	const key = "team.example.com/owner"
	f := newServerCheckFixture(t, statusAnswer(http.StatusConflict, metav1.StatusReasonConflict,
		`Apply failed with 1 conflict: conflict with "kubectl-label" using core.gardener.cloud/v1beta1: .metadata.labels.`+key,
		metav1.StatusCause{Type: "FieldManagerConflict", Message: `conflict with "kubectl-label" using core.gardener.cloud/v1beta1`, Field: ".metadata.labels." + key}))
	withLabel := func(object tftypes.Value, value string) tftypes.Value {
		labels := tftypes.NewAttributePath().WithAttributeName("metadata").WithAttributeName("labels")
		out, err := tftypes.Transform(object, func(at *tftypes.AttributePath, v tftypes.Value) (tftypes.Value, error) {
			if at.Equal(labels) {
				return tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, map[string]tftypes.Value{key: tftypes.NewValue(tftypes.String, value)}), nil
			}
			return v, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	update := f.check
	update.prior, update.priorSpec = withLabel(f.state, "team-a"), f.spec
	update.planned = withLabel(f.config, "platform")
	_, diags := checkOnServer(context.Background(), update, f.spec)
	if len(diags) != 1 || diags[0].Summary() != `Drift: field manager "kubectl-label" changed 1 field this plan sets back` {
		t.Fatalf("want one drift warning, got %v", diags)
	}
	if at, want := diags[0].(diag.DiagnosticWithPath).Path(), path.Root("metadata").AtName("labels").AtMapKey(key); !at.Equal(want) {
		t.Fatalf("drift on %s, want %s", at, want)
	}
	if want := `metadata.labels["team.example.com/owner"]: "team-a" in the Garden, "platform" planned`; !strings.Contains(diags[0].Detail(), want) {
		t.Fatalf("the detail lacks %q:\n%s", want, diags[0].Detail())
	}
}

// TestServerCheck_webhookRejectionOnTheAttribute: an admission webhook's message-only denial is an
// error on the attribute its message names, saying that the offline rules accept the value.
func TestServerCheck_webhookRejectionOnTheAttribute(t *testing.T) {
	f := newServerCheckFixture(t, statusAnswer(http.StatusBadRequest, metav1.StatusReasonBadRequest,
		`admission webhook "provider-config.example.com" denied the request: spec.providerConfig.kind: Unsupported value: "X"`))
	_, diags := checkOnServer(context.Background(), f.check, f.spec)
	if len(diags) != 1 || diags[0].Severity() != diag.SeverityError {
		t.Fatalf("want one error, got %v", diags)
	}
	if at := diags[0].(diag.DiagnosticWithPath).Path(); !at.Equal(path.Root("spec").AtName("provider_config")) {
		t.Fatalf("rejection on %s, want spec.provider_config", at)
	}
	if d := diags[0].Detail(); !strings.HasPrefix(d, "spec.provider_config\n") || !strings.Contains(d, "offline rules (Gardener v1.149.3) accept") || !strings.Contains(d, "To fix:") {
		t.Fatalf("detail:\n%s", d)
	}
}

// webhookSettingUpdateStrategies answers a dry run as a mutating webhook that sets the update
// strategy of the machine images: those without one (a default), or all of them.
func webhookSettingUpdateStrategies(all bool) func(http.ResponseWriter, []byte) {
	return func(w http.ResponseWriter, body []byte) {
		var cp gardencorev1beta1.CloudProfile
		_ = json.Unmarshal(body, &cp)
		for i := range cp.Spec.MachineImages {
			if all || cp.Spec.MachineImages[i].UpdateStrategy == nil {
				cp.Spec.MachineImages[i].UpdateStrategy = ptr.To(gardencorev1beta1.UpdateStrategyMinor)
			}
		}
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(cp)
	}
}

// TestServerCheck_acceptedFillsUnknownsWithTheServersValues: what the Garden stores where the plan
// has unknown values (an update strategy a webhook set) is planned; configured values stay.
func TestServerCheck_acceptedFillsUnknownsWithTheServersValues(t *testing.T) {
	f := newServerCheckFixture(t, webhookSettingUpdateStrategies(false))
	planned, diags := checkOnServer(context.Background(), f.check, f.spec)
	if len(diags) != 0 {
		t.Fatalf("want no diagnostics, got %v", diags)
	}
	got, ok := tfvalue.At(planned, largevalue.Path{"machine_images"})
	if !ok {
		t.Fatal("no machine images planned")
	}
	var images map[string]tftypes.Value
	if err := got.As(&images); err != nil || len(images) == 0 {
		t.Fatalf("machine images: %v", err)
	}
	var strategy, configured string
	if err := tfvalue.Attribute(images["gardenlinux"], "update_strategy").As(&strategy); err != nil || strategy != "minor" {
		t.Fatalf("update_strategy planned %q (%v), want the server's minor", strategy, err)
	}
	if err := tfvalue.Attribute(images["ubuntu"], "update_strategy").As(&configured); err != nil || configured != "major" {
		t.Fatalf("configured update_strategy planned %q (%v), want major as configured", configured, err)
	}
	if n := f.fake.requests.Load(); n != 1 {
		t.Fatalf("%d requests, want one dry-run apply", n)
	}
}

// TestServerCheck_changedConfiguredValueIsAnErrorAtPlan: a webhook that stores another value than
// the configured one is an error at plan on that attribute, with both values and the fix, since
// the apply would end in an inconsistent result; values it only fills in are no error.
func TestServerCheck_changedConfiguredValueIsAnErrorAtPlan(t *testing.T) {
	f := newServerCheckFixture(t, webhookSettingUpdateStrategies(true))
	_, diags := checkOnServer(context.Background(), f.check, f.spec)
	if len(diags) != 1 || diags[0].Severity() != diag.SeverityError || diags[0].Summary() != `The Garden changes this configured value (machine image ubuntu)` {
		t.Fatalf("want one error on the changed update strategy, got %v", diags)
	}
	if at, want := diags[0].(diag.DiagnosticWithPath).Path(), path.Root("spec").AtName("machine_images").AtMapKey("ubuntu").AtName("update_strategy"); !at.Equal(want) {
		t.Fatalf("error on %s, want %s", at, want)
	}
	d := diags[0].Detail()
	for _, want := range []string{`spec.machine_images["ubuntu"].update_strategy`, `Configured: "major"`, `The Garden would store: "minor"`,
		"inconsistent result after apply", "Nothing was written (dry run)", "To fix: configure the value the Garden stores"} {
		if !strings.Contains(d, want) {
			t.Errorf("detail lacks %q:\n%s", want, d)
		}
	}
}

// TestChangedPlannedValues_semanticallyEqualIsNoChange: a quantity the Garden writes in another
// form ("1024Mi" for "1Gi") is what the apply keeps, not a change; a list of another length is
// one change on the list, and a map with another key one change on the map.
func TestChangedPlannedValues_semanticallyEqualIsNoChange(t *testing.T) {
	ls := largeSchemaOf(newCloudProfileResource())
	a := ls.Attribute(specLargePath)
	spec := richCloudProfileSpec()
	planned, diags := flattenSpecTerraform(cloudProfileSpecRoot, spec)
	if diags.HasError() {
		t.Fatal(diags)
	}
	stored := planned
	mebibytes := fmt.Sprintf("%dMi", spec.MachineTypes[0].Memory.Value()>>20) // as a user may write it
	planned, _ = tfvalue.MapAttributes(planned, planned, func(name string, types, _ tftypes.Value) (tftypes.Value, bool) {
		if name != "machine_types" {
			return types, false
		}
		return tfvalue.MapElements(types, types, func(machineType, _ tftypes.Value) (tftypes.Value, bool) {
			if stringAttribute(machineType, "memory") != "8Gi" || stringAttribute(machineType, "cpu") != "2" {
				return machineType, false // m5.large alone
			}
			return tfvalue.MapAttributes(machineType, machineType, func(name string, v, _ tftypes.Value) (tftypes.Value, bool) {
				return tftypes.NewValue(tftypes.String, mebibytes), name == "memory"
			})
		})
	})
	if got := changedPlannedValues(context.Background(), a, planned, stored); len(got) != 0 {
		t.Fatalf("memory %s stored as %s: want no change, got %v", mebibytes, spec.MachineTypes[0].Memory.String(), got)
	}
	rewritten := *spec.DeepCopy()
	rewritten.Regions = append(rewritten.Regions, gardencorev1beta1.Region{Name: "added-by-a-webhook"})
	stored, _ = flattenSpecTerraform(cloudProfileSpecRoot, rewritten)
	got := changedPlannedValues(context.Background(), a, planned, stored)
	if len(got) != 1 || attributePath(got[0].steps).String() != "spec.regions" {
		t.Fatalf("a region added: want one change on spec.regions, got %v", got)
	}
}

// TestServerCheck_saysWhenTheGardenAcceptsWhatTheOfflineRulesReject: offline errors stay, and a
// warning says plainly that the Garden accepted the object.
func TestServerCheck_saysWhenTheGardenAcceptsWhatTheOfflineRulesReject(t *testing.T) {
	f := newServerCheckFixture(t, func(w http.ResponseWriter, body []byte) {
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write(body)
	})
	rejected := f.check
	rejected.offline = offlineErrors{"an offline error"}
	_, diags := checkOnServer(context.Background(), rejected, f.spec)
	if len(diags) != 1 || diags[0].Severity() != diag.SeverityWarning || diags[0].Summary() != "Offline rules and the Garden disagree" ||
		!strings.Contains(diags[0].Detail(), "another Gardener version or other feature gates") {
		t.Fatalf("want the warning that offline rules and the Garden disagree, got %v", diags)
	}
}

// TestServerCheck_rejectionRepeatingAnOfflineErrorAddsNothing: when the offline rules already
// report what the Garden answers (Gardener's admission plugins answer 500 with the message only,
// or with the field errors of the merged profile wrapped in one message; validation answers 422
// with field causes), the server check adds no diagnostic; what the Garden says beyond them is
// still reported.
func TestServerCheck_rejectionRepeatingAnOfflineErrorAddsNothing(t *testing.T) {
	const admission = "invalid kubernetes version specified: '1.29.9' does not exist in parent CloudProfile and thus cannot be overridden"
	const merged = `status.cloudProfileSpec.kubernetes.versions[].expirationDate: Invalid value: "2101-01-01T00:00:00Z": ` +
		`expiration date of latest kubernetes version ('1.31.2') must not be set`
	inUse := func(ncp string) string {
		return `unable to delete Kubernetes version "1.31.1" from CloudProfile "big" - version is still in use by NamespacedCloudProfile 'garden-x/` + ncp + `'`
	}
	offline := offlineErrors{
		"spec.kubernetes.versions\n\nGardener: spec.kubernetes.versions: Forbidden: " + inUse("a") + " (rule N-1)\n\nGardener reports 1 more:\n  - " + inUse("b") + "\n\nTo fix: …",
		`spec.kubernetes.versions["1.29.9"]` + "\n\nGardener: spec.kubernetes.versions[0].version: " +
			`Invalid value: "1.29.9": ` + admission + " (rule L-1)\n\nTo fix: …",
		`spec.kubernetes.versions["1.31.2"].expiration_date` + "\n\nGardener: " + merged + " (rule M-1/C-3)\n\nTo fix: …",
	}
	duplicate := metav1.StatusCause{Type: metav1.CauseTypeFieldValueDuplicate, Field: "spec.kubernetes.versions[0].version", Message: `Invalid value: "1.29.9": ` + admission}
	other := metav1.StatusCause{Type: metav1.CauseTypeFieldValueInvalid, Field: "spec.regions[0].name", Message: `Invalid value: "x": unknown region`}
	cases := []struct {
		name           string
		answer         func(http.ResponseWriter, []byte)
		wantSeverities []diag.Severity
	}{
		{"admission 500 repeating the offline error", statusAnswer(http.StatusInternalServerError, "", admission), nil},
		{"admission 500 saying something else", statusAnswer(http.StatusInternalServerError, "", "the parent is being deleted"), []diag.Severity{diag.SeverityWarning}},
		{"validation 422 repeating the offline error", statusAnswer(http.StatusUnprocessableEntity, metav1.StatusReasonInvalid, "invalid", duplicate), nil},
		{"validation 422 with one more field", statusAnswer(http.StatusUnprocessableEntity, metav1.StatusReasonInvalid, "invalid", duplicate, other), []diag.Severity{diag.SeverityError}},
		{"admission 500 wrapping the offline error", statusAnswer(http.StatusInternalServerError, "",
			"error while validating merged NamespacedCloudProfile: ["+merged+"]"), nil},
		{"admission 403 listing the offline errors", statusAnswer(http.StatusForbidden, metav1.StatusReasonForbidden,
			"cloudprofiles.core.gardener.cloud \"big\" is forbidden: 2 errors occurred:\n\t* "+inUse("a")+"\n\t* "+inUse("b")+"\n\n"), nil},
		{"admission 403 listing one more", statusAnswer(http.StatusForbidden, metav1.StatusReasonForbidden,
			"cloudprofiles.core.gardener.cloud \"big\" is forbidden: 3 errors occurred:\n\t* "+inUse("a")+"\n\t* "+inUse("b")+"\n\t* "+inUse("z")+"\n\n"),
			[]diag.Severity{diag.SeverityError}},
		{"admission 500 wrapping it and one more", statusAnswer(http.StatusInternalServerError, "",
			"error while validating merged NamespacedCloudProfile: ["+merged+`, status.cloudProfileSpec.regions[0].name: Required value: must provide a name]`),
			[]diag.Severity{diag.SeverityWarning}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := newServerCheckFixture(t, c.answer)
			check := f.check
			check.offline = offline
			_, diags := checkOnServer(context.Background(), check, f.spec)
			if len(diags) != len(c.wantSeverities) {
				t.Fatalf("want %d diagnostics, got %v", len(c.wantSeverities), diags)
			}
			for i, d := range diags {
				if d.Severity() != c.wantSeverities[i] {
					t.Errorf("diagnostic %d is %v, want %v: %s", i, d.Severity(), c.wantSeverities[i], d.Summary())
				}
			}
			if f.fake.requests.Load() != 1 {
				t.Errorf("want one dry run, got %d", f.fake.requests.Load())
			}
		})
	}
}

// TestOfflineErrors_coverItemsOfALargeGroup: a grouped offline error shows nine of 300 problems;
// the Garden's list of the same 300 is covered (every item shown matches, and as many in all), a
// list of 301 is not.
func TestOfflineErrors_coverItemsOfALargeGroup(t *testing.T) {
	item := func(i int) string {
		return fmt.Sprintf("version is still in use by NamespacedCloudProfile 'garden-x/p%03d'", i)
	}
	detail := "spec.kubernetes.versions\n\nGardener: spec.kubernetes.versions: Forbidden: " + item(0) + " (rule N-1)\n\nGardener reports 299 more:"
	for i := 1; i <= maxListedProblems; i++ {
		detail += "\n  - " + item(i)
	}
	detail += "\n  - and 291 more\n\nTo fix: …"
	offline := offlineErrors{detail}
	var items []string
	for i := 299; i >= 0; i-- { // in another order than the offline error's
		items = append(items, item(i))
	}
	if !offline.coverItems(items) {
		t.Fatal("the 300 problems the offline error reports are not covered")
	}
	if offline.coverItems(append(items, item(300))) {
		t.Fatal("a 301st problem is covered")
	}
}

// TestServerCheck_aChangedParentIsOneError: the Garden rejects a NamespacedCloudProfile's new
// parent with the Go syntax of the reference as the bad value; the offline K-9 error says the
// same without it, so the plan shows that one readable error and no second one.
func TestServerCheck_aChangedParentIsOneError(t *testing.T) {
	old := &gardencorev1beta1.NamespacedCloudProfile{ObjectMeta: metav1.ObjectMeta{Name: "team", Namespace: "garden-team"},
		Spec: gardencorev1beta1.NamespacedCloudProfileSpec{Parent: gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: "aws"}}}
	ncp := old.DeepCopy()
	ncp.Spec.Parent.Name = "gcp"
	var k9 cloudprofile.Problems
	for _, p := range cloudprofile.ValidateNamespacedCloudProfileUpdate(ncp, old, cloudprofile.OptionsWithAllGates(time.Date(2027, 1, 15, 0, 0, 0, 0, time.UTC))) {
		if p.Rule == "K-9" {
			k9 = append(k9, p)
		}
	}
	offline := offlineErrorsOf(problemDiagnostics(k9, tftypes.Value{}))
	if len(offline) != 1 || !strings.Contains(offline[0], "Gardener: spec.parent: Invalid value: field is immutable (rule K-9)") {
		t.Fatalf("want one readable K-9 error, got %q", offline)
	}
	const immutable = `Invalid value: core.CloudProfileReference{Kind:"CloudProfile", Name:"gcp"}: field is immutable`
	f := newServerCheckFixture(t, statusAnswer(http.StatusUnprocessableEntity, metav1.StatusReasonInvalid,
		`NamespacedCloudProfile.core.gardener.cloud "team" is invalid: spec.parent: `+immutable,
		metav1.StatusCause{Type: metav1.CauseTypeFieldValueInvalid, Field: "spec.parent", Message: immutable}))
	check := f.check
	check.offline = offline
	if _, diags := checkOnServer(context.Background(), check, f.spec); len(diags) != 0 {
		t.Fatalf("want no second error, got %v", diags)
	}
}

// TestServerCheck_aMissingTypeIsOneError: the Garden rejects a CloudProfile without spec.type
// twice, for the type and for the label of the empty type; the offline rules report the missing
// type (B-1), which covers both, so the plan shows no error of the Garden's besides.
func TestServerCheck_aMissingTypeIsOneError(t *testing.T) {
	cp := &gardencorev1beta1.CloudProfile{ObjectMeta: metav1.ObjectMeta{Name: "big"}, Spec: richCloudProfileSpec()}
	cp.Spec.Type = ""
	var b1 cloudprofile.Problems
	for _, p := range cloudprofile.ValidateCloudProfileRequest(cp, nil, cloudprofile.OptionsWithAllGates(time.Date(2027, 1, 15, 0, 0, 0, 0, time.UTC))) {
		if p.Rule == "B-1" {
			b1 = append(b1, p)
		}
	}
	const label = `Invalid value: "provider.extensions.gardener.cloud/": name part must consist of alphanumeric characters, '-', '_' or '.'`
	f := newServerCheckFixture(t, statusAnswer(http.StatusUnprocessableEntity, metav1.StatusReasonInvalid, "invalid",
		metav1.StatusCause{Type: metav1.CauseTypeFieldValueRequired, Field: "spec.type", Message: "Required value: must provide a provider type"},
		metav1.StatusCause{Type: metav1.CauseTypeFieldValueInvalid, Field: "metadata.labels", Message: label}))
	check := f.check
	check.offline = offlineErrorsOf(problemDiagnostics(b1, tftypes.Value{}))
	if _, diags := checkOnServer(context.Background(), check, f.spec); len(diags) != 0 {
		t.Fatalf("want no error of the Garden's besides B-1, got %v", diags)
	}
}

// TestServerCheck_existsWarningListsTheManagersReadFromTheObject: when a create's dry run finds
// the name taken, the warning names the managers of the object as read from the Garden, not the
// ones of the dry run's answer (which lists the provider's own apply, which never happened).
func TestServerCheck_existsWarningListsTheManagersReadFromTheObject(t *testing.T) {
	live := &gardencorev1beta1.CloudProfile{TypeMeta: metav1.TypeMeta{APIVersion: "core.gardener.cloud/v1beta1", Kind: "CloudProfile"},
		ObjectMeta: metav1.ObjectMeta{Name: "big", UID: "u-1", ManagedFields: []metav1.ManagedFieldsEntry{
			{Manager: "team-a", Operation: metav1.ManagedFieldsOperationApply}}}}
	dryRun := live.DeepCopy()
	dryRun.ManagedFields = append(dryRun.ManagedFields, metav1.ManagedFieldsEntry{Manager: kube.DefaultFieldManager, Operation: metav1.ManagedFieldsOperationApply})
	answers := map[string]func(http.ResponseWriter, []byte){
		"the dry run answers 200": func(w http.ResponseWriter, _ []byte) { _ = json.NewEncoder(w).Encode(dryRun) },
		"the dry run conflicts": statusAnswer(http.StatusConflict, metav1.StatusReasonConflict,
			`Apply failed with 1 conflict: conflict with "team-a" using core.gardener.cloud/v1beta1: .spec.type`),
	}
	for name, answer := range answers {
		t.Run(name, func(t *testing.T) {
			f := newServerCheckFixture(t, answer)
			f.fake.live = live
			_, diags := checkOnServer(context.Background(), f.check, f.spec)
			if len(diags) != 1 || diags[0].Summary() != "CloudProfile already exists" {
				t.Fatalf("want the warning that the name is taken, got %v", diags)
			}
			if detail := diags[0].Detail(); !strings.Contains(detail, "field managers: team-a (Apply))") {
				t.Fatalf("the warning should name exactly the managers read from the object:\n%s", detail)
			}
		})
	}
}
