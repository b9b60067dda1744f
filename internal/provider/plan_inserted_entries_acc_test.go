package provider_test

import (
	"fmt"
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
)

// storedObject reads a cloud profile of either kind as the Garden stores it, with a raw client
// (namespace "" for a CloudProfile).
func storedObject(t *testing.T, resource, namespace, name string) map[string]any {
	t.Helper()
	gvr := schema.GroupVersionResource{Group: "core.gardener.cloud", Version: "v1beta1", Resource: resource}
	var (
		object *unstructured.Unstructured
		err    error
	)
	if namespace == "" {
		object, err = webhookClient(t).Resource(gvr).Get(acctest.Context(t), name, metav1.GetOptions{})
	} else {
		object, err = webhookClient(t).Resource(gvr).Namespace(namespace).Get(acctest.Context(t), name, metav1.GetOptions{})
	}
	if err != nil {
		t.Fatalf("reading %s %s: %v", resource, name, err)
	}
	return object.Object
}

// storedEntry is the entry of a list of the stored spec, found by the value of its key field
// (path leads to the list through objects), or fails the test.
func storedEntry(t *testing.T, object map[string]any, key, value string, path ...string) map[string]any {
	t.Helper()
	list, _, _ := unstructured.NestedSlice(object, append([]string{"spec"}, path...)...)
	for _, e := range list {
		if entry, ok := e.(map[string]any); ok && entry[key] == value {
			return entry
		}
	}
	t.Fatalf("the stored spec has no entry %s=%s in %v", key, value, path)
	return nil
}

// requireStored fails unless the entry holds want at field.
func requireStored(t *testing.T, what string, entry map[string]any, field string, want any) {
	t.Helper()
	if got := entry[field]; !reflect.DeepEqual(got, want) {
		t.Errorf("%s: the Garden stores %s = %v, want %v", what, field, got, want)
	}
}

// insertedEntriesProfile is a CloudProfile whose first entries are inserted (before) or not.
func insertedEntriesProfile(kubeconfig, name string, inserted bool) string {
	machineType, imageVersion, image := "", "", ""
	if inserted {
		machineType = `{ name = "t3.large", cpu = "2", gpu = "0", memory = "8Gi" },`
		imageVersion = `{ version = "1877.4.0" },`
		image = `{ name = "ubuntu", versions = [{ version = "24.4.0" }] },`
	}
	return acctest.ProviderBlock(kubeconfig) + fmt.Sprintf(`
resource "gardener_cloud_profile" "test" {
  metadata = { name = %q }
  spec = {
    type       = "local"
    kubernetes = { versions = [{ version = "1.31.2" }] }
    machine_images = [
      %s
      {
        name            = "gardenlinux"
        update_strategy = "minor"
        versions = [
          %s
          { version = "1877.3.0", architectures = ["amd64", "arm64"] },
        ]
      },
    ]
    machine_types = [
      %s
      { name = "m6g.large", cpu = "2", gpu = "0", memory = "8Gi", architecture = "arm64", usable = false },
    ]
    regions = [{ name = "local", zones = [{ name = "local-a" }] }]
  }
}
`, name, image, imageVersion, machineType)
}

// TestAccPlan_insertedEntriesGetGardenersDefaults: a machine type, an image version and an image
// inserted before entries that set what they leave to Gardener (arm64 and not usable; two
// architectures; update strategy minor) are stored with Gardener's own defaults, read back with a
// raw client: Terraform pairs list entries by index, and the plan never hands an inserted entry
// its neighbour's values. The next plan is empty.
func TestAccPlan_insertedEntriesGetGardenersDefaults(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	name := acctest.UniqueName("acc-insert")
	w := newCLIWorkspace(t, insertedEntriesProfile(kubeconfig, name, false))
	w.destroyOnCleanup()
	w.mustRun(0, "apply", "-auto-approve")

	w.write(insertedEntriesProfile(kubeconfig, name, true))
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))
	stored := storedObject(t, "cloudprofiles", "", name)
	t3 := storedEntry(t, stored, "name", "t3.large", "machineTypes")
	requireStored(t, "t3.large inserted before m6g.large", t3, "architecture", "amd64")
	requireStored(t, "t3.large inserted before m6g.large", t3, "usable", true)
	gardenlinux := storedEntry(t, stored, "name", "gardenlinux", "machineImages")
	version := storedEntry(t, map[string]any{"spec": gardenlinux}, "version", "1877.4.0", "versions")
	requireStored(t, "gardenlinux 1877.4.0 inserted before 1877.3.0", version, "architectures", []any{"amd64"})
	requireStored(t, "the image ubuntu inserted before gardenlinux", storedEntry(t, stored, "name", "ubuntu", "machineImages"), "updateStrategy", "major")
	requireStored(t, "m6g.large after the insert", storedEntry(t, stored, "name", "m6g.large", "machineTypes"), "architecture", "arm64")
	w.mustRun(0, "plan", "-detailed-exitcode")
}

// TestAccPlan_insertedNamespacedMachineTypeGetsGardenersDefault: a machine type inserted into a
// NamespacedCloudProfile before one that is not usable is stored usable, Gardener's default, read
// back with a raw client; the next plan is empty.
func TestAccPlan_insertedNamespacedMachineTypeGetsGardenersDefault(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	parent, name := acctest.UniqueName("acc-insert-parent"), acctest.UniqueName("acc-insert")
	config := func(inserted string) string {
		return cloudProfileConfig(kubeconfig, parent, "", "", "") + fmt.Sprintf(`
resource "gardener_namespaced_cloud_profile" "test" {
  metadata = { name = %q, namespace = %q }
  spec = {
    parent        = { kind = "CloudProfile", name = gardener_cloud_profile.test.metadata.name }
    machine_types = [
      %s
      { name = "x2.metal", cpu = "128", gpu = "0", memory = "2Ti", usable = false },
    ]
  }
}
`, name, projectNamespace, inserted)
	}
	w := newCLIWorkspace(t, config(""))
	w.destroyOnCleanup()
	w.mustRun(0, "apply", "-auto-approve")

	w.write(config(`{ name = "x1.metal", cpu = "96", gpu = "0", memory = "1Ti" },`))
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))
	stored := storedObject(t, "namespacedcloudprofiles", projectNamespace, name)
	requireStored(t, "x1.metal inserted before x2.metal", storedEntry(t, stored, "name", "x1.metal", "machineTypes"), "usable", true)
	requireStored(t, "x2.metal after the insert", storedEntry(t, stored, "name", "x2.metal", "machineTypes"), "usable", false)
	w.mustRun(0, "plan", "-detailed-exitcode")
}
