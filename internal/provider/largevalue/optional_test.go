package largevalue

import (
	"context"
	"testing"

	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/gardener-community/terraform-provider-gardener/internal/tfvalue"
)

// optionalSchema is a resource schema as Terraform gets it, with an Optional attribute, a
// server-computed one, a required one, a write-only one, an attribute map of objects (as the
// spec's keyed entries) with an Optional and an Optional+Computed attribute, a set of objects and
// a list block.
func optionalSchema() *tfprotov6.Schema {
	entry := []*tfprotov6.SchemaAttribute{
		{Name: "expiration", Type: tftypes.String, Optional: true},
		{Name: "architecture", Type: tftypes.String, Optional: true, Computed: true},
	}
	return &tfprotov6.Schema{Block: &tfprotov6.SchemaBlock{
		Attributes: []*tfprotov6.SchemaAttribute{
			{Name: "name", Type: tftypes.String, Required: true},
			{Name: "note", Type: tftypes.String, Optional: true},
			{Name: "defaulted", Type: tftypes.String, Optional: true, Computed: true},
			{Name: "force", Type: tftypes.Bool, Optional: true, WriteOnly: true},
			{Name: "versions", Optional: true, NestedType: &tfprotov6.SchemaObject{Nesting: tfprotov6.SchemaObjectNestingModeMap, Attributes: entry}},
			{Name: "zones", Optional: true, NestedType: &tfprotov6.SchemaObject{Nesting: tfprotov6.SchemaObjectNestingModeSet, Attributes: entry}},
		},
		BlockTypes: []*tfprotov6.SchemaNestedBlock{{TypeName: "rules", Nesting: tfprotov6.SchemaNestedBlockNestingModeList, Block: &tfprotov6.SchemaBlock{
			Attributes: []*tfprotov6.SchemaAttribute{{Name: "limit", Type: tftypes.Number, Optional: true}},
		}}},
	}}
}

// TestServedSchema_OptionalAttributesAreComputedToo: generated configuration leaves out a null
// attribute only when it is Computed, so the served schema marks every Optional attribute
// Computed, at any depth, except write-only ones (Terraform rejects a Computed write-only
// attribute) and those in objects of sets or in blocks; it leaves the provider's schema as it was.
func TestServedSchema_OptionalAttributesAreComputedToo(t *testing.T) {
	own := optionalSchema()
	served := servedSchema(own)
	flags := func(a *tfprotov6.SchemaAttribute) [3]bool { return [3]bool{a.Required, a.Optional, a.Computed} }
	top := map[string][3]bool{}
	for _, a := range served.Block.Attributes {
		top[a.Name] = flags(a)
	}
	want := map[string][3]bool{
		"name": {true, false, false}, "note": {false, true, true}, "defaulted": {false, true, true},
		"force": {false, true, false}, "versions": {false, true, true}, "zones": {false, true, true},
	}
	for name, w := range want {
		if top[name] != w {
			t.Errorf("%s: (required, optional, computed) = %v, want %v", name, top[name], w)
		}
	}
	for _, a := range served.Block.Attributes[4].NestedType.Attributes {
		if !a.Computed {
			t.Errorf("versions.%s is not Computed", a.Name)
		}
	}
	if a := served.Block.Attributes[5].NestedType.Attributes[0]; a.Computed {
		t.Errorf("zones.%s (in a set) is Computed", a.Name)
	}
	if a := served.Block.BlockTypes[0].Block.Attributes[0]; a.Computed {
		t.Errorf("rules.%s (in a block, which the provider's resources do not have) is Computed", a.Name)
	}
	if own.Block.Attributes[1].Computed || own.Block.Attributes[4].NestedType.Attributes[0].Computed {
		t.Error("servedSchema changed the provider's schema")
	}
}

// frameworkSchema is optionalSchema as the provider declares it (the rules a list of objects).
func frameworkSchema() rschema.Schema {
	entry := map[string]rschema.Attribute{
		"expiration":   rschema.StringAttribute{Optional: true},
		"architecture": rschema.StringAttribute{Optional: true, Computed: true},
	}
	return rschema.Schema{Attributes: map[string]rschema.Attribute{
		"name":      rschema.StringAttribute{Required: true},
		"note":      rschema.StringAttribute{Optional: true},
		"defaulted": rschema.StringAttribute{Optional: true, Computed: true},
		"force":     rschema.BoolAttribute{Optional: true, WriteOnly: true},
		"versions":  rschema.MapNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: entry}},
		"zones":     rschema.SetNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: entry}},
		"rules": rschema.ListNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
			"limit": rschema.NumberAttribute{Optional: true},
		}}},
	}}
}

// TestProposeFromConfig_NullConfigurationProposesNull: for an attribute Optional in the
// provider's schema and Computed in the served one, Terraform proposes the prior value where the
// configuration is null; proposeFromConfig proposes null there, as Terraform does under the
// provider's schema, at any depth, and keeps what Terraform proposes for attributes the provider
// computes (the prior value) and everything the configuration sets.
func TestProposeFromConfig_NullConfigurationProposesNull(t *testing.T) {
	schema := frameworkSchema()
	typ := schema.Type().TerraformType(context.Background()).(tftypes.Object)
	proposal := newConfigured(schema.Attributes)
	entryType := typ.AttributeTypes["versions"].(tftypes.Map).ElementType
	ruleType := typ.AttributeTypes["rules"].(tftypes.List).ElementType
	str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	null := func(t tftypes.Type) tftypes.Value { return tftypes.NewValue(t, nil) }
	entry := func(expiration, architecture tftypes.Value) tftypes.Value {
		return tftypes.NewValue(entryType, map[string]tftypes.Value{"expiration": expiration, "architecture": architecture})
	}
	rule := func(limit tftypes.Value) tftypes.Value {
		return tftypes.NewValue(ruleType, map[string]tftypes.Value{"limit": limit})
	}
	object := func(note, defaulted, versions, rules tftypes.Value) tftypes.Value {
		return tftypes.NewValue(typ, map[string]tftypes.Value{
			"name": str("a"), "note": note, "defaulted": defaulted, "force": null(tftypes.Bool),
			"versions": versions, "zones": null(typ.AttributeTypes["zones"]), "rules": rules,
		})
	}
	versions := func(e tftypes.Value) tftypes.Value {
		return tftypes.NewValue(typ.AttributeTypes["versions"], map[string]tftypes.Value{"1.31.9": e})
	}
	rules := func(r tftypes.Value) tftypes.Value {
		return tftypes.NewValue(typ.AttributeTypes["rules"], []tftypes.Value{r})
	}
	number := tftypes.NewValue(tftypes.Number, 3)

	config := object(null(tftypes.String), null(tftypes.String), versions(entry(null(tftypes.String), null(tftypes.String))), rules(rule(null(tftypes.Number))))
	// What Terraform proposes under the served schema: the prior values where the configuration is null.
	proposed := object(str("removed"), str("server default"), versions(entry(str("2030-01-01"), str("amd64"))), rules(rule(number)))
	want := object(null(tftypes.String), str("server default"), versions(entry(null(tftypes.String), str("amd64"))), rules(rule(null(tftypes.Number))))

	got, changed := proposal.proposeFromConfig(proposed, config)
	if !changed || !tfvalue.Equal(got, want) {
		t.Errorf("proposeFromConfig = %v (changed %v), want %v", got, changed, want)
	}
	// A whole map removed from the configuration is null; a configured value stays.
	configured := object(str("kept"), null(tftypes.String), null(typ.AttributeTypes["versions"]), null(typ.AttributeTypes["rules"]))
	proposedRemoved := object(str("kept"), str("server default"), versions(entry(str("2030-01-01"), str("amd64"))), null(typ.AttributeTypes["rules"]))
	want = object(str("kept"), str("server default"), null(typ.AttributeTypes["versions"]), null(typ.AttributeTypes["rules"]))
	if got, _ := proposal.proposeFromConfig(proposedRemoved, configured); !tfvalue.Equal(got, want) {
		t.Errorf("proposeFromConfig of a removed map = %v, want %v", got, want)
	}
	// A proposal equal to the configuration (a create) is returned as it is.
	if _, changed := proposal.proposeFromConfig(config, config); changed {
		t.Error("proposeFromConfig changed a proposal equal to the configuration")
	}
}
