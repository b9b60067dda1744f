package kube

import (
	"encoding/json"
	"testing"
)

// TestFieldValue_FollowsTheAPIServersFieldPaths: the paths apply conflicts name lead to the value
// they name: keyed entries (by one key or two), set elements, indices, and field names with dots.
func TestFieldValue_FollowsTheAPIServersFieldPaths(t *testing.T) {
	var obj map[string]any
	if err := json.Unmarshal([]byte(`{
		"metadata": {"labels": {"team": "a"}, "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{}", "kubectl.kubernetes.io": "short"}},
		"spec": {
			"machineTypes": [{"name": "m5.large", "memory": "8Gi"}, {"name": "m5.xlarge", "memory": "16Gi"}],
			"kubernetes": {"versions": [{"version": "1.31.2", "expirationDate": "2030-01-01T00:00:00Z"}]},
			"regions": [{"name": "local", "zones": [{"name": "local-a", "unavailableMachineTypes": ["m5.xlarge"]}]}],
			"pair": [{"a": "x", "b": 2, "v": true}],
			"odd": [{"name": "x\"],y", "v": 1}]
		}}`), &obj); err != nil {
		t.Fatal(err)
	}
	for field, want := range map[string]string{
		`.spec.machineTypes[name="m5.xlarge"].memory`:                                             `"16Gi"`,
		`.spec.machineTypes[name="m5.large"]`:                                                     `{"memory":"8Gi","name":"m5.large"}`,
		`.spec.kubernetes.versions[version="1.31.2"].expirationDate`:                              `"2030-01-01T00:00:00Z"`,
		`.spec.regions[name="local"].zones[name="local-a"].unavailableMachineTypes`:               `["m5.xlarge"]`,
		`.spec.regions[name="local"].zones[name="local-a"].unavailableMachineTypes[="m5.xlarge"]`: `"m5.xlarge"`,
		`.spec.machineTypes[1].name`:                                                              `"m5.xlarge"`,
		`.spec.pair[a="x",b=2].v`:                                                                 `true`,
		`.spec.odd[name="x\"],y"].v`:                                                              `1`,
		`.metadata.labels.team`:                                                                   `"a"`,
		`.metadata.annotations.kubectl.kubernetes.io/last-applied-configuration`:                  `"{}"`,
		`.metadata.annotations.kubectl.kubernetes.io`:                                             `"short"`,
		`.spec.machineTypes[name="m6.large"].memory`:                                              ``,
		`.spec.nothing`:                      ``,
		`.spec.machineTypes[name="m5.large"`: ``,
	} {
		if got := valueAt(obj, field); got != want {
			t.Errorf("valueAt(%s) = %s, want %s", field, got, want)
		}
	}
}

// TestSetHasField_FollowsTheAPIServersFieldPaths: a managed-fields set holds the fields its
// members name, entries by their keys, and nothing else.
func TestSetHasField_FollowsTheAPIServersFieldPaths(t *testing.T) {
	var set map[string]any
	if err := json.Unmarshal([]byte(`{
		"f:metadata": {"f:labels": {".": {}, "f:team": {}}, "f:annotations": {"f:kubectl.kubernetes.io/last-applied-configuration": {}}},
		"f:spec": {"f:machineTypes": {"k:{\"name\":\"m5.large\"}": {".": {}, "f:memory": {}, "f:name": {}}},
			"f:regions": {"k:{\"name\":\"local\"}": {"f:zones": {"k:{\"name\":\"local-a\"}": {"f:unavailableMachineTypes": {"v:\"m5.xlarge\"": {}}}}}},
			"f:pair": {"k:{\"a\":\"x\",\"b\":2}": {"f:v": {}}},
			"f:list": {"i:0": {"f:x": {}}}}}`), &set); err != nil {
		t.Fatal(err)
	}
	for field, want := range map[string]bool{
		`.spec.machineTypes[name="m5.large"].memory`:                                              true,
		`.spec.machineTypes[name="m5.large"]`:                                                     true,
		`.spec.machineTypes[name="m5.large"].cpu`:                                                 false,
		`.spec.machineTypes[name="m5.xlarge"].memory`:                                             false,
		`.spec.regions[name="local"].zones[name="local-a"].unavailableMachineTypes[="m5.xlarge"]`: true,
		`.spec.regions[name="local"].zones[name="local-a"].unavailableMachineTypes[="m6.large"]`:  false,
		`.spec.pair[a="x",b=2].v`:                                                                 true,
		`.spec.pair[a="x"].v`:                                                                     false,
		`.spec.list[0].x`:                                                                         true,
		`.metadata.labels.team`:                                                                   true,
		`.metadata.labels.owner`:                                                                  false,
		`.metadata.annotations.kubectl.kubernetes.io/last-applied-configuration`:                  true,
	} {
		if got := setHasField(set, field); got != want {
			t.Errorf("setHasField(%s) = %v, want %v", field, got, want)
		}
	}
}
