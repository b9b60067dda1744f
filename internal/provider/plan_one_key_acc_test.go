package provider_test

import (
	"strings"
	"testing"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
)

// maxOneKeyPlanLines is the most the plan of a change to one entry of a keyed collection may
// print: the lines from "Terraform will perform the following actions:" to the "Plan:" line
// (without the warning about development overrides and the refresh lines before them).
const maxOneKeyPlanLines = 30

// planText is the part of a rendered plan that shows the changes, from the announcement of the
// actions to the "Plan:" line.
func planText(out string) string {
	start := strings.Index(out, "will perform the following actions:")
	end := strings.Index(out, "\nPlan: ")
	if start < 0 || end < start {
		return out
	}
	start = strings.LastIndex(out[:start], "\n") + 1
	if next := strings.IndexByte(out[end+1:], '\n'); next >= 0 {
		end += 1 + next
	}
	return out[start:end]
}

// TestAccPlan_aChangeToOneEntryIsOneKey: changing one attribute of one entry of each keyed
// collection of both kinds renders as that entry's key with that attribute changed, in at most 30
// lines, and applies; the next plan is empty. The entries are those of keyedProfiles.
func TestAccPlan_aChangeToOneEntryIsOneKey(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	name := acctest.UniqueName("acc-onekey")
	base := strings.Replace(keyedProfiles(kubeconfig, name), "keep_merged_status = true", "keep_merged_status = false", 1)
	w := newCLIWorkspace(t, base)
	w.destroyOnCleanup()
	w.mustRun(0, "apply", "-auto-approve")
	config := base
	for _, c := range []struct{ what, from, to, key string }{
		{"a Kubernetes version", `"1.30.5" = { classification = "deprecated", expiration_date = "2099-01-01T00:00:00Z" }`,
			`"1.30.5" = { classification = "deprecated", expiration_date = "2099-02-01T00:00:00Z" }`, `"1.30.5"`},
		{"a machine image", `"alpine" = { update_strategy = "minor"`, `"alpine" = { update_strategy = "patch"`, `"alpine"`},
		{"a machine image version", `"1877.3.0" = { architectures = ["amd64", "arm64"] }`, `"1877.3.0" = { architectures = ["amd64", "arm64"], classification = "preview" }`, `"1877.3.0"`},
		{"a machine type", `"c5.large"  = { cpu = "2", gpu = "0", memory = "4Gi" }`, `"c5.large"  = { cpu = "2", gpu = "0", memory = "6Gi" }`, `"c5.large"`},
		{"a volume type", `"io1" = { class = "premium", usable = false }`, `"io1" = { class = "premium", usable = true }`, `"io1"`},
		{"a zone", `"us-east-1b" = {}`, `"us-east-1b" = { unavailable_volume_types = ["io1"] }`, `"us-east-1b"`},
		{"a namespaced machine type", `"x1.metal" = { cpu = "96", gpu = "0", memory = "1Ti" }`, `"x1.metal" = { cpu = "96", gpu = "0", memory = "2Ti" }`, `"x1.metal"`},
		{"a namespaced Kubernetes override", `"1.30.5" = { expiration_date = "2099-06-01T00:00:00Z" }`, `"1.30.5" = { expiration_date = "2099-07-01T00:00:00Z" }`, `"1.30.5"`},
	} {
		if !strings.Contains(config, c.from) {
			t.Fatalf("%s: the configuration has no %s", c.what, c.from)
		}
		config = strings.Replace(config, c.from, c.to, 1)
		w.write(config)
		rendered := planText(w.mustRun(2, "plan", "-detailed-exitcode"))
		requireNoProviderBug(t, rendered)
		// OpenTofu shows every write-only attribute (force_conflicts) in each update, whatever changed:
		// that line is OpenTofu's, not the change's.
		if lines := strings.Count(rendered, "\n") + 1 - strings.Count(rendered, "= (write-only attribute)"); lines > maxOneKeyPlanLines {
			t.Errorf("%s: the rendered plan has %d lines, want at most %d:\n%s", c.what, lines, maxOneKeyPlanLines, rendered)
		}
		if !strings.Contains(rendered, c.key+" = {") || !strings.Contains(rendered, "1 to change") {
			t.Errorf("%s: the plan does not show the one changed key %s:\n%s", c.what, c.key, rendered)
		} else {
			t.Logf("%s: the plan has %d lines:\n%s", c.what, strings.Count(rendered, "\n")+1, rendered)
		}
		requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))
	}
	w.mustRun(0, "plan", "-detailed-exitcode")
}
