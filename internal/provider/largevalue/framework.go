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

// keepSemanticallyEqual returns next with every value that only writes the prior one differently
// (a quantity "1Gi" for "1024Mi", a timestamp in another zone) replaced by the prior one, as the
// framework does after a read or an apply with the prior or planned state. Beyond the framework,
// an empty list or map where next is null is kept too, as Kubernetes APIs omit empty collections:
// `[]` comes back as null.
func keepSemanticallyEqual(ctx context.Context, a rschema.Attribute, prior, next tftypes.Value) (tftypes.Value, bool) {
	if next.IsKnown() && next.IsNull() && isEmptyCollection(prior) && prior.Type().Equal(next.Type()) {
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
			return keepSemanticallyEqual(ctx, attrs[name], priorValue, value)
		})
	}
	if !tfvalue.HoldsElements(a) {
		return keepInObject(prior, next)
	}
	return tfvalue.MapElements(next, prior, func(element, priorElement tftypes.Value) (tftypes.Value, bool) {
		return keepInObject(priorElement, element)
	})
}

// keepPriorStoredValue returns proposed, the value Terraform proposes for the attribute a whose
// configuration is config, with every part that stands for what prior stands for in the Garden
// (storedAlike: another spelling, or an empty list or map for one left out) replaced by prior's,
// so that such a configuration plans no change. It replaces at the outermost attribute where
// Terraform accepts a planned value other than the configured one: one equal to the prior value
// where both it and the configuration are set, or any value of a Computed attribute the
// configuration leaves out. Where neither holds (an empty list configured where the prior value is
// null, in an entry that changes otherwise), the configured form stays, and the plan shows it
// within that entry's change.
func keepPriorStoredValue(ctx context.Context, a rschema.Attribute, prior, proposed, config tftypes.Value) (tftypes.Value, bool) {
	if tfvalue.Equal(prior, proposed) {
		return proposed, false
	}
	if storedAlike(ctx, a, prior, proposed) && ((!prior.IsNull() && !config.IsNull()) || (config.IsNull() && a.IsComputed())) {
		return prior, true
	}
	attrs := tfvalue.NestedAttributes(a)
	if attrs == nil || !prior.IsKnown() || prior.IsNull() || !proposed.IsKnown() || proposed.IsNull() || !prior.Type().Equal(proposed.Type()) {
		return proposed, false
	}
	inObject := func(p, n, c tftypes.Value) (tftypes.Value, bool) {
		return tfvalue.MapAttributes(n, p, func(name string, value, priorValue tftypes.Value) (tftypes.Value, bool) {
			return keepPriorStoredValue(ctx, attrs[name], priorValue, value, attributeOrNull(c, name))
		})
	}
	if !tfvalue.HoldsElements(a) {
		return inObject(prior, proposed, config)
	}
	// Terraform checks the attributes of each element, never an element as a whole.
	return mapElementsWithConfig(proposed, prior, config, inObject)
}

// conformToConfig returns planned, the plan of the attribute a after the steps of a changing plan
// (unknowns marked and filled in), as Terraform accepts it against the configuration config and
// the prior value: a part stored alike the prior one (see storedAlike) becomes the prior one where
// Terraform accepts that, and a value kept from the prior state where it no longer does (a list
// left out whose prior value was [], in an object that changes otherwise) becomes the configured
// one, which stands for the same.
func conformToConfig(ctx context.Context, a rschema.Attribute, prior, planned, config tftypes.Value) (tftypes.Value, bool) {
	switch {
	case !planned.IsKnown() || tfvalue.Equal(planned, config) || (a.IsComputed() && config.IsNull()):
		return planned, false
	case !prior.IsNull() && !config.IsNull() && (tfvalue.Equal(planned, prior) || (planned.IsFullyKnown() && storedAlike(ctx, a, prior, planned))):
		return prior, !tfvalue.Equal(planned, prior)
	}
	attrs := tfvalue.NestedAttributes(a)
	if attrs == nil || planned.IsNull() || !config.IsKnown() || config.IsNull() {
		if storedAlike(ctx, a, config, planned) {
			return config, true
		}
		return planned, false
	}
	inObject := func(p, n, c tftypes.Value) (tftypes.Value, bool) {
		return tfvalue.MapAttributes(n, c, func(name string, value, configValue tftypes.Value) (tftypes.Value, bool) {
			return conformToConfig(ctx, attrs[name], attributeOrNull(p, name), value, configValue)
		})
	}
	if !tfvalue.HoldsElements(a) {
		return inObject(prior, planned, config)
	}
	if !prior.IsKnown() || prior.IsNull() {
		return planned, false // nothing of it was kept from the prior state
	}
	return mapElementsWithConfig(planned, prior, config, inObject)
}

// storedAlike tells whether two values of the attribute a stand for the same stored value: equal,
// strings that write one value differently (semantic equality), or lists, sets or maps that are
// each null or empty (Kubernetes APIs omit empty collections), at any depth.
func storedAlike(ctx context.Context, a rschema.Attribute, x, y tftypes.Value) bool {
	if !x.IsKnown() || !y.IsKnown() || x.Type() == nil || y.Type() == nil || !x.Type().Equal(y.Type()) {
		return false
	}
	if tfvalue.Equal(x, y) || (nullOrEmpty(x) && nullOrEmpty(y)) {
		return true
	}
	if x.IsNull() || y.IsNull() {
		return false
	}
	if s, ok := a.(rschema.StringAttribute); ok {
		_, equal := semanticallyEqualString(ctx, s, x, y)
		return equal
	}
	attrs := tfvalue.NestedAttributes(a)
	if attrs == nil {
		return tfvalue.Equal(x, y)
	}
	objectAlike := func(x, y tftypes.Value) bool {
		var xs, ys map[string]tftypes.Value
		if x.IsNull() || y.IsNull() || !x.IsKnown() || !y.IsKnown() || x.As(&xs) != nil || y.As(&ys) != nil {
			return tfvalue.Equal(x, y)
		}
		for name, attr := range attrs {
			if !storedAlike(ctx, attr, xs[name], ys[name]) {
				return false
			}
		}
		return true
	}
	if !tfvalue.HoldsElements(a) {
		return objectAlike(x, y)
	}
	if x.Type().Is(tftypes.Map{}) {
		var xs, ys map[string]tftypes.Value
		if x.As(&xs) != nil || y.As(&ys) != nil || len(xs) != len(ys) {
			return false
		}
		for key, xe := range xs {
			if ye, ok := ys[key]; !ok || !objectAlike(xe, ye) {
				return false
			}
		}
		return true
	}
	var xs, ys []tftypes.Value
	if x.As(&xs) != nil || y.As(&ys) != nil || len(xs) != len(ys) {
		return false
	}
	for i := range xs {
		if !objectAlike(xs[i], ys[i]) {
			return false
		}
	}
	return true
}

// nullOrEmpty tells whether v is a null or empty list, set or map.
func nullOrEmpty(v tftypes.Value) bool {
	switch v.Type().(type) {
	case tftypes.List, tftypes.Set, tftypes.Map:
		return v.IsNull() || isEmptyCollection(v)
	}
	return false
}

// attributeOrNull is the named attribute of an object value; null where the object is null or
// has none (the configuration below a parent it leaves out).
func attributeOrNull(v tftypes.Value, name string) tftypes.Value {
	a := tfvalue.Attribute(v, name)
	if a.Type() == nil {
		if !v.IsKnown() {
			return tftypes.NewValue(tftypes.DynamicPseudoType, tftypes.UnknownValue)
		}
		return tftypes.NewValue(tftypes.DynamicPseudoType, nil)
	}
	return a
}

// mapElementsWithConfig applies f to each element of the list or map v with the elements of prior
// and config at the same key or index (null where they have none), and rebuilds v only when f
// changed something.
func mapElementsWithConfig(v, prior, config tftypes.Value, f func(prior, element, config tftypes.Value) (tftypes.Value, bool)) (tftypes.Value, bool) {
	if v.Type().Is(tftypes.Map{}) {
		var elements, priors, configs map[string]tftypes.Value
		if v.As(&elements) != nil || prior.As(&priors) != nil {
			return v, false
		}
		if config.IsKnown() && !config.IsNull() {
			_ = config.As(&configs)
		}
		var rebuilt map[string]tftypes.Value
		for key, element := range elements {
			p, ok := priors[key]
			if !ok {
				continue // a new entry: nothing to keep
			}
			c, ok := configs[key]
			if !ok {
				c = tftypes.NewValue(element.Type(), nil)
			}
			if ne, changed := f(p, element, c); changed {
				if rebuilt == nil {
					rebuilt = maps.Clone(elements)
				}
				rebuilt[key] = ne
			}
		}
		if rebuilt == nil {
			return v, false
		}
		return tftypes.NewValue(v.Type(), rebuilt), true
	}
	var elements, priors, configs []tftypes.Value
	if v.As(&elements) != nil || prior.As(&priors) != nil {
		return v, false
	}
	if config.IsKnown() && !config.IsNull() {
		_ = config.As(&configs)
	}
	var rebuilt []tftypes.Value
	for i, element := range elements {
		if i >= len(priors) {
			break
		}
		c := tftypes.NewValue(element.Type(), nil)
		if i < len(configs) {
			c = configs[i]
		}
		if ne, changed := f(priors[i], element, c); changed {
			if rebuilt == nil {
				rebuilt = slices.Clone(elements)
			}
			rebuilt[i] = ne
		}
	}
	if rebuilt == nil {
		return v, false
	}
	return tftypes.NewValue(v.Type(), rebuilt), true
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
	names := slices.Sorted(maps.Keys(attrs))
	if !tfvalue.HoldsElements(a) {
		return objectProblems(attrs, names, v, at)
	}
	var diags diag.Diagnostics
	if _, isMap := a.(rschema.MapNestedAttribute); isMap {
		var elements map[string]tftypes.Value
		if err := v.As(&elements); err != nil {
			return nil
		}
		for _, key := range slices.Sorted(maps.Keys(elements)) {
			diags.Append(objectProblems(attrs, names, elements[key], at.AtMapKey(key))...)
		}
		return diags
	}
	var elements []tftypes.Value
	if err := v.As(&elements); err != nil {
		return nil
	}
	for i, element := range elements {
		diags.Append(objectProblems(attrs, names, element, at.AtListIndex(i))...)
	}
	return diags
}

// objectProblems checks each attribute of an object of a nested attribute, as the framework does
// for every object it walks: the attributes of a null object are null, those of an unknown one
// unknown. names are the names of attrs in order; an attribute's path is built only for a
// diagnostic or an attribute with nested attributes (the framework's paths copy their steps).
func objectProblems(attrs map[string]rschema.Attribute, names []string, object tftypes.Value, at path.Path) diag.Diagnostics {
	var values map[string]tftypes.Value
	if object.IsKnown() && !object.IsNull() {
		if err := object.As(&values); err != nil {
			return nil
		}
	}
	var diags diag.Diagnostics
	for _, name := range names {
		a := attrs[name]
		value, ok := values[name]
		switch {
		case ok:
		case !object.IsKnown():
			value = tftypes.NewValue(tftypes.DynamicPseudoType, tftypes.UnknownValue)
		default:
			value = tftypes.NewValue(tftypes.DynamicPseudoType, nil)
		}
		readOnlySet, requiredUnset := a.IsComputed() && !a.IsOptional() && !value.IsNull(), a.IsRequired() && value.IsNull()
		if !readOnlySet && !requiredUnset && tfvalue.NestedAttributes(a) == nil {
			continue
		}
		p := at.AtName(name)
		if readOnlySet {
			diags.AddAttributeError(p, "Invalid Configuration for Read-Only Attribute",
				"Cannot set value for this attribute as the provider has marked it as read-only. Remove the configuration line setting the value.\n\n"+
					"Refer to the provider documentation or contact the provider developers for additional information about configurable and read-only attributes that are supported.")
		}
		if requiredUnset {
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
