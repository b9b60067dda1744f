package provider

import (
	"context"
	"math/big"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/provider/largevalue"
	"github.com/gardener-community/terraform-provider-gardener/internal/tfvalue"
)

// A changing plan leaves "known after apply" only where nobody can know the value: the values
// Gardener's API server fills in (defaults such as usable, cri, architectures, update_strategy,
// the architecture/capability synchronisation, metadata.generation) are predicted with the rules
// package's model of what the server stores (StoredCloudProfile, StoredNamespacedCloudProfile).
// A configuration with unknown values is not predicted: its stored form depends on them. The
// predictions run in ModifyPlan, with the provider's settings (its clock and the rules' options),
// and reach the large attributes through largevalue.Values.Plan.

// predictCloudProfilePlan plans, for a changing plan, the stored spec of the configured
// CloudProfile (cp as the extension's mutating webhook leaves it, see mutatedByExtension; nil when
// the configuration is not fully known), its generation and the status
// the state will hold. old is the object of the prior state (nil on create); check is the server
// check of the spec (nil: none).
func predictCloudProfilePlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, large largevalue.Values, cp, old *gardencorev1beta1.CloudProfile, opts cloudprofile.Options, check specCheck) {
	var keep types.Bool
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("keep_status"), &keep)...)
	if !keep.IsUnknown() && !keep.ValueBool() {
		resp.Diagnostics.Append(large.Plan(&resp.Plan, largevalue.Path{"status"}, func(_ rschema.Attribute, planned tftypes.Value) (tftypes.Value, diag.Diagnostics) {
			return tftypes.NewValue(planned.Type(), nil), nil
		})...)
	}
	var oldProfile *gardencorev1beta1.CloudProfile
	if old != nil {
		oldProfile = &gardencorev1beta1.CloudProfile{ObjectMeta: metav1.ObjectMeta{Generation: priorGeneration(req.State.Raw)}, Spec: old.Spec}
	}
	var storedSpec func() any
	if cp != nil {
		resp.Diagnostics.Append(planGeneration(ctx, &resp.Plan, cloudprofile.StoredCloudProfileGeneration(oldProfile))...)
		storedSpec = func() any {
			stored, _ := cloudprofile.StoredCloudProfile(&gardencorev1beta1.CloudProfile{Spec: cp.Spec}, oldProfile, opts)
			return stored.Spec
		}
	}
	resp.Diagnostics.Append(large.Plan(&resp.Plan, specLargePath, specPlanner(req, large, old != nil, cloudProfileSpecRoot, storedSpec, check))...)
}

// specPlanner plans the spec of a changing plan: the values Terraform proposed from the prior
// entry at the same index are dropped (unknownComputedInEntries), entries the configuration leaves
// as they were keep their prior value (keepUnchangedSpecEntries; update only), the server check (nil: none)
// fills in what the Garden stores, and the values still unknown are filled from storedSpec, the
// spec the server will store by the offline rules (nil: not predictable).
func specPlanner(req resource.ModifyPlanRequest, large largevalue.Values, update bool, root specField, storedSpec func() any, check specCheck) func(rschema.Attribute, tftypes.Value) (tftypes.Value, diag.Diagnostics) {
	config := large.Config(req.Config, specLargePath)
	prior := tftypes.NewValue(root.tfType, nil)
	if update {
		prior = large.Prior(req.State, specLargePath)
	}
	return func(a rschema.Attribute, planned tftypes.Value) (tftypes.Value, diag.Diagnostics) {
		planned, _ = unknownComputedInEntries(a, planned, config)
		planned, _ = keepUnchangedSpecEntries(a, planned, config, prior)
		var diags diag.Diagnostics
		if check != nil {
			planned, diags = check(a, planned)
		}
		if storedSpec == nil || planned.IsFullyKnown() {
			return planned, diags // nothing to predict, or every entry unchanged or configured whole
		}
		return withPredictedSpec(root, a, planned, storedSpec()), diags
	}
}

// predictNamespacedCloudProfilePlan plans, for a changing plan, the stored spec of the configured
// NamespacedCloudProfile (ncp, nil when the configuration is not fully known) as the extension of
// the parent's type mutates it (left unknown when that cannot be told), its generation, and the
// status: null unless kept, else the merge with parent (unknown without a parent).
func predictNamespacedCloudProfilePlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, large largevalue.Values, ncp, old *gardencorev1beta1.NamespacedCloudProfile, parent *gardencorev1beta1.CloudProfile, opts cloudprofile.Options, check specCheck) {
	var stored *gardencorev1beta1.NamespacedCloudProfile
	var storedSpec func() any
	if ncp != nil {
		var oldProfile *gardencorev1beta1.NamespacedCloudProfile
		if old != nil {
			oldProfile = &gardencorev1beta1.NamespacedCloudProfile{ObjectMeta: metav1.ObjectMeta{Generation: priorGeneration(req.State.Raw)}, Spec: old.Spec}
		}
		mutated, known := namespacedMutatedByExtension(ncp.Spec, parent)
		stored, _ = cloudprofile.StoredNamespacedCloudProfile(&gardencorev1beta1.NamespacedCloudProfile{Spec: mutated}, oldProfile, opts)
		resp.Diagnostics.Append(planGeneration(ctx, &resp.Plan, stored.Generation)...)
		if known {
			storedSpec = func() any { return stored.Spec }
		}
	}
	// The spec as planned (with what the server check filled in), for the merged status.
	var plannedSpec tftypes.Value
	planSpec := specPlanner(req, large, old != nil, namespacedCloudProfileSpecRoot, storedSpec, check)
	resp.Diagnostics.Append(large.Plan(&resp.Plan, specLargePath, func(a rschema.Attribute, planned tftypes.Value) (tftypes.Value, diag.Diagnostics) {
		var diags diag.Diagnostics
		plannedSpec, diags = planSpec(a, planned)
		return plannedSpec, diags
	})...)
	var keep types.Bool
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("keep_merged_status"), &keep)...)
	switch {
	case keep.IsUnknown():
		return
	case !keep.ValueBool():
		resp.Diagnostics.Append(setPlannedStatus(ctx, &resp.Plan, func(t types.ObjectType) (types.Object, diag.Diagnostics) { return types.ObjectNull(t.AttrTypes), nil })...)
	case stored == nil || parent == nil:
		resp.Diagnostics.Append(setPlannedStatus(ctx, &resp.Plan, func(t types.ObjectType) (types.Object, diag.Diagnostics) {
			return types.ObjectUnknown(t.AttrTypes), nil
		})...)
	default:
		resp.Diagnostics.Append(planMergedStatus(ctx, resp, large, ncp.Name, func() gardencorev1beta1.NamespacedCloudProfileSpec { return specToMerge(plannedSpec, stored.Spec) }, parent)...)
	}
}

// specToMerge is the planned spec when it is fully known (it holds what the server check found),
// else the spec the offline rules predict.
func specToMerge(planned tftypes.Value, predicted gardencorev1beta1.NamespacedCloudProfileSpec) gardencorev1beta1.NamespacedCloudProfileSpec {
	if !planned.IsFullyKnown() || planned.IsNull() {
		return predicted
	}
	spec, _, diags := expandNamespacedCloudProfileSpecTerraform(planned, path.Root("spec"))
	if diags.HasError() {
		return predicted
	}
	return spec
}

// planMergedStatus plans the kept status: the merge of the parent with the spec the server will
// store (spec, called once the spec is planned), for the planned generation, as Gardener's
// controller and the provider extension's mutator render it for the NamespacedCloudProfile name.
func planMergedStatus(ctx context.Context, resp *resource.ModifyPlanResponse, large largevalue.Values, name string, spec func() gardencorev1beta1.NamespacedCloudProfileSpec, parent *gardencorev1beta1.CloudProfile) diag.Diagnostics {
	var generation types.Int64
	diags := resp.Plan.GetAttribute(ctx, path.Root("metadata").AtName("generation"), &generation)
	diags.Append(setPlannedStatus(ctx, &resp.Plan, func(t types.ObjectType) (types.Object, diag.Diagnostics) {
		return types.ObjectValue(t.AttrTypes, map[string]attr.Value{
			"observed_generation": generation,
			"cloud_profile_spec":  nullOf(t.AttrTypes["cloud_profile_spec"]),
		})
	})...)
	if diags.HasError() {
		return diags
	}
	diags.Append(large.Plan(&resp.Plan, statusSpecLargePath, func(_ rschema.Attribute, planned tftypes.Value) (tftypes.Value, diag.Diagnostics) {
		merged, _ := mergedNamespacedProfile(name, parent.Spec, spec(), cloudprofile.MergeOptions{})
		value, d := flattenSpecTerraform(cloudProfileSpecRoot, merged)
		if d.HasError() {
			return tftypes.NewValue(planned.Type(), tftypes.UnknownValue), nil
		}
		return value, nil
	})...)
	return diags
}

// planResourceVersionOfUpdate plans metadata.resource_version unknown for an update: every update
// writes the object, which gives it a new resource version. The framework marks it unknown only
// when Terraform's proposal differs from the prior state, which misses an update that only drops
// labels or annotations (Terraform proposes their prior values; absentMapPlan plans them away).
func planResourceVersionOfUpdate(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) diag.Diagnostics {
	if req.State.Raw.IsNull() || resp.Plan.Raw.IsNull() || resp.Plan.Raw.Equal(req.State.Raw) {
		return nil
	}
	return resp.Plan.SetAttribute(ctx, path.Root("metadata").AtName("resource_version"), types.StringUnknown())
}

// planGeneration plans metadata.generation where the framework left it unknown.
func planGeneration(ctx context.Context, plan *tfsdk.Plan, generation int64) diag.Diagnostics {
	at := path.Root("metadata").AtName("generation")
	var current types.Int64
	diags := plan.GetAttribute(ctx, at, &current)
	if diags.HasError() || !current.IsUnknown() {
		return diags
	}
	return append(diags, plan.SetAttribute(ctx, at, types.Int64Value(generation))...)
}

// withPredictedSpec fills the unknown values of the planned spec (of the schema attribute a,
// built from root) with the stored spec.
func withPredictedSpec(root specField, a rschema.Attribute, planned tftypes.Value, storedSpec any) tftypes.Value {
	if !planned.IsKnown() || planned.IsNull() {
		return planned
	}
	predicted, diags := flattenSpecTerraform(root, storedSpec)
	if diags.HasError() {
		return planned
	}
	filled, _ := fillUnknowns(a, planned, predicted)
	return filled
}

// priorGeneration is metadata.generation of a prior state, 0 where it is not known.
func priorGeneration(prior tftypes.Value) int64 {
	var generation big.Float
	v := tfvalue.Attribute(tfvalue.Attribute(prior, "metadata"), "generation")
	if !v.IsKnown() || v.IsNull() || v.As(&generation) != nil {
		return 0
	}
	n, _ := generation.Int64()
	return n
}

// unordered are the list attributes whose order Gardener does not keep when it derives them
// (architectures from capability flavors go through a set): a derived list of more than one value
// stays unknown at plan.
var unordered = map[string]bool{"architectures": true}

// listLength is the number of elements of a known list value, 0 otherwise.
func listLength(v tftypes.Value) int {
	var elements []tftypes.Value
	if !v.IsKnown() || v.IsNull() || v.As(&elements) != nil {
		return 0
	}
	return len(elements)
}

// fillUnknowns returns planned with each unknown value replaced by the predicted value at the
// same place. Entries of maps and keyed lists are matched by their key; other lists by position,
// when both have the same length.
func fillUnknowns(a rschema.Attribute, planned, predicted tftypes.Value) (tftypes.Value, bool) {
	if !planned.IsKnown() {
		return predicted, predicted.Type().Equal(planned.Type())
	}
	attrs := tfvalue.NestedAttributes(a)
	if attrs == nil || planned.IsNull() || !predicted.IsKnown() || predicted.IsNull() {
		return planned, false
	}
	if !tfvalue.HoldsElements(a) {
		return tfvalue.MapAttributes(planned, predicted, func(name string, value, predictedValue tftypes.Value) (tftypes.Value, bool) {
			if unordered[name] && listLength(predictedValue) > 1 {
				return value, false
			}
			return fillUnknowns(attrs[name], value, predictedValue)
		})
	}
	if _, isMap := a.(rschema.MapNestedAttribute); isMap {
		return tfvalue.MapElements(planned, predicted, func(element, p tftypes.Value) (tftypes.Value, bool) {
			if !p.IsKnown() || p.IsNull() || !p.Type().Equal(element.Type()) {
				return element, false // no entry of that key predicted
			}
			return fillUnknowns(rschema.SingleNestedAttribute{Attributes: attrs}, element, p)
		})
	}
	if key := listKeyAttribute(attrs); key != "" {
		byKey := entriesByKey(predicted, key)
		return tfvalue.MapElements(planned, planned, func(element, _ tftypes.Value) (tftypes.Value, bool) {
			p, ok := byKey[stringAttribute(element, key)]
			if !ok {
				return element, false
			}
			return fillUnknowns(rschema.SingleNestedAttribute{Attributes: attrs}, element, p)
		})
	}
	var plannedElements, predictedElements []tftypes.Value
	if planned.As(&plannedElements) != nil || predicted.As(&predictedElements) != nil || len(plannedElements) != len(predictedElements) {
		return planned, false
	}
	return tfvalue.MapElements(planned, predicted, func(element, p tftypes.Value) (tftypes.Value, bool) {
		return fillUnknowns(rschema.SingleNestedAttribute{Attributes: attrs}, element, p)
	})
}

// specCheck checks a changing plan's spec, as the spec planner has it, on the server and returns
// it with the values the Garden fills in.
type specCheck func(a rschema.Attribute, spec tftypes.Value) (tftypes.Value, diag.Diagnostics)

// setPlannedStatus sets the plan's status to what value gives for the status's type in the plan's
// schema: behind largevalue's Server the merged profile there is a placeholder, whose type only
// the schema knows.
func setPlannedStatus(ctx context.Context, plan *tfsdk.Plan, value func(types.ObjectType) (types.Object, diag.Diagnostics)) diag.Diagnostics {
	t, diags := plan.Schema.TypeAtPath(ctx, path.Root("status"))
	status, ok := t.(types.ObjectType)
	if cached, isCached := t.(cachedObjectType); isCached {
		status, ok = cached.ObjectType, true
	}
	if !ok {
		diags.AddError("Planning the status", "the schema's status is not an object. This is a bug in the provider.")
		return diags
	}
	v, d := value(status)
	if diags.Append(d...); diags.HasError() {
		return diags
	}
	return append(diags, plan.SetAttribute(ctx, path.Root("status"), v)...)
}
