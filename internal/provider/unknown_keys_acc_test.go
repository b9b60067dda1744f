package provider_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
)

// TestAccPlan_aKeyUnknownAtPlanMakesTheMapUnknown holds what the resource pages say about keys
// unknown at plan: a Kubernetes version whose key comes from a resource created in the same apply
// makes `versions` unknown as a whole, so Terraform renders the existing versions as removed
// (`- "1.31.2"`, `-> (known after apply)`), yet the apply keeps them (read with a raw client) and
// adds the new one; with the key known (a local), the same change plans as one added version.
func TestAccPlan_aKeyUnknownAtPlanMakesTheMapUnknown(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	name := acctest.UniqueName("acc-unknown-key")
	config := func(newVersion string) string {
		return strings.Replace(ownedConfig(acctest.ProviderBlock(kubeconfig), name, "8Gi", ""),
			`kubernetes     = { versions = { "1.31.2" = {} } }`,
			fmt.Sprintf(`kubernetes     = { versions = { "1.31.2" = {}, "1.30.5" = {}, (%s) = { classification = "preview" } } }`, newVersion), 1)
	}
	w := newCLIWorkspace(t, config(`"1.31.3"`))
	w.destroyOnCleanup()
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))

	w.write(config("terraform_data.next.output") + "\nresource \"terraform_data\" \"next\" {\n  input = \"1.32.0\"\n}\n")
	out := w.mustRun(2, "plan", "-detailed-exitcode")
	t.Logf("a key unknown at plan (%d lines):\n%s", strings.Count(out, "\n"), out)
	for _, want := range []string{`- "1.31.2" = {`, `} -> (known after apply)`} {
		if !strings.Contains(out, want) {
			t.Errorf("the plan lacks %q:\n%s", want, out)
		}
	}
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))
	if got := keysOfList(t, storedObject(t, "cloudprofiles", "", name), "version", "spec", "kubernetes", "versions"); !slices.Equal(got, []string{"1.32.0", "1.31.2", "1.30.5"}) {
		t.Errorf("the Garden stores the versions %q, want the new one and every one the plan rendered as removed", got)
	}
	w.mustRun(0, "plan", "-detailed-exitcode")

	w.write(config(`local.next`) + "\nlocals {\n  next = \"1.32.1\"\n}\n")
	out = w.mustRun(2, "plan", "-detailed-exitcode")
	if !strings.Contains(out, `+ "1.32.1" = {`) || strings.Contains(out, `- "1.31.2"`) || strings.Contains(out, "(known after apply)\n            }") {
		t.Errorf("with the key known at plan, want only the version replaced shown:\n%s", out)
	}
}
