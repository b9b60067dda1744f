package provider

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// validateProvider runs `terraform validate` of a provider block with the given attributes (the
// others null) through the provider's server, without environment.
func validateProvider(t *testing.T, set map[string]tftypes.Value) []*tfprotov6.Diagnostic {
	t.Helper()
	ctx := context.Background()
	typ := providerSchema().Type().TerraformType(ctx).(tftypes.Object)
	attrs := nullAttributes(typ)
	for name, v := range set {
		attrs[name] = v
	}
	dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, attrs))
	if err != nil {
		t.Fatal(err)
	}
	server, err := providerserver.NewProtocol6WithError(NewWithEnvironment("test", noEnv)())()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := server.ValidateProviderConfig(ctx, &tfprotov6.ValidateProviderConfigRequest{Config: &dv})
	if err != nil {
		t.Fatal(err)
	}
	return resp.Diagnostics
}

// tfNumber is a Terraform number written as in a configuration, e.g. "1e30".
func tfNumber(t *testing.T, s string) tftypes.Value {
	t.Helper()
	f, _, err := big.ParseFloat(s, 10, 512, big.ToNearestEven)
	if err != nil {
		t.Fatal(err)
	}
	return tftypes.NewValue(tftypes.Number, f)
}

func TestProviderValidate_BadSettingsAreOneClearErrorOnTheirAttribute(t *testing.T) {
	str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	for _, c := range []struct {
		name string
		set  map[string]tftypes.Value
		attr string
		want string
	}{
		{"burst 1e30", map[string]tftypes.Value{"qps": tfNumber(t, "5"), "burst": tfNumber(t, "1e30")}, "burst", "whole number of requests from 1 to 2147483647"},
		{"fractional burst", map[string]tftypes.Value{"qps": tfNumber(t, "5"), "burst": tfNumber(t, "2.5")}, "burst", "burst = 2.5"},
		{"qps 1e400", map[string]tftypes.Value{"qps": tfNumber(t, "1e400")}, "qps", "fits a 32-bit float"},
		{"negative qps", map[string]tftypes.Value{"qps": tfNumber(t, "-1")}, "qps", "qps = -1"},
		{"negative expiry_warning_window", map[string]tftypes.Value{"expiry_warning_window": str("-1h")}, "expiry_warning_window", "non-negative Go duration"},
		{"expiry_warning_window not a duration", map[string]tftypes.Value{"expiry_warning_window": str("a month")}, "expiry_warning_window", "720h"},
		{"gardener_version without a patch", map[string]tftypes.Value{"gardener_version": str("1.149")}, "gardener_version", `"1.149" is not a Gardener release: expected v1.MINOR.PATCH`},
		{"gardener_version of another major", map[string]tftypes.Value{"gardener_version": str("v2.0.0")}, "gardener_version", `such as "v1.149.3"`},
	} {
		diags := validateProvider(t, c.set)
		if len(diags) != 1 || diags[0].Severity != tfprotov6.DiagnosticSeverityError {
			t.Errorf("%s: want one error, got %s", c.name, diagnosticText(diags))
			continue
		}
		at := tftypes.NewAttributePath().WithAttributeName(c.attr)
		if d := diags[0]; d.Attribute == nil || !d.Attribute.Equal(at) || !strings.Contains(d.Detail, c.want) || strings.Contains(d.Detail, "always an error") {
			t.Errorf("%s: want an error on %s saying %q, got %s", c.name, c.attr, c.want, diagnosticText(diags))
		}
	}
}

func TestProviderValidate_GoodSettingsAndWarningsPassQuietly(t *testing.T) {
	diags := validateProvider(t, map[string]tftypes.Value{
		"qps": tfNumber(t, "50.5"), "burst": tfNumber(t, "100"),
		"expiry_warning_window": tftypes.NewValue(tftypes.String, "48h"),
		"insecure":              tftypes.NewValue(tftypes.Bool, true),         // warned about by Configure
		"gardener_version":      tftypes.NewValue(tftypes.String, "v1.152.0"), // outside the known range: warned about by plans
	})
	if len(diags) != 0 {
		t.Fatalf("want no diagnostics, got %s", diagnosticText(diags))
	}
}

func TestProviderValidate_UnknownSettingsAreNotChecked(t *testing.T) {
	unknown := tftypes.NewValue(tftypes.Number, tftypes.UnknownValue)
	if diags := validateProvider(t, map[string]tftypes.Value{"qps": unknown, "burst": unknown,
		"gardener_version": tftypes.NewValue(tftypes.String, tftypes.UnknownValue)}); len(diags) != 0 {
		t.Fatalf("want no diagnostics, got %s", diagnosticText(diags))
	}
}

func TestProviderValidate_AnUnknownFeatureGateIsOneError(t *testing.T) {
	gates := tftypes.NewValue(tftypes.Map{ElementType: tftypes.Bool}, map[string]tftypes.Value{"NoSuchGate": tftypes.NewValue(tftypes.Bool, true)})
	diags := validateProvider(t, map[string]tftypes.Value{featureGatesAttribute: gates})
	if len(diags) != 1 || !strings.Contains(diags[0].Detail, "NoSuchGate") {
		t.Fatalf("want one error naming the gate, got %s", diagnosticText(diags))
	}
}

// configureProvider runs the provider's Configure of a provider block with the given attributes
// (the others null), as Terraform does at plan, without environment.
func configureProvider(t *testing.T, set map[string]tftypes.Value) []*tfprotov6.Diagnostic {
	t.Helper()
	ctx := context.Background()
	typ := providerSchema().Type().TerraformType(ctx).(tftypes.Object)
	attrs := nullAttributes(typ)
	for name, v := range set {
		attrs[name] = v
	}
	dv, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, attrs))
	if err != nil {
		t.Fatal(err)
	}
	server, err := NewProtocol6Server(NewWithEnvironment("test", noEnv))()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := server.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: &dv, TerraformVersion: "1.11.4"})
	if err != nil {
		t.Fatal(err)
	}
	return resp.Diagnostics
}

// testCertificate is a PEM-encoded self-signed certificate and its key.
func testCertificate(t *testing.T) (certPEM, keyPEM string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test"},
		NotBefore: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), NotAfter: time.Date(2036, 1, 1, 0, 0, 0, 0, time.UTC)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})), string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}))
}

// fixNames tells whether the "To fix: " of detail names setting.
func fixNames(detail, setting string) bool {
	_, fix, found := strings.Cut(detail, "To fix: ")
	return found && strings.Contains(fix, setting)
}

// TestProviderConfigure_UnusableSettingsAreErrorsOnThem: a kubeconfig that does not exist or does
// not parse, and a CA, client certificate or key that does not parse, fail Configure (at plan) with
// one error on the setting whose fix names it; `terraform validate` accepts them (it reads no file),
// and a Garden that is not configured or cannot be reached is no error of Configure.
func TestProviderConfigure_UnusableSettingsAreErrorsOnThem(t *testing.T) {
	str := func(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }
	dir := t.TempDir()
	t.Setenv("KUBECONFIG", filepath.Join(dir, "none")) // client-go's default rules find no kubeconfig
	broken := filepath.Join(dir, "broken.kubeconfig")
	if err := os.WriteFile(broken, []byte("apiVersion: v1\nclusters: [ not yaml"), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, key := testCertificate(t)
	host := str("https://127.0.0.1:1")
	for _, c := range []struct {
		name, attr, want string
		set              map[string]tftypes.Value
	}{
		{"missing config_path", "config_path", "does not exist", map[string]tftypes.Value{"config_path": str(filepath.Join(dir, "missing"))}},
		{"kubeconfig that does not parse", "config_path", "loading kubeconfig", map[string]tftypes.Value{"config_path": str(broken)}},
		{"missing entry of config_paths", "config_paths", "does not exist", map[string]tftypes.Value{
			"config_paths": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{str(filepath.Join(dir, "missing"))})}},
		{"CA that does not parse", "cluster_ca_certificate", "root certificates", map[string]tftypes.Value{"host": host, "cluster_ca_certificate": str("not a certificate")}},
		{"client certificate that does not parse", "client_certificate", "certificate", map[string]tftypes.Value{"host": host, "client_certificate": str("not a certificate"), "client_key": str(key)}},
		{"client key that does not parse", "client_key", "key", map[string]tftypes.Value{"host": host, "client_certificate": str(cert), "client_key": str("not a key")}},
	} {
		if diags := validateProvider(t, c.set); len(diags) != 0 {
			t.Errorf("%s: terraform validate must not read the settings' files, got %s", c.name, diagnosticText(diags))
		}
		diags := configureProvider(t, c.set)
		at := tftypes.NewAttributePath().WithAttributeName(c.attr)
		if len(diags) != 1 || diags[0].Severity != tfprotov6.DiagnosticSeverityError || diags[0].Attribute == nil || !diags[0].Attribute.Equal(at) ||
			!strings.Contains(diags[0].Detail, c.want) || !fixNames(diags[0].Detail, c.attr) {
			t.Errorf("%s: want one error on %s saying %q with a fix naming it, got %s", c.name, c.attr, c.want, diagnosticText(diags))
		}
	}
	for name, set := range map[string]map[string]tftypes.Value{
		"no Garden configured":    {},
		"an unreachable Garden":   {"host": host},
		"a config_path not known": {"config_path": tftypes.NewValue(tftypes.String, tftypes.UnknownValue)},
	} {
		if diags := configureProvider(t, set); hasError(diags) {
			t.Errorf("%s: want no error at Configure, got %s", name, diagnosticText(diags))
		}
	}
}
