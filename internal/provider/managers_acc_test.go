package provider_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// What the plan shows is what apply does, also with other field managers: an object created with
// kubectl and imported is managed as configured; drift is set back in one apply; a change after
// the plan fails the apply; toggling force_conflicts plans nothing. The tests read the stored
// object and its managedFields with a raw client.

// kubectlProfile is a CloudProfile as `kubectl create -f cp.yaml` sends it: labels, annotations,
// two machine types, one of them unavailable in a zone, and an expiring Kubernetes version.
func kubectlProfile(name string) map[string]any {
	return map[string]any{
		"apiVersion": "core.gardener.cloud/v1beta1", "kind": "CloudProfile",
		"metadata": map[string]any{"name": name, "labels": map[string]any{"team": "platform"}, "annotations": map[string]any{"owner": "platform-team"}},
		"spec": map[string]any{
			"type": "local",
			"providerConfig": map[string]any{"apiVersion": "local.provider.extensions.gardener.cloud/v1alpha1", "kind": "CloudProfileConfig",
				"machineImages": []any{map[string]any{"name": "gardenlinux", "versions": []any{map[string]any{"version": "1877.3.0", "image": "local/gardenlinux:1877.3.0"}}}}},
			"kubernetes": map[string]any{"versions": []any{
				map[string]any{"version": "1.31.2"},
				map[string]any{"version": "1.30.5", "expirationDate": "2030-01-01T00:00:00Z"},
			}},
			"machineImages": []any{map[string]any{"name": "gardenlinux", "versions": []any{map[string]any{"version": "1877.3.0", "architectures": []any{"amd64"}}}}},
			"machineTypes": []any{
				map[string]any{"name": "m5.large", "cpu": "2", "gpu": "0", "memory": "8Gi"},
				map[string]any{"name": "m5.xlarge", "cpu": "4", "gpu": "0", "memory": "16Gi"},
			},
			"regions": []any{map[string]any{"name": "local", "zones": []any{map[string]any{"name": "local-a", "unavailableMachineTypes": []any{"m5.xlarge"}}}}},
		},
	}
}

// kubectlProfileConfig is the configuration of kubectlProfile, with or without m5.xlarge (and its
// unavailability in the zone), and the expiration date of 1.30.5.
func kubectlProfileConfig(kubeconfig, name string, xlarge bool, expiration string) string {
	machineTypes := `"m5.large" = { cpu = "2", gpu = "0", memory = "8Gi" }`
	zone := `"local-a" = {}`
	if xlarge {
		machineTypes += "\n      \"m5.xlarge\" = { cpu = \"4\", gpu = \"0\", memory = \"16Gi\" }"
		zone = `"local-a" = { unavailable_machine_types = ["m5.xlarge"] }`
	}
	return acctest.ProviderBlock(kubeconfig) + fmt.Sprintf(`
resource "gardener_cloud_profile" "test" {
  metadata = { name = %q, labels = { team = "platform" }, annotations = { owner = "platform-team" } }
  spec = {
    type            = "local"
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [{ name = "gardenlinux", versions = [{ version = "1877.3.0", image = "local/gardenlinux:1877.3.0" }] }] })
    kubernetes      = { versions = { "1.31.2" = {}, "1.30.5" = { expiration_date = %q } } }
    machine_images  = { "gardenlinux" = { versions = { "1877.3.0" = { architectures = ["amd64"] } } } }
    machine_types = {
      %s
    }
    regions = { "local" = { zones = { %s } } }
  }
}
`, name, expiration, machineTypes, zone)
}

// TestAccImport_kubectlCreatedProfileIsManagedAsConfigured: a CloudProfile created with
// `kubectl create` (an Update entry of kubectl-create) or with client-side `kubectl apply`
// (kubectl-client-side-apply, with the last-applied annotation the configuration leaves out) is
// imported and applied. Then the configuration removes a machine type and its unavailability in a
// zone and moves an expiration date: the plan shows exactly that, without a warning or a conflict,
// and the apply does it: the Garden drops the machine type, stores the new date, and the object's
// managedFields name no kubectl manager any more. Every later plan is empty.
func TestAccImport_kubectlCreatedProfileIsManagedAsConfigured(t *testing.T) {
	for _, c := range []struct {
		manager     string
		lastApplied bool
	}{{"kubectl-create", false}, {"kubectl-client-side-apply", true}} {
		t.Run(c.manager, func(t *testing.T) {
			kubeconfig := acctest.Kubeconfig(t)
			admin := acctest.Client(t)
			name := acctest.UniqueName("acc-kubectl")
			createdAs(t, c.manager, kubectlProfile(name), c.lastApplied)
			t.Cleanup(func() { _ = admin.DeleteCloudProfile(acctest.Context(t), name, "") })
			importBlock := fmt.Sprintf("import {\n  to = gardener_cloud_profile.test\n  id = %q\n}\n", name)
			w := newCLIWorkspace(t, kubectlProfileConfig(kubeconfig, name, true, "2030-01-01T00:00:00Z")+importBlock)
			w.destroyOnCleanup()

			plan := w.mustRun(2, "plan", "-detailed-exitcode")
			requireQuietPlan(t, "the import's plan", plan)
			if c.lastApplied != strings.Contains(plan, lastAppliedAnnotation) {
				t.Errorf("the import's plan shows the last-applied annotation leaving: %v, want %v:\n%s", !c.lastApplied, c.lastApplied, plan)
			}
			requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))
			w.mustRun(0, "plan", "-detailed-exitcode")
			w.mustRun(0, "plan", "-refresh-only", "-detailed-exitcode")

			w.write(kubectlProfileConfig(kubeconfig, name, false, "2031-01-01T00:00:00Z"))
			plan = w.mustRun(2, "plan", "-detailed-exitcode")
			t.Logf("the plan of the change (%d lines):\n%s", strings.Count(plan, "\n"), plan)
			requireQuietPlan(t, "the plan of the change", plan)
			for _, want := range []*regexp.Regexp{
				regexp.MustCompile(`- "m5\.xlarge" = \{`),
				regexp.MustCompile(`- unavailable_machine_types = \[`),
				regexp.MustCompile(`expiration_date = "2030-01-01T00:00:00Z" -> "2031-01-01T00:00:00Z"`),
			} {
				if !want.MatchString(plan) {
					t.Errorf("the plan does not show %s:\n%s", want, plan)
				}
			}
			requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))

			stored := storedObject(t, "cloudprofiles", "", name)
			for _, m := range storedList(stored, "spec", "machineTypes") {
				if m["name"] == "m5.xlarge" {
					t.Errorf("the Garden keeps the machine type the apply removed: %v", m)
				}
			}
			for _, zone := range storedList(storedEntry(t, stored, "name", "local", "regions"), "zones") {
				if zone["unavailableMachineTypes"] != nil {
					t.Errorf("the Garden keeps the zone's unavailable machine types: %v", zone)
				}
			}
			spec := stored["spec"].(map[string]any)
			if got := storedEntry(t, map[string]any{"spec": spec["kubernetes"]}, "version", "1.30.5", "versions")["expirationDate"]; got != "2031-01-01T00:00:00Z" {
				t.Errorf("the Garden stores the expiration date %v, want 2031-01-01T00:00:00Z", got)
			}
			meta := stored["metadata"].(map[string]any)
			if annotations, _ := meta["annotations"].(map[string]any); annotations[lastAppliedAnnotation] != nil || annotations["owner"] != "platform-team" {
				t.Errorf("annotations %v, want owner and no last-applied annotation", annotations)
			}
			if labels, _ := meta["labels"].(map[string]any); labels["team"] != "platform" || labels["provider.extensions.gardener.cloud/local"] != "true" {
				t.Errorf("labels %v, want team and Gardener's provider label", labels)
			}
			owners := managedFieldsOf(t, stored)
			if owners[kube.DefaultFieldManager+"/Apply"] == "" {
				t.Errorf("the provider's field manager has no Apply entry: %v", owners)
			}
			for owner := range owners {
				if strings.HasPrefix(owner, "kubectl") {
					t.Errorf("%s still has an entry after the first apply: %v", owner, owners)
				}
			}
			w.mustRun(0, "plan", "-detailed-exitcode")
			w.mustRun(0, "plan", "-refresh-only", "-detailed-exitcode")
		})
	}
}

// storedList is the list of objects at the fields of a stored object.
func storedList(object map[string]any, fields ...string) []map[string]any {
	var out []map[string]any
	at := any(object)
	for _, f := range fields {
		m, _ := at.(map[string]any)
		at = m[f]
	}
	list, _ := at.([]any)
	for _, e := range list {
		if m, ok := e.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

// requireQuietPlan fails when a plan warns or errs about other field managers.
func requireQuietPlan(t *testing.T, what, plan string) {
	t.Helper()
	requireNoProviderBug(t, plan)
	for _, noise := range []string{"Warning: Drift", "Warning: Field manager", "Error:", "Removal the apply cannot carry out", "Conflict"} {
		if strings.Contains(plan, noise) {
			t.Errorf("%s says %q:\n%s", what, noise, plan)
		}
	}
}

// TestAccDrift_aChangeAfterThePlanFailsTheApply: the plan sets back a memory kubectl patch
// changed; before its apply, kubectl patch changes the memory again and the CPU. The apply of
// the saved plan fails naming each changed field once with its manager and writes nothing (read
// with a raw client); a new plan shows the new values and its apply sets them back.
func TestAccDrift_aChangeAfterThePlanFailsTheApply(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	name := acctest.UniqueName("acc-after-plan")
	w := newCLIWorkspace(t, ownedConfig(acctest.ProviderBlock(kubeconfig), name, "8Gi", ""))
	w.destroyOnCleanup()
	w.mustRun(0, "apply", "-auto-approve")
	patchedBy(t, "kubectl-patch", "cloudprofiles", "", name, `[{"op":"replace","path":"/spec/machineTypes/0/memory","value":"16Gi"}]`)
	w.mustRun(2, "plan", "-detailed-exitcode", "-out=drift.tfplan")
	patchedBy(t, "kubectl-patch", "cloudprofiles", "", name,
		`[{"op":"replace","path":"/spec/machineTypes/0/memory","value":"32Gi"},{"op":"replace","path":"/spec/machineTypes/0/cpu","value":"8"}]`)

	out := w.mustRun(1, "apply", "drift.tfplan")
	t.Logf("the failed apply (%d lines):\n%s", strings.Count(out, "\n"), out)
	requireNoProviderBug(t, out)
	if n := strings.Count(out, "\nError: "); n != 1 || !strings.Contains(out, `Field manager "kubectl-patch" changed 2 fields after the plan read them`) {
		t.Fatalf("want one error naming kubectl-patch and the 2 fields, got %d errors:\n%s", n, out)
	}
	for _, field := range []string{`spec.machine_types["m5.large"].memory: "16Gi" in the state, "32Gi" in the Garden now, "8Gi" planned`,
		`spec.machine_types["m5.large"].cpu: "2" in the state, "8" in the Garden now, "2" planned`} {
		if n := strings.Count(out, field); n != 1 {
			t.Errorf("the error lists %q %d times, want once:\n%s", field, n, out)
		}
	}
	entry := storedEntry(t, storedObject(t, "cloudprofiles", "", name), "name", "m5.large", "machineTypes")
	if entry["memory"] != "32Gi" || entry["cpu"] != "8" {
		t.Errorf("the failed apply wrote: memory %v, cpu %v; want kubectl-patch's 32Gi and 8", entry["memory"], entry["cpu"])
	}

	plan := w.mustRun(2, "plan", "-detailed-exitcode")
	if !strings.Contains(plan, `Warning: Drift: field manager "kubectl-patch" changed 2 fields this plan sets back`) {
		t.Errorf("the new plan does not set both fields back:\n%s", plan)
	}
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))
	entry = storedEntry(t, storedObject(t, "cloudprofiles", "", name), "name", "m5.large", "machineTypes")
	if entry["memory"] != "8Gi" || entry["cpu"] != "2" {
		t.Errorf("the apply stored memory %v, cpu %v; want 8Gi and 2 set back", entry["memory"], entry["cpu"])
	}
	w.mustRun(0, "plan", "-detailed-exitcode")
}

// TestAccForceConflicts_togglingPlansNoUpdate: force_conflicts is an argument of the apply only:
// setting it, and removing it again, plans no update (exit 0) and leaves it out of the state.
func TestAccForceConflicts_togglingPlansNoUpdate(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	name := acctest.UniqueName("acc-force")
	w := newCLIWorkspace(t, ownedConfig(acctest.ProviderBlock(kubeconfig), name, "8Gi", ""))
	w.destroyOnCleanup()
	w.mustRun(0, "apply", "-auto-approve")
	w.write(ownedConfig(acctest.ProviderBlock(kubeconfig), name, "8Gi", "force_conflicts = true"))
	w.mustRun(0, "plan", "-detailed-exitcode")
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))
	if got := w.stateAttribute(cpAddr, "force_conflicts"); got != nil {
		t.Errorf("the state records force_conflicts = %v, want nothing", got)
	}
	w.write(ownedConfig(acctest.ProviderBlock(kubeconfig), name, "8Gi", ""))
	w.mustRun(0, "plan", "-detailed-exitcode")
}
