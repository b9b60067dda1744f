package cloudprofile

import (
	"testing"
	"time"
)

// TestRuleExtensionLabels_AppliedBeforeValidation: Gardener's ExtensionLabels plugin removes
// labels with extension prefixes and adds provider.extensions.gardener.cloud/<type> before
// validating, so a type that is no valid label name part is rejected at metadata.labels, and an
// invalid extension label is no problem.
func TestRuleExtensionLabels_AppliedBeforeValidation(t *testing.T) {
	opts := OptionsWithAllGates(time.Date(2027, 1, 15, 0, 0, 0, 0, time.UTC))
	cp := validCloudProfile()
	cp.Spec.Type = "Not Valid"
	var onLabels bool
	for _, p := range ValidateCloudProfileRequest(cp, nil, opts).Errors() {
		onLabels = onLabels || p.Path.Field() == "metadata.labels"
	}
	if !onLabels {
		t.Error("a type that is no label name part must be rejected at metadata.labels")
	}
	cp = validCloudProfile()
	cp.Labels = map[string]string{"provider.extensions.gardener.cloud/not valid!": "x"}
	if ps := ValidateCloudProfileRequest(cp, nil, opts).Errors(); len(ps) != 0 {
		t.Errorf("an extension label is removed before validation, got %v", ps)
	}
	if len(cp.Labels) != 1 {
		t.Error("the input must not be changed")
	}
}

// TestRuleExtensionLabels_AMissingTypeIsB1AndTheEmptyTypesLabel: without spec.type Gardener
// reports B-1 on spec.type, and also rejects the provider label it sets for the empty type (no
// valid label key) on metadata.labels; the provider's diagnostics show B-1 alone.
func TestRuleExtensionLabels_AMissingTypeIsB1AndTheEmptyTypesLabel(t *testing.T) {
	cp := validCloudProfile()
	cp.Spec.Type = ""
	ps := ValidateCloudProfileRequest(cp, nil, OptionsWithAllGates(time.Date(2027, 1, 15, 0, 0, 0, 0, time.UTC)))
	var b1, label bool
	for _, p := range ps {
		b1 = b1 || (p.Rule == "B-1" && p.Path.Field() == "spec.type")
		label = label || (p.Path.Field() == "metadata.labels" && p.BadValue == "provider.extensions.gardener.cloud/")
	}
	if !b1 || !label {
		t.Errorf("want B-1 on spec.type and the empty type's label on metadata.labels, as Gardener reports them; got %v", ps)
	}
}

func TestRuleX1_ExtensionLabelsCannotBeConfigured(t *testing.T) {
	ps := ExtensionLabelProblems(map[string]string{"team": "a", "provider.extensions.gardener.cloud/aws": "true"})
	if len(ps) != 1 || ps[0].Path.Attribute() != `metadata.labels["provider.extensions.gardener.cloud/aws"]` {
		t.Fatalf("got %v", ps)
	}
}
