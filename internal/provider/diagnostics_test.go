package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

func TestAttributePathOfField(t *testing.T) {
	cases := map[string]path.Path{
		"spec.machineImages[0].versions[1].cri":     path.Root("spec").AtName("machine_images").AtListIndex(0).AtName("versions").AtListIndex(1).AtName("cri"),
		"spec.kubernetes.versions[].expirationDate": path.Root("spec").AtName("kubernetes").AtName("versions"),
		"metadata.name":             path.Root("metadata").AtName("name"),
		"spec.limits.maxNodesTotal": path.Root("spec").AtName("limits").AtName("max_nodes_total"),
	}
	for field, want := range cases {
		got, ok := attributePathOfField(field)
		if !ok || !got.Equal(want) {
			t.Errorf("%s: got %s (%v), want %s", field, got, ok, want)
		}
	}
	if _, ok := attributePathOfField(""); ok {
		t.Error("an empty field has no attribute")
	}
}

func TestRequestDiagnostics_ServerFieldErrorsLandOnAttributes(t *testing.T) {
	invalid := apierrors.NewInvalid(schema.GroupKind{Group: "core.gardener.cloud", Kind: "CloudProfile"}, "x",
		field.ErrorList{field.Required(field.NewPath("spec", "machineImages").Index(0).Child("versions").Index(1).Child("cri"), "must provide at least one supported container runtime")})
	err := &kube.Error{Kind: kube.KindInvalid, Object: "CloudProfile x", Err: invalid,
		Causes: []kube.Cause{{Field: "spec.machineImages[0].versions[1].cri", Message: "Required value"}}}
	diags := requestDiagnostics("Applying", err)
	if diags.ErrorsCount() != 2 {
		t.Fatalf("want a summary and an attribute error, got %v", diags)
	}
	want := path.Root("spec").AtName("machine_images").AtListIndex(0).AtName("versions").AtListIndex(1).AtName("cri")
	if got := diags[1].(interface{ Path() path.Path }).Path(); !got.Equal(want) {
		t.Fatalf("path %s, want %s", got, want)
	}
}
