package provider_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// TestAccServerChecks_readOnlyCredentialsPlanOfflineAndSayItOnce: the local Garden's project user
// may read CloudProfiles but not write them. Its plan of a create and of an import with a change
// works with the offline rules and says once, not per resource, that server checks were skipped.
func TestAccServerChecks_readOnlyCredentialsPlanOfflineAndSayItOnce(t *testing.T) {
	project := acctest.ProjectKubeconfig(t)
	existing := acctest.UniqueName("acc-readonly-existing")
	// Created with kubectl create: the import's apply takes its fields over, so that the plan's
	// removal of its label and classification is one the apply carries out.
	cp := minimalCloudProfile(existing)
	cp.TypeMeta = metav1.TypeMeta{APIVersion: "core.gardener.cloud/v1beta1", Kind: "CloudProfile"}
	createdAs(t, "kubectl-create", cp, false)
	t.Cleanup(func() { _ = acctest.Client(t).DeleteCloudProfile(acctest.Context(t), existing, "") })
	created := acctest.UniqueName("acc-readonly-new")
	config := ownedConfig(acctest.ProviderBlock(project), created, "8Gi", "") +
		strings.Replace(ownedConfig("", existing, "16Gi", ""), `"test"`, `"existing"`, 1) +
		"\nimport {\n  to = gardener_cloud_profile.existing\n  id = \"" + existing + "\"\n}\n"
	w := newCLIWorkspace(t, config)
	out := w.mustRun(2, "plan", "-detailed-exitcode")
	requireNoProviderBug(t, out)
	if n := strings.Count(out, "Warning: Server checks skipped"); n != 1 {
		t.Fatalf("want the skipped server checks said once, got %d times:\n%s", n, out)
	}
	flat := strings.Join(strings.Fields(out), " ") // the CLI wraps long lines
	if !strings.Contains(flat, "read-only credentials") || !strings.Contains(flat, "server_checks = false") {
		t.Fatalf("the warning does not say why and what to do:\n%s", out)
	}
	if !strings.Contains(out, "1 to import, 1 to add, 1 to change") {
		t.Fatalf("the plan is not the offline plan of an import with a change and a create:\n%s", out)
	}
}

// TestAccServerChecks_requestsPerPlan counts the provider's requests: a plan without changes makes
// no request besides the refresh and the run's read of the Garden's release; a plan that changes the
// profile makes one dry-run apply more (and reads the release of the profile's provider extension
// once); with server_checks = false no dry run.
func TestAccServerChecks_requestsPerPlan(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	name := acctest.UniqueName("acc-requests")
	w := newCLIWorkspace(t, ownedConfig(acctest.ProviderBlock(kubeconfig), name, "8Gi", ""))
	w.destroyOnCleanup()
	w.mustRun(0, "apply", "-auto-approve")
	base := w.h.env
	// requests are the requests of a terraform command on the profile, and how many other requests
	// read what the Garden publishes about itself: its release (gardener-info) and its extensions.
	requests := func(want int, args ...string) (profile []string, release, extensions int) {
		t.Helper()
		log := filepath.Join(t.TempDir(), "requests.log")
		w.h.env = slices.Concat(base, []string{kube.RequestLogEnv + "=" + log})
		defer func() { w.h.env = base }()
		w.mustRun(want, args...)
		raw, err := os.ReadFile(log)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		for _, l := range strings.Fields(strings.ReplaceAll(string(raw), " ", "_")) {
			switch {
			case strings.HasPrefix(l, "GET_"+gardenerInfoPath+"_"):
				release++
			case strings.Contains(l, "/controllerregistrations") || strings.Contains(l, "/controllerdeployments/"):
				extensions++
			default:
				profile = append(profile, l)
			}
		}
		return profile, release, extensions
	}
	count := func(lines []string, method, query string) int {
		n := 0
		for _, l := range lines {
			if strings.HasPrefix(l, method+"_") && strings.Contains(l, query) {
				n++
			}
		}
		return n
	}
	noop, release, extensions := requests(0, "plan", "-detailed-exitcode")
	if len(noop) != 1 || count(noop, "GET", "") != 1 || release != 1 || extensions != 0 {
		t.Fatalf("a plan without changes: want only the refresh GET and one read of the release, got %v, %d, %d", noop, release, extensions)
	}
	w.write(ownedConfig(acctest.ProviderBlock(kubeconfig), name, "16Gi", ""))
	changing, release, extensions := requests(2, "plan", "-detailed-exitcode")
	if len(changing) != 2 || count(changing, "GET", "") != 1 || count(changing, "PATCH", "dryRun=All") != 1 || release != 1 || extensions > 2 {
		t.Fatalf("a plan changing the profile: want the refresh GET, one dry-run apply, one read of the release and at most two of the "+
			"extension's, got %v, %d, %d", changing, release, extensions)
	}
	w.write(strings.Replace(ownedConfig(acctest.ProviderBlock(kubeconfig), name, "16Gi", ""), "config_path", "server_checks = false\n  config_path", 1))
	offline, release, _ := requests(2, "plan", "-detailed-exitcode")
	if len(offline) != 1 || count(offline, "GET", "") != 1 || release != 1 {
		t.Fatalf("a changing plan with server_checks = false: want only the refresh GET and one read of the release, got %v, %d", offline, release)
	}
}

// TestAccServerChecks_overrideErrorIsSaidOnce: a NamespacedCloudProfile that overrides a
// Kubernetes version its parent lacks (rule L-1). The offline rules report it and the local
// Garden's admission plugin rejects the dry run with the same message (a 500 without causes): the
// plan shows that one error, which also says that more checks follow once it is fixed, and no
// warning besides Terraform's about the development override; nothing is written.
func TestAccServerChecks_overrideErrorIsSaidOnce(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	parent := acctest.UniqueName("acc-once-parent")
	admin := createdWithAdmin(t, minimalCloudProfile(parent))
	name := acctest.UniqueName("acc-once")
	w := newCLIWorkspace(t, acctest.ProviderBlock(kubeconfig)+`
resource "gardener_namespaced_cloud_profile" "test" {
  metadata = { name = "`+name+`", namespace = "`+projectNamespace+`" }
  spec = {
    parent     = { kind = "CloudProfile", name = "`+parent+`" }
    kubernetes = { versions = { "1.29.9" = { expiration_date = "2099-06-01T00:00:00Z" } } }
  }
}
`)
	out := w.mustRun(1, "plan")
	requireNoProviderBug(t, out)
	if n := strings.Count(out, "Error: "); n != 1 {
		t.Fatalf("want one error, got %d:\n%s", n, out)
	}
	if n, overrides := strings.Count(out, "Warning: "), strings.Count(out, "Warning: Provider development overrides"); n != overrides {
		t.Fatalf("want no warning besides the development override, got %d:\n%s", n-overrides, out)
	}
	flat := strings.Join(strings.Fields(out), " ") // the CLI wraps long lines
	for _, want := range []string{
		"Error: The Kubernetes override names a version the parent lacks (Kubernetes version 1.29.9)",
		"does not exist in parent CloudProfile and thus cannot be overridden (rule L-1)",
		"once this is fixed, the next plan may find more problems",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("the plan lacks %q:\n%s", want, out)
		}
	}
	if _, err := admin.GetNamespacedCloudProfile(acctest.Context(t), projectNamespace, name); !kube.IsNotFound(err) {
		t.Fatalf("a rejected NamespacedCloudProfile must not be written, got err=%v", err)
	}
}

// TestAccNamespacedCloudProfile_missingParentWarnsOnceAtPlan: two NamespacedCloudProfiles name a
// parent that does not exist (a typo), a third names a parent that the same plan creates. The plan
// warns once, on the typo, and not about the parent created in the same apply.
func TestAccNamespacedCloudProfile_missingParentWarnsOnceAtPlan(t *testing.T) {
	missing := acctest.UniqueName("acc-no-such-parent")
	created := acctest.UniqueName("acc-planned-parent")
	w := newCLIWorkspace(t, cloudProfileConfig(acctest.Kubeconfig(t), created, "", "", "")+`
resource "gardener_namespaced_cloud_profile" "typo" {
  for_each = toset(["a", "b"])
  metadata = { name = "`+acctest.UniqueName("acc-typo")+`-${each.key}", namespace = "`+projectNamespace+`" }
  spec = {
    parent        = { kind = "CloudProfile", name = "`+missing+`" }
    machine_types = { "x1.metal" = { cpu = "96", gpu = "0", memory = "1Ti", usable = true } }
  }
}

resource "gardener_namespaced_cloud_profile" "test" {
  metadata = { name = "`+acctest.UniqueName("acc-same")+`", namespace = "`+projectNamespace+`" }
  spec = {
    parent        = { kind = "CloudProfile", name = gardener_cloud_profile.test.metadata.name }
    machine_types = { "x1.metal" = { cpu = "96", gpu = "0", memory = "1Ti", usable = true } }
  }
}
`)
	out := w.mustRun(0, "plan")
	requireNoProviderBug(t, out)
	if n := strings.Count(out, `Warning: Parent CloudProfile "`+missing+`" does not exist`); n != 1 {
		t.Fatalf("want the missing parent warned about once, got %d times:\n%s", n, out)
	}
	if n, known := strings.Count(out, "Warning: "), strings.Count(out, "Warning: Provider development overrides")+1; n != known {
		t.Fatalf("want no other warning (the parent created in the same apply is no warning), got %d more:\n%s", n-known, out)
	}
	if !strings.Contains(out, "Plan: 4 to add") {
		t.Fatalf("the plan is not the create of the four objects:\n%s", out)
	}
}

// TestAccNamespacedCloudProfile_checkedAgainstTheParentAsPlanned: a configuration that adds a
// Kubernetes version to its parent and an override of it to three NamespacedCloudProfiles plans
// and applies in one go: the profiles are checked against the parent as planned, which Terraform
// applies first, not as the Garden has it before the apply. Retiring a version together with the
// three overrides of it is one apply too (rule N-1 would refuse the parent's write first): the plan
// warns once, naming the profiles whose overrides the apply removes before the version.
func TestAccNamespacedCloudProfile_checkedAgainstTheParentAsPlanned(t *testing.T) {
	parent := acctest.UniqueName("acc-asplanned")
	config := func(versions ...string) string {
		quoted := `"` + strings.Join(versions, `", "`) + `"`
		return acctest.ProviderBlock(acctest.Kubeconfig(t)) + `
locals {
  versions = [` + quoted + `]
}

resource "gardener_cloud_profile" "parent" {
  metadata = { name = "` + parent + `" }
  spec = {
    type           = "local"
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [for image in ["gardenlinux", "ubuntu", "alpine", "suse", "rhel"] : { name = image, versions = [{ version = "1.0.0", image = "local/${image}" }] }] })
    kubernetes     = { versions = { for v in local.versions : v => {} } }
    machine_images = { "gardenlinux" = { versions = { "1877.3.0" = { cri = { "containerd" = {} } } } } }
    machine_types  = { "m5.large" = { cpu = "2", gpu = "0", memory = "8Gi", usable = true } }
    regions        = { "local" = {} }
  }
}

resource "gardener_namespaced_cloud_profile" "team" {
  for_each = toset(["a", "b", "c"])
  metadata = { name = "` + parent + `-${each.key}", namespace = "` + projectNamespace + `" }
  spec = {
    parent     = { kind = "CloudProfile", name = gardener_cloud_profile.parent.metadata.name }
    kubernetes = { versions = { for v in slice(local.versions, 1, length(local.versions)) : v => { expiration_date = "2099-06-01T00:00:00Z" } } }
  }
}
`
	}
	w := newCLIWorkspace(t, config("1.31.2", "1.31.1"))
	w.destroyOnCleanup()
	w.mustRun(0, "apply", "-auto-approve")

	w.write(config("1.31.2", "1.31.1", "1.31.0"))
	out := w.mustRun(2, "plan", "-detailed-exitcode")
	requireNoProviderBug(t, out)
	if strings.Contains(out, "Warning: ") && strings.Count(out, "Warning: ") != strings.Count(out, "Warning: Provider development overrides") {
		t.Fatalf("the plan that adds a version and its overrides warns:\n%s", out)
	}
	w.mustRun(0, "apply", "-auto-approve")
	w.mustRun(0, "plan", "-detailed-exitcode")

	w.write(config("1.31.2", "1.31.0"))
	out = w.mustRun(2, "plan", "-detailed-exitcode")
	requireNoProviderBug(t, out)
	if n := strings.Count(out, "\nError: "); n != 0 {
		t.Fatalf("retiring a version together with its overrides: want no error, got %d:\n%s", n, out)
	}
	if n := strings.Count(out, "Warning: The apply removes the overrides of removed versions first (3 NamespacedCloudProfiles)"); n != 1 {
		t.Fatalf("want one warning naming the three profiles whose overrides go first, got %d:\n%s", n, out)
	}
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))
	w.mustRun(0, "plan", "-detailed-exitcode")
	for _, suffix := range []string{"-a", "-b", "-c"} {
		versions := keysOfList(t, storedObject(t, "namespacedcloudprofiles", projectNamespace, parent+suffix), "version", "spec", "kubernetes", "versions")
		if !slices.Equal(versions, []string{"1.31.0"}) {
			t.Errorf("%s%s keeps the overrides %q, want [1.31.0]", parent, suffix, versions)
		}
	}
}

// TestAccServerChecks_unusableSettingsFailThePlan: a config_path that does not exist, a kubeconfig
// that does not parse and a client key that does not parse pass `terraform validate` (which reads
// no file and needs no Garden) and fail the plan with one error on the setting, whose fix names
// it, instead of a warning that server checks were skipped; a Garden that cannot be reached still
// plans offline with that warning, whose fix is about reaching the Garden, not RBAC.
func TestAccServerChecks_unusableSettingsFailThePlan(t *testing.T) {
	cluster, admin := currentAuth(t, acctest.Kubeconfig(t))
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.kubeconfig")
	if err := os.WriteFile(broken, []byte("apiVersion: v1\nclusters: [ not yaml"), 0o600); err != nil {
		t.Fatal(err)
	}
	name := acctest.UniqueName("acc-bad-setting")
	block := func(settings string) string {
		return "provider \"gardener\" {\n" + settings + "}\n"
	}
	explicit := fmt.Sprintf("  host = %q\n  cluster_ca_certificate = %q\n  client_certificate = %q\n", cluster.Server, cluster.CertificateAuthorityData, admin.ClientCertificateData)
	w := newCLIWorkspace(t, ownedConfig(block(fmt.Sprintf("  config_path = %q\n", filepath.Join(dir, "missing"))), name, "8Gi", ""))
	for _, c := range []struct {
		name, settings, attr, want string
	}{
		{"missing config_path", fmt.Sprintf("  config_path = %q\n", filepath.Join(dir, "missing")), "config_path", "does not exist"},
		{"kubeconfig that does not parse", fmt.Sprintf("  config_path = %q\n", broken), "config_path", "loading kubeconfig"},
		{"client key that does not parse", explicit + "  client_key = \"not a key\"\n", "client_key", "key"},
	} {
		w.write(ownedConfig(block(c.settings), name, "8Gi", ""))
		w.mustRun(0, "validate")
		out := w.mustRun(1, "plan")
		flat := strings.Join(strings.Fields(out), " ")
		_, fix, found := strings.Cut(flat, "To fix: ")
		if !found || strings.Count(out, "Error: ") != 1 || !strings.Contains(out, "Error: Invalid "+c.attr) || !strings.Contains(out, `in provider "gardener":`) ||
			!strings.Contains(flat, c.want) || !strings.Contains(fix, c.attr) || strings.Contains(out, "Server checks skipped") {
			t.Errorf("%s: want one error on %s in the provider block saying %q, with a fix naming it:\n%s", c.name, c.attr, c.want, out)
		}
	}

	w.write(ownedConfig(block(fmt.Sprintf("  host = \"https://127.0.0.1:1\"\n  cluster_ca_certificate = %q\n", cluster.CertificateAuthorityData)), name, "8Gi", ""))
	out := w.mustRun(2, "plan", "-detailed-exitcode")
	flat := strings.Join(strings.Fields(out), " ")
	if strings.Count(out, "Warning: Server checks skipped") != 1 || !strings.Contains(flat, "can be reached") || strings.Contains(flat, "RBAC") {
		t.Errorf("an unreachable Garden: want the warning that server checks were skipped, with a fix about reaching it:\n%s", out)
	}
}
