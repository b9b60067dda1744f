package provider_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
)

// withFieldManager sets the provider's field_manager in a configuration made by cloudProfileConfig.
func withFieldManager(config, manager string) string {
	return strings.Replace(config, "config_path = ", fmt.Sprintf("field_manager = %q\n  config_path = ", manager), 1)
}

// TestAccConflicts_twoWorkspacesWithOverlappingFields: workspace A manages a CloudProfile; workspace
// B (its own state and field manager, adopt_existing = true) configures the same profile with a
// different value for a field A owns. B's plan fails with a conflict naming A's field manager and
// the field (a create takes nothing over unless force_conflicts), nothing is overwritten, and A's
// next plan is empty.
func TestAccConflicts_twoWorkspacesWithOverlappingFields(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	client := acctest.Client(t)
	name := acctest.UniqueName("acc-two-ws")
	workspaceA := withFieldManager(cloudProfileConfig(kubeconfig, name, "", "", ""), "workspace-a")
	// B opts into adoption: without it, its create would already fail because the profile exists.
	workspaceB := withFieldManager(strings.Replace(strings.Replace(cloudProfileConfig(kubeconfig, name, "", "", ""),
		`"1.31.2" = { classification = "supported" }`, `"1.31.2" = { classification = "deprecated" }`, 1),
		`resource "gardener_cloud_profile" "test" {`, "resource \"gardener_cloud_profile\" \"test\" {\n  adopt_existing = true", 1), "workspace-b")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		CheckDestroy:             cloudProfileGone(client, name),
		Steps: []resource.TestStep{
			{Config: workspaceA},
			{
				PreConfig: func() {
					resource.Test(t, resource.TestCase{
						ProtoV6ProviderFactories: acctest.ProviderFactories(),
						Steps: []resource.TestStep{{
							Config:      workspaceB,
							ExpectError: regexp.MustCompile(`(?s)Conflict\s+with\s+field\s+manager\s+"workspace-a".*classification`),
						}},
					})
				},
				Config:           workspaceA,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check: func(*terraform.State) error {
					cp := getCloudProfile(t, client, name)
					if c := cp.Spec.Kubernetes.Versions[0].Classification; c == nil || *c != "supported" {
						return fmt.Errorf("workspace B overwrote workspace A's field: %v", c)
					}
					return nil
				},
			},
		},
	})
}

// TestAccConflicts_onlyTheConflictIsReported: a change of a field another field manager shares
// (an adopting create; an update of a value both workspaces applied) fails at plan with exactly
// one error, the conflict naming the other manager and the field once, and nothing that blames
// the provider.
func TestAccConflicts_onlyTheConflictIsReported(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	name := acctest.UniqueName("acc-conflict")
	base := cloudProfileConfig(kubeconfig, name, "", "", "")
	owner := newCLIWorkspace(t, withFieldManager(base, "team-a"))
	owner.destroyOnCleanup()
	owner.mustRun(0, "apply", "-auto-approve")

	adopting := strings.Replace(base, `resource "gardener_cloud_profile" "test" {`, "resource \"gardener_cloud_profile\" \"test\" {\n  adopt_existing = true", 1)
	deprecating := func(config string) string {
		return strings.Replace(config, `"1.31.2" = { classification = "supported" }`, `"1.31.2" = { classification = "deprecated" }`, 1)
	}
	other := newCLIWorkspace(t, withFieldManager(deprecating(adopting), "team-b"))
	requireOnlyTheConflict(t, "a create that adopts", other.mustRun(1, "apply", "-auto-approve"))

	// Agreeing values are shared without conflict; a later change of one of them conflicts.
	other.write(withFieldManager(adopting, "team-b"))
	other.mustRun(0, "apply", "-auto-approve")
	other.write(withFieldManager(deprecating(adopting), "team-b"))
	requireOnlyTheConflict(t, "an update", other.mustRun(1, "apply", "-auto-approve"))
	other.mustRun(0, "state", "rm", "gardener_cloud_profile.test") // the profile stays team-a's to destroy
}

func requireOnlyTheConflict(t *testing.T, what, out string) {
	t.Helper()
	requireNoProviderBug(t, out)
	if n := strings.Count(out, "\nError: "); n != 1 {
		t.Fatalf("%s: want exactly one error, got %d:\n%s", what, n, out)
	}
	if !regexp.MustCompile(`(?s)Conflict\s+with\s+field\s+manager\s+"team-a"\s+on\s+1\s+field.*classification`).MatchString(out) {
		t.Fatalf("%s: the error does not name the other manager and the field:\n%s", what, out)
	}
	if n := strings.Count(out, "].classification:"); n != 1 {
		t.Fatalf("%s: the field is listed %d times, want once:\n%s", what, n, out)
	}
}
