package provider_test

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// Terraform validates a provider block before its values are known, and plans with the values of
// other resources' outputs still unknown: every setting of the provider block must work from a
// variable and from another resource's output. The settings come in groups that work together (a
// kubeconfig and its selections, explicit credentials, a token, an exec plugin); each group is
// applied from one object of values, once as a variable and once as the output of a
// terraform_data resource, through the CLI of the run (TF_ACC_TERRAFORM_PATH).

// settingsSource makes the values of a group, local.s, and its secrets, local.secret, of variables
// or of another resource's output. Secrets never pass through terraform_data, which keeps its
// output in the state in the clear and shows it in the plan of its destroy: its output names the
// files that hold them.
type settingsSource struct {
	name, hcl string
}

// settingsSources are the two ways a setting's value may come: a variable (unknown at `terraform
// validate`) and another resource's output (unknown at plan, until the apply).
var settingsSources = []settingsSource{
	{"a variable", "locals {\n  s      = var.s\n  secret = var.secrets\n}\n"},
	{"another resource's output", `resource "terraform_data" "s" {
  input = { values = var.s, secret_files = var.secret_files }
}

locals {
  s      = terraform_data.s.output.values
  secret = { for name, f in terraform_data.s.output.secret_files : name => trimspace(file(f)) }
}
`},
}

// settingsGroup is a provider block whose settings all come from local.s and local.secret, their
// values, and the resources it manages.
type settingsGroup struct {
	name      string
	block     string
	values    map[string]any
	secrets   map[string]string
	resources string
}

// settingsVariables declares the variables of the groups' values and secrets.
const settingsVariables = `variable "s" {
  type = any
}

variable "secrets" {
  type      = map(string)
  sensitive = true
}

variable "secret_files" {
  type = map(string)
}

`

// config is the group's configuration with its values from source.
func (g settingsGroup) config(source settingsSource) string {
	return settingsVariables + source.hcl + "\nprovider \"gardener\" {\n" + g.block + "}\n" + g.resources
}

// run applies the group's configuration from each source in the workspace: validate, apply, an
// empty plan and a destroy; check runs after the apply. It returns what the CLI printed.
func (g settingsGroup) run(t *testing.T, w *cliWorkspace, check func(source string)) string {
	t.Helper()
	files := map[string]string{}
	for name, secret := range g.secrets {
		files[name] = filepath.Join(t.TempDir(), name)
		if err := os.WriteFile(files[name], []byte(secret), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	values, err := json.Marshal(map[string]any{"s": g.values, "secrets": g.secrets, "secret_files": files})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.dir, "terraform.tfvars.json"), values, 0o600); err != nil {
		t.Fatal(err)
	}
	var printed strings.Builder
	for _, source := range settingsSources {
		t.Logf("%s from %s", g.name, source.name)
		w.write(g.config(source))
		printed.WriteString(w.mustRun(0, "validate"))
		out := w.mustRun(0, "apply", "-auto-approve")
		requireNoProviderBug(t, out)
		printed.WriteString(out)
		check(source.name)
		printed.WriteString(w.mustRun(0, "plan", "-detailed-exitcode"))
		printed.WriteString(w.mustRun(0, "destroy", "-auto-approve"))
	}
	return printed.String()
}

// connectProxy is an HTTP proxy for proxy_url that tunnels CONNECT requests and counts them.
func connectProxy(t *testing.T) (string, *atomic.Int64) {
	t.Helper()
	var tunnels atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodConnect {
			http.Error(w, "CONNECT only", http.StatusMethodNotAllowed)
			return
		}
		upstream, err := net.Dial("tcp", r.Host)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		client, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			_ = upstream.Close()
			return
		}
		tunnels.Add(1)
		_, _ = client.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n"))
		go func() { _, _ = io.Copy(upstream, client); _ = upstream.Close() }()
		go func() { _, _ = io.Copy(client, upstream); _ = client.Close() }()
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &tunnels
}

// selectingKubeconfig writes a kubeconfig of the local Garden whose current context, and the
// cluster and user of its context "garden", lead nowhere: only config_context = "garden" with
// config_context_cluster = "good" and config_context_auth_info = "good" reach the Garden.
func selectingKubeconfig(t *testing.T, dir string) string {
	t.Helper()
	cluster, user := currentAuth(t, acctest.Kubeconfig(t))
	nowhere := &clientcmdapi.Cluster{Server: "https://127.0.0.1:1", CertificateAuthorityData: cluster.CertificateAuthorityData}
	cfg := clientcmdapi.Config{
		Clusters:  map[string]*clientcmdapi.Cluster{"good": cluster, "nowhere": nowhere},
		AuthInfos: map[string]*clientcmdapi.AuthInfo{"good": user, "nobody": {Token: "not-a-token"}},
		Contexts: map[string]*clientcmdapi.Context{
			"garden": {Cluster: "nowhere", AuthInfo: "nobody"},
			"wrong":  {Cluster: "nowhere", AuthInfo: "nobody"},
		},
		CurrentContext: "wrong",
	}
	return writeKubeconfigFile(t, dir, "selecting.kubeconfig", cfg)
}

// clusterOnlyKubeconfig writes a kubeconfig with a cluster of a wrong server and without CA or
// user: only host, cluster_ca_certificate and the client certificate and key set next to it reach
// the Garden.
func clusterOnlyKubeconfig(t *testing.T, dir string) string {
	t.Helper()
	cfg := clientcmdapi.Config{
		Clusters:       map[string]*clientcmdapi.Cluster{"c": {Server: "https://127.0.0.1:1"}},
		AuthInfos:      map[string]*clientcmdapi.AuthInfo{"u": {}},
		Contexts:       map[string]*clientcmdapi.Context{"c": {Cluster: "c", AuthInfo: "u"}},
		CurrentContext: "c",
	}
	return writeKubeconfigFile(t, dir, "cluster-only.kubeconfig", cfg)
}

func writeKubeconfigFile(t *testing.T, dir, name string, cfg clientcmdapi.Config) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := clientcmd.WriteToFile(cfg, p); err != nil {
		t.Fatal(err)
	}
	return p
}

// credentialPlugin writes an exec credential plugin that answers with the local Garden admin's
// client certificate only when it gets the argument --garden and the environment variable
// GARDEN_SECRET with the secret (it compares its SHA-256, so the script does not hold it), and
// records each call in the returned file.
func credentialPlugin(t *testing.T, dir, secret string) (plugin, calls string) {
	t.Helper()
	_, user := currentAuth(t, acctest.Kubeconfig(t))
	credential, err := json.Marshal(map[string]any{
		"apiVersion": "client.authentication.k8s.io/v1", "kind": "ExecCredential",
		"status": map[string]string{"clientCertificateData": string(user.ClientCertificateData), "clientKeyData": string(user.ClientKeyData)},
	})
	if err != nil {
		t.Fatal(err)
	}
	credentialFile, calls := filepath.Join(dir, "credential.json"), filepath.Join(dir, "calls")
	if err := os.WriteFile(credentialFile, credential, 0o600); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(secret))
	script := fmt.Sprintf(`#!/bin/sh
if [ "$1" != "--garden" ] || [ "$(printf %%s "$GARDEN_SECRET" | sha256sum | cut -d' ' -f1)" != %q ]; then
  echo "credential plugin: called without --garden or without the secret in GARDEN_SECRET" >&2
  exit 1
fi
echo called >> %q
cat %q
`, hex.EncodeToString(sum[:]), calls, credentialFile)
	plugin = filepath.Join(dir, "credential-plugin.sh")
	if err := os.WriteFile(plugin, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	return plugin, calls
}

// randomSecret is a secret no log can contain by chance.
func randomSecret(t *testing.T) string {
	t.Helper()
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return "secret-" + hex.EncodeToString(b)
}

// TestAccProviderSettings_fromVariablesAndOutputs: every setting of the provider block comes from a
// variable and from another resource's output (terraform_data): `terraform validate` accepts the
// unknown values, the plan and apply of a profile work, the next plan is empty, and the destroy
// works. Each group proves its settings took effect: the kubeconfig's context, cluster and user
// are reached only through the selections, the requests pass the proxy, the profile is owned by
// the configured field manager, the explicit host, CA and client certificate replace a kubeconfig
// that leads nowhere, the project token manages a namespaced profile, and the exec plugin (a
// dynamic block, so unknown as a whole until the apply) gets its argument and its secret through
// env. The secret and the client key appear in no output of the CLI and no TRACE log.
func TestAccProviderSettings_fromVariablesAndOutputs(t *testing.T) {
	admin := acctest.Client(t)
	cluster, adminUser := currentAuth(t, acctest.Kubeconfig(t))
	_, projectUser := currentAuth(t, acctest.ProjectKubeconfig(t))
	gates, err := acctest.GardenFeatureGates()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	w := newCLIWorkspace(t, "")
	w.destroyOnCleanup()
	t.Logf("CLI: %s, version %v, OpenTofu: %t", w.h.terraform, w.h.version, w.h.openTofu)
	name := acctest.UniqueName("acc-settings")
	profile := ownedConfig("", name, "8Gi", "")
	requireProfile := func(manager string) func(string) {
		return func(source string) {
			cp := getCloudProfile(t, admin, name)
			for _, e := range cp.ManagedFields {
				if e.Manager == manager && e.Operation == "Apply" {
					return
				}
			}
			t.Fatalf("from %s: the profile has no Apply entry of field manager %s: %v", source, manager, cp.ManagedFields)
		}
	}

	proxy, tunnels := connectProxy(t)
	kubeconfigGroup := settingsGroup{
		name: "kubeconfig",
		block: `  config_path              = local.s.config_path
  config_context           = local.s.context
  config_context_cluster   = local.s.cluster
  config_context_auth_info = local.s.user
  tls_server_name          = local.s.tls_server_name
  proxy_url                = local.s.proxy_url
  insecure                 = local.s.insecure
  field_manager            = local.s.field_manager
  qps                      = local.s.qps
  burst                    = local.s.burst
  expiry_warning_window    = local.s.expiry_warning_window
  feature_gates            = local.s.feature_gates
  plan_reminders           = local.s.plan_reminders
  server_checks            = local.s.server_checks
`,
		values: map[string]any{
			"config_path": selectingKubeconfig(t, dir), "context": "garden", "cluster": "good", "user": "good",
			"tls_server_name": "localhost", "proxy_url": proxy, "insecure": false, "field_manager": "settings-acc",
			"qps": 50, "burst": 100, "expiry_warning_window": "48h", "feature_gates": gates, "plan_reminders": false, "server_checks": true,
		},
		resources: profile,
	}
	printed := kubeconfigGroup.run(t, w, func(source string) {
		requireProfile("settings-acc")(source)
		if tunnels.Load() == 0 {
			t.Fatalf("from %s: no request went through proxy_url", source)
		}
	})

	credentialsGroup := settingsGroup{
		name: "explicit credentials",
		block: `  config_paths           = [local.s.kubeconfig]
  host                   = local.s.host
  cluster_ca_certificate = local.s.ca
  client_certificate     = local.s.certificate
  client_key             = local.secret.key
`,
		values: map[string]any{
			"kubeconfig": clusterOnlyKubeconfig(t, dir), "host": cluster.Server, "ca": string(cluster.CertificateAuthorityData),
			"certificate": string(adminUser.ClientCertificateData),
		},
		secrets:   map[string]string{"key": string(adminUser.ClientKeyData)},
		resources: profile,
	}
	printed += credentialsGroup.run(t, w, requireProfile(kube.DefaultFieldManager))

	parent := acctest.UniqueName("acc-settings-parent")
	if _, err := admin.ApplyCloudProfile(acctest.Context(t), minimalCloudProfile(parent), kube.ApplyOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = admin.DeleteCloudProfile(acctest.Context(t), parent, "") })
	tokenGroup := settingsGroup{
		name:    "token",
		block:   "  host                   = local.s.host\n  cluster_ca_certificate = local.s.ca\n  token                  = local.secret.token\n",
		values:  map[string]any{"host": cluster.Server, "ca": string(cluster.CertificateAuthorityData)},
		secrets: map[string]string{"token": projectUser.Token},
		resources: fmt.Sprintf(`
resource "gardener_namespaced_cloud_profile" "test" {
  metadata = { name = %q, namespace = %q }
  spec = {
    parent        = { kind = "CloudProfile", name = %q }
    machine_types = { "x1.metal" = { cpu = "96", gpu = "0", memory = "1Ti" } }
  }
}
`, name, projectNamespace, parent),
	}
	printed += tokenGroup.run(t, w, func(source string) {
		if _, err := admin.GetNamespacedCloudProfile(acctest.Context(t), projectNamespace, name); err != nil {
			t.Fatalf("from %s: %v", source, err)
		}
	})

	secret := randomSecret(t)
	plugin, calls := credentialPlugin(t, dir, secret)
	logs := filepath.Join(dir, "trace.log")
	base := w.h.env
	w.h.env = append(append([]string(nil), base...), "TF_LOG=trace", "TF_LOG_PATH="+logs)
	execGroup := settingsGroup{
		name: "exec plugin",
		block: `  host                   = local.s.host
  cluster_ca_certificate = local.s.ca
  dynamic "exec" {
    for_each = local.s.exec ? [1] : []
    content {
      api_version = local.s.api_version
      command     = local.s.command
      args        = [local.s.arg]
      env         = { GARDEN_SECRET = local.secret.exec }
    }
  }
`,
		values: map[string]any{
			"host": cluster.Server, "ca": string(cluster.CertificateAuthorityData), "exec": true,
			"api_version": "client.authentication.k8s.io/v1", "command": plugin, "arg": "--garden",
		},
		secrets:   map[string]string{"exec": secret},
		resources: profile,
	}
	var called int
	printed += execGroup.run(t, w, func(source string) {
		requireProfile(kube.DefaultFieldManager)(source)
		raw, _ := os.ReadFile(calls)
		if n := strings.Count(string(raw), "called"); n > called {
			called = n
			return
		}
		t.Fatalf("from %s: the credential plugin was not called with its argument and secret", source)
	})
	w.h.env = base

	trace, err := os.ReadFile(logs)
	if err != nil {
		t.Fatal(err)
	}
	if len(trace) < 10_000 || !strings.Contains(string(trace), "terraform-provider-gardener") {
		t.Fatalf("the trace log (%d bytes) must hold the provider's output, or the scan proves nothing", len(trace))
	}
	key := string(adminUser.ClientKeyData)
	secrets := map[string]string{"the exec secret": secret, "the project token": projectUser.Token,
		"the client key (base64)": base64.StdEncoding.EncodeToString(adminUser.ClientKeyData)}
	for _, line := range pemBodyLines(key) {
		if len(line) >= 32 {
			secrets["a line of the client key"] = line
			break
		}
	}
	for what, secret := range secrets {
		for where, text := range map[string]string{"the CLI's output": printed, "the trace log": string(trace)} {
			if i := strings.Index(text, secret); i >= 0 {
				t.Errorf("%s appears in %s: …%s…", what, where, text[max(0, i-600):min(len(text), i+200)])
			}
		}
	}
	t.Logf("scanned %d bytes of output and %d bytes of trace log for %d secrets", len(printed), len(trace), len(secrets))
}
