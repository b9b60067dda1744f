package largevalue

import (
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/gardener-community/terraform-provider-gardener/internal/tfvalue"
)

// Generated configuration (`terraform plan -generate-config-out`, `terraform query
// -generate-config-out`) writes `name = null` for every Optional attribute the imported object
// leaves null, and leaves out a null attribute only when it is also Computed. So that it writes
// what a person would write, the Server serves the resources with large attributes with every
// Optional attribute also Computed (servedSchema), and plans them as Terraform plans them under
// the provider's own schema: for an Optional+Computed attribute whose configuration is null,
// Terraform proposes the prior state's value, where under the provider's schema it proposes
// null (the configuration's). proposeFromConfig undoes exactly that, so that every step after it
// (the framework's plan, the provider's planners) sees the proposal it always saw, and a value
// removed from the configuration plans its removal. Terraform accepts such a plan: a planned
// value equal to the configuration's is valid for any attribute, and Computed only widens what
// it accepts. Computed is not part of a value's type, so no state changes.

// configured is what Terraform proposes from the configuration in an object of the provider's
// schema: its attributes by name.
type configured struct {
	// fromConfig: an Optional attribute that is not Computed in the provider's schema, whose
	// proposed value is the configuration's.
	fromConfig bool
	// nesting is how a nested attribute's objects repeat; zero for other attributes.
	nesting nesting
	// children are the nested attribute's attributes, by name.
	children map[string]*configured
}

// nesting is how the objects of a nested attribute repeat.
type nesting int

const (
	notNested nesting = iota
	nestedOne
	nestedList
	nestedMap
	nestedSet
)

// newConfigured is the configured tree of a resource schema's attributes (the resources have no
// blocks; servedSchema leaves blocks as they are).
func newConfigured(attrs map[string]rschema.Attribute) *configured {
	c := &configured{nesting: nestedOne, children: make(map[string]*configured, len(attrs))}
	for name, a := range attrs {
		c.children[name] = attributeConfigured(a)
	}
	return c
}

func attributeConfigured(a rschema.Attribute) *configured {
	var c *configured
	switch n := a.(type) {
	case rschema.SingleNestedAttribute:
		c = newConfigured(n.Attributes)
	case rschema.ListNestedAttribute:
		c = newConfigured(n.NestedObject.Attributes)
		c.nesting = nestedList
	case rschema.MapNestedAttribute:
		c = newConfigured(n.NestedObject.Attributes)
		c.nesting = nestedMap
	case rschema.SetNestedAttribute:
		c = &configured{nesting: nestedSet}
	default:
		c = &configured{nesting: notNested}
	}
	c.fromConfig = a.IsOptional() && !a.IsComputed() && !a.IsWriteOnly()
	return c
}

// proposeFromConfig is Terraform's proposed value of the object c under the served schema as
// Terraform proposes it under the provider's schema: every attribute c proposes from the
// configuration whose configuration is null is null. Objects in sets are left as proposed (the
// served schema leaves them as they are).
func (c *configured) proposeFromConfig(proposed, config tftypes.Value) (tftypes.Value, bool) {
	if !proposed.IsKnown() || proposed.IsNull() || !config.IsKnown() || config.IsNull() || tfvalue.Equal(proposed, config) {
		return proposed, false
	}
	return tfvalue.MapAttributes(proposed, config, func(name string, value, configValue tftypes.Value) (tftypes.Value, bool) {
		child := c.children[name]
		switch {
		case child == nil || !configValue.IsKnown():
			return value, false
		case configValue.IsNull():
			if child.fromConfig && !value.IsNull() {
				return configValue, true
			}
			return value, false
		}
		switch child.nesting {
		case nestedOne:
			return child.proposeFromConfig(value, configValue)
		case nestedList, nestedMap:
			if !value.IsKnown() || value.IsNull() {
				return value, false
			}
			return tfvalue.MapElements(value, configValue, child.proposeFromConfig)
		}
		return value, false
	})
}

// servedSchema is a copy of a resource schema of the provider with every Optional attribute also
// Computed, except write-only ones and those in objects of sets or in blocks.
func servedSchema(s *tfprotov6.Schema) *tfprotov6.Schema {
	if s == nil {
		return nil
	}
	out := *s
	out.Block = servedBlock(s.Block)
	return &out
}

func servedBlock(b *tfprotov6.SchemaBlock) *tfprotov6.SchemaBlock {
	if b == nil {
		return nil
	}
	out := *b
	out.Attributes = make([]*tfprotov6.SchemaAttribute, len(b.Attributes))
	for i, a := range b.Attributes {
		out.Attributes[i] = servedAttribute(a)
	}
	return &out
}

func servedAttribute(a *tfprotov6.SchemaAttribute) *tfprotov6.SchemaAttribute {
	out := *a
	if out.Optional && !out.WriteOnly { // Terraform rejects a Computed write-only attribute
		out.Computed = true
	}
	if a.NestedType != nil && a.NestedType.Nesting != tfprotov6.SchemaObjectNestingModeSet {
		nested := *a.NestedType
		nested.Attributes = make([]*tfprotov6.SchemaAttribute, len(a.NestedType.Attributes))
		for i, na := range a.NestedType.Attributes {
			nested.Attributes[i] = servedAttribute(na)
		}
		out.NestedType = &nested
	}
	return &out
}
