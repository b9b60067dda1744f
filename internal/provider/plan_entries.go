package provider

import (
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/gardener-community/terraform-provider-gardener/internal/tfvalue"
)

// A plan goes beyond the framework in one way: a list entry the configuration leaves exactly as it
// was keeps its prior value, matched by its key (version or name) rather than by its index. The
// framework would mark every Computed value such an entry leaves to Gardener unknown ("known after
// apply") as soon as anything else in the resource changes, and Terraform pairs list entries by
// index, so an entry inserted before others would hand their server defaults to the wrong entries.
// Gardener stores an unchanged entry as it stored it before, so its prior value is exact. The one
// input outside an entry that changes how Gardener stores it, the capability definitions
// (spec.machine_capabilities), turns this step off when it changes.

// Terraform proposes a value the configuration leaves null in a list entry from the prior entry at
// the same index, which after an insert or a reorder is another entry: a machine type inserted
// before an arm64 one would be planned, and written, as arm64. So every such value is first made
// unknown (unknownComputedInEntries); the entries left as they were then take their prior value by
// key, and the others are predicted as Gardener stores them, like an appended entry.

// entryKeyAttributeNames are the attributes that identify the entries of a keyed list.
var entryKeyAttributeNames = []string{"version", "name"}

// capabilityDefinitionsAttribute is the spec attribute whose change alters how Gardener stores
// every entry (architectures and capabilities are synchronised with it).
const capabilityDefinitionsAttribute = "machine_capabilities"

// keepUnchangedSpecEntries returns the planned spec with every keyed list entry that the
// configuration leaves as it was replaced by its prior value.
func keepUnchangedSpecEntries(spec rschema.Attribute, planned, config, prior tftypes.Value) (tftypes.Value, bool) {
	if !prior.IsKnown() || prior.IsNull() || !config.IsKnown() || config.IsNull() {
		return planned, false
	}
	if !tfvalue.Attribute(config, capabilityDefinitionsAttribute).Equal(tfvalue.Attribute(prior, capabilityDefinitionsAttribute)) {
		return planned, false
	}
	return keepUnchangedEntries(spec, planned, config, prior)
}

// keepUnchangedEntries walks a nested attribute's planned value with its configuration and prior
// value, replacing the entries of keyed lists (maps by key, or lists with a key attribute) that
// are unchanged.
func keepUnchangedEntries(a rschema.Attribute, planned, config, prior tftypes.Value) (tftypes.Value, bool) {
	attrs := tfvalue.NestedAttributes(a)
	if attrs == nil || !planned.IsKnown() || planned.IsNull() || !prior.IsKnown() || prior.IsNull() {
		return planned, false
	}
	if !tfvalue.HoldsElements(a) {
		return tfvalue.MapAttributes(planned, config, func(name string, value, configValue tftypes.Value) (tftypes.Value, bool) {
			return keepUnchangedEntries(attrs[name], value, configValue, tfvalue.Attribute(prior, name))
		})
	}
	var priorOf func(element tftypes.Value) (tftypes.Value, bool)
	if _, isMap := a.(rschema.MapNestedAttribute); isMap {
		return keepUnchangedMapEntries(attrs, planned, config, prior)
	} else if key := listKeyAttribute(attrs); key != "" {
		priorByKey := entriesByKey(prior, key)
		priorOf = func(element tftypes.Value) (tftypes.Value, bool) {
			e, ok := priorByKey[stringAttribute(element, key)]
			return e, ok
		}
	} else {
		return planned, false
	}
	return tfvalue.MapElements(planned, config, func(element, configElement tftypes.Value) (tftypes.Value, bool) {
		priorElement, ok := priorOf(element)
		if !ok {
			return element, false
		}
		return keepUnchangedEntry(attrs, element, configElement, priorElement)
	})
}

// keepUnchangedMapEntries is keepUnchangedEntries of a map, whose entries pair by key.
func keepUnchangedMapEntries(attrs map[string]rschema.Attribute, planned, config, prior tftypes.Value) (tftypes.Value, bool) {
	var plannedElements, configElements, priorElements map[string]tftypes.Value
	if planned.As(&plannedElements) != nil || prior.As(&priorElements) != nil {
		return planned, false
	}
	if config.IsKnown() && !config.IsNull() {
		_ = config.As(&configElements)
	}
	rebuilt, changed := make(map[string]tftypes.Value, len(plannedElements)), false
	for key, element := range plannedElements {
		rebuilt[key] = element
		priorElement, ok := priorElements[key]
		configElement, configured := configElements[key]
		if !ok || !configured {
			continue
		}
		if kept, c := keepUnchangedEntry(attrs, element, configElement, priorElement); c {
			rebuilt[key], changed = kept, true
		}
	}
	if !changed {
		return planned, false
	}
	return tftypes.NewValue(planned.Type(), rebuilt), true
}

// keepUnchangedEntry returns the prior entry when the configuration leaves it as it was, else the
// planned entry with the unchanged entries of its own keyed lists kept.
func keepUnchangedEntry(attrs map[string]rschema.Attribute, element, configElement, priorElement tftypes.Value) (tftypes.Value, bool) {
	if unchangedEntry(attrs, configElement, priorElement) {
		return priorElement, !priorElement.Equal(element)
	}
	return tfvalue.MapAttributes(element, configElement, func(name string, value, configValue tftypes.Value) (tftypes.Value, bool) {
		return keepUnchangedEntries(attrs[name], value, configValue, tfvalue.Attribute(priorElement, name))
	})
}

// listKeyAttribute returns the attribute that identifies the entries of a list, "" for none.
func listKeyAttribute(attrs map[string]rschema.Attribute) string {
	for _, name := range entryKeyAttributeNames {
		if a, ok := attrs[name].(rschema.StringAttribute); ok && a.IsRequired() {
			return name
		}
	}
	return ""
}

// entriesByKey indexes the entries of a list value by a string attribute; a key that occurs twice
// (which Gardener rejects) is left out.
func entriesByKey(list tftypes.Value, key string) map[string]tftypes.Value {
	var elements []tftypes.Value
	if list.As(&elements) != nil {
		return nil
	}
	out := make(map[string]tftypes.Value, len(elements))
	seen := make(map[string]bool, len(elements))
	for _, e := range elements {
		k := stringAttribute(e, key)
		if seen[k] {
			delete(out, k)
			continue
		}
		seen[k] = true
		out[k] = e
	}
	return out
}

// stringAttribute returns a known string attribute of an object value, "" otherwise.
func stringAttribute(object tftypes.Value, name string) string {
	var s string
	v := tfvalue.Attribute(object, name)
	if !v.IsKnown() || v.IsNull() || v.As(&s) != nil {
		return ""
	}
	return s
}

// unchangedEntry tells whether the configuration of an entry sets exactly what the prior value
// holds: every configured value equal, every value it leaves null either Computed (Gardener's
// default, kept in the prior value) or null before too.
func unchangedEntry(attrs map[string]rschema.Attribute, config, prior tftypes.Value) bool {
	if !config.IsKnown() || !prior.IsKnown() || config.IsNull() != prior.IsNull() {
		return false
	}
	if config.IsNull() {
		return true
	}
	var configAttrs, priorAttrs map[string]tftypes.Value
	if config.As(&configAttrs) != nil || prior.As(&priorAttrs) != nil {
		return false
	}
	for name, a := range attrs {
		if !unchangedValue(a, configAttrs[name], priorAttrs[name]) {
			return false
		}
	}
	return true
}

// unchangedValue compares one attribute's configuration with its prior value (see unchangedEntry).
func unchangedValue(a rschema.Attribute, config, prior tftypes.Value) bool {
	switch {
	case !config.IsKnown():
		return false
	case config.IsNull():
		return a.IsComputed() || prior.IsNull()
	case !prior.IsKnown() || prior.IsNull():
		return false
	}
	attrs := tfvalue.NestedAttributes(a)
	if attrs == nil {
		return config.Equal(prior)
	}
	if !tfvalue.HoldsElements(a) {
		return unchangedEntry(attrs, config, prior)
	}
	if _, isMap := a.(rschema.MapNestedAttribute); isMap {
		return unchangedMap(attrs, config, prior)
	}
	var configElements, priorElements []tftypes.Value
	if config.As(&configElements) != nil || prior.As(&priorElements) != nil || len(configElements) != len(priorElements) {
		return false
	}
	for i := range configElements {
		if !unchangedEntry(attrs, configElements[i], priorElements[i]) {
			return false
		}
	}
	return true
}

// unchangedMap compares a map of entries by key (see unchangedEntry).
func unchangedMap(attrs map[string]rschema.Attribute, config, prior tftypes.Value) bool {
	var configElements, priorElements map[string]tftypes.Value
	if config.As(&configElements) != nil || prior.As(&priorElements) != nil || len(configElements) != len(priorElements) {
		return false
	}
	for key, c := range configElements {
		p, ok := priorElements[key]
		if !ok || !unchangedEntry(attrs, c, p) {
			return false
		}
	}
	return true
}

// unknownComputedInEntries returns the planned value of a nested attribute with every Computed
// value that the configuration leaves null inside a list entry made unknown, at any depth.
func unknownComputedInEntries(a rschema.Attribute, planned, config tftypes.Value) (tftypes.Value, bool) {
	attrs := tfvalue.NestedAttributes(a)
	if attrs == nil || !planned.IsKnown() || planned.IsNull() {
		return planned, false
	}
	if tfvalue.HoldsElements(a) {
		return tfvalue.MapElements(planned, config, func(element, configElement tftypes.Value) (tftypes.Value, bool) {
			return unknownComputedNulls(attrs, element, configElement)
		})
	}
	return tfvalue.MapAttributes(planned, config, func(name string, value, configValue tftypes.Value) (tftypes.Value, bool) {
		return unknownComputedInEntries(attrs[name], value, configValue)
	})
}

// unknownComputedNulls returns a list entry with each Computed attribute that its configuration
// leaves null made unknown, and the entries of its nested attributes likewise.
func unknownComputedNulls(attrs map[string]rschema.Attribute, entry, config tftypes.Value) (tftypes.Value, bool) {
	if !entry.IsKnown() || entry.IsNull() {
		return entry, false
	}
	return tfvalue.MapAttributes(entry, config, func(name string, value, configValue tftypes.Value) (tftypes.Value, bool) {
		a := attrs[name]
		if a.IsComputed() && configValue.IsKnown() && configValue.IsNull() {
			return tftypes.NewValue(value.Type(), tftypes.UnknownValue), value.IsKnown()
		}
		nested := tfvalue.NestedAttributes(a)
		if nested == nil || !value.IsKnown() || value.IsNull() {
			return value, false
		}
		if tfvalue.HoldsElements(a) {
			return tfvalue.MapElements(value, configValue, func(element, configElement tftypes.Value) (tftypes.Value, bool) {
				return unknownComputedNulls(nested, element, configElement)
			})
		}
		return unknownComputedNulls(nested, value, configValue)
	})
}
