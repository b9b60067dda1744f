package largevalue

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/gardener-community/terraform-provider-gardener/internal/tfvalue"
)

// What terraform-plugin-framework does to a value during a plan, an apply and a read, done here
// for the large attributes it never sees (see NewServer). Their attributes carry no
// defaults, plan modifiers, validators or deprecations (TestLargeAttributesHaveNothingTheServerWouldSkip),
// so three steps remain: marking Computed values unknown in a changing plan, keeping a value
// Terraform already has when the new one is only written differently (semantic equality), and
// checking that a configuration sets no read-only attribute and every required one.

// markComputedNullsUnknown plans a value as the framework plans a changing resource: every null
// value of a Computed attribute whose configuration is null becomes unknown ("known after
// apply"). config is the configuration at the same place or, where it ends above it (a null or
// unknown parent, a shorter list), the deepest configuration value on the way.
func markComputedNullsUnknown(a rschema.Attribute, planned, config tftypes.Value) (tftypes.Value, bool) {
	if planned.IsNull() {
		if config.IsNull() && a.IsComputed() {
			return tftypes.NewValue(planned.Type(), tftypes.UnknownValue), true
		}
		return planned, false
	}
	attrs := tfvalue.NestedAttributes(a)
	if !planned.IsKnown() || attrs == nil {
		return planned, false
	}
	if !tfvalue.HoldsElements(a) {
		return markObject(attrs, planned, config)
	}
	return tfvalue.MapElements(planned, config, func(element, configElement tftypes.Value) (tftypes.Value, bool) {
		return markObject(attrs, element, configElement)
	})
}

func markObject(attrs map[string]rschema.Attribute, planned, config tftypes.Value) (tftypes.Value, bool) {
	return tfvalue.MapAttributes(planned, config, func(name string, value, configValue tftypes.Value) (tftypes.Value, bool) {
		return markComputedNullsUnknown(attrs[name], value, configValue)
	})
}

// equivalence says which values stand for the same stored value.
type equivalence uint8

const (
	// sameSpelling: a string value that only writes another one differently (the framework's
	// semantic equality).
	sameSpelling equivalence = iota
	// sameStored: also an empty list or map for null, as Kubernetes APIs omit empty collections.
	sameStored
)

// keepSemanticallyEqual returns next with every value that only writes the prior one differently
// (a quantity "1Gi" for "1024Mi", a timestamp in another zone) replaced by the prior one, as the
// framework does after a read or an apply with the prior or planned state. With sameStored, beyond
// the framework, an empty list or map where next is null is kept too: `[]` comes back as null.
func keepSemanticallyEqual(ctx context.Context, eq equivalence, a rschema.Attribute, prior, next tftypes.Value) (tftypes.Value, bool) {
	if eq == sameStored && next.IsKnown() && next.IsNull() && isEmptyCollection(prior) && prior.Type().Equal(next.Type()) {
		return prior, true
	}
	if !prior.IsKnown() || prior.IsNull() || !next.IsKnown() || next.IsNull() || !prior.Type().Equal(next.Type()) {
		return next, false
	}
	if s, ok := a.(rschema.StringAttribute); ok {
		return semanticallyEqualString(ctx, s, prior, next)
	}
	attrs := tfvalue.NestedAttributes(a)
	if attrs == nil {
		return next, false
	}
	keepInObject := func(p, n tftypes.Value) (tftypes.Value, bool) {
		return tfvalue.MapAttributes(n, p, func(name string, value, priorValue tftypes.Value) (tftypes.Value, bool) {
			return keepSemanticallyEqual(ctx, eq, attrs[name], priorValue, value)
		})
	}
	if !tfvalue.HoldsElements(a) {
		return keepInObject(prior, next)
	}
	return tfvalue.MapElements(next, prior, func(element, priorElement tftypes.Value) (tftypes.Value, bool) {
		return keepInObject(priorElement, element)
	})
}

func semanticallyEqualString(ctx context.Context, a rschema.StringAttribute, prior, next tftypes.Value) (tftypes.Value, bool) {
	if a.CustomType == nil || prior.Equal(next) {
		return next, false
	}
	priorValue, err := a.CustomType.ValueFromTerraform(ctx, prior)
	if err != nil {
		return next, false
	}
	nextValue, err := a.CustomType.ValueFromTerraform(ctx, next)
	if err != nil {
		return next, false
	}
	withEquality, ok := priorValue.(basetypes.StringValuableWithSemanticEquals)
	nextString, isString := nextValue.(basetypes.StringValuable)
	if !ok || !isString {
		return next, false
	}
	if equal, diags := withEquality.StringSemanticEquals(ctx, nextString); equal && !diags.HasError() {
		return prior, true
	}
	return next, false
}

// configurationProblems are the errors the framework's validation of a configuration reports
// below a large attribute (fwserver.AttributeValidate without validators): a read-only attribute
// that is set, and a required one that is null. at is the path of the attribute, v its value; the
// attribute itself is checked by the framework, whose placeholder is null exactly where v is.
func configurationProblems(a rschema.Attribute, v tftypes.Value, at path.Path) diag.Diagnostics {
	attrs := tfvalue.NestedAttributes(a)
	if attrs == nil || v.IsNull() || !v.IsKnown() {
		return nil
	}
	if !tfvalue.HoldsElements(a) {
		return objectProblems(attrs, v, at)
	}
	var diags diag.Diagnostics
	if _, isMap := a.(rschema.MapNestedAttribute); isMap {
		var elements map[string]tftypes.Value
		if err := v.As(&elements); err != nil {
			return nil
		}
		for _, key := range slices.Sorted(maps.Keys(elements)) {
			diags.Append(objectProblems(attrs, elements[key], at.AtMapKey(key))...)
		}
		return diags
	}
	var elements []tftypes.Value
	if err := v.As(&elements); err != nil {
		return nil
	}
	for i, element := range elements {
		diags.Append(objectProblems(attrs, element, at.AtListIndex(i))...)
	}
	return diags
}

// objectProblems checks each attribute of an object of a nested attribute, as the framework does
// for every object it walks: the attributes of a null object are null, those of an unknown one
// unknown.
func objectProblems(attrs map[string]rschema.Attribute, object tftypes.Value, at path.Path) diag.Diagnostics {
	var values map[string]tftypes.Value
	if object.IsKnown() && !object.IsNull() {
		if err := object.As(&values); err != nil {
			return nil
		}
	}
	var diags diag.Diagnostics
	for _, name := range slices.Sorted(maps.Keys(attrs)) {
		a := attrs[name]
		value, ok := values[name]
		switch {
		case ok:
		case !object.IsKnown():
			value = tftypes.NewValue(tftypes.DynamicPseudoType, tftypes.UnknownValue)
		default:
			value = tftypes.NewValue(tftypes.DynamicPseudoType, nil)
		}
		p := at.AtName(name)
		if a.IsComputed() && !a.IsOptional() && !value.IsNull() {
			diags.AddAttributeError(p, "Invalid Configuration for Read-Only Attribute",
				"Cannot set value for this attribute as the provider has marked it as read-only. Remove the configuration line setting the value.\n\n"+
					"Refer to the provider documentation or contact the provider developers for additional information about configurable and read-only attributes that are supported.")
		}
		if a.IsRequired() && value.IsNull() {
			diags.AddAttributeError(p, "Missing Configuration for Required Attribute",
				fmt.Sprintf("Must set a configuration value for the %s attribute as the provider has marked it as required.\n\n", p)+
					"Refer to the provider documentation or contact the provider developers for additional information about configurable attributes that are required.")
		}
		diags.Append(configurationProblems(a, value, p)...)
	}
	return diags
}

// isEmptyCollection tells whether v is a known list, set or map without elements.
func isEmptyCollection(v tftypes.Value) bool {
	if !v.IsKnown() || v.IsNull() {
		return false
	}
	switch v.Type().(type) {
	case tftypes.List, tftypes.Set:
		var elements []tftypes.Value
		return v.As(&elements) == nil && len(elements) == 0
	case tftypes.Map:
		var elements map[string]tftypes.Value
		return v.As(&elements) == nil && len(elements) == 0
	}
	return false
}
