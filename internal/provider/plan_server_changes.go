package provider

import (
	"context"
	"fmt"
	"maps"
	"math/big"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/provider/largevalue"
	"github.com/gardener-community/terraform-provider-gardener/internal/tfvalue"
)

// A mutating admission webhook of the Garden (a provider extension's, say) may store another
// value than the one configured. Terraform would then write the object and fail afterwards with
// "Provider produced inconsistent result after apply", and every later plan would set the value
// back. The server check sees the stored object at plan already: every known planned value that
// the state after the apply would not hold (semantic equality, e.g. of quantities, as at apply)
// is an error on its attribute, before anything is written.

// maxChangedValues bounds the errors of one plan; the last one says how many more there are.
const maxChangedValues = 5

// changedValue is a planned value the Garden would store differently.
type changedValue struct {
	steps           []cloudprofile.Step
	planned, stored tftypes.Value
}

// changedPlannedValues lists where the spec the state would hold after the apply (stored, with
// the planned values kept where they are only written differently) differs from a known planned
// value.
func changedPlannedValues(ctx context.Context, a rschema.Attribute, planned, stored tftypes.Value) []changedValue {
	var out []changedValue
	collectChangedValues(a, planned, largevalue.KeepSemanticallyEqual(ctx, a, planned, stored),
		[]cloudprofile.Step{{Kind: cloudprofile.StepAttribute, Name: "spec"}}, &out)
	return out
}

// collectChangedValues walks planned and stored together below at and appends the deepest
// differences: a leaf, a list of another length, or a value one side leaves null.
func collectChangedValues(a rschema.Attribute, planned, stored tftypes.Value, at []cloudprofile.Step, out *[]changedValue) {
	if !planned.IsKnown() || planned.Equal(stored) {
		return
	}
	attrs := tfvalue.NestedAttributes(a)
	if attrs == nil || planned.IsNull() || !stored.IsKnown() || stored.IsNull() {
		if planned.IsFullyKnown() {
			*out = append(*out, changedValue{steps: at, planned: planned, stored: stored})
		}
		return
	}
	if _, isMap := a.(rschema.MapNestedAttribute); isMap {
		collectChangedEntries(attrs, planned, stored, at, out)
		return
	}
	if _, isList := a.(rschema.ListNestedAttribute); isList {
		var p, s []tftypes.Value
		if planned.As(&p) != nil || stored.As(&s) != nil || len(p) != len(s) {
			if planned.IsFullyKnown() {
				*out = append(*out, changedValue{steps: at, planned: planned, stored: stored})
			}
			return
		}
		element := rschema.SingleNestedAttribute{Attributes: attrs}
		for i := range p {
			collectChangedValues(element, p[i], s[i], appendStep(at, cloudprofile.Step{Kind: cloudprofile.StepIndex, Index: i}), out)
		}
		return
	}
	var p, s map[string]tftypes.Value
	if planned.As(&p) != nil || stored.As(&s) != nil {
		return
	}
	for _, name := range slices.Sorted(maps.Keys(p)) {
		collectChangedValues(attrs[name], p[name], s[name], appendStep(at, cloudprofile.Step{Kind: cloudprofile.StepAttribute, Name: name}), out)
	}
}

// collectChangedEntries is collectChangedValues of a map of entries: entries pair by key, and a
// key only one side has is a change of the whole map.
func collectChangedEntries(attrs map[string]rschema.Attribute, planned, stored tftypes.Value, at []cloudprofile.Step, out *[]changedValue) {
	var p, s map[string]tftypes.Value
	if planned.As(&p) != nil || stored.As(&s) != nil || !slices.Equal(slices.Sorted(maps.Keys(p)), slices.Sorted(maps.Keys(s))) {
		if planned.IsFullyKnown() {
			*out = append(*out, changedValue{steps: at, planned: planned, stored: stored})
		}
		return
	}
	element := rschema.SingleNestedAttribute{Attributes: attrs}
	for _, key := range slices.Sorted(maps.Keys(p)) {
		collectChangedValues(element, p[key], s[key], appendStep(at, cloudprofile.Step{Kind: cloudprofile.StepKey, Key: key}), out)
	}
}

// appendStep is at with one more step, never sharing at's backing array.
func appendStep(at []cloudprofile.Step, s cloudprofile.Step) []cloudprofile.Step {
	return append(append(make([]cloudprofile.Step, 0, len(at)+1), at...), s)
}

// changedValuesAtPlan are the errors of the values the Garden would store differently.
func changedValuesAtPlan(changes []changedValue, spec tftypes.Value) diag.Diagnostics {
	var diags diag.Diagnostics
	for i, c := range changes {
		if i == maxChangedValues {
			diags.AddError("The Garden changes more configured values",
				countOf(len(changes)-i, "more configured value would be", "more configured values would be")+" stored differently; fix the ones above and plan again.")
			break
		}
		where := describeAttribute(c.steps, spec)
		summary := "The Garden changes this configured value"
		if where.entry != "" {
			summary += " (" + where.entry + ")"
		}
		diags.AddAttributeError(attributePath(c.steps), summary, fmt.Sprintf(
			"%s\n\nConfigured: %s\nThe Garden would store: %s\n\n"+
				"The Garden accepted the object in a dry-run apply at plan, but its admission (a mutating webhook, such as a provider "+
				"extension's, or its defaulting) changes this value. Applied, Terraform would write the object and then fail with "+
				"\"Provider produced inconsistent result after apply\", and every later plan would set the value back. Nothing was "+
				"written (dry run).\n\nTo fix: configure the value the Garden stores, or ask the owner of the webhook why it changes it.",
			where.path, describeTerraformValue(c.planned), describeTerraformValue(c.stored)))
	}
	return diags
}

// describeTerraformValue writes a Terraform value for a diagnostic: a string quoted, a bool or number as
// such, null as null, a list by its length.
func describeTerraformValue(v tftypes.Value) string {
	switch {
	case !v.IsKnown():
		return "(known after apply)"
	case v.IsNull():
		return "null"
	}
	var (
		s        string
		b        bool
		n        big.Float
		elements []tftypes.Value
	)
	switch {
	case v.As(&s) == nil:
		return fmt.Sprintf("%q", s)
	case v.As(&b) == nil:
		return fmt.Sprint(b)
	case v.As(&n) == nil:
		return n.Text('g', -1)
	case v.As(&elements) == nil:
		return fmt.Sprintf("a list of %d", len(elements))
	}
	return "an object"
}
