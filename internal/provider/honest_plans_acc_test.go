package provider_test

import (
	"fmt"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	k8stypes "k8s.io/apimachinery/pkg/types"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
)

// emptyCollectionsProfile is a CloudProfile that sets empty lists and maps Gardener omits, with
// the provider's server checks on or off.
func emptyCollectionsProfile(kubeconfig, name string, serverChecks bool) string {
	block := strings.Replace(acctest.ProviderBlock(kubeconfig), "config_path", fmt.Sprintf("server_checks = %t\n  config_path", serverChecks), 1)
	return block + fmt.Sprintf(`
locals { spot = false }
resource "gardener_cloud_profile" "test" {
  metadata = { name = %q, labels = {}, annotations = {} }
  spec = {
    type           = "local"
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [for image in ["gardenlinux", "ubuntu", "alpine", "suse", "rhel"] : { name = image, versions = [{ version = "1.0.0", image = "local/${image}" }] }] })
    kubernetes     = { versions = { "1.31.2" = {} } }
    machine_images = { "gardenlinux" = { versions = { "1877.3.0" = { architectures = ["amd64"] } } } }
    machine_types  = { "m5.large" = { cpu = "2", gpu = "0", memory = "8Gi", capabilities = {} } }
    regions = {
      "local" = {
        labels              = {}
        access_restrictions = []
        zones = {
  "local-a" = {
          unavailable_machine_types = local.spot ? ["m5.large"] : []
          unavailable_volume_types  = []
        }
    }
    }
}
  }
}
`, name)
}

// TestAccHonestPlans_emptyEqualsUnset: empty lists and maps, which Gardener omits when it stores
// the object, plan and apply without an error or an inconsistent result, and the next plan is
// empty, with the server checks on and off.
func TestAccHonestPlans_emptyEqualsUnset(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	for _, serverChecks := range []bool{true, false} {
		t.Run(fmt.Sprintf("server_checks=%t", serverChecks), func(t *testing.T) {
			name := acctest.UniqueName("acc-empty")
			w := newCLIWorkspace(t, emptyCollectionsProfile(kubeconfig, name, serverChecks))
			w.destroyOnCleanup()
			requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))
			w.mustRun(0, "plan", "-detailed-exitcode")
			w.mustRun(0, "apply", "-refresh-only", "-auto-approve")
			w.mustRun(0, "plan", "-detailed-exitcode")
		})
	}
}

// TestAccHonestPlans_equalQuantitiesPlanNoChange: a machine type's memory and CPU written another
// way (8Gi as 8192Mi, 2 as 2000m) plan no change, and the state keeps the prior spelling.
func TestAccHonestPlans_equalQuantitiesPlanNoChange(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	name := acctest.UniqueName("acc-quantity")
	w := newCLIWorkspace(t, ownedConfig(acctest.ProviderBlock(kubeconfig), name, "8Gi", ""))
	w.destroyOnCleanup()
	w.mustRun(0, "apply", "-auto-approve")
	w.write(strings.Replace(ownedConfig(acctest.ProviderBlock(kubeconfig), name, "8192Mi", ""), `cpu = "2"`, `cpu = "2000m"`, 1))
	w.mustRun(0, "plan", "-detailed-exitcode")
	if state := w.mustRun(0, "state", "show", "gardener_cloud_profile.test"); !strings.Contains(state, `"8Gi"`) {
		t.Errorf("the state keeps the prior spelling 8Gi:\n%s", state)
	}
}

// TestAccHonestPlans_importOfALabelledProfileAppliesFirstTime: a profile that another tool created
// with a label and an annotation, imported with a configuration that sets neither (as the
// migration guide shows), applies at the first attempt, with no inconsistent result, and the next
// plan is empty.
func TestAccHonestPlans_importOfALabelledProfileAppliesFirstTime(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	name := acctest.UniqueName("acc-import-labels")
	cp := minimalCloudProfile(name)
	cp.Annotations = map[string]string{"owner": "platform-team"}
	createdWithAdmin(t, cp)
	config := strings.Replace(ownedConfig(acctest.ProviderBlock(kubeconfig), name, "8Gi", ""), `"1.31.2" = {}`, `"1.31.2" = { classification = "supported" }`, 1)
	w := newCLIWorkspace(t, config+fmt.Sprintf(`
import {
  to = gardener_cloud_profile.test
  id = %q
}
`, name))
	w.destroyOnCleanup()
	t.Logf("plan:\n%s", w.mustRun(2, "plan", "-detailed-exitcode"))
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))
	w.mustRun(0, "plan", "-detailed-exitcode")
}

// driftProfile is a CloudProfile with an expiring Kubernetes version, optionally forcing conflicts.
func driftProfile(kubeconfig, name, extra string) string {
	return acctest.ProviderBlock(kubeconfig) + fmt.Sprintf(`
resource "gardener_cloud_profile" "test" {
  metadata = { name = %q }
  spec = {
    type = "local"
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [for image in ["gardenlinux", "ubuntu", "alpine", "suse", "rhel"] : { name = image, versions = [{ version = "1.0.0", image = "local/${image}" }] }] })
    kubernetes = { versions = {
      "1.31.2" = {}
      "1.30.5" = { expiration_date = "2030-01-01T00:00:00Z" }
    } }
    machine_images = { "gardenlinux" = { versions = { "1877.3.0" = {} } } }
    machine_types  = { "m5.large" = { cpu = "2", gpu = "0", memory = "8Gi" } }
    regions        = { "local" = {} }
  }
  %s
}
`, name, extra)
}

// TestAccHonestPlans_driftIsADiff: another field manager moves an expiration date with a forced
// server-side apply. The default plan shows the field being set back with both values, warns once
// about the conflict naming the manager, and exits 2 (drift detection); only the apply fails on
// the conflict, writing nothing. With force_conflicts = true the apply sets the value back (read
// with a raw client) and the next plan is empty.
func TestAccHonestPlans_driftIsADiff(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	name := acctest.UniqueName("acc-drift")
	w := newCLIWorkspace(t, driftProfile(kubeconfig, name, ""))
	w.destroyOnCleanup()
	w.mustRun(0, "apply", "-auto-approve")

	patch := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "core.gardener.cloud/v1beta1", "kind": "CloudProfile", "metadata": map[string]any{"name": name},
		"spec": map[string]any{"kubernetes": map[string]any{"versions": []any{map[string]any{"version": "1.30.5", "expirationDate": "2030-06-01T00:00:00Z"}}}},
	}}
	gvr := schema.GroupVersionResource{Group: "core.gardener.cloud", Version: "v1beta1", Resource: "cloudprofiles"}
	if _, err := webhookClient(t).Resource(gvr).Apply(acctest.Context(t), name, patch, metav1.ApplyOptions{FieldManager: "other-team", Force: true}); err != nil {
		t.Fatalf("the other manager's apply: %v", err)
	}

	plan := w.mustRun(2, "plan", "-detailed-exitcode")
	t.Logf("the plan after the drift:\n%s", plan)
	requireNoProviderBug(t, plan)
	for _, want := range []string{
		`~ expiration_date = "2030-06-01T00:00:00Z" -> "2030-01-01T00:00:00Z"`,
		`Warning: Drift: field manager "other-team" changed 1 field this plan sets back`,
		`"2030-06-01T00:00:00Z" in the Garden, "2030-01-01T00:00:00Z" planned`,
		"force_conflicts = true",
	} {
		if !strings.Contains(plan, want) {
			t.Errorf("the plan lacks %q:\n%s", want, plan)
		}
	}
	if n := strings.Count(plan, "\nWarning: Drift"); n != 1 {
		t.Errorf("the plan warns %d times about the drift, want once:\n%s", n, plan)
	}
	if n := strings.Count(plan, "\nError: "); n != 0 {
		t.Errorf("the plan has %d errors, want none:\n%s", n, plan)
	}
	requireOnlyConflictWith(t, "other-team", w.mustRun(1, "apply", "-auto-approve"))
	expiration := func() any {
		stored := storedObject(t, "cloudprofiles", "", name)
		return storedEntry(t, map[string]any{"spec": stored["spec"].(map[string]any)["kubernetes"]}, "version", "1.30.5", "versions")["expirationDate"]
	}
	if got := expiration(); got != "2030-06-01T00:00:00Z" {
		t.Errorf("the failed apply changed the expiration date to %v", got)
	}

	w.write(driftProfile(kubeconfig, name, "force_conflicts = true"))
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))
	if got := expiration(); got != "2030-01-01T00:00:00Z" {
		t.Errorf("force_conflicts = true: the Garden stores the expiration date %v, want it set back to 2030-01-01T00:00:00Z", got)
	}
	w.mustRun(0, "plan", "-detailed-exitcode")
}

// TestAccHonestPlans_aLabelAnotherManagerChangedShowsBothValues: another manager overwrites a
// label the configuration sets (kubectl label --overwrite: an update under kubectl-label). The
// refresh keeps the label with the Garden's value, so the plan shows it being set back
// (`~ "owner" = "team-a" -> "platform"`, not as added), and the drift warning names the label with
// both values. With force_conflicts = true the apply sets it back (read with a raw client) and
// the next plan is empty.
func TestAccHonestPlans_aLabelAnotherManagerChangedShowsBothValues(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	name := acctest.UniqueName("acc-label")
	config := func(extra string) string {
		return strings.Replace(ownedConfig(acctest.ProviderBlock(kubeconfig), name, "8Gi", extra),
			fmt.Sprintf("metadata = { name = %q }", name),
			fmt.Sprintf(`metadata = { name = %q, labels = { owner = "platform", "team.example.com/cost-center" = "c1" } }`, name), 1)
	}
	w := newCLIWorkspace(t, config(""))
	w.destroyOnCleanup()
	w.mustRun(0, "apply", "-auto-approve")

	gvr := schema.GroupVersionResource{Group: "core.gardener.cloud", Version: "v1beta1", Resource: "cloudprofiles"}
	patch := []byte(`{"metadata":{"labels":{"owner":"team-a","team.example.com/cost-center":"c2"}}}`)
	if _, err := webhookClient(t).Resource(gvr).Patch(acctest.Context(t), name, k8stypes.MergePatchType, patch, metav1.PatchOptions{FieldManager: "kubectl-label"}); err != nil {
		t.Fatalf("kubectl label --overwrite: %v", err)
	}

	plan := w.mustRun(2, "plan", "-detailed-exitcode")
	t.Logf("the plan after the label changed (%d lines):\n%s", strings.Count(plan, "\n"), plan)
	requireNoProviderBug(t, plan)
	for _, want := range []string{
		`~ "owner"                        = "team-a" -> "platform"`,
		`~ "team.example.com/cost-center" = "c2" -> "c1"`,
		`Warning: Drift: field manager "kubectl-label" changed 2 fields this plan sets back`,
		`metadata.labels["owner"]: "team-a" in the Garden, "platform" planned`,
		`metadata.labels["team.example.com/cost-center"]: "c2" in the Garden, "c1" planned`,
	} {
		if !strings.Contains(plan, want) {
			t.Errorf("the plan lacks %q:\n%s", want, plan)
		}
	}
	if strings.Contains(plan, `+ "owner"`) || strings.Contains(plan, "null in the Garden") {
		t.Errorf("the plan shows the changed label as added, or its values as null:\n%s", plan)
	}

	w.write(config("force_conflicts = true"))
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))
	labels, _, _ := unstructured.NestedStringMap(storedObject(t, "cloudprofiles", "", name), "metadata", "labels")
	if labels["owner"] != "platform" || labels["team.example.com/cost-center"] != "c1" {
		t.Errorf("force_conflicts = true: the Garden stores the labels %v, want them set back", labels)
	}
	w.mustRun(0, "plan", "-detailed-exitcode")
}

// requireOnlyConflictWith fails unless the output has exactly one error, the conflict with manager.
func requireOnlyConflictWith(t *testing.T, manager, out string) {
	t.Helper()
	requireNoProviderBug(t, out)
	if n := strings.Count(out, "\nError: "); n != 1 || !strings.Contains(out, fmt.Sprintf("conflict with %q", manager)) {
		t.Fatalf("want exactly one error, the conflict with %q; got %d errors:\n%s", manager, n, out)
	}
}

// moduleInputsConfig is a CloudProfile whose version, lifecycle start time and label come from
// variables, and a NamespacedCloudProfile that extends the parent's newest 1.30 version, read with the
// data source.
func moduleInputsConfig(kubeconfig, parent, name string) string {
	return acctest.ProviderBlock(kubeconfig) + fmt.Sprintf(`
variable "kubernetes_version" { type = string }
variable "deprecated_from" { type = string }
variable "team" { type = string }

resource "gardener_cloud_profile" "test" {
  metadata = { name = %q, labels = { team = var.team } }
  spec = {
    type = "local"
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [for image in ["gardenlinux", "ubuntu", "alpine", "suse", "rhel"] : { name = image, versions = [{ version = "1.0.0", image = "local/${image}" }] }] })
    kubernetes = { versions = {
      (var.kubernetes_version) = {}
      "1.30.5" = {}
      "1.29.8" = { lifecycle = [{ classification = "supported" }, { classification = "deprecated", start_time = var.deprecated_from }] }
    } }
    machine_images = { "gardenlinux" = { versions = { "1877.3.0" = {} } } }
    machine_types  = { "m5.large" = { cpu = "2", gpu = "0", memory = "8Gi" } }
    regions        = { "local" = {} }
  }
}

data "gardener_cloud_profile" "parent" {
  name = gardener_cloud_profile.test.metadata.name
}

resource "gardener_namespaced_cloud_profile" "test" {
  metadata = { name = %q, namespace = %q, labels = { team = var.team } }
  spec = {
    parent     = { kind = "CloudProfile", name = gardener_cloud_profile.test.metadata.name }
    kubernetes = { versions = { (data.gardener_cloud_profile.parent.latest_kubernetes_versions_by_minor["1.30"]) = { expiration_date = "2031-01-01T00:00:00Z" } } }
  }
}
`, parent, name, projectNamespace)
}

// TestAccHonestPlans_unknownValuesWaitForTheirValues: a configuration whose Kubernetes version,
// lifecycle start time and labels come from variables, and whose NamespacedCloudProfile extends
// the parent's newest 1.30 version read with a data source, validates without values and plans and
// applies with them; a bad version given later is reported at plan on its attribute.
func TestAccHonestPlans_unknownValuesWaitForTheirValues(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	parent, name := acctest.UniqueName("acc-inputs-parent"), acctest.UniqueName("acc-inputs")
	w := newCLIWorkspace(t, moduleInputsConfig(kubeconfig, parent, name))
	vars := func(version string) []string {
		return []string{"-var", "kubernetes_version=" + version, "-var", "deprecated_from=2031-01-01T00:00:00Z", "-var", "team=platform"}
	}
	w.t.Cleanup(func() { w.run(append([]string{"destroy", "-auto-approve"}, vars("1.31.2")...)...) })
	w.mustRun(0, "validate")
	requireNoProviderBug(t, w.mustRun(2, append([]string{"plan", "-detailed-exitcode"}, vars("1.31.2")...)...))
	requireNoProviderBug(t, w.mustRun(0, append([]string{"apply", "-auto-approve"}, vars("1.31.2")...)...))
	w.mustRun(0, append([]string{"plan", "-detailed-exitcode"}, vars("1.31.2")...)...)

	bad := w.mustRun(1, append([]string{"plan"}, vars("1.31")...)...)
	if !strings.Contains(bad, "The Kubernetes version is not MAJOR.MINOR.PATCH") || !strings.Contains(bad, `spec.kubernetes.versions["1.31"]`) {
		t.Errorf("a bad version given later: want the error on spec.kubernetes.versions[\"1.31\"], got:\n%s", bad)
	}
}
