package provider

import (
	"context"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Terraform validates a provider block before the values it refers to are known (variables at
// `terraform validate`, other resources' outputs until apply), and configures the provider with
// what is still unknown at plan: every setting must accept an unknown value, as a whole and in any
// element. The cases are generated from the provider's schema, so that a new setting is covered
// without a change here.

// unknownSettingCase is a provider configuration with one setting, or one element of it, unknown.
type unknownSettingCase struct {
	name   string
	config tftypes.Value
}

// unknownSettingCases are the configurations of typ, the provider's configuration type: for each
// attribute, one with it unknown and, for a collection, one with an unknown element (the others
// null); for a nested block, also one for each of its attributes, the block's other strings set.
func unknownSettingCases(typ tftypes.Object) []unknownSettingCase {
	var out []unknownSettingCase
	for _, name := range slices.Sorted(mapKeys(typ.AttributeTypes)) {
		attrType := typ.AttributeTypes[name]
		for _, variant := range unknownVariants(name, attrType) {
			attrs := nullAttributes(typ)
			attrs[name] = variant.config
			out = append(out, unknownSettingCase{variant.name, tftypes.NewValue(typ, attrs)})
		}
	}
	return out
}

// unknownVariants are the values of an attribute of type t that are unknown or hold an unknown.
func unknownVariants(name string, t tftypes.Type) []unknownSettingCase {
	out := []unknownSettingCase{{name + " unknown", tftypes.NewValue(t, tftypes.UnknownValue)}}
	switch typ := t.(type) {
	case tftypes.List:
		out = append(out, unknownSettingCase{name + " with an unknown element", tftypes.NewValue(t, []tftypes.Value{tftypes.NewValue(typ.ElementType, tftypes.UnknownValue)})})
	case tftypes.Set:
		out = append(out, unknownSettingCase{name + " with an unknown element", tftypes.NewValue(t, []tftypes.Value{tftypes.NewValue(typ.ElementType, tftypes.UnknownValue)})})
	case tftypes.Map:
		out = append(out, unknownSettingCase{name + " with an unknown element", tftypes.NewValue(t, map[string]tftypes.Value{"KEY": tftypes.NewValue(typ.ElementType, tftypes.UnknownValue)})})
	case tftypes.Object:
		for _, nested := range slices.Sorted(mapKeys(typ.AttributeTypes)) {
			for _, variant := range unknownVariants(name+"."+nested, typ.AttributeTypes[nested]) {
				attrs := sampleAttributes(typ)
				attrs[nested] = variant.config
				out = append(out, unknownSettingCase{variant.name, tftypes.NewValue(t, attrs)})
			}
		}
	}
	return out
}

// sampleAttributes are known attributes of a nested block: every string set (a block may need one,
// such as exec's command), the rest null.
func sampleAttributes(obj tftypes.Object) map[string]tftypes.Value {
	attrs := nullAttributes(obj)
	for name, t := range obj.AttributeTypes {
		if t.Is(tftypes.String) {
			attrs[name] = tftypes.NewValue(tftypes.String, "sample")
		}
	}
	return attrs
}

// mapKeys are the keys of m.
func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// TestProvider_EverySettingMayBeUnknown: the provider's server validates and configures every
// configuration of unknownSettingCases without an error, as Terraform sends them at `terraform
// validate` and at a plan.
func TestProvider_EverySettingMayBeUnknown(t *testing.T) {
	ctx := context.Background()
	typ := providerSchema().Type().TerraformType(ctx).(tftypes.Object)
	cases := unknownSettingCases(typ)
	if !slices.ContainsFunc(cases, func(c unknownSettingCase) bool { return c.name == "exec.env with an unknown element" }) {
		t.Fatalf("the cases lack exec's env with an unknown element (env = { TOKEN = var.token }): %d cases", len(cases))
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			config, err := tfprotov6.NewDynamicValue(typ, c.config)
			if err != nil {
				t.Fatal(err)
			}
			server, err := NewProtocol6Server(NewWithEnvironment("test", noEnv))()
			if err != nil {
				t.Fatal(err)
			}
			validated, err := server.ValidateProviderConfig(ctx, &tfprotov6.ValidateProviderConfigRequest{Config: &config})
			if err != nil || hasError(validated.Diagnostics) {
				t.Fatalf("validate: %v %s", err, diagnosticText(validated.Diagnostics))
			}
			configured, err := server.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: &config, TerraformVersion: "1.11.4"})
			if err != nil || hasError(configured.Diagnostics) {
				t.Fatalf("configure: %v %s", err, diagnosticText(configured.Diagnostics))
			}
		})
	}
}

// hasError tells whether diags hold an error.
func hasError(diags []*tfprotov6.Diagnostic) bool {
	return slices.ContainsFunc(diags, func(d *tfprotov6.Diagnostic) bool { return d.Severity == tfprotov6.DiagnosticSeverityError })
}
