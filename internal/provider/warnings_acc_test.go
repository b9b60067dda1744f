package provider_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
)

// warningHeadlines returns the summaries of the warnings terraform printed, in order, without the
// one about the test's own dev_overrides.
func warningHeadlines(out string) []string {
	var headlines []string
	for _, m := range regexp.MustCompile(`(?m)^Warning: (.*)$`).FindAllStringSubmatch(out, -1) {
		if m[1] != "Provider development overrides are in effect" {
			headlines = append(headlines, m[1])
		}
	}
	return headlines
}

// requireNoWarnings fails when terraform printed a warning.
func requireNoWarnings(t *testing.T, what, out string) {
	t.Helper()
	if ws := warningHeadlines(out); len(ws) > 0 {
		t.Fatalf("%s printed warnings %q:\n%s", what, ws, out)
	}
}

// TestAccWarnings_demoAppliesAndPlansWithoutWarnings: the demo (a CloudProfile and a
// NamespacedCloudProfile whose parent is created by the same apply) applies without a warning,
// and the plan that follows is empty and silent.
func TestAccWarnings_demoAppliesAndPlansWithoutWarnings(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	w := newCLIWorkspace(t, "")
	demo, err := os.ReadFile(filepath.Join(w.h.root, "examples", "demo", "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string]string{"main.tf": string(demo), "terraform.tfvars": fmt.Sprintf("kubeconfig = %q\n", kubeconfig)} {
		if err := os.WriteFile(filepath.Join(w.dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	w.destroyOnCleanup()
	requireNoWarnings(t, "apply of the demo", w.mustRun(0, "apply", "-auto-approve"))
	requireNoWarnings(t, "plan after the demo's apply", w.mustRun(0, "plan", "-detailed-exitcode"))
}

// expiringProfileConfig is a CloudProfile with two Kubernetes versions that expire on fixed dates,
// planned with a warning window that reaches both from any wall clock between 2019 and 2030.
func expiringProfileConfig(kubeconfig, name, firstExpiry string, reminders bool) string {
	return fmt.Sprintf(`
provider "gardener" {
  config_path           = %q
  expiry_warning_window = "100000h"
  plan_reminders        = %t
}

resource "gardener_cloud_profile" "test" {
  metadata = { name = %q }
  spec = {
    type = "local"
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [for image in ["gardenlinux", "ubuntu", "alpine", "suse", "rhel"] : { name = image, versions = [{ version = "1.0.0", image = "local/${image}" }] }] })
    kubernetes = {
      versions = {
        "1.33.1" = { classification = "supported" }
        "1.32.4" = { classification = "supported", expiration_date = %q }
        "1.31.10" = { classification = "deprecated", expiration_date = "2031-01-01T00:00:00Z" }
      }
    }
    machine_images = {
      "gardenlinux" = {
        versions = { "1877.3.0" = { classification = "supported", architectures = ["amd64"] } }
      }
    }
    machine_types = { "m5.large" = { cpu = "2", gpu = "0", memory = "8Gi" } }
    regions       = { "local" = { zones = { "local-a" = {} } } }
  }
}
`, kubeconfig, reminders, name, firstExpiry)
}

// TestAccWarnings_eachWarningHasItsOwnHeadlineAndOnlyChangesWarn: two versions that expire within
// the window give two warnings with their own headlines (Terraform folds warnings that share one);
// a plan that changes nothing warns about nothing; a plan that changes one version warns about that
// version only; plan_reminders = true brings the reminders back on every plan.
func TestAccWarnings_eachWarningHasItsOwnHeadlineAndOnlyChangesWarn(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	name := acctest.UniqueName("acc-warn")
	first := `Kubernetes version "1.32.4" expires after 2030-01-01T00:00:00Z`
	second := `Kubernetes version "1.31.10" expires after 2031-01-01T00:00:00Z`
	w := newCLIWorkspace(t, expiringProfileConfig(kubeconfig, name, "2030-01-01T00:00:00Z", false))
	w.destroyOnCleanup()

	// An apply plans twice (before and during the apply), so it prints each warning twice and
	// Terraform folds each pair: both headlines must still be there.
	requireHeadlines(t, "the create", w.mustRun(0, "apply", "-auto-approve"), first, second)

	requireNoWarnings(t, "a plan without changes", w.mustRun(0, "plan", "-detailed-exitcode"))

	w.write(expiringProfileConfig(kubeconfig, name, "2030-06-01T00:00:00Z", false))
	requirePlanHeadlines(t, "a plan that changes one version", w.mustRun(2, "plan", "-detailed-exitcode"),
		`Kubernetes version "1.32.4" expires after 2030-06-01T00:00:00Z`)

	w.write(expiringProfileConfig(kubeconfig, name, "2030-01-01T00:00:00Z", true))
	requirePlanHeadlines(t, "a plan with plan_reminders", w.mustRun(0, "plan", "-detailed-exitcode"), first, second)
}

// requirePlanHeadlines fails unless a plan printed exactly the warnings want, none folded into
// another.
func requirePlanHeadlines(t *testing.T, what, out string, want ...string) {
	t.Helper()
	if strings.Contains(out, "similar warning") {
		t.Fatalf("%s: terraform folded warnings:\n%s", what, out)
	}
	requireHeadlines(t, what, out, want...)
}

// requireHeadlines fails unless the headlines of the warnings terraform printed are exactly want.
func requireHeadlines(t *testing.T, what, out string, want ...string) {
	t.Helper()
	got := map[string]bool{}
	for _, h := range warningHeadlines(out) {
		got[h] = true
	}
	for _, h := range want {
		if !got[h] {
			t.Fatalf("%s: missing the warning %q:\n%s", what, h, out)
		}
		delete(got, h)
	}
	if len(got) > 0 {
		t.Fatalf("%s: unexpected warnings %v:\n%s", what, got, out)
	}
}
