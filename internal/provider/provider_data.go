package provider

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// providerData is what resources and data sources get from the provider: the settings and a
// client that is built on first use.
type providerData struct {
	settings            kube.Settings
	fieldManager        string
	expiryWarningWindow time.Duration
	// planReminders makes plans warn about unchanged entries too (cloudprofile.Options.RemindUnchanged).
	planReminders bool
	// gates is the feature_gates setting.
	gates gateSetting
	// releaseSetting is the gardener_version setting, and run the release the run follows
	// (rulesRelease, provider_release.go).
	releaseSetting releaseSetting
	run            runRelease
	// serverChecks turns on the dry-run apply of changing plans (server_checks; see
	// plan_server_check.go), and serverChecksNotice says once when they were skipped.
	serverChecks       bool
	serverChecksNotice sync.Once
	// unknown lists the settings whose values are not known yet (they depend on other resources).
	unknown []string

	// clock replaces the wall clock in tests; nil means time.Now.
	clock func() time.Time

	// shootsWarning says once per run that the Shoots could not be listed (runShoots).
	shootsWarning sync.Once
	// extensionReleases are the provider types whose extension release a plan compared
	// (noteExtensionRelease).
	extensionReleases sync.Map
	// cloudProfiles are the CloudProfiles this run's plans create, and the missing parents
	// reported (see plannedCloudProfiles).
	cloudProfiles plannedCloudProfiles

	once   sync.Once
	client *kube.Client
	err    error
}

// providerDataOf returns the provider data the framework passes to Configure of a resource or data
// source, nil before the provider is configured; any other value is a bug, reported in diags.
func providerDataOf(v any, diags *diag.Diagnostics) *providerData {
	data, ok := v.(*providerData)
	if !ok && v != nil {
		diags.AddError("Unexpected provider data", fmt.Sprintf("expected *providerData, got %T; this is a bug in the provider", v))
	}
	return data
}

// errNotKnownYet is the reason there is no client while settings are unknown (at plan).
var errNotKnownYet = errors.New("not known until apply")

// Client returns the Kubernetes client, building it on the first call.
func (d *providerData) Client() (*kube.Client, error) {
	if d == nil {
		return nil, errors.New("the provider is not configured")
	}
	d.once.Do(func() {
		if len(d.unknown) > 0 {
			d.err = fmt.Errorf("the provider settings %s are %w, so the Garden cluster cannot be reached yet", strings.Join(d.unknown, ", "), errNotKnownYet)
			return
		}
		cfg, err := d.settings.RESTConfig()
		if err != nil {
			d.err = err
			return
		}
		d.client, d.err = kube.NewClient(cfg, d.fieldManager)
	})
	return d.client, d.err
}

// settingDiagnostics builds the client when every setting is known (Configure: at plan and apply,
// never at `terraform validate`), which reads the kubeconfig files and parses the certificates and
// keys without a request, and turns a setting that cannot be used into an error that names it and
// how to fix it. Settings unknown until apply are checked at apply; a Garden that is not configured
// at all, or cannot be reached, stays the concern of the first request (the provider's functions
// and the effective profile's data source need no Garden).
func (d *providerData) settingDiagnostics(m providerModel) diag.Diagnostics {
	if len(d.unknown) > 0 {
		return nil
	}
	var bad *kube.SettingError
	if _, err := d.Client(); !errors.As(err, &bad) {
		return nil
	}
	var diags diag.Diagnostics
	fix := settingFixes[bad.Setting]
	if bad.Setting == "" {
		diags.AddError("Invalid kubeconfig", fmt.Sprintf("The kubeconfig client-go found (KUBECONFIG, else ~/.kube/config) cannot "+
			"be used: %v.\n\nTo fix: %s.", bad.Err, fix))
		return diags
	}
	detail := fmt.Sprintf("%s\n\nThe provider cannot connect to the Garden with this setting: %v.\n\nTo fix: %s.", bad.Setting, bad.Err, fix)
	if configured, ok := m.connectionSetting(bad.Setting); ok && !configured.IsNull() {
		diags.AddAttributeError(path.Root(bad.Setting), "Invalid "+bad.Setting, detail)
	} else {
		diags.AddError("Invalid "+bad.Setting, detail+" (The value comes from the setting's KUBE_* environment variable.)")
	}
	return diags
}

// settingFixes say how to fix each setting a kube.SettingError names ("" is the kubeconfig of
// client-go's default loading rules).
var settingFixes = map[string]string{
	"config_path":            "point config_path (or KUBE_CONFIG_PATH) at a kubeconfig of the Garden cluster that exists and parses, or remove it",
	"config_paths":           "list only kubeconfigs of the Garden cluster that exist and parse in config_paths (or KUBE_CONFIG_PATHS)",
	"host":                   "set host (or KUBE_HOST) to the URL of the Garden cluster's API server, such as https://api.garden.example.com, with its credentials",
	"cluster_ca_certificate": "set cluster_ca_certificate (or KUBE_CLUSTER_CA_CERT_DATA) to the PEM-encoded CA certificate of the Garden cluster's API server (\"-----BEGIN CERTIFICATE-----\" ...), such as file(\"ca.crt\")",
	"client_certificate":     "set client_certificate and client_key (or KUBE_CLIENT_CERT_DATA and KUBE_CLIENT_KEY_DATA) to a PEM-encoded certificate and its private key",
	"client_key":             "set client_key and client_certificate (or KUBE_CLIENT_KEY_DATA and KUBE_CLIENT_CERT_DATA) to a PEM-encoded private key and its certificate",
	"insecure":               "remove insecure = true (or KUBE_INSECURE), which skips the verification the CA certificate is for, or remove the CA certificate",
	"":                       "repair that kubeconfig, or set config_path to a kubeconfig of the Garden cluster",
}

// connectionSetting is the configured value of a connection setting a kube.SettingError names.
func (m providerModel) connectionSetting(name string) (attr.Value, bool) {
	v, ok := map[string]attr.Value{
		"config_path": m.ConfigPath, "config_paths": m.ConfigPaths, "host": m.Host, "cluster_ca_certificate": m.ClusterCACertificate,
		"client_certificate": m.ClientCertificate, "client_key": m.ClientKey, "insecure": m.Insecure,
	}[name]
	return v, ok
}

func newProviderData(ctx context.Context, m providerModel, lookup func(string) (string, bool)) (*providerData, diag.Diagnostics) {
	var diags diag.Diagnostics
	d := &providerData{fieldManager: kube.DefaultFieldManager, expiryWarningWindow: cloudprofile.DefaultExpiryWarningWindow}
	s := kube.Settings{
		ConfigPath:            d.str(m.ConfigPath, "config_path"),
		ConfigContext:         d.str(m.ConfigContext, "config_context"),
		ConfigContextAuthInfo: d.str(m.ConfigContextAuthInfo, "config_context_auth_info"),
		ConfigContextCluster:  d.str(m.ConfigContextCluster, "config_context_cluster"),
		Host:                  d.str(m.Host, "host"),
		Token:                 d.str(m.Token, "token"),
		ClusterCACertificate:  d.str(m.ClusterCACertificate, "cluster_ca_certificate"),
		ClientCertificate:     d.str(m.ClientCertificate, "client_certificate"),
		ClientKey:             d.str(m.ClientKey, "client_key"),
		TLSServerName:         d.str(m.TLSServerName, "tls_server_name"),
		ProxyURL:              d.str(m.ProxyURL, "proxy_url"),
	}
	s.ConfigPaths = d.strings(m.ConfigPaths, "config_paths")
	if m.Insecure.IsUnknown() {
		d.unknown = append(d.unknown, "insecure")
	} else if !m.Insecure.IsNull() {
		v := m.Insecure.ValueBool()
		s.Insecure = &v
	}
	s.Exec = d.exec(ctx, m.Exec, &diags)
	if fm := d.str(m.FieldManager, "field_manager"); fm != "" {
		d.fieldManager = fm
	}
	if w := d.str(m.ExpiryWarningWindow, "expiry_warning_window"); w != "" {
		d.expiryWarningWindow = parseExpiryWarningWindow(w, &diags)
	}
	d.planReminders = m.PlanReminders.ValueBool()
	release, releaseDiags := readReleaseSetting(m.GardenerVersion)
	diags.Append(releaseDiags...)
	d.releaseSetting = release
	gates, gateDiags := readGateSetting(ctx, m.FeatureGates, release.orDefault())
	diags.Append(gateDiags...)
	d.gates = gates
	d.serverChecks = m.ServerChecks.IsNull() || m.ServerChecks.IsUnknown() || m.ServerChecks.ValueBool()
	s.QPS, s.Burst = d.rateLimit(m.QPS, m.Burst, &diags)
	withEnv, err := s.WithEnvironment(lookup)
	if err != nil {
		diags.AddError("Invalid provider environment", err.Error())
	}
	d.settings = withEnv
	if withEnv.Insecure != nil && *withEnv.Insecure {
		diags.AddAttributeWarning(path.Root("insecure"), "TLS verification is off",
			"insecure = true skips verification of the Garden API server's certificate, so credentials can be sent to an impostor. Use it only against test clusters; set cluster_ca_certificate instead.")
	}
	sort.Strings(d.unknown)
	return d, diags
}

// parseExpiryWarningWindow parses an expiry_warning_window setting, of the provider or of a data
// source: a non-negative Go duration. Anything else is an error on the attribute.
func parseExpiryWarningWindow(s string, diags *diag.Diagnostics) time.Duration {
	window, err := time.ParseDuration(s)
	if err != nil || window < 0 {
		diags.AddAttributeError(path.Root("expiry_warning_window"), "Invalid expiry warning window",
			fmt.Sprintf("%q is not a non-negative Go duration. Use a value such as \"720h\" (30 days) or \"0s\" to turn the warnings off.", s))
	}
	return window
}

// rateLimit reads the client-side rate limit settings: qps a positive float32, burst a whole
// number from 1 to math.MaxInt32 and only with qps. Unset, the client has no client-side limit
// (see kube.Settings.RateLimit). They are Numbers, so that any number configured reaches these
// checks instead of failing the framework's conversion.
func (d *providerData) rateLimit(qps, burst types.Number, diags *diag.Diagnostics) (float32, int) {
	if qps.IsUnknown() {
		d.unknown = append(d.unknown, "qps")
	}
	if burst.IsUnknown() {
		d.unknown = append(d.unknown, "burst")
	}
	q, qOK := qpsOf(qps)
	b, bOK := burstOf(burst)
	switch {
	case !qOK:
		diags.AddAttributeError(path.Root("qps"), "Invalid qps",
			fmt.Sprintf("qps = %s is not a positive number of requests per second that fits a 32-bit float (at most %g). "+
				"Leave it unset for no client-side rate limit, or use e.g. 50.", numberText(qps), math.MaxFloat32))
	case !bOK:
		diags.AddAttributeError(path.Root("burst"), "Invalid burst",
			fmt.Sprintf("burst = %s is not a whole number of requests from 1 to %d. Use e.g. 100, or remove it for twice qps.",
				numberText(burst), math.MaxInt32))
	case !burst.IsNull() && !burst.IsUnknown() && qps.IsNull():
		diags.AddAttributeError(path.Root("burst"), "burst without qps",
			"burst only tunes a client-side rate limit set by qps; without qps the provider has no client-side limit. Set qps too, or remove burst.")
	default:
		return q, b
	}
	return 0, 0
}

// qpsOf is a known qps setting as a float32; ok is false when it is not positive or does not fit.
// Unset or unknown, it is 0.
func qpsOf(v types.Number) (q float32, ok bool) {
	if v.IsNull() || v.IsUnknown() {
		return 0, true
	}
	f, _ := v.ValueBigFloat().Float32()
	return f, f > 0 && !math.IsInf(float64(f), 0)
}

// burstOf is a known burst setting; ok is false when it is not a whole number from 1 to
// math.MaxInt32. Unset or unknown, it is 0.
func burstOf(v types.Number) (b int, ok bool) {
	if v.IsNull() || v.IsUnknown() {
		return 0, true
	}
	n := v.ValueBigFloat()
	i, acc := n.Int64()
	return int(i), n.IsInt() && acc == big.Exact && i >= 1 && i <= math.MaxInt32
}

// numberText renders a known number setting as configured, shortened to 10 significant digits.
func numberText(v types.Number) string {
	return v.ValueBigFloat().Text('g', 10)
}

// str returns a known string setting, recording unknown ones.
func (d *providerData) str(v types.String, name string) string {
	if v.IsUnknown() {
		d.unknown = append(d.unknown, name)
		return ""
	}
	return v.ValueString()
}

// strings returns a known list of strings, recording it as unknown when it or an element is.
func (d *providerData) strings(v types.List, name string) []string {
	if v.IsUnknown() {
		d.unknown = append(d.unknown, name)
		return nil
	}
	out := make([]string, 0, len(v.Elements()))
	for _, e := range v.Elements() {
		s, ok := e.(types.String)
		if !ok || s.IsUnknown() {
			d.unknown = append(d.unknown, name)
			return nil
		}
		out = append(out, s.ValueString())
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// stringMap returns a known map of strings, recording it as unknown when it or an element is.
func (d *providerData) stringMap(v types.Map, name string) map[string]string {
	if v.IsUnknown() {
		d.unknown = append(d.unknown, name)
		return nil
	}
	if v.IsNull() {
		return nil
	}
	out := make(map[string]string, len(v.Elements()))
	for k, e := range v.Elements() {
		s, ok := e.(types.String)
		if !ok || s.IsUnknown() {
			d.unknown = append(d.unknown, name)
			return nil
		}
		out[k] = s.ValueString()
	}
	return out
}

// exec reads the exec block: nil when it is absent, and when it is unknown (recorded as such).
func (d *providerData) exec(ctx context.Context, block types.Object, diags *diag.Diagnostics) *kube.ExecSettings {
	if block.IsUnknown() {
		d.unknown = append(d.unknown, "exec")
		return nil
	}
	if block.IsNull() {
		return nil
	}
	var m execModel
	if d := block.As(ctx, &m, basetypes.ObjectAsOptions{}); d.HasError() {
		diags.Append(d...)
		return nil
	}
	e := &kube.ExecSettings{
		APIVersion: d.str(m.APIVersion, "exec.api_version"),
		Command:    d.str(m.Command, "exec.command"),
		Args:       d.strings(m.Args, "exec.args"),
		Env:        d.stringMap(m.Env, "exec.env"),
	}
	if e.Command == "" && !m.Command.IsUnknown() {
		diags.AddAttributeError(path.Root("exec").AtName("command"), "Missing exec command",
			"The exec block runs a credential plugin and needs its command, e.g. \"gardenlogin\" or \"kubectl\".")
	}
	return e
}

// providerModel is the provider configuration as Terraform sends it.
type providerModel struct {
	ConfigPath            types.String `tfsdk:"config_path"`
	ConfigPaths           types.List   `tfsdk:"config_paths"`
	ConfigContext         types.String `tfsdk:"config_context"`
	ConfigContextAuthInfo types.String `tfsdk:"config_context_auth_info"`
	ConfigContextCluster  types.String `tfsdk:"config_context_cluster"`
	Host                  types.String `tfsdk:"host"`
	Token                 types.String `tfsdk:"token"`
	ClusterCACertificate  types.String `tfsdk:"cluster_ca_certificate"`
	ClientCertificate     types.String `tfsdk:"client_certificate"`
	ClientKey             types.String `tfsdk:"client_key"`
	Insecure              types.Bool   `tfsdk:"insecure"`
	TLSServerName         types.String `tfsdk:"tls_server_name"`
	ProxyURL              types.String `tfsdk:"proxy_url"`
	Exec                  types.Object `tfsdk:"exec"`
	FieldManager          types.String `tfsdk:"field_manager"`
	ExpiryWarningWindow   types.String `tfsdk:"expiry_warning_window"`
	QPS                   types.Number `tfsdk:"qps"`
	Burst                 types.Number `tfsdk:"burst"`
	PlanReminders         types.Bool   `tfsdk:"plan_reminders"`
	FeatureGates          types.Map    `tfsdk:"feature_gates"`
	GardenerVersion       types.String `tfsdk:"gardener_version"`
	ServerChecks          types.Bool   `tfsdk:"server_checks"`
}

// execModel is the exec block of the provider configuration: a credential plugin. The block may
// be unknown as a whole (a dynamic block over a value unknown until apply), so the model holds it
// as an object (providerModel.Exec) and reads it into execModel when it is known.
type execModel struct {
	APIVersion types.String `tfsdk:"api_version"`
	Command    types.String `tfsdk:"command"`
	Args       types.List   `tfsdk:"args"`
	Env        types.Map    `tfsdk:"env"`
}

// validationOptions are the rule options of a resource's ValidateConfig: the configured
// provider's (see options), else (at `terraform validate`, where the provider is not configured)
// those of the validated provider configuration's feature gates and gardener_version.
func validationOptions(ctx context.Context, data *providerData, validated *validatedSettings, diags *diag.Diagnostics) cloudprofile.Options {
	if data != nil {
		return data.options(ctx, data.now(), diags)
	}
	gates, _ := validated.current()
	release := data.rulesRelease(ctx, validated, diags)
	return cloudprofile.Options{Now: data.now(), Release: release, Gates: gates.effective(release), ExpiryWarningWindow: cloudprofile.DefaultExpiryWarningWindow}
}

// options are the rule options the provider uses at an instant, under the rules of the run's
// Gardener release (rulesRelease: the first call may read the Garden, and the first with diags gets
// the run's note about the release). Without provider data (validation runs before the provider
// is configured) they are the defaults, with the default release and its feature gates.
func (d *providerData) options(ctx context.Context, now time.Time, diags *diag.Diagnostics) cloudprofile.Options {
	if d == nil {
		return validationOptions(ctx, nil, nil, diags)
	}
	release := d.rulesRelease(ctx, nil, diags)
	return cloudprofile.Options{Now: now, Release: release, Gates: d.gates.effective(release), ExpiryWarningWindow: d.expiryWarningWindow, RemindUnchanged: d.planReminders}
}

// statusOptions are the options of comparing a CloudProfile's status with what Gardener's
// controller writes at an instant: the run's release (rulesRelease) decides whether it writes one.
func (d *providerData) statusOptions(ctx context.Context, at time.Time, diags *diag.Diagnostics) cloudprofile.Options {
	return cloudprofile.Options{Now: at, Release: d.rulesRelease(ctx, nil, diags)}
}

// warningWindow is how far ahead classification changes are warned about (expiry_warning_window).
func (d *providerData) warningWindow() time.Duration {
	if d == nil {
		return cloudprofile.DefaultExpiryWarningWindow
	}
	return d.expiryWarningWindow
}

// now is the instant the provider evaluates classifications at.
func (d *providerData) now() time.Time {
	if d != nil && d.clock != nil {
		return d.clock()
	}
	return time.Now()
}
