package provider_test

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/gardener-community/terraform-provider-gardener/bench/gen"
	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
)

// maxPlanLines is the most a rendered plan of a one-line change may print.
const maxPlanLines = 60

// bigProfileWorkspace writes the big profile of make bench, under its own name and changed by
// edit, as the workspace's configuration.
func bigProfileWorkspace(t *testing.T, w *cliWorkspace, name string, edit func(spec map[string]any)) {
	t.Helper()
	cp := gen.BigProfile()
	cp.Name = name
	value, err := gen.TerraformValue(cp)
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(value["spec"].(map[string]any))
	}
	// Setting back what another manager changed takes its fields over.
	value["force_conflicts"] = true
	gates, err := acctest.GardenFeatureGates() // the big profile uses lifecycles
	if err != nil {
		t.Fatal(err)
	}
	doc := map[string]any{
		"provider": map[string]any{"gardener": map[string]any{"config_path": acctest.Kubeconfig(t), "feature_gates": gates}},
		"resource": map[string]any{"gardener_cloud_profile": map[string]any{"big": value}},
	}
	raw, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.dir, "profile.tf.json"), raw, 0o600); err != nil {
		t.Fatal(err)
	}
}

// plannedChange is what `terraform show -json` says a saved plan does to one resource.
type plannedChange struct {
	Before       any `json:"before"`
	After        any `json:"after"`
	AfterUnknown any `json:"after_unknown"`
}

// planChange saves a plan, checks how many lines its rendering takes, and returns the change of
// the resource at address.
func planChange(t *testing.T, w *cliWorkspace, address string) plannedChange {
	t.Helper()
	rendered := w.mustRun(2, "plan", "-detailed-exitcode", "-out=tfplan")
	requireNoProviderBug(t, rendered)
	lines := strings.Count(rendered, "\n")
	if lines > maxPlanLines {
		t.Errorf("the rendered plan has %d lines, want at most %d:\n%s", lines, maxPlanLines, rendered)
	}
	t.Logf("the rendered plan has %d lines:\n%s", lines, rendered)
	var show struct {
		ResourceChanges []struct {
			Address string        `json:"address"`
			Change  plannedChange `json:"change"`
		} `json:"resource_changes"`
	}
	out := w.mustRun(0, "show", "-json", "tfplan")
	if err := json.Unmarshal([]byte(out), &show); err != nil {
		t.Fatalf("decoding the saved plan: %v", err)
	}
	for _, rc := range show.ResourceChanges {
		if rc.Address == address {
			return rc.Change
		}
	}
	t.Fatalf("the plan has no change of %s", address)
	return plannedChange{}
}

// leafDiffs lists the paths where two JSON values differ, as "a.b[2].c" (a key of a map as an
// attribute name: "spec.machine_types.m5.large.memory").
func leafDiffs(before, after any, at string, out *[]string) {
	switch b := before.(type) {
	case map[string]any:
		a, ok := after.(map[string]any)
		if !ok {
			*out = append(*out, at)
			return
		}
		keys := map[string]bool{}
		for k := range b {
			keys[k] = true
		}
		for k := range a {
			keys[k] = true
		}
		for k := range keys {
			leafDiffs(b[k], a[k], strings.TrimPrefix(at+"."+k, "."), out)
		}
	case []any:
		a, ok := after.([]any)
		if !ok || len(a) != len(b) {
			*out = append(*out, at)
			return
		}
		for i := range b {
			leafDiffs(b[i], a[i], fmt.Sprintf("%s[%d]", at, i), out)
		}
	default:
		if !reflect.DeepEqual(before, after) {
			*out = append(*out, at)
		}
	}
}

// unknownPaths lists the paths terraform marks as known only after apply.
func unknownPaths(v any, at string, out *[]string) {
	switch u := v.(type) {
	case bool:
		if u {
			*out = append(*out, at)
		}
	case map[string]any:
		for k, e := range u {
			unknownPaths(e, strings.TrimPrefix(at+"."+k, "."), out)
		}
	case []any:
		for i, e := range u {
			unknownPaths(e, fmt.Sprintf("%s[%d]", at, i), out)
		}
	}
}

// requireExactly fails unless the plan changes exactly the paths want and leaves only
// metadata.resource_version unknown.
func requireExactly(t *testing.T, what string, c plannedChange, want ...string) {
	t.Helper()
	var changed, unknown []string
	leafDiffs(c.Before, c.After, "", &changed)
	unknownPaths(c.AfterUnknown, "", &unknown)
	sort.Strings(changed)
	sort.Strings(want)
	var withoutUnknown []string
	for _, p := range changed {
		if p != "metadata.resource_version" {
			withoutUnknown = append(withoutUnknown, p)
		}
	}
	if !reflect.DeepEqual(withoutUnknown, want) {
		t.Errorf("%s: the plan changes %v, want exactly %v", what, withoutUnknown, want)
	}
	if !reflect.DeepEqual(unknown, []string{"metadata.resource_version"}) {
		t.Errorf("%s: unknown after apply: %v, want only metadata.resource_version", what, unknown)
	}
}

// TestAccPlan_bigProfileOneChangeIsExact: with the big profile of make bench applied, changing one
// expiration date plans exactly that attribute (nothing else changes, nothing else is unknown but
// the resource version) in a rendered plan of at most 60 lines, and the apply matches the plan.
// The same for a drift of one lifecycle start time and one memory value made by another field
// manager.
func TestAccPlan_bigProfileOneChangeIsExact(t *testing.T) {
	acctest.Kubeconfig(t) // skips unless TF_ACC is set
	name := acctest.UniqueName("acc-big")
	w := newCLIWorkspace(t, "")
	w.destroyOnCleanup()
	bigProfileWorkspace(t, w, name, nil)
	w.mustRun(0, "apply", "-auto-approve")
	requireNoWarnings(t, "the plan after creating the big profile", w.mustRun(0, "plan", "-detailed-exitcode"))

	var expiring string
	bigProfileWorkspace(t, w, name, func(spec map[string]any) {
		versions := spec["kubernetes"].(map[string]any)["versions"].(map[string]any)
		for _, version := range slices.Sorted(maps.Keys(versions)) {
			v := versions[version].(map[string]any)
			if d, ok := v["expiration_date"].(string); ok {
				at, _ := time.Parse(time.RFC3339, d)
				v["expiration_date"] = at.Add(24 * time.Hour).Format(time.RFC3339)
				expiring = version
				return
			}
		}
	})
	requireExactly(t, "one expiration date", planChange(t, w, "gardener_cloud_profile.big"), "spec.kubernetes.versions."+expiring+".expiration_date")
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve", "tfplan"))
	w.mustRun(0, "plan", "-detailed-exitcode")

	drifted := driftByAnotherManager(t, name)
	requireExactly(t, "a drift of another field manager", planChange(t, w, "gardener_cloud_profile.big"), drifted...)
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve", "tfplan"))
	w.mustRun(0, "plan", "-detailed-exitcode")
}

// driftByAnotherManager changes, with its own field manager, the memory of the first machine type
// and the start time of the last lifecycle stage of the first Kubernetes version that has one, and
// returns their attribute paths.
func driftByAnotherManager(t *testing.T, name string) []string {
	t.Helper()
	cp := gen.BigProfile()
	machineType := cp.Spec.MachineTypes[0]
	version, stage := -1, -1
	for i, v := range cp.Spec.Kubernetes.Versions {
		if len(v.Lifecycle) > 0 && v.Lifecycle[len(v.Lifecycle)-1].StartTime != nil {
			version, stage = i, len(v.Lifecycle)-1
			break
		}
	}
	if version < 0 {
		t.Fatal("the big profile has no Kubernetes version with a lifecycle")
	}
	lifecycle := cp.Spec.Kubernetes.Versions[version].Lifecycle
	moved := lifecycle[stage].StartTime.Add(48 * time.Hour)
	lifecycle[stage].StartTime = &metav1.Time{Time: moved}
	stages, err := json.Marshal(lifecycle)
	if err != nil {
		t.Fatal(err)
	}
	var stagesValue []any
	if err := json.Unmarshal(stages, &stagesValue); err != nil {
		t.Fatal(err)
	}
	patch := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "core.gardener.cloud/v1beta1", "kind": "CloudProfile",
		"metadata": map[string]any{"name": name},
		"spec": map[string]any{
			"machineTypes": []any{map[string]any{"name": machineType.Name, "memory": "99Gi"}},
			"kubernetes":   map[string]any{"versions": []any{map[string]any{"version": cp.Spec.Kubernetes.Versions[version].Version, "lifecycle": stagesValue}}},
		},
	}}
	cfg, err := clientcmd.BuildConfigFromFlags("", acctest.Kubeconfig(t))
	if err != nil {
		t.Fatal(err)
	}
	dc, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	gvr := schema.GroupVersionResource{Group: "core.gardener.cloud", Version: "v1beta1", Resource: "cloudprofiles"}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := dc.Resource(gvr).Apply(ctx, name, patch, metav1.ApplyOptions{FieldManager: "other-team", Force: true}); err != nil {
		t.Fatalf("the other manager's apply: %v", err)
	}
	return []string{
		"spec.machine_types." + machineType.Name + ".memory",
		fmt.Sprintf("spec.kubernetes.versions.%s.lifecycle[%d].start_time", cp.Spec.Kubernetes.Versions[version].Version, stage),
	}
}

// TestAccPlan_namespacedProfileOneMachineTypeIsExact: changing the memory of one machine type of a
// NamespacedCloudProfile plans exactly that attribute and the generation Gardener gives the
// changed spec, with no copy of the merged parent in the plan, in a short rendered plan; the apply
// matches it.
func TestAccPlan_namespacedProfileOneMachineTypeIsExact(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	parent, name := acctest.UniqueName("acc-exact-parent"), acctest.UniqueName("acc-exact")
	config := func(memory string) string {
		return cloudProfileConfig(kubeconfig, parent, "", "", "") + fmt.Sprintf(`
resource "gardener_namespaced_cloud_profile" "test" {
  metadata = { name = %q, namespace = %q }
  spec = {
    parent        = { kind = "CloudProfile", name = gardener_cloud_profile.test.metadata.name }
    machine_types = {
      "x1.metal" = { cpu = "96", gpu = "0", memory = %q }
      "x2.metal" = { cpu = "128", gpu = "0", memory = "2Ti" }
    }
  }
}
`, name, projectNamespace, memory)
	}
	w := newCLIWorkspace(t, config("1Ti"))
	w.destroyOnCleanup()
	w.mustRun(0, "apply", "-auto-approve")
	w.mustRun(0, "plan", "-detailed-exitcode")

	w.write(config("1536Gi"))
	requireExactly(t, "one machine type", planChange(t, w, ncpAddr), "metadata.generation", "spec.machine_types.x1.metal.memory")
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve", "tfplan"))
	w.mustRun(0, "plan", "-detailed-exitcode")
}
