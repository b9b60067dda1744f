package provider_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

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

// TestAccImport_aWriteKeepsTheGardenOrder: a CloudProfile whose keyed lists another tool wrote in
// an unusual order (versions oldest first, names descending) is imported and changed in one entry,
// with a new version and a new machine type added. The apply keeps the order of every entry that
// exists, in every keyed list, and puts each new entry beside its nearest neighbour on the side the
// list runs (here: at the end, as the lists run backwards); the raw read shows it.
func TestAccImport_aWriteKeepsTheGardenOrder(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	client := webhookClient(t)
	name := acctest.UniqueName("acc-keep-order")
	if _, err := createUnstructured(acctest.Context(t), client, reversedProfile(t, name), "kubectl-create", false); err != nil {
		t.Fatal(err)
	}
	config := onlyCloudProfile(kubeconfig, name, "")
	config = strings.Replace(config, `"1877.3.0" = { architectures = ["amd64", "arm64"] }`, `"1877.3.0" = { architectures = ["arm64", "amd64"] }`, 1)
	w := newCLIWorkspace(t, config+fmt.Sprintf("import {\n  to = gardener_cloud_profile.parent\n  id = %q\n}\n", name))
	w.destroyOnCleanup()
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))

	config = strings.Replace(config, `"1.31.2" = { classification = "supported" }`,
		`"1.31.2" = { classification = "supported", expiration_date = "2099-03-01T00:00:00Z" }`+"\n      \"1.32.0\" = { classification = \"preview\" }", 1)
	config = strings.Replace(config, `"c5.large"  = { cpu = "2", gpu = "0", memory = "4Gi" }`,
		`"c5.large"  = { cpu = "2", gpu = "0", memory = "4Gi" }`+"\n      \"a1.large\" = { cpu = \"2\", gpu = \"0\", memory = \"4Gi\" }", 1)
	w.write(config)
	out := w.mustRun(2, "plan", "-detailed-exitcode")
	if !strings.Contains(out, "0 to add, 1 to change, 0 to destroy") {
		t.Fatalf("the change plans something else:\n%s", out)
	}
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))
	w.mustRun(0, "plan", "-detailed-exitcode")

	stored, err := client.Resource(schema.GroupVersionResource{Group: "core.gardener.cloud", Version: "v1beta1", Resource: "cloudprofiles"}).Get(acctest.Context(t), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		list string
		path []string
		key  string
		want []string
	}{
		{"kubernetes versions", []string{"spec", "kubernetes", "versions"}, "version", []string{"1.30.5", "1.31.2", "1.32.0"}},
		{"machine images", []string{"spec", "machineImages"}, "name", []string{"gardenlinux", "alpine"}},
		{"machine types", []string{"spec", "machineTypes"}, "name", []string{"m6g.large", "c5.large", "a1.large"}},
		{"volume types", []string{"spec", "volumeTypes"}, "name", []string{"io1", "gp3"}},
		{"regions", []string{"spec", "regions"}, "name", []string{"us-east-1", "eu-west-1"}},
	} {
		if got := keysOfList(t, stored.Object, c.key, c.path...); !slices.Equal(got, c.want) {
			t.Errorf("%s: stored in the order %q, want %q", c.list, got, c.want)
		}
	}
	images, _, _ := unstructured.NestedSlice(stored.Object, "spec", "machineImages")
	regions, _, _ := unstructured.NestedSlice(stored.Object, "spec", "regions")
	if got := keysOfList(t, images[0].(map[string]any), "version", "versions"); !slices.Equal(got, []string{"1592.9.0", "1877.3.0"}) {
		t.Errorf("gardenlinux versions: stored in the order %q, want oldest first as written", got)
	}
	if got := keysOfList(t, regions[0].(map[string]any), "name", "zones"); !slices.Equal(got, []string{"us-east-1b", "us-east-1a"}) {
		t.Errorf("zones of us-east-1: stored in the order %q, want as written", got)
	}
}

// keysOfList reads the keys (the field key of each entry) of the list at path in object, in order.
func keysOfList(t *testing.T, object map[string]any, key string, path ...string) []string {
	t.Helper()
	entries, _, err := unstructured.NestedSlice(object, path...)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, e := range entries {
		k, _ := e.(map[string]any)[key].(string)
		keys = append(keys, k)
	}
	return keys
}
