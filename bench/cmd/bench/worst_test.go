package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// worstConfig is a JSON configuration with keys that hold dots, as the worst cases' versions do.
const worstConfig = `{"resource": {
  "gardener_cloud_profile": {"parent": {"metadata": {"name": "parent"}, "spec": {"regions": {"local": {}}}}},
  "gardener_namespaced_cloud_profile": {"worst": {"metadata": {"name": "worst"}, "spec": {"kubernetes": {"versions": {
    "1.24": {"classification": "preview"}, "1.24.9980": {"classification": "supported"}}}, "machine_images": {
    "bad/0": {"versions": {"1.0.0": {"lifecycle": [{"classification": "preview"}, {"classification": "supported"}]}}}}}}}
}}`

func TestFloorPathsOf_ReadsWhereEachDiagnosticOfAResourcePoints(t *testing.T) {
	var config map[string]any
	if err := json.Unmarshal([]byte(worstConfig), &config); err != nil {
		t.Fatal(err)
	}
	out := lines(writeTemp(t, `
Warning: Provider development overrides are in effect

Error: A Kubernetes override sets a classification (Kubernetes version 1.24.9980)

  with gardener_namespaced_cloud_profile.worst,
  on main.tf.json line 30073, in resource.gardener_namespaced_cloud_profile.worst.spec.kubernetes.versions.1.24.9980:
30073:                 "classification": "supported"

Error: A stage

│   with gardener_namespaced_cloud_profile.worst,
│   on main.tf.json line 12, in resource.gardener_namespaced_cloud_profile.worst.spec.machine_images.bad/0.versions.1.0.0.lifecycle.1:
│   12:           },

Error: … and 60,000 more problems: K-5/F-3 ×10,000

  with gardener_cloud_profile.parent,
  on main.tf.json line 220092, in resource.gardener_cloud_profile.parent:
220092:       }

Error: Unsupported block type

  on main.tf.json line 3:
   3: "resorce": {
`))
	got, err := floorPathsOf(out, config)
	if err != nil {
		t.Fatal(err)
	}
	want := floorPaths{
		"gardener_namespaced_cloud_profile": {
			{"spec", "kubernetes", "versions", "1.24.9980"},
			{"spec", "machine_images", "bad/0", "versions", "1.0.0", "lifecycle", "1"},
		},
		"gardener_cloud_profile": {{}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("floorPathsOf = %v, want %v (a diagnostic of no resource is Terraform's own)", got, want)
	}
	if got.count() != 3 {
		t.Errorf("count = %d, want 3", got.count())
	}
	if _, err := floorPathsOf([]string{"  on main.tf.json line 3, in resource.gardener_cloud_profile.parent.spec.zones:"}, config); err == nil || !strings.Contains(err.Error(), "no key") {
		t.Errorf("a context the configuration lacks: %v, want an error", err)
	}
}

func TestAttributePathOf_StepsThroughTheSchemasTypes(t *testing.T) {
	stage := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"classification": tftypes.String}}
	version := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"lifecycle": tftypes.List{ElementType: stage}}}
	resource := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"spec": tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"versions": tftypes.Map{ElementType: version}}}}}
	got, err := attributePathOf(resource, []string{"spec", "versions", "1.24.9980", "lifecycle", "1"})
	want := tftypes.NewAttributePath().WithAttributeName("spec").WithAttributeName("versions").WithElementKeyString("1.24.9980").
		WithAttributeName("lifecycle").WithElementKeyInt(1)
	if err != nil || !got.Equal(want) {
		t.Errorf("attributePathOf = %v, %v; want %v", got, err, want)
	}
	if got, err := attributePathOf(resource, nil); err != nil || got != nil {
		t.Errorf("no keys: %v, %v; want the resource (nil)", got, err)
	}
	for _, bad := range [][]string{{"status"}, {"spec", "versions", "1.0.0", "lifecycle", "x"}, {"spec", "versions", "1.0.0", "lifecycle", "0", "classification", "more"}} {
		if _, err := attributePathOf(resource, bad); err == nil {
			t.Errorf("attributePathOf(%q) did not fail", bad)
		}
	}
}

// writeTemp writes content into a file of a temporary folder and returns its path.
func writeTemp(t *testing.T, content string) string {
	t.Helper()
	file := filepath.Join(t.TempDir(), "out.txt")
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}
