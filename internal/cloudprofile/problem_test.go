package cloudprofile

import (
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

func TestProblem_ErrorRendersLikeGardener(t *testing.T) {
	spec := NewPath("spec")
	for _, tt := range []struct {
		problem Problem
		want    string
	}{
		{required("B-1", spec.Child("type"), "must provide a provider type"), "spec.type: Required value: must provide a provider type"},
		{forbidden("D-4", spec.Child("kubernetes").Child("versions").Index(0), "cannot specify `classification` or `expirationDate` in combination with `lifecycle`"),
			"spec.kubernetes.versions[0]: Forbidden: cannot specify `classification` or `expirationDate` in combination with `lifecycle`"},
		{invalid("B-4", spec.Child("limits").Child("maxNodesTotal"), int32(0), "maxNodesTotal must be greater than 0"), "spec.limits.maxNodesTotal: Invalid value: 0: maxNodesTotal must be greater than 0"},
		{duplicate("C-6", spec.Child("kubernetes").Child("versions").Index(1).Child("version"), "1.2.3"), `spec.kubernetes.versions[1].version: Duplicate value: "1.2.3"`},
		{notSupported("F-7", spec.Child("cri").Index(0).Child("name"), "docker", criNames), `spec.cri[0].name: Unsupported value: "docker": supported values: "containerd"`},
		{invalid("F-5", spec.Child("kubeletVersionConstraint"), ptrTo("==1"), "x"), `spec.kubeletVersionConstraint: Invalid value: "==1": x`},
	} {
		if got := tt.problem.Error(); got != tt.want {
			t.Errorf("Error() = %s\nwant      %s", got, tt.want)
		}
	}
}

func TestFromFieldErrors_AttributeSteps(t *testing.T) {
	base := NewPath("spec").Child("seedSelector")
	errs := field.ErrorList{
		field.Invalid(base.field.Child("matchExpressions").Index(2).Child("values"), "x", "bad"),
		field.Invalid(base.field.Child("matchLabels").Key("a.b/c"), "x", "bad"),
		field.Required(base.field, "missing"),
	}
	ps := fromFieldErrors("B-3", base, errs)
	want := []struct{ field, attr string }{
		{"spec.seedSelector.matchExpressions[2].values", "spec.seed_selector.match_expressions[2].values"},
		{"spec.seedSelector.matchLabels[a.b/c]", `spec.seed_selector.match_labels["a.b/c"]`},
		{"spec.seedSelector", "spec.seed_selector"},
	}
	for i, w := range want {
		if ps[i].Path.Field() != w.field || ps[i].Path.Attribute() != w.attr || ps[i].Rule != "B-3" {
			t.Errorf("problem %d: field %q attr %q, want %q %q", i, ps[i].Path.Field(), ps[i].Path.Attribute(), w.field, w.attr)
		}
	}
	if ps[2].Type != Required {
		t.Errorf("type %s", ps[2].Type)
	}
}

func TestProblems_HasErrorsWhenOneIsAnError(t *testing.T) {
	spec := NewPath("spec")
	warn := warning("W-dropped", spec, "", "x")
	if (Problems{warn, warn}).HasErrors() || (Problems{}).HasErrors() {
		t.Error("HasErrors() = true for warnings only or none")
	}
	if !(Problems{warn, required("B-1", spec.Child("type"), "x")}).HasErrors() {
		t.Error("HasErrors() = false with an error among the warnings")
	}
}
