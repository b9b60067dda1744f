package provider

import (
	"errors"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

func TestRequestDiagnostics_ServerFieldErrorsLandOnAttributes(t *testing.T) {
	invalid := apierrors.NewInvalid(schema.GroupKind{Group: "core.gardener.cloud", Kind: "CloudProfile"}, "x",
		field.ErrorList{field.Required(field.NewPath("spec", "machineImages").Index(0).Child("versions").Index(1).Child("cri"), "must provide at least one supported container runtime")})
	err := &kube.Error{Kind: kube.KindInvalid, Object: "CloudProfile x", Err: invalid,
		Causes: []kube.Cause{{Field: "spec.machineImages[0].versions[1].cri", Message: "Required value"}}}
	spec, diags := flattenSpecTerraform(cloudProfileSpecRoot, richCloudProfileSpec())
	requireNoDiags(t, diags)
	diags = requestDiagnostics("Applying", err, spec, nil)
	if diags.ErrorsCount() != 2 {
		t.Fatalf("want a summary and an attribute error, got %v", diags)
	}
	want := path.Root("spec").AtName("machine_images").AtMapKey("gardenlinux").AtName("versions").AtMapKey("1443.3.0").AtName("cri")
	if got := diags[1].(interface{ Path() path.Path }).Path(); !got.Equal(want) {
		t.Fatalf("path %s, want %s", got, want)
	}
}

// TestRequestError_aConflictListsEachFieldOnce: the API server's message of an apply conflict names
// every field with its manager, and so do the causes of its status; the error says each once.
func TestRequestError_aConflictListsEachFieldOnce(t *testing.T) {
	fields := []string{`.spec.kubernetes.versions[version="1.32.4"].classification`, `.spec.machineTypes[name="m5.large"].memory`}
	for name, message := range map[string]string{
		"one conflict":  `Apply failed with 1 conflict: conflict with "kubectl-edit" using core.gardener.cloud/v1beta1: ` + fields[0],
		"two conflicts": "Apply failed with 2 conflicts: conflicts with \"kubectl-edit\" using core.gardener.cloud/v1beta1:\n- " + fields[0] + "\n- " + fields[1],
	} {
		t.Run(name, func(t *testing.T) {
			var causes []metav1.StatusCause
			for _, f := range fields[:strings.Count(message, ".spec.")] {
				causes = append(causes, metav1.StatusCause{Type: metav1.CauseTypeFieldManagerConflict, Field: f,
					Message: `conflict with "kubectl-edit" using core.gardener.cloud/v1beta1`})
			}
			conflict := apierrors.NewApplyConflict(causes, message)
			kerr := &kube.Error{Kind: kube.KindConflict, Object: `CloudProfile "aws"`, Err: conflict}
			for _, c := range causes {
				kerr.Causes = append(kerr.Causes, kube.Cause{Field: c.Field, Type: string(c.Type), Message: c.Message})
			}
			d := requestError("Applying CloudProfile aws", kerr)
			for _, f := range fields[:len(causes)] {
				if n := strings.Count(d.Detail(), f); n != 1 {
					t.Errorf("%s is named %d times:\n%s", f, n, d.Detail())
				}
			}
		})
	}
}

// TestLookupError_aMissingObjectIsAnErrorOnName: a data source's missing object is an error on
// `name` that names the object and says how to fix the lookup; other failures stay request errors.
func TestLookupError_aMissingObjectIsAnErrorOnName(t *testing.T) {
	gr := schema.GroupResource{Group: "core.gardener.cloud", Resource: "namespacedcloudprofiles"}
	ref := namespacedRefOf("garden-x", "p")
	notFound := &kube.Error{Kind: kube.KindNotFound, Object: ref.String(), Err: apierrors.NewNotFound(gr, "p")}
	d := lookupError("Reading the NamespacedCloudProfile", ref, notFound)
	if d.Summary() != `NamespacedCloudProfile "garden-x/p" not found` {
		t.Fatalf("summary %q", d.Summary())
	}
	if at := d.(diag.DiagnosticWithPath).Path(); !at.Equal(path.Root("name")) {
		t.Fatalf("on %s, want name", at)
	}
	for _, want := range []string{`API server: namespacedcloudprofiles.core.gardener.cloud "p" not found`, "To fix: check the name and namespace",
		"gardener_namespaced_cloud_profile.<name>.metadata.name"} {
		if !strings.Contains(d.Detail(), want) {
			t.Errorf("detail lacks %q:\n%s", want, d.Detail())
		}
	}
	forbidden := &kube.Error{Kind: kube.KindForbidden, Object: ref.String(), Err: apierrors.NewForbidden(gr, "p", errors.New("no"))}
	if d := lookupError("Reading the NamespacedCloudProfile", ref, forbidden); d.Summary() != "Permission denied" {
		t.Fatalf("a forbidden read is a request error, got %q", d.Summary())
	}
}
