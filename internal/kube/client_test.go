package kube

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
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
