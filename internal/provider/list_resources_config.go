package provider

import (
	"context"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/tfvalue"
)

// Configuration generated from a listed object (`terraform query -generate-config-out`) leaves out
// what Gardener fills in itself: a value of a Computed attribute (architecture, usable, cri,
// architectures, update_strategy, …) is left null where the object Gardener stores without it
// holds the same value. What a person wrote differently from Gardener's default stays.

// storedSpecOf computes the spec Gardener stores for a spec value, false when it cannot.
type storedSpecOf func(spec tftypes.Value) (tftypes.Value, bool)

// storedCloudProfileSpec is storedSpecOf for a CloudProfile.
func storedCloudProfileSpec(opts cloudprofile.Options) storedSpecOf {
	return func(spec tftypes.Value) (tftypes.Value, bool) {
		s, _, diags := expandCloudProfileSpecTerraform(spec, path.Root("spec"))
		if diags.HasError() {
			return spec, false
		}
		stored, _ := cloudprofile.StoredCloudProfile(&gardencorev1beta1.CloudProfile{Spec: s}, nil, opts)
		v, diags := flattenSpecTerraform(cloudProfileSpecRoot, stored.Spec)
		return v, !diags.HasError()
	}
}

// storedNamespacedCloudProfileSpec is storedSpecOf for a NamespacedCloudProfile.
func storedNamespacedCloudProfileSpec(opts cloudprofile.Options) storedSpecOf {
	return func(spec tftypes.Value) (tftypes.Value, bool) {
		s, _, diags := expandNamespacedCloudProfileSpecTerraform(spec, path.Root("spec"))
		if diags.HasError() {
			return spec, false
		}
		stored, _ := cloudprofile.StoredNamespacedCloudProfile(&gardencorev1beta1.NamespacedCloudProfile{Spec: s}, nil, opts)
		v, diags := flattenSpecTerraform(namespacedCloudProfileSpecRoot, stored.Spec)
		return v, !diags.HasError()
	}
}

// withoutGardenerDefaults is the spec (of the schema attribute a) with the values Gardener fills in
// itself left null (see above).
func withoutGardenerDefaults(a rschema.Attribute, spec tftypes.Value, stored storedSpecOf) tftypes.Value {
	bare, _ := computedNulled(a, spec)
	predicted, ok := stored(bare)
	if !ok {
		return spec
	}
	out, _ := nullWherePredicted(a, spec, predicted)
	return out
}

// computedNulled is a nested attribute's value with every Computed attribute below it null.
func computedNulled(a rschema.Attribute, v tftypes.Value) (tftypes.Value, bool) {
	attrs := tfvalue.NestedAttributes(a)
	if attrs == nil || !v.IsKnown() || v.IsNull() {
		return v, false
	}
	object := func(o tftypes.Value) (tftypes.Value, bool) {
		return tfvalue.MapAttributes(o, o, func(name string, value, _ tftypes.Value) (tftypes.Value, bool) {
			if attrs[name].IsComputed() && !value.IsNull() {
				return tftypes.NewValue(value.Type(), nil), true
			}
			return computedNulled(attrs[name], value)
		})
	}
	if tfvalue.HoldsElements(a) {
		return tfvalue.MapElements(v, v, func(element, _ tftypes.Value) (tftypes.Value, bool) { return object(element) })
	}
	return object(v)
}

// nullWherePredicted is a nested attribute's value with each Computed value that equals the
// predicted one at the same place left null; maps are walked by key, lists by index where both
// have the same length.
func nullWherePredicted(a rschema.Attribute, v, predicted tftypes.Value) (tftypes.Value, bool) {
	attrs := tfvalue.NestedAttributes(a)
	if attrs == nil || !v.IsKnown() || v.IsNull() || !predicted.IsKnown() || predicted.IsNull() {
		return v, false
	}
	object := func(o, p tftypes.Value) (tftypes.Value, bool) {
		return tfvalue.MapAttributes(o, p, func(name string, value, predictedValue tftypes.Value) (tftypes.Value, bool) {
			if attrs[name].IsComputed() && !value.IsNull() && tfvalue.Equal(value, predictedValue) {
				return tftypes.NewValue(value.Type(), nil), true
			}
			return nullWherePredicted(attrs[name], value, predictedValue)
		})
	}
	if !tfvalue.HoldsElements(a) {
		return object(v, predicted)
	}
	if _, isList := a.(rschema.ListNestedAttribute); isList && listLength(v) != listLength(predicted) {
		return v, false
	}
	return tfvalue.MapElements(v, predicted, object)
}

// specAttributeOf is the spec attribute of a resource's schema.
func specAttributeOf(ctx context.Context, r resource.Resource) rschema.Attribute {
	var resp resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &resp)
	return resp.Schema.Attributes["spec"]
}
