package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

var _ function.Function = nextTransitionFunction{}

// nextTransitionFunction is provider::gardener::next_transition(version, at).
type nextTransitionFunction struct{}

func newNextTransitionFunction() function.Function { return nextTransitionFunction{} }

var transitionAttrTypes = map[string]attr.Type{"at": types.StringType, "classification": types.StringType}

// Metadata names the function.
func (nextTransitionFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "next_transition"
}

// Definition describes the function.
func (nextTransitionFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Next change of a version's classification",
		MarkdownDescription: "Returns the first change of a version's classification after the instant `at` as an object " +
			"`{ at, classification }`: `at` is the start time (RFC 3339) of the stage that causes the change, `classification` the " +
			"classification right after it (at `at` itself the version still has its old one, as in Gardener). Returns null when the " +
			"classification never changes again. Start times at which the classification stays the same are skipped. Pure: needs no cluster.",
		Parameters: []function.Parameter{
			function.DynamicParameter{Name: "version", MarkdownDescription: versionParameterDescription},
			function.StringParameter{Name: "at", MarkdownDescription: "The instant, an RFC 3339 timestamp such as `2030-01-01T00:00:00Z`."},
		},
		Return: function.ObjectReturn{AttributeTypes: transitionAttrTypes},
	}
}

// Run finds the next transition.
func (nextTransitionFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	v, at, unknown, ferr := versionAndInstantArguments(ctx, req)
	if ferr != nil {
		resp.Error = ferr
		return
	}
	if unknown {
		resp.Error = resp.Result.Set(ctx, types.ObjectUnknown(transitionAttrTypes))
		return
	}
	tr, ok := cloudprofile.NextTransition(v, at)
	if !ok {
		resp.Error = resp.Result.Set(ctx, types.ObjectNull(transitionAttrTypes))
		return
	}
	resp.Error = resp.Result.Set(ctx, types.ObjectValueMust(transitionAttrTypes, map[string]attr.Value{
		"at":             types.StringValue(formatInstant(tr.At)),
		"classification": types.StringValue(string(tr.To)),
	}))
}
