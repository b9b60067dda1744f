package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

func TestProblemDiagnostics_LandOnTheAttribute(t *testing.T) {
	p := cloudprofile.Problem{
		Rule: "F-5", Type: cloudprofile.Invalid, BadValue: "==1.30.0", Detail: "invalid constraint",
		Path: cloudprofile.NewPath("spec").Child("machineImages").Index(2).Child("versions").Index(0).Child("kubeletVersionConstraint"),
	}
	diags := problemDiagnostics(cloudprofile.Problems{p})
	if len(diags) != 1 || !diags.HasError() {
		t.Fatalf("want one error, got %v", diags)
	}
	d, ok := diags[0].(interface{ Path() path.Path })
	if !ok {
		t.Fatal("diagnostic has no attribute path")
	}
	want := path.Root("spec").AtName("machine_images").AtListIndex(2).AtName("versions").AtListIndex(0).AtName("kubelet_version_constraint")
	if !d.Path().Equal(want) {
		t.Fatalf("path %s, want %s", d.Path(), want)
	}
	for _, s := range []string{"spec.machineImages[2].versions[0].kubeletVersionConstraint", "==1.30.0", "F-5"} {
		if !strings.Contains(diags[0].Detail(), s) {
			t.Errorf("detail %q lacks %q", diags[0].Detail(), s)
		}
	}
}

func TestProblemDiagnostics_WarningsStayWarnings(t *testing.T) {
	p := cloudprofile.Problem{Severity: cloudprofile.SeverityWarning, Type: cloudprofile.Invalid,
		Path: cloudprofile.NewPath("spec").Child("capabilities").ChildKey("architecture")}
	diags := problemDiagnostics(cloudprofile.Problems{p})
	if diags.HasError() || diags.WarningsCount() != 1 {
		t.Fatalf("want one warning, got %v", diags)
	}
	want := path.Root("spec").AtName("capabilities").AtMapKey("architecture")
	if got := diags[0].(interface{ Path() path.Path }).Path(); !got.Equal(want) {
		t.Fatalf("path %s, want %s", got, want)
	}
}

func TestProblemDetail_ShortensLongBadValues(t *testing.T) {
	long := strings.Repeat("a", 1<<20)
	d := problemDetail(cloudprofile.Problem{Rule: "M-1", Type: cloudprofile.Invalid,
		Path: cloudprofile.NewPath("metadata").Child("labels"), BadValue: long, Detail: "must be no more than 63 characters"})
	if len(d) > 400 || !strings.Contains(d, "(1048576 characters)") || !strings.Contains(d, "must be no more than 63 characters") {
		t.Fatalf("detail of %d bytes: %.400s", len(d), d)
	}
	short := problemDetail(cloudprofile.Problem{Type: cloudprofile.Invalid, Path: cloudprofile.NewPath("spec").Child("type"), BadValue: "x", Detail: "d"})
	if !strings.Contains(short, `Invalid value: "x"`) {
		t.Fatalf("a short value must stay as it is: %s", short)
	}
}
