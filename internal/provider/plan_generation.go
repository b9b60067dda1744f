package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// generationPath is the attribute of the generation Gardener stores.
var generationPath = path.Root("metadata").AtName("generation")

// specChange describes what a plan does to the spec, for predicting the stored generation.
type specChange struct {
	// create is set for a plan that creates the object.
	create bool
	// changes is set when the planned spec differs from the prior one.
	changes bool
	// known is set when the planned spec holds no unknown value, so that changes is certain.
	known bool
}

// specChangeOf compares the planned spec with the prior one (both as the large-value server
// passed them in, before any value was marked unknown).
func specChangeOf(ctx context.Context, req resource.ModifyPlanRequest) specChange {
	planned := largeInput(ctx, rolePlanned, specLargePath, req.Plan.Raw)
	if req.State.Raw.IsNull() {
		return specChange{create: true, changes: true, known: planned.IsFullyKnown()}
	}
	prior := largeInput(ctx, rolePrior, specLargePath, req.State.Raw)
	return specChange{changes: !planned.Equal(prior), known: planned.IsFullyKnown()}
}

// planGeneration sets the planned metadata.generation to next(prior generation), unless the
// metadata is not known yet.
func planGeneration(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, next func(prior int64) int64) {
	var metadata types.Object
	resp.Diagnostics.Append(resp.Plan.GetAttribute(ctx, path.Root("metadata"), &metadata)...)
	if metadata.IsUnknown() || metadata.IsNull() {
		return
	}
	var prior types.Int64
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, generationPath, &prior)...)
	}
	if prior.IsUnknown() {
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, generationPath, types.Int64Value(next(prior.ValueInt64())))...)
}
