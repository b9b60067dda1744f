package kube

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestCreatingTakeOverPatch_MergesIntoTheManagersApplyEntry: after the manager's apply (an
// import's first apply, an adopting apply), the cut-off create's fields join its Apply entry
// without the create ID's field, the create's entry and the create ID annotation are removed, and
// the object's UID and both entries are tested first.
func TestCreatingTakeOverPatch_MergesIntoTheManagersApplyEntry(t *testing.T) {
	m := &metav1.ObjectMeta{UID: "0b6c", ManagedFields: []metav1.ManagedFieldsEntry{
		{Manager: "(creating) tf", Operation: metav1.ManagedFieldsOperationUpdate, FieldsV1: metav1.NewFieldsV1(
			`{"f:metadata":{"f:annotations":{"f:terraform-provider-gardener/create-id":{}}},"f:spec":{"f:machineTypes":{"k:{\"name\":\"a\"}":{}}}}`)},
		{Manager: "tf", Operation: metav1.ManagedFieldsOperationApply, FieldsV1: metav1.NewFieldsV1(`{"f:spec":{"f:type":{}}}`)},
	}}
	m.Annotations = map[string]string{CreateIDAnnotation: "c1"}
	raw, found, err := creatingTakeOverPatch(m, "tf")
	if err != nil || !found {
		t.Fatalf("found %v, err %v", found, err)
	}
	want := `[{"op":"test","path":"/metadata/uid","value":"0b6c"},` +
		`{"op":"test","path":"/metadata/managedFields/0/manager","value":"(creating) tf"},` +
		`{"op":"test","path":"/metadata/managedFields/1/manager","value":"tf"},` +
		`{"op":"test","path":"/metadata/managedFields/1/operation","value":"Apply"},` +
		`{"op":"replace","path":"/metadata/managedFields/1/fieldsV1","value":{"f:spec":{"f:machineTypes":{"k:{\"name\":\"a\"}":{}},"f:type":{}}}},` +
		`{"op":"remove","path":"/metadata/managedFields/0"},` +
		`{"op":"remove","path":"/metadata/annotations/terraform-provider-gardener~1create-id"}]`
	if string(raw) != want {
		t.Fatalf("patch\n got %s\nwant %s", raw, want)
	}
}

// TestCreatingTakeOverPatch_NothingWithoutTheEntries: an object without a cut-off create's entry
// of the manager (another manager's creating entry does not count), or without the manager's
// Apply entry to take it into, needs no patch.
func TestCreatingTakeOverPatch_NothingWithoutTheEntries(t *testing.T) {
	for name, entries := range map[string][]metav1.ManagedFieldsEntry{
		"another manager's create": {{Manager: "(creating) other", Operation: metav1.ManagedFieldsOperationUpdate},
			{Manager: "tf", Operation: metav1.ManagedFieldsOperationApply}},
		"no apply of the manager": {{Manager: "(creating) tf", Operation: metav1.ManagedFieldsOperationUpdate}},
	} {
		if _, found, err := creatingTakeOverPatch(&metav1.ObjectMeta{UID: "0b6c", ManagedFields: entries}, "tf"); found || err != nil {
			t.Errorf("%s: found %v, err %v; want no patch", name, found, err)
		}
	}
}
