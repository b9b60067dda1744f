package kube

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	k8stypes "k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

func TestApplyBody_CarriesOnlyWhatIsSet(t *testing.T) {
	cp := &gardencorev1beta1.CloudProfile{
		TypeMeta:   metav1.TypeMeta{APIVersion: "core.gardener.cloud/v1beta1", Kind: "CloudProfile"},
		ObjectMeta: metav1.ObjectMeta{Name: "x", ResourceVersion: "7", UID: "u", Finalizers: []string{"gardener"}},
		Spec:       gardencorev1beta1.CloudProfileSpec{Type: "aws"},
		Status:     gardencorev1beta1.CloudProfileStatus{Kubernetes: &gardencorev1beta1.KubernetesStatus{}},
	}
	body, err := applyBody(cp)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	want := `{"apiVersion":"core.gardener.cloud/v1beta1","kind":"CloudProfile","metadata":{"name":"x"},"spec":{"kubernetes":{},"type":"aws"}}`
	if string(body) != want {
		t.Fatalf("apply body\n got %s\nwant %s", body, want)
	}
}

func TestClassify_MapsAPIErrorsToKinds(t *testing.T) {
	gr := schema.GroupResource{Group: "core.gardener.cloud", Resource: "cloudprofiles"}
	cases := map[string]struct {
		err  error
		want ErrorKind
	}{
		"object not found":        {apierrors.NewNotFound(gr, "x"), KindNotFound},
		"resource type unserved":  {apierrors.NewNotFound(gr, ""), KindAPIUnavailable},
		"conflict":                {apierrors.NewConflict(gr, "x", errors.New("owned by kubectl")), KindConflict},
		"forbidden by RBAC":       {apierrors.NewForbidden(gr, "x", errors.New(`User "robot" cannot create resource "cloudprofiles" in API group "core.gardener.cloud" at the cluster scope`)), KindForbidden},
		"forbidden by admission":  {apierrors.NewForbidden(gr, "x", errors.New(`unable to delete Kubernetes version "1.30.1" from CloudProfile "x" - version is still in use by NamespacedCloudProfile 'garden-a/b'`)), KindInvalid},
		"unauthorized":            {apierrors.NewUnauthorized("bad token"), KindUnauthorized},
		"invalid":                 {apierrors.NewInvalid(schema.GroupKind{Group: "core.gardener.cloud", Kind: "CloudProfile"}, "x", field.ErrorList{field.Required(field.NewPath("spec", "type"), "")}), KindInvalid},
		"admission bad request":   {apierrors.NewBadRequest("parent CloudProfile could not be found"), KindInvalid},
		"gardener-apiserver down": {apierrors.NewServiceUnavailable("the server is currently unable to handle the request"), KindAPIUnavailable},
		"connection refused":      {fmt.Errorf("dial tcp 127.0.0.1:1: connect: connection refused"), KindUnreachable},
		"something else":          {errors.New("boom"), KindOther},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			err := classify(c.err, "CloudProfile \"x\"")
			if got := KindOf(err); got != c.want {
				t.Fatalf("kind %v, want %v (%v)", got, c.want, err)
			}
			if !errors.Is(err, c.err) {
				t.Fatal("classified error must wrap the original")
			}
		})
	}
	if classify(nil, "x") != nil {
		t.Fatal("nil must stay nil")
	}
}

func TestClassify_KeepsTheServersFieldCauses(t *testing.T) {
	err := classify(apierrors.NewInvalid(schema.GroupKind{Group: "core.gardener.cloud", Kind: "CloudProfile"}, "x",
		field.ErrorList{field.Required(field.NewPath("spec", "type"), "must be set")}), "CloudProfile \"x\"")
	var e *Error
	if !errors.As(err, &e) || len(e.Causes) != 1 || e.Causes[0].Field != "spec.type" {
		t.Fatalf("causes not kept: %+v", err)
	}
}

func TestClassify_IdentityAnswers(t *testing.T) {
	gr := schema.GroupResource{Group: "core.gardener.cloud", Resource: "cloudprofiles"}
	gk := schema.GroupKind{Group: "core.gardener.cloud", Kind: "CloudProfile"}
	cases := map[string]struct {
		err  error
		want ErrorKind
	}{
		"create found the name taken": {apierrors.NewAlreadyExists(gr, "x"), KindAlreadyExists},
		"apply with a UID, object gone": {apierrors.NewConflict(gr, "x",
			errors.New("uid mismatch: the provided object specified uid 0b6c, and no existing object was found")), KindNotFound},
		"apply with a UID, object replaced": {apierrors.NewInvalid(gk, "x",
			field.ErrorList{field.Invalid(field.NewPath("metadata", "uid"), "0b6c", "field is immutable")}), KindReplaced},
		"delete with a UID precondition, object replaced": {apierrors.NewConflict(gr, "x",
			errors.New("the UID in the precondition (0b6c) does not match the UID in record (9f1e). The object might have been deleted and then recreated")), KindReplaced},
		"other conflicts stay conflicts": {apierrors.NewConflict(gr, "x", errors.New(`Apply failed with 1 conflict: conflict with "kubectl"`)), KindConflict},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			if got := KindOf(classify(c.err, `CloudProfile "x"`)); got != c.want {
				t.Fatalf("kind %v, want %v", got, c.want)
			}
		})
	}
}

// applyConflict is the API server's answer to an apply whose fields other managers own.
func applyConflict(owners ...string) error {
	status := apierrors.NewConflict(schema.GroupResource{Group: "core.gardener.cloud", Resource: "cloudprofiles"}, "x", errors.New("Apply failed"))
	for _, o := range owners {
		status.ErrStatus.Details.Causes = append(status.ErrStatus.Details.Causes, metav1.StatusCause{
			Type: metav1.CauseTypeFieldManagerConflict, Message: fmt.Sprintf("conflict with %q using core.gardener.cloud/v1beta1", o), Field: ".spec.type"})
	}
	return status
}

func TestConflictsOnlyWithItself(t *testing.T) {
	c := &Client{fieldManager: "tf"}
	cases := map[string]struct {
		err  error
		want bool
	}{
		"own update entry only":        {applyConflict("tf", "tf"), true},
		"a create cut off":             {applyConflict("(creating) tf", "tf"), true},
		"another create's prefix":      {applyConflict("(creating) tf-other"), false},
		"another manager too":          {applyConflict("tf", "team-a"), false},
		"a manager with a longer name": {applyConflict("tf-other"), false},
		"no causes":                    {applyConflict(), false},
		"no error":                     {nil, false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := c.conflictsOnlyWithItself(tc.err); got != tc.want {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestOwnershipPatch_TestsTheObjectAndTheEntryItReplaces(t *testing.T) {
	m := &metav1.ObjectMeta{UID: "0b6c", ManagedFields: []metav1.ManagedFieldsEntry{
		{Manager: "controller", Operation: metav1.ManagedFieldsOperationUpdate},
		{Manager: "(creating) tf", Operation: metav1.ManagedFieldsOperationUpdate, Subresource: "status"},
		{Manager: "tf", Operation: metav1.ManagedFieldsOperationUpdate},
		{Manager: "(creating) tf", Operation: metav1.ManagedFieldsOperationUpdate},
	}}
	raw, err := ownershipPatch(m, "tf", metav1.NewFieldsV1(`{"f:spec":{"f:type":{}}}`), "c1")
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"op":"test","path":"/metadata/uid","value":"0b6c"},` +
		`{"op":"test","path":"/metadata/managedFields/3/manager","value":"(creating) tf"},` +
		`{"op":"test","path":"/metadata/managedFields/3/operation","value":"Update"},` +
		`{"op":"replace","path":"/metadata/managedFields/3/manager","value":"tf"},` +
		`{"op":"replace","path":"/metadata/managedFields/3/operation","value":"Apply"},` +
		`{"op":"replace","path":"/metadata/managedFields/3/fieldsV1","value":{"f:spec":{"f:type":{}}}}]`
	if string(raw) != want {
		t.Fatalf("patch\n got %s\nwant %s", raw, want)
	}
	m.Annotations = map[string]string{CreateIDAnnotation: "c1"}
	raw, err = ownershipPatch(m, "tf", metav1.NewFieldsV1(`{"f:spec":{"f:type":{}}}`), "c1")
	if err != nil {
		t.Fatal(err)
	}
	wantWithID := strings.TrimSuffix(want, "]") +
		`,{"op":"test","path":"/metadata/annotations/terraform-provider-gardener~1create-id","value":"c1"},` +
		`{"op":"remove","path":"/metadata/annotations/terraform-provider-gardener~1create-id"}]`
	if string(raw) != wantWithID {
		t.Fatalf("patch with the create ID\n got %s\nwant %s", raw, wantWithID)
	}
	if _, err := ownershipPatch(&metav1.ObjectMeta{}, "tf", metav1.NewFieldsV1(`{}`), ""); err == nil {
		t.Fatal("an object without the manager's entry must be an error")
	}
}

// TestCreatingManager_SortsBeforeUsualNames: the name a create runs under sorts before the names of
// controllers that write to the new object in the same second, and stays a valid manager name.
func TestCreatingManager_SortsBeforeUsualNames(t *testing.T) {
	for _, other := range []string{"gardener-controller-manager", "Gardener", "0-controller", "kubectl", "terraform-provider-gardener"} {
		if name := creatingManager("terraform-provider-gardener"); name >= other {
			t.Errorf("%q does not sort before %q", name, other)
		}
	}
	if got := creatingManager(strings.Repeat("m", 200)); len(got) != maxFieldManagerLength {
		t.Errorf("a long manager name: got %d characters, want %d", len(got), maxFieldManagerLength)
	}
}

func TestApplyBodyWith_NamesTheObjectAndItsVersion(t *testing.T) {
	cp := &gardencorev1beta1.CloudProfile{
		TypeMeta:   metav1.TypeMeta{APIVersion: "core.gardener.cloud/v1beta1", Kind: "CloudProfile"},
		ObjectMeta: metav1.ObjectMeta{Name: "x", UID: "stale", ResourceVersion: "1"},
	}
	for _, c := range []struct{ uid, rv, want string }{
		{"0b6c", "", `{"apiVersion":"core.gardener.cloud/v1beta1","kind":"CloudProfile","metadata":{"name":"x","uid":"0b6c"},"spec":{"kubernetes":{},"type":""}}`},
		{"0b6c", "42", `{"apiVersion":"core.gardener.cloud/v1beta1","kind":"CloudProfile","metadata":{"name":"x","resourceVersion":"42","uid":"0b6c"},"spec":{"kubernetes":{},"type":""}}`},
	} {
		body, err := applyBodyWith(cp, k8stypes.UID(c.uid), c.rv)
		if err != nil {
			t.Fatal(err)
		}
		if string(body) != c.want {
			t.Errorf("apply body\n got %s\nwant %s", body, c.want)
		}
	}
}
