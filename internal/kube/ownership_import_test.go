package kube

import (
	"slices"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// importedProfile is a CloudProfile as kubectl create and a later kubectl label leave it, with
// Gardener's controller's finalizer, a bot's server-side apply, and the status.
func importedProfile(extra ...metav1.ManagedFieldsEntry) *gardencorev1beta1.CloudProfile {
	update := func(manager, fields string) metav1.ManagedFieldsEntry {
		return metav1.ManagedFieldsEntry{Manager: manager, Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "core.gardener.cloud/v1beta1", FieldsV1: metav1.NewFieldsV1(fields)}
	}
	entries := []metav1.ManagedFieldsEntry{
		update("kubectl-create", `{"f:metadata":{"f:labels":{".":{},"f:team":{}}},"f:spec":{"f:machineTypes":{"k:{\"name\":\"m5.large\"}":{".":{},"f:memory":{}}}}}`),
		update("kubectl-label", `{"f:metadata":{"f:labels":{"f:owner":{}}}}`),
		update("gardener-controller-manager", `{"f:metadata":{"f:finalizers":{".":{},"v:\"gardener\"":{}}}}`),
		{Manager: "image-bot", Operation: metav1.ManagedFieldsOperationApply, APIVersion: "core.gardener.cloud/v1beta1", FieldsV1: metav1.NewFieldsV1(`{"f:spec":{"f:machineImages":{}}}`)},
		{Manager: "gardener-controller-manager", Operation: metav1.ManagedFieldsOperationUpdate, Subresource: "status", APIVersion: "core.gardener.cloud/v1beta1", FieldsV1: metav1.NewFieldsV1(`{"f:status":{}}`)},
	}
	return &gardencorev1beta1.CloudProfile{ObjectMeta: metav1.ObjectMeta{Name: "aws", UID: "u1", ResourceVersion: "7", ManagedFields: append(entries, extra...)}}
}

// TestImportTakeover_TakesTheUpdateEntriesOfWhatAnImportRecords: before the manager's first
// apply, the entries of kubectl create and kubectl label (updates of spec, labels and annotations)
// are taken over; a controller's update of other fields (its finalizer), another manager's
// server-side apply and the status are not; once the manager has applied, nothing is.
func TestImportTakeover_TakesTheUpdateEntriesOfWhatAnImportRecords(t *testing.T) {
	cp := importedProfile()
	if got := ImportTakeover(cp, "tf"); !slices.Equal(got, []string{"kubectl-create", "kubectl-label"}) {
		t.Errorf("taken over %v, want kubectl-create and kubectl-label", got)
	}
	applied := importedProfile(metav1.ManagedFieldsEntry{Manager: "tf", Operation: metav1.ManagedFieldsOperationApply, FieldsV1: metav1.NewFieldsV1(`{"f:spec":{}}`)})
	if got := ImportTakeover(applied, "tf"); len(got) != 0 {
		t.Errorf("taken over %v after the manager's apply, want none", got)
	}
}

// TestImportTakeoverPatch_UnionsTheEntriesIntoTheManagersApplyEntry: csaupgrade's patch makes
// the taken-over entries one Apply entry of the manager with all their fields, leaves the other
// entries as they were, and holds only at the resourceVersion read.
func TestImportTakeoverPatch_UnionsTheEntriesIntoTheManagersApplyEntry(t *testing.T) {
	patch, err := importTakeoverPatch(importedProfile(), "tf")
	if err != nil || patch == nil {
		t.Fatalf("patch %s, err %v", patch, err)
	}
	entries, rv := patchedEntries(t, patch)
	if rv != "7" {
		t.Errorf("the patch holds at resourceVersion %q, want 7", rv)
	}
	var managers []string
	for _, e := range entries {
		managers = append(managers, e.Manager+"/"+string(e.Operation)+"/"+e.Subresource)
		if e.Manager == "tf" {
			want := `{"f:metadata":{"f:labels":{".":{},"f:owner":{},"f:team":{}}},"f:spec":{"f:machineTypes":{"k:{\"name\":\"m5.large\"}":{".":{},"f:memory":{}}}}}`
			if got := string(e.FieldsV1.GetRawBytes()); got != want {
				t.Errorf("the manager's fields\n got %s\nwant %s", got, want)
			}
		}
	}
	slices.Sort(managers)
	want := []string{"gardener-controller-manager/Update/", "gardener-controller-manager/Update/status", "image-bot/Apply/", "tf/Apply/"}
	if !slices.Equal(managers, want) {
		t.Errorf("entries %v, want %v", managers, want)
	}
}
