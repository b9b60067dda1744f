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
	opts := DefaultOptions(time.Date(2027, 1, 15, 0, 0, 0, 0, time.UTC))
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

// TestRuleExtensionLabels_AMissingTypeIsOnlyB1: without spec.type the provider label would have
// an empty type; the error is B-1 on spec.type, and none is on metadata.labels.
func TestRuleExtensionLabels_AMissingTypeIsOnlyB1(t *testing.T) {
	cp := validCloudProfile()
	cp.Spec.Type = ""
	expectProblems(t, ValidateCloudProfileRequest(cp, nil, DefaultOptions(time.Date(2027, 1, 15, 0, 0, 0, 0, time.UTC))),
		want{rule: "B-1", typ: Required, field: "spec.type", attr: "spec.type"})
}

func TestRuleX1_ExtensionLabelsCannotBeConfigured(t *testing.T) {
	ps := ExtensionLabelProblems(map[string]string{"team": "a", "provider.extensions.gardener.cloud/aws": "true"})
	if len(ps) != 1 || ps[0].Path.Attribute() != `metadata.labels["provider.extensions.gardener.cloud/aws"]` {
		t.Fatalf("got %v", ps)
	}
}
