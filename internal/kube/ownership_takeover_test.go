package kube

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// takenOverProfile is a profile whose memory of m5.large and lifecycle of 1.33.1 "tf" set, and
// "other-team" has since taken over with a forced apply; "other-team" also set its own
// classification on 1.33.1, which "tf" never did.
func takenOverProfile() *gardencorev1beta1.CloudProfile {
	deprecated := gardencorev1beta1.ClassificationDeprecated
	return &gardencorev1beta1.CloudProfile{
		ObjectMeta: metav1.ObjectMeta{Name: "p", ManagedFields: []metav1.ManagedFieldsEntry{
			managed("tf", metav1.ManagedFieldsOperationApply, `{"f:spec":{"f:type":{},
			  "f:machineTypes":{"k:{\"name\":\"m5.large\"}":{".":{},"f:name":{},"f:cpu":{}}},
			  "f:kubernetes":{"f:versions":{"k:{\"version\":\"1.33.1\"}":{".":{},"f:version":{}}}}}}`),
			managed("other-team", metav1.ManagedFieldsOperationApply, `{"f:spec":{
			  "f:machineTypes":{"k:{\"name\":\"m5.large\"}":{"f:memory":{}}},
			  "f:kubernetes":{"f:versions":{"k:{\"version\":\"1.33.1\"}":{"f:lifecycle":{},"f:classification":{}}}}}}`),
		}},
		Spec: gardencorev1beta1.CloudProfileSpec{
			Type:         "local",
			MachineTypes: []gardencorev1beta1.MachineType{{Name: "m5.large", CPU: resource.MustParse("2"), Memory: resource.MustParse("99Gi")}},
			Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{
				{Version: "1.33.1", Classification: &deprecated, Lifecycle: []gardencorev1beta1.LifecycleStage{{Classification: deprecated}}},
			}},
		},
	}
}

// TestOwnedViewKeeping_BringsBackWhatAnotherManagerTookOver: the fields "tf" set before and lost
// to another manager come back with the cluster's values; the other manager's own field (the
// classification "tf" never set) stays out; without a prior spec the view is OwnedView's.
func TestOwnedViewKeeping_BringsBackWhatAnotherManagerTookOver(t *testing.T) {
	prior := gardencorev1beta1.CloudProfileSpec{
		Type:         "local",
		MachineTypes: []gardencorev1beta1.MachineType{{Name: "m5.large", CPU: resource.MustParse("2"), Memory: resource.MustParse("8Gi")}},
		Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{
			{Version: "1.33.1", Lifecycle: []gardencorev1beta1.LifecycleStage{{Classification: gardencorev1beta1.ClassificationSupported}}},
		}},
	}
	view, err := OwnedViewKeeping(takenOverProfile(), "tf", prior)
	if err != nil {
		t.Fatal(err)
	}
	if got := view.Spec.MachineTypes[0].Memory; got.Cmp(resource.MustParse("99Gi")) != 0 {
		t.Errorf("memory: got %s, want the other manager's 99Gi", got.String())
	}
	v := view.Spec.Kubernetes.Versions[0]
	if len(v.Lifecycle) != 1 || v.Lifecycle[0].Classification != gardencorev1beta1.ClassificationDeprecated {
		t.Errorf("lifecycle: got %+v, want the other manager's", v.Lifecycle)
	}
	if v.Classification != nil {
		t.Errorf("the other manager's own classification must stay out, got %v", *v.Classification)
	}

	plain, err := OwnedView(takenOverProfile(), "tf")
	if err != nil {
		t.Fatal(err)
	}
	if !plain.Spec.MachineTypes[0].Memory.IsZero() || plain.Spec.Kubernetes.Versions[0].Lifecycle != nil {
		t.Errorf("without a prior spec the taken-over fields stay out: %+v", plain.Spec)
	}
}

// TestOwnedViewKeeping_ManyTakenOverEntriesInLinearTime: another manager took over the memory of
// each of 50,000 machine types. Matching each entry of the view with the prior's and the
// cluster's by scanning those lists takes about 5·10⁹ steps (minutes); each is found by its key.
func TestOwnedViewKeeping_ManyTakenOverEntriesInLinearTime(t *testing.T) {
	const n = 50_000
	var mine, theirs strings.Builder
	cp := &gardencorev1beta1.CloudProfile{ObjectMeta: metav1.ObjectMeta{Name: "p"}, Spec: gardencorev1beta1.CloudProfileSpec{Type: "local"}}
	prior := gardencorev1beta1.CloudProfileSpec{Type: "local"}
	for i := range n {
		name := fmt.Sprintf("m%d", i)
		sep := map[bool]string{true: "", false: ","}[i == 0]
		fmt.Fprintf(&mine, `%s"k:{\"name\":\"%s\"}":{".":{},"f:name":{},"f:cpu":{}}`, sep, name)
		fmt.Fprintf(&theirs, `%s"k:{\"name\":\"%s\"}":{"f:memory":{}}`, sep, name)
		cp.Spec.MachineTypes = append(cp.Spec.MachineTypes, gardencorev1beta1.MachineType{Name: name, CPU: resource.MustParse("2"), Memory: resource.MustParse("99Gi")})
		prior.MachineTypes = append(prior.MachineTypes, gardencorev1beta1.MachineType{Name: name, CPU: resource.MustParse("2"), Memory: resource.MustParse("8Gi")})
	}
	cp.ManagedFields = []metav1.ManagedFieldsEntry{
		managed("tf", metav1.ManagedFieldsOperationApply, `{"f:spec":{"f:type":{},"f:machineTypes":{`+mine.String()+`}}}`),
		managed("other-team", metav1.ManagedFieldsOperationApply, `{"f:spec":{"f:machineTypes":{`+theirs.String()+`}}}`),
	}
	type result struct {
		view *gardencorev1beta1.CloudProfile
		err  error
	}
	done := make(chan result, 1)
	go func() {
		view, err := OwnedViewKeeping(cp, "tf", prior)
		done <- result{view, err}
	}()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatal(r.err)
		}
		if len(r.view.Spec.MachineTypes) != n || r.view.Spec.MachineTypes[n-1].Memory.Cmp(resource.MustParse("99Gi")) != 0 {
			t.Errorf("want %d machine types with the other manager's 99Gi, got %d, the last %+v", n, len(r.view.Spec.MachineTypes), r.view.Spec.MachineTypes[len(r.view.Spec.MachineTypes)-1])
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the view of 50,000 taken-over entries took longer than 30 s: the matching is not linear")
	}
}

// TestOwnedViewKeeping_KeepsTheManagedFieldsAsTheyAre: the view's managed fields are the object's,
// byte for byte, and the object is not changed.
func TestOwnedViewKeeping_KeepsTheManagedFieldsAsTheyAre(t *testing.T) {
	cp := takenOverProfile()
	view, err := OwnedViewKeeping(cp, "tf", cp.Spec)
	if err != nil {
		t.Fatal(err)
	}
	want := takenOverProfile().ManagedFields
	if !reflect.DeepEqual(view.ManagedFields, want) || !reflect.DeepEqual(cp.ManagedFields, want) {
		t.Errorf("managed fields: view %+v, object %+v, want %+v", view.ManagedFields, cp.ManagedFields, want)
	}
}
