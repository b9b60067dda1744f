package provider_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
)

// stateV1 is testdata/state_v1/resources.json: the attributes of a CloudProfile and of a
// NamespacedCloudProfile with keep_merged_status, as the last release with keyed lists as lists
// (schema version 1) wrote them into a state after applying the configuration of keyedProfiles
// in its list form, for the objects "acc-v1-state" and "garden-demo/acc-v1-state-team".
type stateV1 struct {
	Resources []struct {
		Type          string         `json:"type"`
		Name          string         `json:"name"`
		SchemaVersion int            `json:"schema_version"`
		Attributes    map[string]any `json:"attributes"`
	} `json:"resources"`
}

// keyedProfiles is the configuration of testdata/state_v1 with the keyed lists written as maps.
func keyedProfiles(kubeconfig, name string) string {
	return acctest.ProviderBlock(kubeconfig) + fmt.Sprintf(`
resource "gardener_cloud_profile" "parent" {
  metadata = { name = %[1]q }
  spec = {
    type = "local"
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [for image in ["gardenlinux", "ubuntu", "alpine", "suse", "rhel"] : { name = image, versions = [{ version = "1.0.0", image = "local/${image}" }] }] })
    kubernetes = { versions = {
      "1.31.2" = { classification = "supported" }
      "1.30.5" = { classification = "deprecated", expiration_date = "2099-01-01T00:00:00Z" }
    } }
    machine_images = {
      "gardenlinux" = { versions = {
        "1877.3.0" = { architectures = ["amd64", "arm64"] }
        "1592.9.0" = { cri = { containerd = { container_runtimes = { gvisor = {} } } } }
      } }
      "alpine" = { update_strategy = "minor", versions = { "3.20.0" = {} } }
    }
    machine_types = {
      "m6g.large" = { cpu = "2", gpu = "0", memory = "8Gi", architecture = "arm64" }
      "c5.large"  = { cpu = "2", gpu = "0", memory = "4Gi" }
    }
    volume_types = { "gp3" = { class = "standard" }, "io1" = { class = "premium", usable = false } }
    regions = {
      "us-east-1" = { zones = { "us-east-1b" = {}, "us-east-1a" = { unavailable_machine_types = ["m6g.large"] } } }
      "eu-west-1" = { access_restrictions = [{ name = "eu-access-only" }] }
    }
  }
}

resource "gardener_namespaced_cloud_profile" "team" {
  keep_merged_status = true
  metadata           = { name = "%[1]s-team", namespace = %[2]q }
  spec = {
    parent          = { kind = "CloudProfile", name = gardener_cloud_profile.parent.metadata.name }
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [{ name = "custom", versions = [{ version = "1.0.0", image = "local/custom:1.0.0" }] }] })
    kubernetes      = { versions = { "1.30.5" = { expiration_date = "2099-06-01T00:00:00Z" } } }
    machine_images = { "custom" = { update_strategy = "patch", versions = { "1.0.0" = { cri = { containerd = {} }, architectures = ["amd64"] } } } }
    machine_types  = { "x1.metal" = { cpu = "96", gpu = "0", memory = "1Ti" }, "a1.large" = { cpu = "2", gpu = "0", memory = "4Gi", usable = false } }
    volume_types   = { "nfs" = { class = "standard" } }
  }
}
`, name, projectNamespace)
}

// TestAccUpgrade_stateOfTheListReleasePlansNoChange: a state the release before keyed maps wrote
// (schema version 1, keyed lists as lists, a NamespacedCloudProfile's merged status included) is
// upgraded by this provider, and the configuration rewritten with maps plans no change. The
// objects are created first; the recorded state then takes the place of the fresh one, with the
// names, UIDs and resource versions of the objects it stands for.
func TestAccUpgrade_stateOfTheListReleasePlansNoChange(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	name := acctest.UniqueName("acc-v1")
	w := newCLIWorkspace(t, keyedProfiles(kubeconfig, name))
	w.destroyOnCleanup()
	w.mustRun(0, "apply", "-auto-approve")
	w.replaceStateWithRecordedV1(name)
	out := w.mustRun(0, "plan", "-detailed-exitcode")
	requireNoProviderBug(t, out)
	requireNoWarnings(t, "the plan of the upgraded state", out)
}

// TestAccUpgrade_listFormThroughTheModulePlansNoChange: the configuration of the recorded state of
// schema version 1, still in the list form but passed through the guide's module
// examples/upgrade-to-maps, plans no change with the upgraded state.
func TestAccUpgrade_listFormThroughTheModulePlansNoChange(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	name := acctest.UniqueName("acc-v1-mod")
	w := newCLIWorkspace(t, keyedProfiles(kubeconfig, name))
	w.destroyOnCleanup()
	w.mustRun(0, "apply", "-auto-approve")
	w.replaceStateWithRecordedV1(name)
	source := upgradeModuleSource(t)
	w.write(acctest.ProviderBlock(kubeconfig) + fmt.Sprintf(`
module "parent_spec" {
  source = %[3]q
  spec   = %[4]s
}

resource "gardener_cloud_profile" "parent" {
  metadata = { name = %[1]q }
  spec     = module.parent_spec.spec
}

module "team_spec" {
  source = %[3]q
  spec   = %[5]s
}

resource "gardener_namespaced_cloud_profile" "team" {
  keep_merged_status = true
  metadata           = { name = "%[1]s-team", namespace = %[2]q }
  spec               = module.team_spec.spec
}
`, name, projectNamespace, source, listFormCloudProfileSpec, listFormNamespacedSpec("gardener_cloud_profile.parent.metadata.name")))
	w.mustRun(0, "get") // installs the module; with dev_overrides, init is not needed for the provider
	out := w.mustRun(0, "plan", "-detailed-exitcode")
	requireNoProviderBug(t, out)
	requireNoWarnings(t, "the plan of the upgraded state with the converted configuration", out)
}

// replaceStateWithRecordedV1 puts the resources of testdata/state_v1 in the place of the
// workspace's, which keyedProfiles created for name: their attributes as schema version 1 wrote
// them, with the UIDs and resource versions of the objects.
func (w *cliWorkspace) replaceStateWithRecordedV1(name string) {
	t := w.t
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "state_v1", "resources.json"))
	if err != nil {
		t.Fatal(err)
	}
	raw = []byte(strings.ReplaceAll(strings.ReplaceAll(string(raw), "acc-v1-state", name), "garden-demo", projectNamespace))
	var recorded stateV1
	if err := json.Unmarshal(raw, &recorded); err != nil {
		t.Fatal(err)
	}
	statePath := filepath.Join(w.dir, "terraform.tfstate")
	stateRaw, err := os.ReadFile(statePath)
	if err != nil {
		t.Fatal(err)
	}
	var state map[string]any
	if err := json.Unmarshal(stateRaw, &state); err != nil {
		t.Fatal(err)
	}
	replaced := 0
	for _, r := range state["resources"].([]any) {
		resource := r.(map[string]any)
		for _, old := range recorded.Resources {
			if old.Type != resource["type"] || old.Name != resource["name"] || old.SchemaVersion != 1 {
				continue
			}
			instance := resource["instances"].([]any)[0].(map[string]any)
			fresh := instance["attributes"].(map[string]any)["metadata"].(map[string]any)
			metadata := old.Attributes["metadata"].(map[string]any)
			for _, field := range []string{"uid", "resource_version", "generation"} {
				metadata[field] = fresh[field]
			}
			instance["attributes"], instance["schema_version"] = old.Attributes, 1
			replaced++
		}
	}
	if replaced != 2 {
		t.Fatalf("replaced %d resources of the state with the recorded ones, want 2", replaced)
	}
	state["serial"] = state["serial"].(float64) + 1
	stateRaw, err = json.Marshal(state)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(statePath, stateRaw, 0o600); err != nil {
		t.Fatal(err)
	}
}
