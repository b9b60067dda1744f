package provider_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
)

// reversedProfile is the CloudProfile of keyedProfiles as another tool writes it: every keyed
// list in the reverse of the order the provider writes (versions oldest first, names descending).
func reversedProfile(t *testing.T, name string) *unstructured.Unstructured {
	t.Helper()
	var object map[string]any
	err := json.Unmarshal([]byte(fmt.Sprintf(`{
  "apiVersion": "core.gardener.cloud/v1beta1", "kind": "CloudProfile", "metadata": {"name": %q},
  "spec": {
    "type": "local",
    "providerConfig": %s,
    "kubernetes": {"versions": [
      {"version": "1.30.5", "classification": "deprecated", "expirationDate": "2099-01-01T00:00:00Z"},
      {"version": "1.31.2", "classification": "supported"}]},
    "machineImages": [
      {"name": "gardenlinux", "versions": [
        {"version": "1592.9.0", "cri": [{"name": "containerd", "containerRuntimes": [{"type": "gvisor"}]}]},
        {"version": "1877.3.0", "architectures": ["arm64", "amd64"]}]},
      {"name": "alpine", "updateStrategy": "minor", "versions": [{"version": "3.20.0"}]}],
    "machineTypes": [
      {"name": "m6g.large", "cpu": "2", "gpu": "0", "memory": "8Gi", "architecture": "arm64"},
      {"name": "c5.large", "cpu": "2", "gpu": "0", "memory": "4Gi"}],
    "volumeTypes": [{"name": "io1", "class": "premium", "usable": false}, {"name": "gp3", "class": "standard"}],
    "regions": [
      {"name": "us-east-1", "zones": [{"name": "us-east-1b"}, {"name": "us-east-1a", "unavailableMachineTypes": ["m6g.large"]}]},
      {"name": "eu-west-1", "accessRestrictions": [{"name": "eu-access-only"}]}]
  }
}`, name, localProviderConfigJSON)), &object)
	if err != nil {
		t.Fatal(err)
	}
	return &unstructured.Unstructured{Object: object}
}

// onlyCloudProfile is keyedProfiles without its NamespacedCloudProfile, with extra lines in the
// CloudProfile's resource block.
func onlyCloudProfile(kubeconfig, name, extra string) string {
	config := keyedProfiles(kubeconfig, name)
	config, _, _ = strings.Cut(config, `resource "gardener_namespaced_cloud_profile"`)
	return strings.Replace(config, `resource "gardener_cloud_profile" "parent" {`, `resource "gardener_cloud_profile" "parent" {`+"\n"+extra, 1)
}

// TestAccImport_anObjectWrittenInAnotherOrderPlansNoChange: a CloudProfile whose keyed lists
// another tool wrote in another order than the provider's (and one image version's architectures
// too, which Gardener keeps as written) is imported, and adopted, with a configuration of the same
// entries: the import plans no change and the plan after each apply is empty. Order alone never
// makes a change.
func TestAccImport_anObjectWrittenInAnotherOrderPlansNoChange(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	client := webhookClient(t)
	for _, c := range []struct{ what, extra, importBlock string }{
		{"import", "", "import {\n  to = gardener_cloud_profile.parent\n  id = %q\n}\n"},
		{"adoption", "  adopt_existing = true", ""},
	} {
		t.Run(c.what, func(t *testing.T) {
			name := acctest.UniqueName("acc-order")
			if _, err := createUnstructured(acctest.Context(t), client, reversedProfile(t, name), "kubectl", false); err != nil {
				t.Fatal(err)
			}
			config := onlyCloudProfile(kubeconfig, name, c.extra)
			if c.importBlock != "" {
				config += fmt.Sprintf(c.importBlock, name)
			}
			config = strings.Replace(config, `"1877.3.0" = { architectures = ["amd64", "arm64"] }`, `"1877.3.0" = { architectures = ["arm64", "amd64"] }`, 1)
			w := newCLIWorkspace(t, config)
			w.destroyOnCleanup()
			if c.importBlock != "" {
				out := w.mustRun(0, "plan")
				if !strings.Contains(out, "1 to import, 0 to add, 0 to change, 0 to destroy") {
					t.Errorf("the import of an object in another order plans a change:\n%s", out)
				}
			}
			requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))
			w.mustRun(0, "plan", "-detailed-exitcode")
		})
	}
}
