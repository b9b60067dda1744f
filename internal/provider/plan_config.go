package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/gardener-community/terraform-provider-gardener/internal/provider/largevalue"
)

// configuredForPlan reads the configuration into its model M and builds the configured object with
// the paths of its unknown values; known is false when its spec or metadata is not known yet, or
// when the spec does not convert (ValidateConfig reported that). The checks read the
// configuration, not the plan: in the plan, every Computed value the configuration leaves to
// Gardener is unknown, which would hide whole entries from the checks.
func configuredForPlan[M profileModel, O any](ctx context.Context, req resource.ModifyPlanRequest, large largevalue.Values, paths []largevalue.Path,
	build func(context.Context, types.Object, tftypes.Value) (O, []path.Path, diag.Diagnostics), diags *diag.Diagnostics,
) (object O, spec tftypes.Value, unknown []path.Path, known bool) {
	var cfg M
	diags.Append(largevalue.Get(ctx, req.Config.Schema, req.Config.Raw, paths, &cfg)...)
	spec = large.Config(req.Config, specLargePath)
	metadata := cfg.common().Metadata
	if diags.HasError() || !spec.IsKnown() || metadata.IsUnknown() {
		return object, spec, nil, false
	}
	built, unknown, d := build(ctx, metadata, spec)
	if d.HasError() {
		return object, spec, nil, false
	}
	return built, spec, unknown, true
}

// knownSpec is the configured object when none of its spec is unknown, else nil.
func knownSpec[T any](object *T, unknown []path.Path) *T {
	for _, p := range unknown {
		if underAny(p, []path.Path{path.Root("spec")}) {
			return nil
		}
	}
	return object
}

// configuredForValidation reads the configuration ValidateConfig checks: its timeouts, its
// metadata (the only attribute that goes through the framework's conversion) and its spec as
// Terraform sent it, whose JSON keys it checks, and builds the configured object with the paths of
// its unknown values. ok is false when the metadata or the spec is not known yet, or when the
// object could not be built.
func configuredForValidation[O any](ctx context.Context, req resource.ValidateConfigRequest, large largevalue.Values, root specField,
	build func(context.Context, types.Object, tftypes.Value) (O, []path.Path, diag.Diagnostics), diags *diag.Diagnostics,
) (object O, spec tftypes.Value, unknown []path.Path, ok bool) {
	diags.Append(timeoutsDiagnostics(ctx, req.Config)...)
	var metadata types.Object
	metaDiags := req.Config.GetAttribute(ctx, path.Root("metadata"), &metadata)
	diags.Append(metaDiags...)
	spec = large.Config(req.Config, specLargePath)
	if metaDiags.HasError() || !spec.IsKnown() || metadata.IsUnknown() {
		return object, spec, nil, false
	}
	diags.Append(duplicateKeyDiagnostics(root, spec)...)
	object, unknown, d := build(ctx, metadata, spec)
	diags.Append(d...)
	return object, spec, unknown, !d.HasError()
}
