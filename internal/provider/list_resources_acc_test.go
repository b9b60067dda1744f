package provider_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// TestAccQuery_listGenerateConfigImport: 20 CloudProfiles and 2 NamespacedCloudProfiles that a
// Helm-like tool created carry a label; `terraform query` (Terraform 1.14+) with label selectors
// lists exactly them, `-generate-config-out` writes their resources and import blocks without the
// arguments that keep their defaults, the plan imports them without a change, and after the apply
// the plan is empty.
func TestAccQuery_listGenerateConfigImport(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	w := newCLIWorkspace(t, acctest.ProviderBlock(kubeconfig))
	if w.h.version[0] == 1 && w.h.version[1] < 14 {
		t.Skipf("terraform query needs Terraform 1.14 or later, the CLI is %d.%d", w.h.version[0], w.h.version[1])
	}
	admin := acctest.Client(t)
	helm := acctest.ClientAs(t, "helm")
	ctx := acctest.Context(t)
	label := acctest.UniqueName("q")
	var names []string
	for i := range 21 {
		cp := minimalCloudProfile(fmt.Sprintf("%s-%02d", label, i))
		if i < 20 {
			cp.Labels["acc-query"] = label // the 21st is not selected
			names = append(names, cp.Name)
		}
		if _, err := helm.ApplyCloudProfile(ctx, cp, kube.ApplyOptions{}); err != nil {
			t.Fatalf("creating %s: %v", cp.Name, err)
		}
		t.Cleanup(func() { _ = admin.DeleteCloudProfile(context.Background(), cp.Name, "") })
	}
	for i := range 2 {
		ncp := teamProfile(projectNamespace, fmt.Sprintf("%s-team-%d", label, i), names[0])
		ncp.Labels = map[string]string{"acc-query": label}
		ncp.Spec.Kubernetes, ncp.Spec.MachineImages = nil, nil
		if _, err := helm.ApplyNamespacedCloudProfile(ctx, ncp, kube.ApplyOptions{}); err != nil {
			t.Fatalf("creating %s: %v", ncp.Name, err)
		}
		names = append(names, projectNamespace+"/"+ncp.Name)
		t.Cleanup(func() { _ = admin.DeleteNamespacedCloudProfile(context.Background(), projectNamespace, ncp.Name, "") })
	}
	query := fmt.Sprintf(`
list "gardener_cloud_profile" "labelled" {
  provider         = gardener
  include_resource = true
  config {
    label_selector = "acc-query=%[1]s"
  }
}

list "gardener_namespaced_cloud_profile" "labelled" {
  provider         = gardener
  include_resource = true
  config {
    namespace      = %[2]q
    label_selector = "acc-query=%[1]s"
  }
}
`, label, projectNamespace)
	if err := os.WriteFile(filepath.Join(w.dir, "profiles.tfquery.hcl"), []byte(query), 0o600); err != nil {
		t.Fatal(err)
	}
	out := w.mustRun(0, "query", "-generate-config-out=generated.tf")
	requireNoProviderBug(t, out)
	for _, n := range names {
		if !strings.Contains(out, n) {
			t.Errorf("terraform query does not list %s:\n%s", n, out)
		}
	}
	if strings.Contains(out, label+"-20") {
		t.Errorf("terraform query lists %s-20, which the label selector excludes:\n%s", label, out)
	}
	generated, err := os.ReadFile(filepath.Join(w.dir, "generated.tf"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(generated), "import {"); got != len(names) {
		t.Fatalf("generated.tf has %d import blocks, want %d:\n%s", got, len(names), generated)
	}
	for _, dflt := range []string{"adopt_existing", "keep_status", "keep_merged_status", "labels = {}", "annotations = {}"} {
		if strings.Contains(string(generated), dflt) {
			t.Errorf("generated.tf writes %s, which keeps its default:\n%s", dflt, generated)
		}
	}
	// Terraform writes every optional argument that is null unless it is computed, and the
	// write-only force_conflicts cannot be computed: it is written as null, never set.
	if set := regexp.MustCompile(`(?m)^\s*force_conflicts\s*=\s*[^n\s].*$`).FindString(string(generated)); set != "" {
		t.Errorf("generated.tf sets force_conflicts: %s", set)
	}
	w.destroyOnCleanup()
	out = w.mustRun(2, "plan", "-detailed-exitcode")
	requireNoProviderBug(t, out)
	if want := fmt.Sprintf("Plan: %d to import, 0 to add, 0 to change, 0 to destroy.", len(names)); !strings.Contains(out, want) {
		t.Fatalf("the plan of the generated configuration is not %q:\n%s", want, out)
	}
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))
	out = w.mustRun(0, "plan", "-detailed-exitcode")
	if !regexp.MustCompile(`No changes`).MatchString(out) {
		t.Fatalf("the plan after the import is not empty:\n%s", out)
	}
}
