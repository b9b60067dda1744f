package kube

import (
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
)

func managed(manager string, op metav1.ManagedFieldsOperationType, fields string) metav1.ManagedFieldsEntry {
	return metav1.ManagedFieldsEntry{Manager: manager, Operation: op, FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(fields)}
}

func coOwnedProfile() *gardencorev1beta1.CloudProfile {
	return &gardencorev1beta1.CloudProfile{
		ObjectMeta: metav1.ObjectMeta{
			Name:   "p",
			Labels: map[string]string{"mine": "1", "provider.extensions.gardener.cloud/aws": "true"},
			ManagedFields: []metav1.ManagedFieldsEntry{
				managed("tf", metav1.ManagedFieldsOperationApply, `{"f:metadata":{"f:labels":{"f:mine":{}}},"f:spec":{"f:type":{},
				  "f:machineImages":{"k:{\"name\":\"gardenlinux\"}":{".":{},"f:name":{},"f:versions":{"k:{\"version\":\"1.0.0\"}":{".":{},"f:version":{}}}}},
				  "f:kubernetes":{"f:versions":{"k:{\"version\":\"1.31.2\"}":{".":{},"f:version":{}}}}}}`),
				managed("image-sync", metav1.ManagedFieldsOperationApply, `{"f:spec":{"f:machineImages":{"k:{\"name\":\"gardenlinux\"}":{"f:versions":{"k:{\"version\":\"2.0.0\"}":{}}}}}}`),
			},
		},
		Spec: gardencorev1beta1.CloudProfileSpec{
			Type: "aws",
			Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{
				{Version: "1.31.2"}, {Version: "1.30.1"},
			}},
			MachineImages: []gardencorev1beta1.MachineImage{{
				Name:           "gardenlinux",
				UpdateStrategy: ptr.To(gardencorev1beta1.UpdateStrategyMajor),
				Versions: []gardencorev1beta1.MachineImageVersion{
					{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1.0.0"}},
					{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "2.0.0"}},
				},
			}},
		},
	}
}

func TestOwnedView_LeavesOutWhatOnlyOthersSet(t *testing.T) {
	view, err := OwnedView(coOwnedProfile(), "tf")
	if err != nil {
		t.Fatal(err)
	}
	if got := view.Labels; len(got) != 1 || got["mine"] != "1" {
		t.Errorf("labels: want only the provider's own, got %v", got)
	}
	if got := view.Spec.Kubernetes.Versions; len(got) != 1 || got[0].Version != "1.31.2" {
		t.Errorf("kubernetes versions: want only 1.31.2, got %v", got)
	}
	versions := view.Spec.MachineImages[0].Versions
	if len(versions) != 1 || versions[0].Version != "1.0.0" {
		t.Errorf("image versions: want only 1.0.0 (2.0.0 is image-sync's), got %v", versions)
	}
	if view.Spec.MachineImages[0].UpdateStrategy == nil || *view.Spec.MachineImages[0].UpdateStrategy != "major" {
		t.Error("server-defaulted update strategy must be kept")
	}
}

func TestOwnedView_DoesNotChangeItsInput(t *testing.T) {
	in := coOwnedProfile()
	if _, err := OwnedView(in, "tf"); err != nil {
		t.Fatal(err)
	}
	if len(in.Spec.MachineImages[0].Versions) != 2 || len(in.Labels) != 2 {
		t.Fatal("input was modified")
	}
}

func TestOwnedView_ObjectNeverAppliedByTheManagerIsKeptWhole(t *testing.T) {
	in := coOwnedProfile()
	view, err := OwnedView(in, "somebody-else-entirely")
	if err != nil {
		t.Fatal(err)
	}
	if len(view.Spec.Kubernetes.Versions) != 2 || len(view.Labels) != 2 {
		t.Fatal("an object the manager never applied must be kept whole (import)")
	}
}

func TestOwnedView_UpdateEntriesOfTheSameNameDoNotCount(t *testing.T) {
	in := coOwnedProfile()
	in.ManagedFields = []metav1.ManagedFieldsEntry{managed("tf", metav1.ManagedFieldsOperationUpdate, `{"f:spec":{}}`)}
	view, err := OwnedView(in, "tf")
	if err != nil {
		t.Fatal(err)
	}
	if len(view.Spec.Kubernetes.Versions) != 2 {
		t.Fatal("only Apply entries define what the provider owns")
	}
}

func TestOwnedView_LabelsOthersSetAreLeftOutWhenTheManagerSetsNone(t *testing.T) {
	in := coOwnedProfile()
	in.ManagedFields = []metav1.ManagedFieldsEntry{managed("tf", metav1.ManagedFieldsOperationApply, `{"f:spec":{"f:type":{}}}`)}
	view, err := OwnedView(in, "tf")
	if err != nil {
		t.Fatal(err)
	}
	if len(view.Labels) != 0 {
		t.Fatalf("labels the manager never set must be left out, got %v", view.Labels)
	}
	if len(view.Spec.Kubernetes.Versions) != 2 {
		t.Fatal("lists the manager does not own are kept whole")
	}
}

// TestOwnedView_LeavesOutFieldsOnlyOthersSetInsideOwnedEntries: another team set the
// classification of a version both configure; it is theirs, not part of what the manager manages.
// The update strategy Gardener defaulted is owned by nobody and stays, and the status (written by
// a controller through the status subresource) is never filtered.
func TestOwnedView_LeavesOutFieldsOnlyOthersSetInsideOwnedEntries(t *testing.T) {
	in := coOwnedProfile()
	in.Spec.Kubernetes.Versions[0].Classification = ptr.To(gardencorev1beta1.ClassificationSupported)
	in.Spec.Bastion = &gardencorev1beta1.Bastion{MachineType: &gardencorev1beta1.BastionMachineType{Name: "m5.large"}}
	in.Status.Kubernetes = &gardencorev1beta1.KubernetesStatus{Versions: []gardencorev1beta1.ExpirableVersionStatus{{Version: "1.31.2"}}}
	in.ManagedFields = append(in.ManagedFields,
		managed("other-team", metav1.ManagedFieldsOperationApply, `{"f:spec":{"f:bastion":{"f:machineType":{"f:name":{}}},
		  "f:kubernetes":{"f:versions":{"k:{\"version\":\"1.31.2\"}":{".":{},"f:version":{},"f:classification":{}}}}}}`),
		metav1.ManagedFieldsEntry{Manager: "controller", Operation: metav1.ManagedFieldsOperationUpdate, Subresource: "status",
			FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(`{"f:status":{".":{},"f:kubernetes":{}}}`)})
	view, err := OwnedView(in, "tf")
	if err != nil {
		t.Fatal(err)
	}
	if got := view.Spec.Kubernetes.Versions; len(got) != 1 || got[0].Classification != nil {
		t.Errorf("kubernetes versions: want 1.31.2 without the other team's classification, got %+v", got)
	}
	if view.Spec.Bastion != nil {
		t.Errorf("bastion only the other team set must be left out, got %+v", view.Spec.Bastion)
	}
	if view.Spec.MachineImages[0].UpdateStrategy == nil {
		t.Error("server-defaulted update strategy (owned by nobody) must be kept")
	}
	if view.Status.Kubernetes == nil || len(view.Status.Kubernetes.Versions) != 1 {
		t.Errorf("status must be kept whole, got %+v", view.Status.Kubernetes)
	}
}
