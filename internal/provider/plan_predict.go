package provider

import (
	"math/big"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// A changing plan leaves "known after apply" only where nobody can know the value: the values
// Gardener's API server fills in (defaults such as usable, cri, architectures, update_strategy,
// the architecture/capability synchronisation, metadata.generation) are predicted with the rules
// package's model of what the server stores (StoredCloudProfile, StoredNamespacedCloudProfile).
// A configuration with unknown values is not predicted: its stored form depends on them.

// planPredictor is a resource that fills in, at plan, the values the API server will store.
type planPredictor interface {
	// predictPlan returns planned with the unknown values the server fills in replaced by what it
	// will store, given the configuration and the prior state (null on create).
	predictPlan(spec rschema.Attribute, config, prior, planned tftypes.Value) tftypes.Value
}

// predictPlan predicts the stored CloudProfile and the status the state will hold.
func (r *cloudProfileResource) predictPlan(spec rschema.Attribute, config, prior, planned tftypes.Value) tftypes.Value {
	planned = withStatusUnlessKept("keep_status", config, planned)
	if plannedSpec, _ := valueAt(planned, specLargePath); plannedSpec.IsFullyKnown() {
		// Nothing to fill in the spec (every entry unchanged or configured whole): the generation
		// alone needs no model of the stored object, and a large profile is not expanded again.
		var old *gardencorev1beta1.CloudProfile
		if !prior.IsNull() {
			old = &gardencorev1beta1.CloudProfile{ObjectMeta: metav1.ObjectMeta{Generation: priorGeneration(prior)}}
		}
		return withPredictedGeneration(planned, cloudprofile.StoredCloudProfileGeneration(old))
	}
	return predictWith(cloudProfileSpecRoot, spec, config, prior, planned, expandCloudProfileSpecTerraform,
		func(desired gardencorev1beta1.CloudProfileSpec, old *gardencorev1beta1.CloudProfileSpec, generation int64) (any, int64) {
			var oldProfile *gardencorev1beta1.CloudProfile
			if old != nil {
				oldProfile = &gardencorev1beta1.CloudProfile{ObjectMeta: metav1.ObjectMeta{Generation: generation}, Spec: *old}
			}
			stored, _ := cloudprofile.StoredCloudProfile(&gardencorev1beta1.CloudProfile{Spec: desired}, oldProfile, r.data.options(r.data.now()))
			return stored.Spec, stored.Generation
		})
}

// predictPlan predicts the stored NamespacedCloudProfile and the status the state will hold.
func (r *namespacedCloudProfileResource) predictPlan(spec rschema.Attribute, config, prior, planned tftypes.Value) tftypes.Value {
	planned = withStatusUnlessKept("keep_merged_status", config, planned)
	return predictWith(namespacedCloudProfileSpecRoot, spec, config, prior, planned, expandNamespacedCloudProfileSpecTerraform,
		func(desired gardencorev1beta1.NamespacedCloudProfileSpec, old *gardencorev1beta1.NamespacedCloudProfileSpec, generation int64) (any, int64) {
			var oldProfile *gardencorev1beta1.NamespacedCloudProfile
			if old != nil {
				oldProfile = &gardencorev1beta1.NamespacedCloudProfile{ObjectMeta: metav1.ObjectMeta{Generation: generation}, Spec: *old}
			}
			stored, _ := cloudprofile.StoredNamespacedCloudProfile(&gardencorev1beta1.NamespacedCloudProfile{Spec: desired}, oldProfile, r.data.options(r.data.now()))
			return stored.Spec, stored.Generation
		})
}

// predictWith fills planned with what store says the server stores for the configured spec, given
// the prior spec and generation (nil and 0 on create); expand reads a spec value.
func predictWith[S any](root specField, spec rschema.Attribute, config, prior, planned tftypes.Value,
	expand func(tftypes.Value, path.Path) (S, []path.Path, diag.Diagnostics),
	store func(desired S, old *S, generation int64) (any, int64),
) tftypes.Value {
	configSpec, priorSpec, ok := specsToPredict(config, prior)
	if !ok {
		return planned
	}
	desired, _, diags := expand(configSpec, path.Root("spec"))
	if diags.HasError() {
		return planned
	}
	var old *S
	if !prior.IsNull() {
		o, _, diags := expand(priorSpec, path.Root("spec"))
		if diags.HasError() {
			return planned
		}
		old = &o
	}
	storedSpec, generation := store(desired, old, priorGeneration(prior))
	return withPrediction(root, spec, planned, storedSpec, generation)
}

// specsToPredict returns the configured and prior specs; ok is false when the configuration is
// not fully known.
func specsToPredict(config, prior tftypes.Value) (configSpec, priorSpec tftypes.Value, ok bool) {
	configSpec, _ = valueAt(config, specLargePath)
	if !configSpec.IsFullyKnown() || configSpec.IsNull() {
		return configSpec, priorSpec, false
	}
	if !prior.IsNull() {
		priorSpec, _ = valueAt(prior, specLargePath)
		if !priorSpec.IsFullyKnown() || priorSpec.IsNull() {
			return configSpec, priorSpec, false
		}
	}
	return configSpec, priorSpec, true
}

// priorGeneration is metadata.generation of a prior state, 0 where it is not known.
func priorGeneration(prior tftypes.Value) int64 {
	var generation big.Float
	v := attributeOf(attributeOf(prior, "metadata"), "generation")
	if !v.IsKnown() || v.IsNull() || v.As(&generation) != nil {
		return 0
	}
	n, _ := generation.Int64()
	return n
}

// withPrediction fills the unknown values of planned's spec (of the schema attribute spec, built
// from root) and metadata.generation from what the server will store.
func withPrediction(root specField, spec rschema.Attribute, planned tftypes.Value, storedSpec any, generation int64) tftypes.Value {
	predictedSpec, diags := flattenSpecTerraform(root, storedSpec)
	if diags.HasError() {
		return planned
	}
	if plannedSpec, ok := valueAt(planned, specLargePath); ok {
		if filled, changed := fillUnknowns(spec, plannedSpec, predictedSpec); changed {
			if out, err := withValueAt(planned, specLargePath, filled); err == nil {
				planned = out
			}
		}
	}
	return withPredictedGeneration(planned, generation)
}

// withPredictedGeneration fills an unknown metadata.generation of planned.
func withPredictedGeneration(planned tftypes.Value, generation int64) tftypes.Value {
	at := largePath{"metadata", "generation"}
	if g, ok := valueAt(planned, at); !ok || g.IsKnown() {
		return planned
	}
	out, err := withValueAt(planned, at, tftypes.NewValue(tftypes.Number, generation))
	if err != nil {
		return planned
	}
	return out
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
// same place. Entries of keyed lists are matched by their key; other lists by position, when both
// have the same length.
func fillUnknowns(a rschema.Attribute, planned, predicted tftypes.Value) (tftypes.Value, bool) {
	if !planned.IsKnown() {
		return predicted, predicted.Type().Equal(planned.Type())
	}
	attrs := nestedAttributes(a)
	if attrs == nil || planned.IsNull() || !predicted.IsKnown() || predicted.IsNull() {
		return planned, false
	}
	if _, isList := a.(rschema.ListNestedAttribute); !isList {
		return mapAttributes(planned, predicted, func(name string, value, predictedValue tftypes.Value) (tftypes.Value, bool) {
			if unordered[name] && listLength(predictedValue) > 1 {
				return value, false
			}
			return fillUnknowns(attrs[name], value, predictedValue)
		})
	}
	if key := listKeyAttribute(attrs); key != "" {
		byKey := entriesByKey(predicted, key)
		return mapElements(planned, planned, func(element, _ tftypes.Value) (tftypes.Value, bool) {
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
	return mapElements(planned, predicted, func(element, p tftypes.Value) (tftypes.Value, bool) {
		return fillUnknowns(rschema.SingleNestedAttribute{Attributes: attrs}, element, p)
	})
}

// withStatusUnlessKept plans the status null unless the setting named keep is true. A kept status
// is the controller's, as the write finds it (on create the controller may have reconciled before
// the create's last request), and is left as the framework plans it.
func withStatusUnlessKept(keepAttribute string, config, planned tftypes.Value) tftypes.Value {
	var keep bool
	if v := attributeOf(config, keepAttribute); !v.IsKnown() || (!v.IsNull() && v.As(&keep) != nil) || keep {
		return planned
	}
	status, ok := valueAt(planned, largePath{"status"})
	predicted := tftypes.NewValue(planned.Type().(tftypes.Object).AttributeTypes["status"], nil)
	if ok && status.Equal(predicted) {
		return planned
	}
	out, err := withValueAt(planned, largePath{"status"}, predicted)
	if err != nil {
		return planned
	}
	return out
}
