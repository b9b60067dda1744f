package kube

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestAppliedSetSize_IsTheLengthOfTheEncodedSet: the estimate of the managed fields is the length
// of the fieldsV1 set the server records for fields, a keyed list's entries (with their "."
// member) and an atomic list; null members, the status and the metadata the server sets are no
// fields of an apply.
func TestAppliedSetSize_IsTheLengthOfTheEncodedSet(t *testing.T) {
	for _, c := range []struct{ name, object, set string }{
		{"keyed and atomic lists",
			`{"spec":{"type":"local","versions":[{"version":"1.0.0"},{"version":"1.1.0","cri":[{"name":"containerd"}]}],"zones":["a","b"]}}`,
			`{"f:spec":{"f:type":{},"f:versions":{"k:{\"version\":\"1.0.0\"}":{".":{},"f:version":{}},` +
				`"k:{\"version\":\"1.1.0\"}":{".":{},"f:cri":{"k:{\"name\":\"containerd\"}":{".":{},"f:name":{}}},"f:version":{}}},"f:zones":{}}}`},
		{"null members, the status and the server's metadata are left out",
			`{"metadata":{"name":"a","uid":"u","creationTimestamp":null,"labels":null},"spec":{"type":null,"regions":[]},"status":{"x":1}}`,
			`{"f:metadata":{"f:name":{}},"f:spec":{"f:regions":{}}}`},
		{"a list with an element without the key, or with a null element, is one field",
			`{"spec":{"a":[{"name":"x"},{"other":"y"}],"b":[{"name":"x"},null],"c":[{"name":null}]}}`,
			`{"f:spec":{"f:a":{},"f:b":{},"f:c":{}}}`},
		{"the first key every element has names the entries",
			`{"spec":{"a":[{"name":"x","version":"1"},{"version":"2"}]}}`,
			`{"f:spec":{"f:a":{"k:{\"version\":\"1\"}":{".":{},"f:name":{},"f:version":{}},"k:{\"version\":\"2\"}":{".":{},"f:version":{}}}}}`},
		{"keys and key values that JSON escapes",
			`{"spec":{"a\u003cb":[{"name":"x\u0026\"y"}]}}`,
			`{"f:spec":{"f:a\u003cb":{"k:{\"name\":\"x\u0026\\\"y\"}":{".":{},"f:name":{}}}}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := appliedSetSize([]byte(c.object))
			if err != nil || got != len(c.set) {
				t.Fatalf("got %d (%v), want %d, the length of\n%s", got, err, len(c.set), c.set)
			}
		})
	}
}

// TestAtomicSetSize_IsTheLengthOfTheEncodedSet: a status written whole owns its lists as fields,
// and its null members too.
func TestAtomicSetSize_IsTheLengthOfTheEncodedSet(t *testing.T) {
	status := `{"kubernetes":{"versions":[{"version":"1.0.0"}]},"machineImages":null,"n":1}`
	set := `{"f:kubernetes":{"f:versions":{}},"f:machineImages":{},"f:n":{}}`
	if got, err := atomicSetSize([]byte(status)); err != nil || got != len(set) {
		t.Fatalf("got %d (%v), want %d, the length of\n%s", got, err, len(set), set)
	}
}

// TestAppliedSetSize_JSONThatEndsEarlyIsAnError: the walk of a truncated object reports an error
// instead of reading past the end.
func TestAppliedSetSize_JSONThatEndsEarlyIsAnError(t *testing.T) {
	for _, raw := range []string{`{"spec":{"a":[{"name":"x"}`, `{"spec":"ab`, `{`} {
		if _, err := appliedSetSize([]byte(raw)); err == nil {
			t.Errorf("%s: no error", raw)
		}
	}
}

// TestStoredSize_PartsAddUpToTheStoredJSON: the spec's fields and the status are measured as
// written, the rest of the JSON is Other with the server's metadata, and the managed fields hold
// the apply's set and the status writer's.
func TestStoredSize_PartsAddUpToTheStoredJSON(t *testing.T) {
	obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "X",
		"metadata": map[string]any{"name": "a"},
		"spec":     map[string]any{"type": "local", "regions": []any{map[string]any{"name": "r"}}},
		"status":   map[string]any{"versions": []any{"1"}},
	}}
	size, err := StoredSize(obj, obj)
	if err != nil {
		t.Fatal(err)
	}
	raw := `{"apiVersion":"v1","kind":"X","metadata":{"name":"a"},"spec":{"regions":[{"name":"r"}],"type":"local"},"status":{"versions":["1"]}}`
	applied := `{"f:apiVersion":{},"f:kind":{},"f:metadata":{"f:name":{}},"f:spec":{"f:regions":{"k:{\"name\":\"r\"}":{".":{},"f:name":{}}},"f:type":{}}}`
	status := `{"f:status":{"f:versions":{}}}`
	want := Size{Spec: map[string]int{"regions": len(`[{"name":"r"}]`), "type": len(`"local"`)}, Status: len(`{"versions":["1"]}`),
		ManagedFields: 2*managedFieldsEntryBytes + len(applied) + len(status)}
	want.Other = len(raw) + serverMetadataBytes - want.Spec["regions"] - want.Spec["type"] - want.Status
	if size.Total() != len(raw)+serverMetadataBytes+want.ManagedFields || size.Status != want.Status || size.ManagedFields != want.ManagedFields ||
		size.Other != want.Other || len(size.Spec) != 2 || size.Spec["regions"] != want.Spec["regions"] || size.Spec["type"] != want.Spec["type"] {
		t.Fatalf("got %+v, want %+v", size, want)
	}
}
