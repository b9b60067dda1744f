package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// validateTimeouts runs `terraform validate` of a resource of kind r, named and with a null spec,
// whose timeouts attribute sets operation to value, through the provider's server, and returns
// the diagnostics on timeouts.<operation>.
func validateTimeouts(t *testing.T, r resource.Resource, operation, value string) []*tfprotov6.Diagnostic {
	t.Helper()
	c := validationCase{t: t, resource: r}
	typ := c.schema().Type().(tftypes.Object)
	attrs := nullAttributes(typ)
	timeoutsType := attrs["timeouts"].Type().(tftypes.Object)
	timeoutValues := nullAttributes(timeoutsType)
	timeoutValues[operation] = tftypes.NewValue(tftypes.String, value)
	attrs["timeouts"] = tftypes.NewValue(timeoutsType, timeoutValues)
	dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, attrs))
	if err != nil {
		t.Fatal(err)
	}
	req := c.request(tftypes.NewValue(attrs["spec"].Type(), nil))
	req.Config = &dv
	_, server := frameworkAndShim(t)
	resp, err := server.ValidateResourceConfig(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	at := tftypes.NewAttributePath().WithAttributeName("timeouts").WithAttributeName(operation)
	var out []*tfprotov6.Diagnostic
	for _, d := range resp.Diagnostics {
		if d.Attribute != nil && d.Attribute.Equal(at) {
			out = append(out, d)
		}
	}
	return out
}

func TestTimeouts_ZeroOrNegativeIsAnErrorOnTheAttribute(t *testing.T) {
	for _, r := range []resource.Resource{newCloudProfileResource(), newNamespacedCloudProfileResource()} {
		for _, operation := range []string{"create", "update", "delete"} {
			for _, value := range []string{"-5m", "0s", "0"} {
				diags := validateTimeouts(t, r, operation, value)
				if len(diags) != 1 || diags[0].Severity != tfprotov6.DiagnosticSeverityError {
					t.Errorf("%T timeouts.%s = %q: want one error on the attribute, got %s", r, operation, value, diagnosticText(diags))
					continue
				}
				if !strings.Contains(diags[0].Detail, value) || !strings.Contains(diags[0].Detail, "positive") || !strings.Contains(diags[0].Detail, "default") {
					t.Errorf("%T timeouts.%s = %q: the detail does not say what is wrong and how to fix it: %s", r, operation, value, diags[0].Detail)
				}
			}
		}
	}
}

func TestTimeouts_NotADurationIsOneErrorOnTheAttribute(t *testing.T) {
	diags := validateTimeouts(t, newCloudProfileResource(), "create", "five minutes")
	if len(diags) != 1 || diags[0].Severity != tfprotov6.DiagnosticSeverityError || !strings.Contains(diags[0].Detail, "five minutes") {
		t.Fatalf("want one error naming the value, got %s", diagnosticText(diags))
	}
}

func TestTimeouts_PositiveDurationsAreAccepted(t *testing.T) {
	for _, value := range []string{"30s", "10m", "1h30m"} {
		if diags := validateTimeouts(t, newNamespacedCloudProfileResource(), "delete", value); len(diags) != 0 {
			t.Errorf("timeouts.delete = %q: want no diagnostic, got %s", value, diagnosticText(diags))
		}
	}
}

func TestTimeouts_DescriptionsNameTheDefaults(t *testing.T) {
	var resp resource.SchemaResponse
	newCloudProfileResource().Schema(context.Background(), resource.SchemaRequest{}, &resp)
	nested := resp.Schema.Attributes["timeouts"].(schema.SingleNestedAttribute)
	for operation, want := range map[string]string{"create": "`5m`", "update": "`5m`", "delete": "`10m`"} {
		if got := nested.Attributes[operation].GetDescription(); !strings.Contains(got, "Default: "+want) {
			t.Errorf("timeouts.%s: description %q does not name the default %s", operation, got, want)
		}
	}
}
