package kube

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestCreatingTakeOverPatch_RenamesTheCutOffCreatesEntry: an object with only the entry of a
// cut-off create gets that entry renamed into the manager's Apply entry, without the create ID's
// field and annotation, guarded by the object's UID and the entry's manager.
func TestCreatingTakeOverPatch_RenamesTheCutOffCreatesEntry(t *testing.T) {
	m := &metav1.ObjectMeta{UID: "0b6c", Annotations: map[string]string{CreateIDAnnotation: "c1"}, ManagedFields: []metav1.ManagedFieldsEntry{
		{Manager: "(creating) tf", Operation: metav1.ManagedFieldsOperationUpdate, FieldsV1: metav1.NewFieldsV1(
			`{"f:metadata":{"f:annotations":{".":{},"f:terraform-provider-gardener/create-id":{}}},"f:spec":{"f:type":{}}}`)},
		{Manager: "controller", Operation: metav1.ManagedFieldsOperationUpdate},
	}}
	raw, found, err := creatingTakeOverPatch(m, "tf")
	if err != nil || !found {
		t.Fatalf("found %v, err %v", found, err)
	}
	want := `[{"op":"test","path":"/metadata/uid","value":"0b6c"},` +
		`{"op":"test","path":"/metadata/managedFields/0/manager","value":"(creating) tf"},` +
		`{"op":"replace","path":"/metadata/managedFields/0/manager","value":"tf"},` +
		`{"op":"replace","path":"/metadata/managedFields/0/operation","value":"Apply"},` +
		`{"op":"replace","path":"/metadata/managedFields/0/fieldsV1","value":{"f:metadata":{"f:annotations":{".":{}}},"f:spec":{"f:type":{}}}},` +
		`{"op":"remove","path":"/metadata/annotations/terraform-provider-gardener~1create-id"}]`
	if string(raw) != want {
		t.Fatalf("patch\n got %s\nwant %s", raw, want)
	}
}

// TestCreatingTakeOverPatch_MergesIntoTheManagersApplyEntry: when the manager has applied since
// (an import's first apply), the cut-off create's fields join its Apply entry and the create's
// entry is removed, each entry tested first.
func TestCreatingTakeOverPatch_MergesIntoTheManagersApplyEntry(t *testing.T) {
	m := &metav1.ObjectMeta{UID: "0b6c", ManagedFields: []metav1.ManagedFieldsEntry{
		{Manager: "(creating) tf", Operation: metav1.ManagedFieldsOperationUpdate, FieldsV1: metav1.NewFieldsV1(
			`{"f:metadata":{"f:annotations":{"f:terraform-provider-gardener/create-id":{}}},"f:spec":{"f:machineTypes":{"k:{\"name\":\"a\"}":{}}}}`)},
		{Manager: "tf", Operation: metav1.ManagedFieldsOperationApply, FieldsV1: metav1.NewFieldsV1(`{"f:spec":{"f:type":{}}}`)},
	}}
	raw, found, err := creatingTakeOverPatch(m, "tf")
	if err != nil || !found {
		t.Fatalf("found %v, err %v", found, err)
	}
	want := `[{"op":"test","path":"/metadata/uid","value":"0b6c"},` +
		`{"op":"test","path":"/metadata/managedFields/0/manager","value":"(creating) tf"},` +
		`{"op":"test","path":"/metadata/managedFields/1/manager","value":"tf"},` +
		`{"op":"test","path":"/metadata/managedFields/1/operation","value":"Apply"},` +
		`{"op":"replace","path":"/metadata/managedFields/1/fieldsV1","value":{"f:spec":{"f:machineTypes":{"k:{\"name\":\"a\"}":{}},"f:type":{}}}},` +
		`{"op":"remove","path":"/metadata/managedFields/0"}]`
	if string(raw) != want {
		t.Fatalf("patch\n got %s\nwant %s", raw, want)
	}
}

// TestCreatingTakeOverPatch_NothingWithoutTheEntry: an object without a cut-off create's entry of
// the manager (another manager's creating entry does not count) needs no patch.
func TestCreatingTakeOverPatch_NothingWithoutTheEntry(t *testing.T) {
	m := &metav1.ObjectMeta{UID: "0b6c", ManagedFields: []metav1.ManagedFieldsEntry{
		{Manager: "(creating) other", Operation: metav1.ManagedFieldsOperationUpdate},
		{Manager: "tf", Operation: metav1.ManagedFieldsOperationApply},
	}}
	if _, found, err := creatingTakeOverPatch(m, "tf"); found || err != nil {
		t.Fatalf("found %v, err %v; want no patch", found, err)
	}
}
