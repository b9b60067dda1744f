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
// the paths of its unknown values; the object is nil when its spec or metadata is not known yet,
// or when the spec does not convert (ValidateConfig reported that). The checks read the
// configuration, not the plan: in the plan, every Computed value the configuration leaves to
// Gardener is unknown, which would hide whole entries from the checks.
func configuredForPlan[M any, T any](ctx context.Context, req resource.ModifyPlanRequest, large largevalue.Values, paths []largevalue.Path, metadata func(M) types.Object,
	build func(context.Context, M, tftypes.Value) (*T, []path.Path, diag.Diagnostics), diags *diag.Diagnostics,
) (object *T, spec tftypes.Value, unknown []path.Path) {
	var cfg M
	diags.Append(largevalue.Get(ctx, req.Config.Schema, req.Config.Raw, paths, &cfg)...)
	spec = large.Config(req.Config, specLargePath)
	if diags.HasError() || !spec.IsKnown() || metadata(cfg).IsUnknown() {
		return nil, spec, nil
	}
	object, unknown, d := build(ctx, cfg, spec)
	if d.HasError() {
		return nil, spec, nil
	}
	return object, spec, unknown
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
func configuredForValidation[M any, T any](ctx context.Context, req resource.ValidateConfigRequest, large largevalue.Values, root specField, metadata func(*M) *types.Object,
	build func(context.Context, M, tftypes.Value) (*T, []path.Path, diag.Diagnostics), diags *diag.Diagnostics,
) (object *T, spec tftypes.Value, unknown []path.Path, ok bool) {
	diags.Append(timeoutsDiagnostics(ctx, req.Config)...)
	var cfg M
	metaDiags := req.Config.GetAttribute(ctx, path.Root("metadata"), metadata(&cfg))
	diags.Append(metaDiags...)
	spec = large.Config(req.Config, specLargePath)
	if metaDiags.HasError() || !spec.IsKnown() || metadata(&cfg).IsUnknown() {
		return nil, spec, nil, false
	}
	diags.Append(duplicateKeyDiagnostics(root, spec)...)
	object, unknown, d := build(ctx, cfg, spec)
	diags.Append(d...)
	return object, spec, unknown, !d.HasError()
}
