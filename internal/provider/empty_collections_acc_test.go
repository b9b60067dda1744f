package provider_test

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
)

// The cases of "an empty list or map equals leaving it out" come from the resources' schemas as
// the CLI reads them (terraform providers schema -json): every optional list, set or map attribute,
// at any depth, is set empty wherever the base configuration has its parent and leaves it out. An
// attribute the base configuration cannot reach fails the test, unless it is one Gardener never
// accepts empty (neverEmpty), so that a new attribute is covered or explained.

// schemaAttribute is an attribute of `terraform providers schema -json`.
type schemaAttribute struct {
	Type       json.RawMessage `json:"type"`
	NestedType *struct {
		Attributes  map[string]schemaAttribute `json:"attributes"`
		NestingMode string                     `json:"nesting_mode"`
	} `json:"nested_type"`
	Optional bool `json:"optional"`
	Computed bool `json:"computed"`
}

// collection is "list", "set" or "map" for an attribute that holds a collection, else "".
func (a schemaAttribute) collection() string {
	if a.NestedType != nil {
		if a.NestedType.NestingMode == "single" {
			return ""
		}
		return a.NestedType.NestingMode
	}
	var typ []json.RawMessage
	if json.Unmarshal(a.Type, &typ) != nil || len(typ) == 0 {
		return ""
	}
	var kind string
	_ = json.Unmarshal(typ[0], &kind)
	if kind == "list" || kind == "set" || kind == "map" {
		return kind
	}
	return ""
}

// resourceSchemas reads the attributes of each resource type of the provider through the CLI.
func resourceSchemas(t *testing.T, w *cliWorkspace) map[string]map[string]schemaAttribute {
	t.Helper()
	var out struct {
		ProviderSchemas map[string]struct {
			ResourceSchemas map[string]struct {
				Block struct {
					Attributes map[string]schemaAttribute `json:"attributes"`
				} `json:"block"`
			} `json:"resource_schemas"`
		} `json:"provider_schemas"`
	}
	raw := w.mustRun(0, "providers", "schema", "-json")
	_, schemaJSON, _ := strings.Cut(raw, "{")
	if err := json.Unmarshal([]byte("{"+schemaJSON), &out); err != nil {
		t.Fatalf("reading the provider schema: %v\n%s", err, raw)
	}
	schemas := map[string]map[string]schemaAttribute{}
	for _, p := range out.ProviderSchemas {
		for name, r := range p.ResourceSchemas {
			schemas[name] = r.Block.Attributes
		}
	}
	return schemas
}

// collectionAttributes lists the optional collection attributes below attrs as patterns
// (spec.regions.*.zones).
func collectionAttributes(attrs map[string]schemaAttribute, at string, out map[string]bool) {
	for name, a := range attrs {
		p := strings.TrimPrefix(at+"."+name, ".")
		if a.Optional && a.collection() != "" {
			out[p] = true
		}
		if a.NestedType != nil {
			if a.NestedType.NestingMode != "single" {
				p += ".*"
			}
			collectionAttributes(a.NestedType.Attributes, p, out)
		}
	}
}

// withEmpties returns a copy of config (a resource's JSON configuration) with every optional
// collection attribute it leaves out, below a parent it sets, set to an empty list or map; covered
// gets the patterns of the attributes set. Only the attributes of which set tells are set.
func withEmpties(attrs map[string]schemaAttribute, config map[string]any, at string, set func(pattern string) bool, covered map[string]bool) map[string]any {
	out := maps.Clone(config)
	for name, a := range attrs {
		p := strings.TrimPrefix(at+"."+name, ".")
		value, present := out[name]
		if !present && a.Optional && set(p) {
			switch a.collection() {
			case "list", "set":
				out[name], covered[p] = []any{}, true
			case "map":
				out[name], covered[p] = map[string]any{}, true
			}
			continue
		}
		if !present || a.NestedType == nil {
			continue
		}
		switch a.NestedType.NestingMode {
		case "single":
			if object, ok := value.(map[string]any); ok {
				out[name] = withEmpties(a.NestedType.Attributes, object, p, set, covered)
			}
		case "map":
			entries := maps.Clone(value.(map[string]any))
			for key, e := range entries {
				entries[key] = withEmpties(a.NestedType.Attributes, e.(map[string]any), p+".*", set, covered)
			}
			out[name] = entries
		default:
			entries := slices.Clone(value.([]any))
			for i, e := range entries {
				entries[i] = withEmpties(a.NestedType.Attributes, e.(map[string]any), p+".*", set, covered)
			}
			out[name] = entries
		}
	}
	return out
}

// neverEmpty are the collection attributes the base configurations always set, because Gardener
// rejects them empty and left out alike on that resource: there is no empty value to compare.
var neverEmpty = map[string]string{
	"gardener_cloud_profile spec.kubernetes.versions":                  "a CloudProfile needs a Kubernetes version",
	"gardener_cloud_profile spec.machine_images":                       "a CloudProfile needs a machine image",
	"gardener_cloud_profile spec.machine_images.*.versions":            "a machine image needs a version",
	"gardener_cloud_profile spec.machine_types":                        "a CloudProfile needs a machine type",
	"gardener_cloud_profile spec.regions":                              "a CloudProfile needs a region",
	"gardener_cloud_profile spec.machine_capabilities.*.values":        "a capability needs a value",
	"gardener_namespaced_cloud_profile spec.machine_images.*.versions": "an image of a NamespacedCloudProfile needs a version",
}

// defaultedWhenEmpty are the collection attributes Gardener fills in when they are empty or left
// out: left out, the plan takes the Garden's value; configured empty, it is an error at plan
// ("The Garden changes this configured value"), as the Garden would not store it.
var defaultedWhenEmpty = map[string]string{
	"gardener_cloud_profile spec.machine_images.*.versions.*.architectures": `Gardener sets ["amd64"]`,
	"gardener_cloud_profile spec.machine_images.*.versions.*.cri":           "Gardener sets { containerd = {} }",
}

// emptiesBase is the JSON configuration of two CloudProfiles and two NamespacedCloudProfiles of the
// first, which together set a parent for every optional collection attribute and leave each out
// somewhere, by resource type and name.
func emptiesBase(name string) map[string]map[string]map[string]any {
	ncpConfig := `{"apiVersion":"local.provider.extensions.gardener.cloud/v1alpha1","kind":"CloudProfileConfig","machineImages":[{"name":"custom","versions":[{"version":"1.0.0","image":"local/custom:1.0.0"}]}]}`
	parent := map[string]any{"kind": "CloudProfile", "name": "${gardener_cloud_profile.p.metadata.name}"}
	return map[string]map[string]map[string]any{
		"gardener_cloud_profile": {
			"p": {
				"metadata": map[string]any{"name": name},
				"spec": map[string]any{
					"type":            "local",
					"provider_config": localProviderConfigJSON,
					"kubernetes":      map[string]any{"versions": map[string]any{"1.31.2": map[string]any{}, "1.30.5": map[string]any{}}},
					"machine_images": map[string]any{"gardenlinux": map[string]any{"versions": map[string]any{
						"1.0.0": map[string]any{"cri": map[string]any{"containerd": map[string]any{}}},
						"1.1.0": map[string]any{},
					}}},
					"machine_types": map[string]any{"m5.large": map[string]any{"cpu": "2", "gpu": "0", "memory": "8Gi"}},
					"regions": map[string]any{
						"local": map[string]any{"zones": map[string]any{"local-a": map[string]any{}}},
						"other": map[string]any{},
					},
					"seed_selector": map[string]any{"match_expressions": []any{map[string]any{"key": "zone", "operator": "Exists"}}},
				},
			},
			"q": {
				"metadata": map[string]any{"name": name + "-q"},
				"spec": map[string]any{
					"type":            "local",
					"provider_config": localProviderConfigJSON,
					"kubernetes":      map[string]any{"versions": map[string]any{"1.31.2": map[string]any{}}},
					"machine_images": map[string]any{"gardenlinux": map[string]any{"versions": map[string]any{
						"1.0.0": map[string]any{"cri": map[string]any{"containerd": map[string]any{}}, "architectures": []any{"amd64"}},
					}}},
					"machine_types": map[string]any{"m5.large": map[string]any{"cpu": "2", "gpu": "0", "memory": "8Gi"}},
					"regions":       map[string]any{"local": map[string]any{}},
					"seed_selector": map[string]any{},
				},
			},
		},
		"gardener_namespaced_cloud_profile": {
			"team": {
				"metadata": map[string]any{"name": name + "-team", "namespace": projectNamespace},
				"spec": map[string]any{
					"parent":          parent,
					"provider_config": ncpConfig,
					"kubernetes":      map[string]any{"versions": map[string]any{"1.30.5": map[string]any{"expiration_date": "2099-06-01T00:00:00Z"}}},
					"machine_images": map[string]any{
						"custom":      map[string]any{"update_strategy": "patch", "versions": map[string]any{"1.0.0": map[string]any{"cri": map[string]any{"containerd": map[string]any{}}, "architectures": []any{"amd64"}}}},
						"gardenlinux": map[string]any{"versions": map[string]any{"1.1.0": map[string]any{"expiration_date": "2099-06-01T00:00:00Z"}}},
					},
					"machine_types": map[string]any{"x1.metal": map[string]any{"cpu": "96", "gpu": "0", "memory": "1Ti"}},
				},
			},
			"bare": {
				"metadata": map[string]any{"name": name + "-bare", "namespace": projectNamespace},
				"spec":     map[string]any{"parent": parent, "kubernetes": map[string]any{}},
			},
		},
	}
}

// emptiesVariant is the base configuration with the attributes of which set tells set empty;
// covered gets each attribute set, by resource type and pattern.
func emptiesVariant(schemas map[string]map[string]schemaAttribute, base map[string]map[string]map[string]any, set func(typ, pattern string) bool, covered map[string]bool) map[string]map[string]map[string]any {
	out := map[string]map[string]map[string]any{}
	for typ, resources := range base {
		out[typ] = map[string]map[string]any{}
		for name, config := range resources {
			found := map[string]bool{}
			out[typ][name] = withEmpties(schemas[typ], config, "", func(p string) bool { return set(typ, p) }, found)
			for p := range found {
				covered[typ+" "+p] = true
			}
		}
	}
	return out
}

// emptiesConfig writes the JSON configuration of the resources beside the workspace's main.tf.
func emptiesConfig(t *testing.T, w *cliWorkspace, resources map[string]map[string]map[string]any) {
	t.Helper()
	raw, err := json.MarshalIndent(map[string]any{"resource": resources}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.dir, "profiles.tf.json"), raw, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestAccHonestPlans_emptyAndLeftOutAreEqual: for every optional list, set and map attribute of
// both resources (read from the schema), `[]` or `{}` and leaving the attribute out are the same
// value: applied one way, the other way plans no change (exit 0), in both directions, alone and
// beside a real change elsewhere, and objects applied either way are stored alike (read with a raw
// client). The attributes Gardener fills in when empty (defaultedWhenEmpty) are errors at plan when
// configured empty.
func TestAccHonestPlans_emptyAndLeftOutAreEqual(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	names := []string{acctest.UniqueName("acc-empties"), acctest.UniqueName("acc-leftout")}
	workspaces := make([]*cliWorkspace, 2)
	left, empty, defaulted := make([]map[string]map[string]map[string]any, 2), make([]map[string]map[string]map[string]any, 2), make([]map[string]map[string]map[string]any, 2)
	covered, coveredDefaulted := map[string]bool{}, map[string]bool{}
	for i, name := range names {
		workspaces[i] = newCLIWorkspace(t, acctest.ProviderBlock(kubeconfig))
		workspaces[i].destroyOnCleanup()
		schemas := resourceSchemas(t, workspaces[i])
		left[i] = emptiesBase(name)
		empty[i] = emptiesVariant(schemas, left[i], func(typ, p string) bool { return defaultedWhenEmpty[typ+" "+p] == "" }, covered)
		defaulted[i] = emptiesVariant(schemas, empty[i], func(typ, p string) bool { return defaultedWhenEmpty[typ+" "+p] != "" }, coveredDefaulted)
		if i > 0 {
			continue
		}
		for typ := range left[i] {
			all := map[string]bool{}
			collectionAttributes(schemas[typ], "", all)
			for _, p := range slices.Sorted(maps.Keys(all)) {
				if k := typ + " " + p; !covered[k] && !coveredDefaulted[k] && neverEmpty[k] == "" {
					t.Errorf("%s: no base configuration sets a parent and leaves it out: add a case (or a reason to neverEmpty)", k)
				}
			}
		}
	}
	t.Logf("%d attributes set empty: %s; %d that Gardener fills in: %s", len(covered), strings.Join(slices.Sorted(maps.Keys(covered)), ", "),
		len(coveredDefaulted), strings.Join(slices.Sorted(maps.Keys(coveredDefaulted)), ", "))

	// Applied with every empty, then planned left out and empty again; and the other way round.
	steps := [][]map[string]map[string]map[string]any{{empty[0], left[0], empty[0]}, {left[1], empty[1], left[1]}}
	for i, w := range workspaces {
		emptiesConfig(t, w, steps[i][0])
		requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))
		for _, next := range steps[i][1:] {
			emptiesConfig(t, w, next)
			if out, code := w.run("plan", "-detailed-exitcode"); code != 0 {
				t.Errorf("%s: the other form plans exit %d, want 0 (no change):\n%s", names[i], code, out)
			}
		}
	}

	// Beside a real change (a label), the other form adds nothing to the plan.
	labelled := emptiesVariant(nil, left[0], func(string, string) bool { return false }, map[string]bool{})
	labelled["gardener_cloud_profile"]["p"]["metadata"] = map[string]any{"name": names[0], "labels": map[string]any{"owner": "platform"}}
	emptiesConfig(t, workspaces[0], labelled)
	out := workspaces[0].mustRun(2, "plan", "-detailed-exitcode")
	t.Logf("a label added, every empty left out (%d lines):\n%s", strings.Count(out, "\n"), out)
	if !strings.Contains(out, "0 to add, 1 to change, 0 to destroy") || !strings.Contains(out, `+ "owner" = "platform"`) ||
		strings.Contains(out, "-> null") || strings.Contains(out, "= []") || strings.Contains(out, "= {}") {
		t.Errorf("the plan of a label shows more than the label:\n%s", out)
	}

	// In an entry that changes otherwise, the attribute left out takes the configured form: the plan
	// is valid, applies, and the next plan is empty.
	changed := emptiesVariant(nil, left[0], func(string, string) bool { return false }, map[string]bool{})
	changedSpec := maps.Clone(changed["gardener_cloud_profile"]["p"]["spec"].(map[string]any))
	changedSpec["kubernetes"] = map[string]any{"versions": map[string]any{"1.31.2": map[string]any{}, "1.30.5": map[string]any{"expiration_date": "2099-01-01T00:00:00Z"}}}
	changed["gardener_cloud_profile"]["p"]["spec"] = changedSpec
	emptiesConfig(t, workspaces[0], changed)
	out = workspaces[0].mustRun(2, "plan", "-detailed-exitcode")
	t.Logf("an expiration date added, every empty left out (%d lines):\n%s", strings.Count(out, "\n"), out)
	requireNoProviderBug(t, out)
	requireNoProviderBug(t, workspaces[0].mustRun(0, "apply", "-auto-approve"))
	workspaces[0].mustRun(0, "plan", "-detailed-exitcode")
	emptiesConfig(t, workspaces[0], left[0])
	requireNoProviderBug(t, workspaces[0].mustRun(0, "apply", "-auto-approve"))

	// Configured empty, what Gardener fills in is an error at plan, on each such attribute.
	emptiesConfig(t, workspaces[0], defaulted[0])
	out = workspaces[0].mustRun(1, "plan")
	if n, want := strings.Count(out, "Error: The Garden changes this configured value"), strings.Count(out, "\nError: "); n == 0 || n != want {
		t.Errorf("configured empty, the values Gardener fills in: want only errors that the Garden changes them, got %d of %d:\n%s", n, want, out)
	}
	for k := range coveredDefaulted {
		attr := k[strings.LastIndex(k, ".")+1:]
		if !strings.Contains(out, "."+attr+"\n") {
			t.Errorf("%s configured empty: no error on it:\n%s", k, out)
		}
	}
	emptiesConfig(t, workspaces[0], empty[0])

	stored := func(resource, namespace, name string) map[string]any {
		o := storedObject(t, resource, namespace, name)
		meta := o["metadata"].(map[string]any)
		return map[string]any{"spec": o["spec"], "labels": meta["labels"], "annotations": meta["annotations"]}
	}
	for _, c := range []struct{ resource, namespace, suffix string }{
		{"cloudprofiles", "", ""}, {"cloudprofiles", "", "-q"},
		{"namespacedcloudprofiles", projectNamespace, "-team"}, {"namespacedcloudprofiles", projectNamespace, "-bare"},
	} {
		var got [2]string
		for i, name := range names {
			raw, _ := json.Marshal(stored(c.resource, c.namespace, name+c.suffix))
			got[i] = strings.ReplaceAll(string(raw), name, "NAME")
		}
		if got[0] != got[1] {
			t.Errorf("%s NAME%s: applied with empties and left out, the Garden stores different objects:\n%s\n%s", c.resource, c.suffix, got[0], got[1])
		}
	}
	if t.Failed() {
		for i, w := range workspaces {
			raw, _ := os.ReadFile(filepath.Join(w.dir, "profiles.tf.json"))
			t.Logf("configuration %d:\n%s", i, raw)
		}
	}
}
