package provider_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	k8stypes "k8s.io/apimachinery/pkg/types"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
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

// TestAccHonestPlans_importOfALabelledProfileAppliesFirstTime: a profile created with kubectl
// create with a label and an annotation, imported with a configuration that sets neither (as the
// migration guide shows), applies at the first attempt (removing both, as the plan shows), with
// no inconsistent result, and the next plan is empty.
func TestAccHonestPlans_importOfALabelledProfileAppliesFirstTime(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	name := acctest.UniqueName("acc-import-labels")
	cp := minimalCloudProfile(name)
	cp.TypeMeta = metav1.TypeMeta{APIVersion: "core.gardener.cloud/v1beta1", Kind: "CloudProfile"}
	cp.Annotations = map[string]string{"owner": "platform-team"}
	createdAs(t, "kubectl-create", cp, false)
	t.Cleanup(func() { _ = acctest.Client(t).DeleteCloudProfile(acctest.Context(t), name, "") })
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

// TestAccHonestPlans_driftIsSetBackInOneApply: another field manager moves an expiration date
// with a forced server-side apply, and a colleague changes a machine type's memory with kubectl
// patch. The plan shows both fields being set back with both values, warns once per manager
// naming it, and exits 2 (drift detection); the apply, without force_conflicts, sets exactly those
// fields back (read with a raw client: the values, and the provider's field manager owning them
// again), and the next plan is empty.
func TestAccHonestPlans_driftIsSetBackInOneApply(t *testing.T) {
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
	patchedBy(t, "kubectl-patch", "cloudprofiles", "", name, `[{"op":"replace","path":"/spec/machineTypes/0/memory","value":"16Gi"}]`)

	plan := w.mustRun(2, "plan", "-detailed-exitcode")
	t.Logf("the plan after the drift (%d lines):\n%s", strings.Count(plan, "\n"), plan)
	requireNoProviderBug(t, plan)
	for _, want := range []string{
		`~ expiration_date = "2030-06-01T00:00:00Z" -> "2030-01-01T00:00:00Z"`,
		`Warning: Drift: field manager "other-team" changed 1 field this plan sets back`,
		`"2030-06-01T00:00:00Z" in the Garden, "2030-01-01T00:00:00Z" planned`,
		`Warning: Drift: field manager "kubectl-patch" changed 1 field this plan sets back`,
		`spec.machine_types["m5.large"].memory: "16Gi" in the Garden, "8Gi" planned`,
		"The apply takes exactly these fields over",
	} {
		if !strings.Contains(plan, want) {
			t.Errorf("the plan lacks %q:\n%s", want, plan)
		}
	}
	if n := strings.Count(plan, "\nWarning: Drift"); n != 2 {
		t.Errorf("the plan warns %d times about the drift, want once per manager:\n%s", n, plan)
	}
	if n := strings.Count(plan, "\nError: "); n != 0 {
		t.Errorf("the plan has %d errors, want none:\n%s", n, plan)
	}
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))
	stored := storedObject(t, "cloudprofiles", "", name)
	spec := stored["spec"].(map[string]any)
	if got := storedEntry(t, map[string]any{"spec": spec["kubernetes"]}, "version", "1.30.5", "versions")["expirationDate"]; got != "2030-01-01T00:00:00Z" {
		t.Errorf("the Garden stores the expiration date %v, want it set back to 2030-01-01T00:00:00Z", got)
	}
	if got := storedEntry(t, stored, "name", "m5.large", "machineTypes")["memory"]; got != "8Gi" {
		t.Errorf("the Garden stores the memory %v, want it set back to 8Gi", got)
	}
	owned := managedFieldsOf(t, stored)
	for _, field := range []string{`"f:expirationDate"`, `"f:memory"`} {
		if !strings.Contains(owned[kube.DefaultFieldManager+"/Apply"], field) {
			t.Errorf("the provider's field manager does not own %s again: %v", field, owned)
		}
	}
	for _, other := range []string{"other-team/Apply", "kubectl-patch/Update"} {
		if strings.Contains(owned[other], `"f:expirationDate"`) || strings.Contains(owned[other], `"f:memory"`) {
			t.Errorf("%s still owns a field the apply set back: %s", other, owned[other])
		}
	}
	w.mustRun(0, "plan", "-detailed-exitcode")
	w.mustRun(0, "plan", "-refresh-only", "-detailed-exitcode")
}

// TestAccHonestPlans_aLabelAnotherManagerChangedShowsBothValues: another manager overwrites a
// label the configuration sets (kubectl label --overwrite: an update under kubectl-label). The
// refresh keeps the label with the Garden's value, so the plan shows it being set back
// (`~ "owner" = "team-a" -> "platform"`, not as added), and the drift warning names the label with
// both values. The apply sets it back as the plan showed (read with a raw client) and the next
// plan is empty.
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

	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))
	labels, _, _ := unstructured.NestedStringMap(storedObject(t, "cloudprofiles", "", name), "metadata", "labels")
	if labels["owner"] != "platform" || labels["team.example.com/cost-center"] != "c1" {
		t.Errorf("the Garden stores the labels %v, want them set back", labels)
	}
	w.mustRun(0, "plan", "-detailed-exitcode")
}

// managedFieldsOf are the fields sets of a stored object's managed-fields entries (of the object
// itself), as JSON, by manager/operation.
func managedFieldsOf(t *testing.T, stored map[string]any) map[string]string {
	t.Helper()
	out := map[string]string{}
	entries, _, _ := unstructured.NestedSlice(stored, "metadata", "managedFields")
	for _, e := range entries {
		entry := e.(map[string]any)
		if entry["subresource"] != nil {
			continue
		}
		raw, err := json.Marshal(entry["fieldsV1"])
		if err != nil {
			t.Fatal(err)
		}
		out[fmt.Sprintf("%s/%s", entry["manager"], entry["operation"])] = string(raw)
	}
	return out
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
