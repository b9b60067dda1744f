package kube

import (
	"encoding/json"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// patchedEntries applies the managedFields operation of a csaupgrade patch to the entries and
// returns them with the resourceVersion the patch guards with.
func patchedEntries(t *testing.T, patch []byte) ([]metav1.ManagedFieldsEntry, string) {
	t.Helper()
	var ops []struct {
		Op    string          `json:"op"`
		Path  string          `json:"path"`
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(patch, &ops); err != nil {
		t.Fatal(err)
	}
	var entries []metav1.ManagedFieldsEntry
	var rv string
	for _, op := range ops {
		switch op.Path {
		case "/metadata/managedFields":
			if err := json.Unmarshal(op.Value, &entries); err != nil {
				t.Fatal(err)
			}
		case "/metadata/resourceVersion":
			_ = json.Unmarshal(op.Value, &rv)
		}
	}
	return entries, rv
}

// TestCreatingTakeOverPatch_MergesIntoTheManagersApplyEntry: after the manager's apply (an
// adopting create), the cut-off create's fields, the create ID annotation's among them (the next
// apply removes it), join its Apply entry and the create's entry goes; the patch holds when the
// object is still at the resourceVersion read.
func TestCreatingTakeOverPatch_MergesIntoTheManagersApplyEntry(t *testing.T) {
	cp := &gardencorev1beta1.CloudProfile{ObjectMeta: metav1.ObjectMeta{UID: "0b6c", ResourceVersion: "42", ManagedFields: []metav1.ManagedFieldsEntry{
		{Manager: "(creating) tf", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "core.gardener.cloud/v1beta1", FieldsV1: metav1.NewFieldsV1(
			`{"f:metadata":{"f:annotations":{"f:terraform-provider-gardener/create-id":{}}},"f:spec":{"f:machineTypes":{"k:{\"name\":\"a\"}":{}}}}`)},
		{Manager: "tf", Operation: metav1.ManagedFieldsOperationApply, APIVersion: "core.gardener.cloud/v1beta1", FieldsV1: metav1.NewFieldsV1(`{"f:spec":{"f:type":{}}}`)},
	}}}
	patch, err := creatingTakeOverPatch(cp, "tf")
	if err != nil || patch == nil {
		t.Fatalf("patch %s, err %v", patch, err)
	}
	entries, rv := patchedEntries(t, patch)
	if rv != "42" || len(entries) != 1 || entries[0].Manager != "tf" || entries[0].Operation != metav1.ManagedFieldsOperationApply {
		t.Fatalf("entries %+v at resourceVersion %q, want only tf's Apply entry at 42", entries, rv)
	}
	want := `{"f:metadata":{"f:annotations":{"f:terraform-provider-gardener/create-id":{}}},"f:spec":{"f:machineTypes":{"k:{\"name\":\"a\"}":{}},"f:type":{}}}`
	if got := string(entries[0].FieldsV1.GetRawBytes()); got != want {
		t.Fatalf("fields\n got %s\nwant %s", got, want)
	}
}

// TestCreatingTakeOverPatch_NothingWithoutTheEntry: an object without a cut-off create's entry
// of the manager (another manager's creating entry does not count) needs no patch.
func TestCreatingTakeOverPatch_NothingWithoutTheEntry(t *testing.T) {
	cp := &gardencorev1beta1.CloudProfile{ObjectMeta: metav1.ObjectMeta{UID: "0b6c", ManagedFields: []metav1.ManagedFieldsEntry{
		{Manager: "(creating) other", Operation: metav1.ManagedFieldsOperationUpdate, FieldsV1: metav1.NewFieldsV1(`{"f:spec":{}}`)},
		{Manager: "tf", Operation: metav1.ManagedFieldsOperationApply, FieldsV1: metav1.NewFieldsV1(`{"f:spec":{}}`)},
	}}}
	if patch, err := creatingTakeOverPatch(cp, "tf"); patch != nil || err != nil {
		t.Errorf("patch %s, err %v; want none", patch, err)
	}
}
