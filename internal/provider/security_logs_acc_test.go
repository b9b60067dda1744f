package provider_test

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// currentAuth returns the cluster and user of a kubeconfig's current context.
func currentAuth(t *testing.T, path string) (*clientcmdapi.Cluster, *clientcmdapi.AuthInfo) {
	t.Helper()
	cfg, err := clientcmd.LoadFromFile(path)
	if err != nil {
		t.Fatalf("loading %s: %v", path, err)
	}
	ctx := cfg.Contexts[cfg.CurrentContext]
	if ctx == nil || cfg.Clusters[ctx.Cluster] == nil || cfg.AuthInfos[ctx.AuthInfo] == nil {
		t.Fatalf("%s has no usable current context", path)
	}
	return cfg.Clusters[ctx.Cluster], cfg.AuthInfos[ctx.AuthInfo]
}

// TestAccSecurity_credentialsNeverAppearInLogs runs a full create, refresh, plan and destroy with
// every credential kind the provider accepts: a client certificate and key (the admin's), a bearer
// token (the project user's) and an exec credential plugin that gets the token through its
// sensitive env. Terraform and the in-process provider log at TRACE into per-test files
// (TF_LOG_PATH_MASK, which both terraform-exec and terraform-plugin-log's test sink honour); every
// file is scanned for the secrets.
func TestAccSecurity_credentialsNeverAppearInLogs(t *testing.T) {
	admin := acctest.Client(t)
	cluster, adminUser := currentAuth(t, acctest.Kubeconfig(t))
	_, projectUser := currentAuth(t, acctest.ProjectKubeconfig(t))
	if len(adminUser.ClientKeyData) == 0 || projectUser.Token == "" {
		t.Fatal("the local Garden's admin kubeconfig must carry a client key and the project kubeconfig a token")
	}
	key, token := string(adminUser.ClientKeyData), projectUser.Token

	logs := os.Getenv("SEC_LOG_DIR")
	if logs == "" {
		logs = t.TempDir()
	}
	t.Setenv("TF_LOG", "TRACE")
	t.Setenv("TF_ACC_LOG", "TRACE")
	t.Setenv("TF_LOG_PATH_MASK", filepath.Join(logs, "%s.log"))

	plugin := filepath.Join(t.TempDir(), "credential-plugin.sh")
	script := `#!/bin/sh
printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"%s"}}' "$GARDEN_TOKEN"
`
	if err := os.WriteFile(plugin, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}

	// The secrets reach the configuration through file(), as they would from a secret store: the
	// test harness itself logs the configuration text it writes (sdk.helper_resource), which is not
	// Terraform's or the provider's doing.
	secretDir := t.TempDir()
	secretFile := func(name, content string) string {
		p := filepath.Join(secretDir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	keyFile, tokenFile := secretFile("client.key", key), secretFile("token", token)

	// terraform-plugin-testing serves an in-process provider once per name, so provider aliases
	// would share one configuration: each credential kind gets its own test case instead. The
	// parent of the NamespacedCloudProfiles is set up with the admin client.
	parent := acctest.UniqueName("acc-sec-parent")
	if _, err := admin.ApplyCloudProfile(acctest.Context(t), minimalCloudProfile(parent), kube.ApplyOptions{}); err != nil {
		t.Fatalf("creating the parent: %v", err)
	}
	t.Cleanup(func() { _ = admin.DeleteCloudProfile(acctest.Context(t), parent, "") })
	name := acctest.UniqueName("acc-sec")
	connection := fmt.Sprintf("  host = %q\n  cluster_ca_certificate = %q\n", cluster.Server, string(cluster.CertificateAuthorityData))
	ncp := func(suffix string) string {
		return fmt.Sprintf(`
resource "gardener_namespaced_cloud_profile" "test" {
  metadata = { name = "%s-%s", namespace = %q }
  spec = {
    parent        = { kind = "CloudProfile", name = %q }
    machine_types = { "x1.metal" = { cpu = "96", gpu = "0", memory = "1Ti" } }
  }
}
`, name, suffix, projectNamespace, parent)
	}
	cases := map[string]string{
		"client certificate": "provider \"gardener\" {\n" + connection +
			fmt.Sprintf("  client_certificate = %q\n  client_key = file(%q)\n}\n", string(adminUser.ClientCertificateData), keyFile) +
			fmt.Sprintf(`
resource "gardener_cloud_profile" "test" {
  metadata = { name = "%s-cp" }
  spec = {
    type           = "local"
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [for image in ["gardenlinux", "ubuntu", "alpine", "suse", "rhel"] : { name = image, versions = [{ version = "1.0.0", image = "local/${image}" }] }] })
    kubernetes     = { versions = { "1.31.2" = {} } }
    machine_images = { "gardenlinux" = { versions = { "1877.3.0" = {} } } }
    machine_types  = { "m5.large" = { cpu = "2", gpu = "0", memory = "8Gi" } }
    regions        = { "local" = {} }
  }
}
`, name),
		"token": "provider \"gardener\" {\n" + connection + fmt.Sprintf("  token = trimspace(file(%q))\n}\n", tokenFile) + ncp("token"),
		"exec": "provider \"gardener\" {\n" + connection + fmt.Sprintf(`  exec {
    api_version = "client.authentication.k8s.io/v1"
    command     = %q
    env         = { GARDEN_TOKEN = trimspace(file(%q)) }
  }
}
`, plugin, tokenFile) + ncp("exec"),
	}
	for _, kind := range []string{"client certificate", "token", "exec"} {
		t.Logf("credentials: %s", kind)
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.ProviderFactories(),
			CheckDestroy: func(*terraform.State) error {
				if _, err := admin.GetCloudProfile(acctest.Context(t), name+"-cp"); !kube.IsNotFound(err) {
					return fmt.Errorf("CloudProfile %s-cp still exists (err=%v)", name, err)
				}
				return namespacedGone(admin, name+"-"+strings.Fields(kind)[0])(nil)
			},
			Steps: []resource.TestStep{{Config: cases[kind]}},
		})
	}

	secrets := map[string]string{
		"project token":         token,
		"client key (base64)":   base64.StdEncoding.EncodeToString(adminUser.ClientKeyData),
		"client key (escaped)":  strings.ReplaceAll(strings.TrimSpace(key), "\n", `\n`),
		"client key (PEM body)": strings.Join(pemBodyLines(key), "\n"),
	}
	for _, line := range pemBodyLines(key) {
		if len(line) >= 32 {
			secrets["a line of the client key"] = line
			break
		}
	}
	files, _ := filepath.Glob(filepath.Join(logs, "*"))
	var total int
	var providerLogged bool
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		total += len(raw)
		text := string(raw)
		// The provider's own framework and protocol logs, not only the harness's and Terraform's.
		providerLogged = providerLogged || (strings.Contains(text, "sdk.framework:") && strings.Contains(text, "sdk.proto:"))
		for what, secret := range secrets {
			if secret != "" && strings.Contains(text, secret) {
				t.Errorf("the %s appears in %s", what, f)
			}
		}
	}
	if total < 10_000 || !providerLogged {
		t.Fatalf("the logs (%d bytes in %v) must hold Terraform's and the provider's TRACE output, or the scan proves nothing", total, files)
	}
	t.Logf("scanned %d bytes of TRACE logs in %d files for %d secrets", total, len(files), len(secrets))
}

// pemBodyLines returns the base64 lines of a PEM block.
func pemBodyLines(p string) []string {
	var out []string
	for _, l := range strings.Split(p, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "-----") {
			out = append(out, l)
		}
	}
	return out
}

// TestAccSecurity_tokenNeverAppearsInTheCLIOutputOfTheRealProvider runs the provider binary (not
// in-process) with TF_LOG=trace, so that everything the provider process writes, including
// client-go's own klog output on stderr, passes through Terraform: the project token appears
// neither in what terraform prints nor in its trace log.
func TestAccSecurity_tokenNeverAppearsInTheCLIOutputOfTheRealProvider(t *testing.T) {
	admin := acctest.Client(t)
	cluster, _ := currentAuth(t, acctest.Kubeconfig(t))
	_, projectUser := currentAuth(t, acctest.ProjectKubeconfig(t))
	token := projectUser.Token
	if token == "" {
		t.Fatal("the project kubeconfig must carry a token")
	}
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte(token), 0o600); err != nil {
		t.Fatal(err)
	}
	parent := acctest.UniqueName("acc-sec-cli-parent")
	if _, err := admin.ApplyCloudProfile(acctest.Context(t), minimalCloudProfile(parent), kube.ApplyOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = admin.DeleteCloudProfile(acctest.Context(t), parent, "") })
	name := acctest.UniqueName("acc-sec-cli")
	config := fmt.Sprintf(`
provider "gardener" {
  host                   = %q
  cluster_ca_certificate = %q
  token                  = trimspace(file(%q))
}

resource "gardener_namespaced_cloud_profile" "test" {
  metadata = { name = %q, namespace = %q }
  spec = {
    parent        = { kind = "CloudProfile", name = %q }
    machine_types = { "x1.metal" = { cpu = "96", gpu = "0", memory = "1Ti" } }
  }
}
`, cluster.Server, string(cluster.CertificateAuthorityData), tokenFile, name, projectNamespace, parent)
	w := newCLIWorkspace(t, config)
	logFile := filepath.Join(t.TempDir(), "trace.log")
	w.h.env = append(w.h.env, "TF_LOG=trace", "TF_LOG_PATH="+logFile)
	printed := w.mustRun(0, "apply", "-auto-approve") + w.mustRun(0, "plan") + w.mustRun(0, "destroy", "-auto-approve")
	trace, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(trace), "terraform-provider-gardener") || len(trace) < 10_000 {
		t.Fatalf("the trace log (%d bytes) must hold the provider's output, or the scan proves nothing", len(trace))
	}
	for where, text := range map[string]string{"terraform's output": printed, "the trace log": string(trace)} {
		if strings.Contains(text, token) {
			t.Errorf("the project token appears in %s", where)
		}
	}
	t.Logf("scanned %d bytes of output and %d bytes of trace log", len(printed), len(trace))
}
