package kube

import (
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	k8sresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// conflictOnTwoFields is the API server's answer to an apply of "tf" that changes a machine
// type's memory, which kubectl patch took from tf, and its cpu, which team-b shares with tf; the
// memory's cause comes twice.
func conflictOnTwoFields() (*gardencorev1beta1.CloudProfile, error) {
	cause := func(field, manager string) metav1.StatusCause {
		return metav1.StatusCause{Type: metav1.CauseTypeFieldManagerConflict, Field: field, Message: "conflict with " + manager}
	}
	memory, cpu := `.spec.machineTypes[name="m5.large"].memory`, `.spec.machineTypes[name="m5.large"].cpu`
	err := classify(apierrors.NewApplyConflict([]metav1.StatusCause{
		cause(memory, `"kubectl-patch" using core.gardener.cloud/v1beta1`),
		cause(cpu, `"team-b"`),
		cause(memory, `"kubectl-patch" using core.gardener.cloud/v1beta1`),
	}, "Apply failed with 3 conflicts"), "CloudProfile \"aws\"")
	live := &gardencorev1beta1.CloudProfile{
		ObjectMeta: metav1.ObjectMeta{Name: "aws", ResourceVersion: "9", ManagedFields: []metav1.ManagedFieldsEntry{
			{Manager: "tf", Operation: metav1.ManagedFieldsOperationApply, FieldsV1: metav1.NewFieldsV1(`{"f:spec":{"f:machineTypes":{"k:{\"name\":\"m5.large\"}":{"f:cpu":{},"f:name":{}}}}}`)},
			{Manager: "kubectl-patch", Operation: metav1.ManagedFieldsOperationUpdate, FieldsV1: metav1.NewFieldsV1(`{"f:spec":{"f:machineTypes":{"k:{\"name\":\"m5.large\"}":{"f:memory":{}}}}}`)},
		}},
		Spec: gardencorev1beta1.CloudProfileSpec{MachineTypes: []gardencorev1beta1.MachineType{{
			Name: "m5.large", CPU: k8sresource.MustParse("2"), Memory: k8sresource.MustParse("16Gi"),
		}}},
	}
	return live, err
}

// TestConflictsOf_NamesEachFieldOnceWithItsManagerAndValue: each conflicting field is listed
// once, with the manager, whether it wrote with an update, whether the client's manager shares
// the field, and the value the object holds.
func TestConflictsOf_NamesEachFieldOnceWithItsManagerAndValue(t *testing.T) {
	live, err := conflictOnTwoFields()
	got, cerr := ConflictsOf(err, live, "tf")
	if cerr != nil {
		t.Fatal(cerr)
	}
	want := []Conflict{
		{Field: `.spec.machineTypes[name="m5.large"].memory`, Manager: "kubectl-patch", Update: true, Value: `"16Gi"`},
		{Field: `.spec.machineTypes[name="m5.large"].cpu`, Manager: "team-b", Shared: true, Value: `"2"`},
	}
	if len(got) != len(want) {
		t.Fatalf("conflicts %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("conflict %d: %+v, want %+v", i, got[i], want[i])
		}
	}
}

// TestUnplannedConflicts_AllowsOnlyWhatThePlanSetsBack: a conflict the plan showed being set
// back, with the value it saw, is allowed; the same field holding another value since, a field of
// another manager, and a field the plan did not name are not.
func TestUnplannedConflicts_AllowsOnlyWhatThePlanSetsBack(t *testing.T) {
	live, err := conflictOnTwoFields()
	conflicts, _ := ConflictsOf(err, live, "tf")
	memory := `.spec.machineTypes[name="m5.large"].memory`
	for name, c := range map[string]struct {
		setBack []SetBack
		want    int
	}{
		"as planned":          {[]SetBack{{memory, "kubectl-patch", `"16Gi"`}}, 1},
		"changed again since": {[]SetBack{{memory, "kubectl-patch", `"12Gi"`}}, 2},
		"another manager":     {[]SetBack{{memory, "bot", `"16Gi"`}}, 2},
		"nothing planned":     {nil, 2},
	} {
		if got := unplannedConflicts(conflicts, c.setBack); len(got) != c.want {
			t.Errorf("%s: unplanned %+v, want %d", name, got, c.want)
		}
	}
}
