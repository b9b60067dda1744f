package largevalue

import (
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
// schema: the attributes and nested blocks by name.
type configured struct {
	// fromConfig: an Optional attribute that is not Computed in the provider's schema, whose
	// proposed value is the configuration's.
	fromConfig bool
	// nesting is how a nested object repeats (tfprotov6.SchemaObjectNestingMode, or the block's
	// mode as one); zero for an attribute that is no nested object.
	nesting tfprotov6.SchemaObjectNestingMode
	// children are the nested object's attributes and blocks, by name.
	children map[string]*configured
}

// newConfigured is the configured tree of a block of the provider's schema.
func newConfigured(b *tfprotov6.SchemaBlock) *configured {
	c := &configured{nesting: tfprotov6.SchemaObjectNestingModeSingle, children: map[string]*configured{}}
	addBlockChildren(c, b)
	return c
}

func addBlockChildren(c *configured, b *tfprotov6.SchemaBlock) {
	if b == nil {
		return
	}
	for _, a := range b.Attributes {
		c.children[a.Name] = attributeConfigured(a)
	}
	for _, nb := range b.BlockTypes {
		child := &configured{nesting: blockNesting(nb.Nesting), children: map[string]*configured{}}
		addBlockChildren(child, nb.Block)
		c.children[nb.TypeName] = child
	}
}

func attributeConfigured(a *tfprotov6.SchemaAttribute) *configured {
	c := &configured{fromConfig: a.Optional && !a.Computed && !a.WriteOnly}
	if a.NestedType != nil {
		c.nesting, c.children = a.NestedType.Nesting, make(map[string]*configured, len(a.NestedType.Attributes))
		for _, na := range a.NestedType.Attributes {
			c.children[na.Name] = attributeConfigured(na)
		}
	}
	return c
}

// blockNesting is a block's nesting mode as the equivalent mode of a nested attribute.
func blockNesting(m tfprotov6.SchemaNestedBlockNestingMode) tfprotov6.SchemaObjectNestingMode {
	switch m {
	case tfprotov6.SchemaNestedBlockNestingModeSingle, tfprotov6.SchemaNestedBlockNestingModeGroup:
		return tfprotov6.SchemaObjectNestingModeSingle
	case tfprotov6.SchemaNestedBlockNestingModeList:
		return tfprotov6.SchemaObjectNestingModeList
	case tfprotov6.SchemaNestedBlockNestingModeMap:
		return tfprotov6.SchemaObjectNestingModeMap
	case tfprotov6.SchemaNestedBlockNestingModeSet:
		return tfprotov6.SchemaObjectNestingModeSet
	}
	return tfprotov6.SchemaObjectNestingModeInvalid
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
		case tfprotov6.SchemaObjectNestingModeSingle:
			return child.proposeFromConfig(value, configValue)
		case tfprotov6.SchemaObjectNestingModeList, tfprotov6.SchemaObjectNestingModeMap:
			if !value.IsKnown() || value.IsNull() {
				return value, false
			}
			return tfvalue.MapElements(value, configValue, child.proposeFromConfig)
		}
		return value, false
	})
}

// servedSchema is a copy of a resource schema of the provider with every Optional attribute also
// Computed, except in objects nested in sets.
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
	out.BlockTypes = make([]*tfprotov6.SchemaNestedBlock, len(b.BlockTypes))
	for i, nb := range b.BlockTypes {
		copied := *nb
		if nb.Nesting != tfprotov6.SchemaNestedBlockNestingModeSet {
			copied.Block = servedBlock(nb.Block)
		}
		out.BlockTypes[i] = &copied
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
