package provider

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

func noEnv(string) (string, bool) { return "", false }

func TestProviderData_UnknownSettingsDelayTheClient(t *testing.T) {
	d, diags := newProviderData(context.Background(), providerModel{Host: types.StringUnknown(), Token: types.StringUnknown()}, noEnv)
	if diags.HasError() {
		t.Fatal(diags)
	}
	_, err := d.Client()
	if err == nil || !strings.Contains(err.Error(), "host, token") || !strings.Contains(err.Error(), "not known until apply") {
		t.Fatalf("want an error naming the unknown settings, got %v", err)
	}
}

func TestProviderData_DefaultsAndOverrides(t *testing.T) {
	d, diags := newProviderData(context.Background(), providerModel{}, noEnv)
	if diags.HasError() {
		t.Fatal(diags)
	}
	if d.fieldManager != "terraform-provider-gardener" || d.expiryWarningWindow != 30*24*time.Hour {
		t.Fatalf("defaults: %q %v", d.fieldManager, d.expiryWarningWindow)
	}
	d, _ = newProviderData(context.Background(), providerModel{FieldManager: types.StringValue("ops"), ExpiryWarningWindow: types.StringValue("48h")}, noEnv)
	if d.fieldManager != "ops" || d.expiryWarningWindow != 48*time.Hour {
		t.Fatalf("overrides: %q %v", d.fieldManager, d.expiryWarningWindow)
	}
}

func TestProviderData_InvalidWarningWindowIsAnAttributeError(t *testing.T) {
	_, diags := newProviderData(context.Background(), providerModel{ExpiryWarningWindow: types.StringValue("a month")}, noEnv)
	if !diags.HasError() || !strings.Contains(diags.Errors()[0].Detail(), "720h") {
		t.Fatalf("want an error with a fix, got %v", diags)
	}
}

func TestProviderData_InsecureWarns(t *testing.T) {
	_, diags := newProviderData(context.Background(), providerModel{Insecure: types.BoolValue(true)}, noEnv)
	if diags.HasError() || diags.WarningsCount() != 1 {
		t.Fatalf("want exactly one warning, got %v", diags)
	}
}

func TestProviderData_InsecureFromEnvironmentWarnsToo(t *testing.T) {
	lookup := func(k string) (string, bool) { return "true", k == "KUBE_INSECURE" }
	_, diags := newProviderData(context.Background(), providerModel{}, lookup)
	if diags.WarningsCount() != 1 {
		t.Fatalf("want a warning for KUBE_INSECURE=true, got %v", diags)
	}
}

func TestProviderData_ExecNeedsACommand(t *testing.T) {
	_, diags := newProviderData(context.Background(), providerModel{Exec: &execModel{
		APIVersion: types.StringValue("client.authentication.k8s.io/v1"), Command: types.StringNull(),
		Args: types.ListNull(types.StringType), Env: types.MapNull(types.StringType),
	}}, noEnv)
	if !diags.HasError() {
		t.Fatal("want an error for an exec block without command")
	}
}

func TestProviderData_EnvironmentIsReadThroughLookup(t *testing.T) {
	lookup := func(k string) (string, bool) {
		if k == "KUBE_HOST" {
			return "https://garden.example", true
		}
		return "", false
	}
	d, _ := newProviderData(context.Background(), providerModel{}, lookup)
	if d.settings.Host != "https://garden.example" {
		t.Fatalf("KUBE_HOST not read: %+v", d.settings)
	}
	d, _ = newProviderData(context.Background(), providerModel{Host: types.StringValue("https://explicit")}, lookup)
	if d.settings.Host != "https://explicit" {
		t.Fatalf("explicit host must win: %+v", d.settings)
	}
}
