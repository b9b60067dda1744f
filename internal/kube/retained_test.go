package kube

import (
	"reflect"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

// TestRetainedByOthers_NamesWhatOthersKeep: the resource stops managing a label, an image version,
// a classification, an update strategy and a Kubernetes version. Another team owns the label, the
// image version and the classification, so those stay in the cluster and are reported with their
// owner; what only the provider owned is really removed and not reported, nor is the image version
// another manager owns but the resource keeps.
func TestRetainedByOthers_NamesWhatOthersKeep(t *testing.T) {
	live := coOwnedProfile()
	live.ManagedFields = append(live.ManagedFields, managed("other-team", metav1.ManagedFieldsOperationApply,
		`{"f:metadata":{"f:labels":{"f:mine":{}}},"f:spec":{"f:machineImages":{"k:{\"name\":\"gardenlinux\"}":{"f:versions":{"k:{\"version\":\"1.0.0\"}":{".":{},"f:version":{}}}}},
		  "f:kubernetes":{"f:versions":{"k:{\"version\":\"1.30.1\"}":{"f:classification":{}}}}}}`))
	live.Spec.Kubernetes.Versions[1].Classification = ptr.To(gardencorev1beta1.ClassificationDeprecated)
	before := coOwnedProfile()
	before.Spec.Kubernetes.Versions[1].Classification = ptr.To(gardencorev1beta1.ClassificationDeprecated)
	after := coOwnedProfile()
	after.Labels = map[string]string{"provider.extensions.gardener.cloud/aws": "true"}
	after.Spec.Kubernetes.Versions = after.Spec.Kubernetes.Versions[1:]
	after.Spec.MachineImages[0].Versions = after.Spec.MachineImages[0].Versions[1:]
	after.Spec.MachineImages[0].UpdateStrategy = nil // a field the provider's manager alone set

	got, err := RetainedByOthers(live, before, after, "tf")
	if err != nil {
		t.Fatal(err)
	}
	want := []RetainedEntry{
		{Path: `metadata.labels["mine"]`, Managers: []string{"other-team"}},
		{Path: `spec.kubernetes.versions[version="1.30.1"].classification`, Managers: []string{"other-team"}},
		{Path: `spec.machineImages[name="gardenlinux"].versions[version="1.0.0"]`, Managers: []string{"other-team"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("retained entries\n got %+v\nwant %+v", got, want)
	}
}

// TestRetainedByOthers_ACutOffCreateIsTheManagersOwn: an image version only the entry of the
// manager's cut-off create owns is not reported as kept by another manager (the next apply takes
// that entry over and removes the version).
func TestRetainedByOthers_ACutOffCreateIsTheManagersOwn(t *testing.T) {
	live := coOwnedProfile()
	live.ManagedFields = append(live.ManagedFields, managed(creatingManager("tf"), metav1.ManagedFieldsOperationUpdate,
		`{"f:spec":{"f:machineImages":{"k:{\"name\":\"gardenlinux\"}":{"f:versions":{"k:{\"version\":\"1.0.0\"}":{".":{},"f:version":{}}}}}}}`))
	after := coOwnedProfile()
	after.Spec.MachineImages[0].Versions = after.Spec.MachineImages[0].Versions[1:]
	got, err := RetainedByOthers(live, coOwnedProfile(), after, "tf")
	if err != nil || len(got) != 0 {
		t.Fatalf("want nothing retained by others, got %+v, %v", got, err)
	}
}

// TestRetainedByOthers_WhatAnImportsFirstApplyTakesOverIsNotKept: before the manager's first
// apply (an imported object), an image version kubectl create wrote is not kept (the apply takes
// kubectl-create's fields over and removes it), while one a server-side-apply manager owns is.
func TestRetainedByOthers_WhatAnImportsFirstApplyTakesOverIsNotKept(t *testing.T) {
	live := coOwnedProfile()
	live.ManagedFields = []metav1.ManagedFieldsEntry{
		managed("kubectl-create", metav1.ManagedFieldsOperationUpdate, `{"f:metadata":{"f:labels":{"f:mine":{}}},"f:spec":{"f:type":{},
		  "f:machineImages":{"k:{\"name\":\"gardenlinux\"}":{".":{},"f:name":{},"f:versions":{"k:{\"version\":\"1.0.0\"}":{".":{},"f:version":{}}}}}}}`),
		managed("image-sync", metav1.ManagedFieldsOperationApply, `{"f:spec":{"f:machineImages":{"k:{\"name\":\"gardenlinux\"}":{"f:versions":{"k:{\"version\":\"2.0.0\"}":{}}}}}}`),
	}
	after := coOwnedProfile()
	after.Spec.MachineImages[0].Versions = nil
	got, err := RetainedByOthers(live, coOwnedProfile(), after, "tf")
	want := []RetainedEntry{{Path: `spec.machineImages[name="gardenlinux"].versions`, Managers: []string{"image-sync"}}}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("retained entries\n got %+v, %v\nwant %+v", got, err, want)
	}
}

func TestRetainedByOthers_NothingDroppedNothingReported(t *testing.T) {
	got, err := RetainedByOthers(coOwnedProfile(), coOwnedProfile(), coOwnedProfile(), "tf")
	if err != nil || len(got) != 0 {
		t.Fatalf("got %v, %v", got, err)
	}
}

func TestDropsEntries_ByGardenersListKeys(t *testing.T) {
	same, err := DropsEntries(coOwnedProfile(), coOwnedProfile())
	if err != nil || same {
		t.Fatalf("an unchanged profile drops nothing: %v, %v", same, err)
	}
	changedValue := coOwnedProfile()
	changedValue.Spec.Type = "gcp"
	if drops, _ := DropsEntries(coOwnedProfile(), changedValue); drops {
		t.Fatal("a changed value is no dropped entry")
	}
	fewer := coOwnedProfile()
	fewer.Spec.MachineImages[0].Versions = fewer.Spec.MachineImages[0].Versions[:1]
	if drops, _ := DropsEntries(coOwnedProfile(), fewer); !drops {
		t.Fatal("a removed image version is a dropped entry")
	}
	unlabelled := coOwnedProfile()
	delete(unlabelled.Labels, "mine")
	if drops, _ := DropsEntries(coOwnedProfile(), unlabelled); !drops {
		t.Fatal("a removed label is a dropped entry")
	}
}
