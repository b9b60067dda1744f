package kube

import (
	"encoding/json"
	"testing"
)

// TestFieldSetSize_IsTheLengthOfTheEncodedSet: the estimate of the managed fields is the length
// of the fieldsV1 set the server records for fields, a keyed list's entries (with their "."
// member) and an atomic list.
func TestFieldSetSize_IsTheLengthOfTheEncodedSet(t *testing.T) {
	var value any
	if err := json.Unmarshal([]byte(`{"spec":{"type":"local","versions":[{"version":"1.0.0"},{"version":"1.1.0","cri":[{"name":"containerd"}]}],"zones":["a","b"]}}`), &value); err != nil {
		t.Fatal(err)
	}
	set := `{"f:spec":{"f:type":{},"f:versions":{"k:{\"version\":\"1.0.0\"}":{".":{},"f:version":{}},` +
		`"k:{\"version\":\"1.1.0\"}":{".":{},"f:cri":{"k:{\"name\":\"containerd\"}":{".":{},"f:name":{}}},"f:version":{}}},"f:zones":{}}}`
	if got := fieldSetSize(value); got != len(set) {
		t.Fatalf("got %d, want %d, the length of\n%s", got, len(set), set)
	}
}
