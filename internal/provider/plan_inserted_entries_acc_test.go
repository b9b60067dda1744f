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

// insertedEntriesProfile is a CloudProfile whose keyed collections each hold two entries that set
// what Gardener would otherwise default, and, when inserted, two more entries per collection that
// leave it to Gardener: one whose key comes first in the order the provider writes (names
// ascending, versions newest first) and one whose key falls between the two.
func insertedEntriesProfile(kubeconfig, name string, inserted bool) string {
	pick := func(entries string) string {
		if inserted {
			return entries
		}
		return ""
	}
	return acctest.ProviderBlock(kubeconfig) + fmt.Sprintf(`
resource "gardener_cloud_profile" "test" {
  metadata = { name = %q }
  spec = {
    type = "local"
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [for image in ["gardenlinux", "ubuntu", "alpine", "suse", "rhel"] : { name = image, versions = [{ version = "1.0.0", image = "local/${image}" }] }] })
    kubernetes = { versions = {
      "1.31.2" = { classification = "supported" }
      "1.29.5" = { classification = "deprecated" }
      "1.28.3" = { classification = "deprecated" }
      %s
    } }
    machine_images = {
      "gardenlinux" = { update_strategy = "minor", versions = {
        "1877.3.0" = { architectures = ["amd64", "arm64"] }
        "1443.1.0" = { architectures = ["amd64", "arm64"] }
        %s
      } }
      "suse" = { update_strategy = "minor", versions = { "15.6.0" = { architectures = ["amd64", "arm64"] } } }
      %s
    }
    machine_types = {
      "m6g.large" = { cpu = "2", gpu = "0", memory = "8Gi", architecture = "arm64", usable = false }
      "x2.large"  = { cpu = "4", gpu = "0", memory = "16Gi", architecture = "arm64", usable = false }
      %s
    }
    volume_types = {
      "gp3" = { class = "standard", usable = false }
      "sc1" = { class = "cold", usable = false }
      %s
    }
    regions = {
      "eu-west-1" = { zones = { "eu-west-1b" = {}, "eu-west-1d" = {} %s } }
      "us-east-1" = { zones = { "us-east-1a" = {} } }
      %s
    }
  }
}
`, name,
		pick(`"1.32.0" = {}
      "1.30.1" = {}`),
		pick(`"1900.0.0" = {}
        "1592.0.0" = {}`),
		pick(`"alpine" = { versions = { "3.20.0" = {} } }
      "rhel" = { versions = { "9.4.0" = {} } }`),
		pick(`"a1.large" = { cpu = "2", gpu = "0", memory = "4Gi" }
      "r5.large" = { cpu = "2", gpu = "0", memory = "16Gi" }`),
		pick(`"default" = { class = "standard" }
      "io1" = { class = "premium" }`),
		pick(`, "eu-west-1a" = {}, "eu-west-1c" = {}`),
		pick(`"ap-south-1" = { zones = { "ap-south-1a" = {} } }
      "sa-east-1" = { zones = { "sa-east-1a" = {} } }`))
}

// TestAccPlan_insertedEntriesGetGardenersDefaults: entries inserted at the front and in the middle
// of every keyed collection of a CloudProfile, next to entries that set what Gardener would default
// (arm64, not usable, two architectures, update strategy minor), are stored with Gardener's own
// defaults, read back with a raw client; the entries beside them keep their values, the provider
// writes each collection in its documented order, and the next plan is empty.
func TestAccPlan_insertedEntriesGetGardenersDefaults(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	name := acctest.UniqueName("acc-insert")
	w := newCLIWorkspace(t, insertedEntriesProfile(kubeconfig, name, false))
	w.destroyOnCleanup()
	w.mustRun(0, "apply", "-auto-approve")

	w.write(insertedEntriesProfile(kubeconfig, name, true))
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))
	stored := storedObject(t, "cloudprofiles", "", name)
	for _, machineType := range []string{"a1.large", "r5.large"} {
		entry := storedEntry(t, stored, "name", machineType, "machineTypes")
		requireStored(t, "machine type "+machineType, entry, "architecture", "amd64")
		requireStored(t, "machine type "+machineType, entry, "usable", true)
	}
	for _, machineType := range []string{"m6g.large", "x2.large"} {
		entry := storedEntry(t, stored, "name", machineType, "machineTypes")
		requireStored(t, "machine type "+machineType+" beside the inserted ones", entry, "architecture", "arm64")
		requireStored(t, "machine type "+machineType+" beside the inserted ones", entry, "usable", false)
	}
	gardenlinux := map[string]any{"spec": storedEntry(t, stored, "name", "gardenlinux", "machineImages")}
	for _, version := range []string{"1900.0.0", "1592.0.0"} {
		entry := storedEntry(t, gardenlinux, "version", version, "versions")
		requireStored(t, "gardenlinux "+version, entry, "architectures", []any{"amd64"})
		requireStored(t, "gardenlinux "+version, entry, "cri", []any{map[string]any{"name": "containerd"}})
	}
	requireStored(t, "gardenlinux 1877.3.0 beside the inserted ones", storedEntry(t, gardenlinux, "version", "1877.3.0", "versions"), "architectures", []any{"amd64", "arm64"})
	for _, image := range []string{"alpine", "rhel"} {
		requireStored(t, "machine image "+image, storedEntry(t, stored, "name", image, "machineImages"), "updateStrategy", "major")
	}
	requireStored(t, "machine image suse beside the inserted ones", storedEntry(t, stored, "name", "suse", "machineImages"), "updateStrategy", "minor")
	for _, volumeType := range []string{"default", "io1"} {
		requireStored(t, "volume type "+volumeType, storedEntry(t, stored, "name", volumeType, "volumeTypes"), "usable", true)
	}
	requireStored(t, "volume type sc1 beside the inserted ones", storedEntry(t, stored, "name", "sc1", "volumeTypes"), "usable", false)
	requireStored(t, "Kubernetes version 1.30.1", storedEntry(t, stored, "version", "1.30.1", "kubernetes", "versions"), "classification", nil)
	requireStored(t, "Kubernetes version 1.29.5 beside the inserted ones", storedEntry(t, stored, "version", "1.29.5", "kubernetes", "versions"), "classification", "deprecated")

	requireOrder(t, stored, "version", []string{"1.32.0", "1.31.2", "1.30.1", "1.29.5", "1.28.3"}, "kubernetes", "versions")
	requireOrder(t, stored, "name", []string{"alpine", "gardenlinux", "rhel", "suse"}, "machineImages")
	requireOrder(t, gardenlinux, "version", []string{"1900.0.0", "1877.3.0", "1592.0.0", "1443.1.0"}, "versions")
	requireOrder(t, stored, "name", []string{"a1.large", "m6g.large", "r5.large", "x2.large"}, "machineTypes")
	requireOrder(t, stored, "name", []string{"default", "gp3", "io1", "sc1"}, "volumeTypes")
	requireOrder(t, stored, "name", []string{"ap-south-1", "eu-west-1", "sa-east-1", "us-east-1"}, "regions")
	euWest := map[string]any{"spec": storedEntry(t, stored, "name", "eu-west-1", "regions")}
	requireOrder(t, euWest, "name", []string{"eu-west-1a", "eu-west-1b", "eu-west-1c", "eu-west-1d"}, "zones")
	w.mustRun(0, "plan", "-detailed-exitcode")
}

// requireOrder fails unless the stored list at path holds exactly the entries of the keys, in order.
func requireOrder(t *testing.T, object map[string]any, key string, want []string, path ...string) {
	t.Helper()
	list, _, _ := unstructured.NestedSlice(object, append([]string{"spec"}, path...)...)
	var got []string
	for _, e := range list {
		if entry, ok := e.(map[string]any); ok {
			got = append(got, fmt.Sprint(entry[key]))
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the Garden stores %v in the order %v, want %v", path, got, want)
	}
}

// TestAccPlan_insertedNamespacedEntriesGetGardenersDefaults: entries inserted at the front and in
// the middle of every keyed collection of a NamespacedCloudProfile (overrides of the parent's
// Kubernetes versions and image versions, new images and their versions, machine and volume types)
// beside entries that are not usable are stored as Gardener stores them (usable by default), read
// back with a raw client; the next plan is empty.
func TestAccPlan_insertedNamespacedEntriesGetGardenersDefaults(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	parent, name := acctest.UniqueName("acc-insert-parent"), acctest.UniqueName("acc-insert")
	config := func(inserted bool) string {
		pick := func(entries string) string {
			if inserted {
				return entries
			}
			return ""
		}
		return insertedEntriesProfile(kubeconfig, parent, true) + fmt.Sprintf(`
resource "gardener_namespaced_cloud_profile" "test" {
  metadata = { name = %q, namespace = %q }
  spec = {
    parent = { kind = "CloudProfile", name = gardener_cloud_profile.test.metadata.name }
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig",
      machineImages = [{ name = "custom", versions = [for v in %s : { version = v, image = "local/custom:${v}" }] }] })
    kubernetes = { versions = {
      "1.30.1" = { expiration_date = "2099-01-01T00:00:00Z" }
      "1.28.3" = { expiration_date = "2099-01-01T00:00:00Z" }
      %s
    } }
    machine_images = {
      "gardenlinux" = { versions = {
        "1877.3.0" = { expiration_date = "2099-01-01T00:00:00Z" }
        "1443.1.0" = { expiration_date = "2099-01-01T00:00:00Z" }
        %s
      } }
      "custom" = { update_strategy = "patch", versions = {
        "2.0.0" = { cri = { containerd = {} }, architectures = ["amd64"] }
        %s
      } }
    }
    machine_types = {
      "n1.large" = { cpu = "2", gpu = "0", memory = "8Gi", usable = false }
      "x9.large" = { cpu = "4", gpu = "0", memory = "16Gi", usable = false }
      %s
    }
    volume_types = {
      "nfs" = { class = "standard", usable = false }
      "zfs" = { class = "standard", usable = false }
      %s
    }
  }
}
`, name, projectNamespace, map[bool]string{false: `["2.0.0"]`, true: `["3.0.0", "2.0.0", "1.0.0"]`}[inserted],
			pick(`"1.31.2" = { expiration_date = "2099-02-01T00:00:00Z" }
      "1.29.5" = { expiration_date = "2099-03-01T00:00:00Z" }`),
			pick(`"1900.0.0" = { expiration_date = "2099-02-01T00:00:00Z" }
        "1592.0.0" = { expiration_date = "2099-03-01T00:00:00Z" }`),
			pick(`"3.0.0" = { cri = { containerd = {} }, architectures = ["amd64"] }
        "1.0.0" = { cri = { containerd = {} }, architectures = ["amd64"] }`),
			pick(`"a1.metal" = { cpu = "96", gpu = "0", memory = "1Ti" }
      "p1.large" = { cpu = "2", gpu = "0", memory = "8Gi" }`),
			pick(`"efs" = { class = "standard" }
      "ssd" = { class = "premium" }`))
	}
	w := newCLIWorkspace(t, config(false))
	w.destroyOnCleanup()
	w.mustRun(0, "apply", "-auto-approve")

	w.write(config(true))
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))
	stored := storedObject(t, "namespacedcloudprofiles", projectNamespace, name)
	for _, machineType := range []string{"a1.metal", "p1.large"} {
		requireStored(t, "machine type "+machineType, storedEntry(t, stored, "name", machineType, "machineTypes"), "usable", true)
	}
	requireStored(t, "machine type x9.large beside the inserted ones", storedEntry(t, stored, "name", "x9.large", "machineTypes"), "usable", false)
	for _, volumeType := range []string{"efs", "ssd"} {
		requireStored(t, "volume type "+volumeType, storedEntry(t, stored, "name", volumeType, "volumeTypes"), "usable", true)
	}
	requireStored(t, "volume type zfs beside the inserted ones", storedEntry(t, stored, "name", "zfs", "volumeTypes"), "usable", false)
	requireStored(t, "Kubernetes version 1.29.5", storedEntry(t, stored, "version", "1.29.5", "kubernetes", "versions"), "expirationDate", "2099-03-01T00:00:00Z")
	requireStored(t, "Kubernetes version 1.30.1 beside the inserted ones", storedEntry(t, stored, "version", "1.30.1", "kubernetes", "versions"), "expirationDate", "2099-01-01T00:00:00Z")
	gardenlinux := map[string]any{"spec": storedEntry(t, stored, "name", "gardenlinux", "machineImages")}
	requireStored(t, "gardenlinux 1592.0.0", storedEntry(t, gardenlinux, "version", "1592.0.0", "versions"), "expirationDate", "2099-03-01T00:00:00Z")
	requireOrder(t, gardenlinux, "version", []string{"1900.0.0", "1877.3.0", "1592.0.0", "1443.1.0"}, "versions")
	custom := map[string]any{"spec": storedEntry(t, stored, "name", "custom", "machineImages")}
	requireOrder(t, custom, "version", []string{"3.0.0", "2.0.0", "1.0.0"}, "versions")
	requireOrder(t, stored, "name", []string{"a1.metal", "n1.large", "p1.large", "x9.large"}, "machineTypes")
	requireOrder(t, stored, "version", []string{"1.31.2", "1.30.1", "1.29.5", "1.28.3"}, "kubernetes", "versions")
	w.mustRun(0, "plan", "-detailed-exitcode")
}
