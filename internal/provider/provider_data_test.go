package provider

import (
	"context"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func noEnv(string) (string, bool) { return "", false }

// number is a known Number setting.
func number(f float64) types.Number { return types.NumberValue(big.NewFloat(f)) }

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

// execBlock is the exec block of the model m.
func execBlock(t *testing.T, m execModel) types.Object {
	t.Helper()
	typ := providerSchema().Blocks["exec"].Type().(types.ObjectType)
	v, diags := types.ObjectValueFrom(context.Background(), typ.AttrTypes, m)
	if diags.HasError() {
		t.Fatal(diags)
	}
	return v
}

func TestProviderData_ExecNeedsACommand(t *testing.T) {
	_, diags := newProviderData(context.Background(), providerModel{Exec: execBlock(t, execModel{
		APIVersion: types.StringValue("client.authentication.k8s.io/v1"), Command: types.StringNull(),
		Args: types.ListNull(types.StringType), Env: types.MapNull(types.StringType),
	})}, noEnv)
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

func TestProviderData_RateLimitSettings(t *testing.T) {
	d, diags := newProviderData(context.Background(), providerModel{}, noEnv)
	if diags.HasError() || d.settings.QPS != 0 || d.settings.Burst != 0 {
		t.Fatalf("unset: %v %v %v", d.settings.QPS, d.settings.Burst, diags)
	}
	d, diags = newProviderData(context.Background(), providerModel{QPS: number(50), Burst: number(80)}, noEnv)
	if diags.HasError() || d.settings.QPS != 50 || d.settings.Burst != 80 {
		t.Fatalf("qps 50, burst 80: %v %v %v", d.settings.QPS, d.settings.Burst, diags)
	}
	d, diags = newProviderData(context.Background(), providerModel{QPS: types.NumberUnknown()}, noEnv)
	if _, err := d.Client(); diags.HasError() || err == nil || !strings.Contains(err.Error(), "qps") {
		t.Fatalf("unknown qps: %v, %v", err, diags)
	}
}

func TestProviderData_InvalidRateLimitIsAnAttributeError(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    providerModel
		attr string
	}{
		{"zero qps", providerModel{QPS: number(0)}, "qps"},
		{"negative qps", providerModel{QPS: number(-5)}, "qps"},
		{"zero burst", providerModel{QPS: number(5), Burst: number(0)}, "burst"},
		{"burst without qps", providerModel{Burst: number(10)}, "burst"},
		{"qps beyond float32", providerModel{QPS: number(1e39)}, "qps"},
		{"qps that rounds to zero", providerModel{QPS: number(1e-50)}, "qps"},
		{"burst beyond int32", providerModel{QPS: number(5), Burst: number(1e30)}, "burst"},
		{"fractional burst", providerModel{QPS: number(5), Burst: number(1.5)}, "burst"},
	} {
		_, diags := newProviderData(context.Background(), tc.m, noEnv)
		errs := diags.Errors()
		if len(errs) != 1 {
			t.Errorf("%s: want one error, got %v", tc.name, diags)
			continue
		}
		if withPath, ok := errs[0].(interface{ Path() path.Path }); !ok || !withPath.Path().Equal(path.Root(tc.attr)) {
			t.Errorf("%s: error %q is not on %s", tc.name, errs[0].Summary(), tc.attr)
		}
	}
}
