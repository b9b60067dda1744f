package provider_test

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// The acceptance tests of TestAccExtensionLocal_ need a Garden that runs provider-local's admission
// webhooks, as scripts/garden.sh starts it by default.

// requireLocalMutator fails the test unless the Garden has provider-local's mutating webhook
// registered, which scripts/garden.sh starts by default (it skips when the Garden was started
// without it on purpose, GARDEN_EXTENSION_ADMISSION=none), and returns a dynamic client of the Garden.
func requireLocalMutator(t *testing.T) dynamic.Interface {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", acctest.Kubeconfig(t))
	if err != nil {
		t.Fatal(err)
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	gvr := schema.GroupVersionResource{Group: "admissionregistration.k8s.io", Version: "v1", Resource: "mutatingwebhookconfigurations"}
	_, err = dyn.Resource(gvr).Get(acctest.Context(t), "gardener-extension-admission-local", metav1.GetOptions{})
	if apierrors.IsNotFound(err) && os.Getenv("GARDEN_EXTENSION_ADMISSION") == "none" {
		t.Skip("GARDEN_EXTENSION_ADMISSION=none: the Garden runs no provider-local admission")
	}
	if apierrors.IsNotFound(err) {
		t.Fatal("the Garden runs no provider-local admission, which scripts/garden.sh starts by default: restart it with " +
			"scripts/garden.sh down && scripts/garden.sh up, or set GARDEN_EXTENSION_ADMISSION=none to skip this test")
	}
	if err != nil {
		t.Fatal(err)
	}
	return dyn
}

// storedMergedProviderConfig reads status.cloudProfileSpec.providerConfig of a
// NamespacedCloudProfile as the Garden stores it, with a dynamic client.
func storedMergedProviderConfig(t *testing.T, dyn dynamic.Interface, namespace, name string) any {
	t.Helper()
	gvr := schema.GroupVersionResource{Group: "core.gardener.cloud", Version: "v1beta1", Resource: "namespacedcloudprofiles"}
	u, err := dyn.Resource(gvr).Namespace(namespace).Get(acctest.Context(t), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	config, found, err := unstructured.NestedFieldNoCopy(u.Object, "status", "cloudProfileSpec", "providerConfig")
	if err != nil || !found {
		t.Fatalf("status.cloudProfileSpec.providerConfig of %s/%s: found %v, %v", namespace, name, found, err)
	}
	return config
}

// localImagesAsSets is a provider-local CloudProfileConfig (JSON text or decoded) with its images
// and their versions as maps by name and version: provider-local's mutator writes them in random
// order.
func localImagesAsSets(t *testing.T, config any) map[string]any {
	t.Helper()
	raw, ok := config.(string)
	if !ok {
		raw = toJSON(t, config)
	}
	var c map[string]any
	if err := json.Unmarshal([]byte(raw), &c); err != nil {
		t.Fatalf("provider config %s: %v", raw, err)
	}
	images := map[string]any{}
	for _, img := range c["machineImages"].([]any) {
		img := img.(map[string]any)
		versions := map[string]any{}
		for _, v := range img["versions"].([]any) {
			versions[v.(map[string]any)["version"].(string)] = v
		}
		images[img["name"].(string)] = versions
	}
	c["machineImages"] = images
	return c
}

// localMergeConfig is a parent CloudProfile of type local and a NamespacedCloudProfile that adds
// a gardenlinux version with its image, kept with its merged status, and the data source of it
// with the merged profile.
func localMergeConfig(kubeconfig, parent, name string) string {
	return acctest.ProviderBlock(kubeconfig) + fmt.Sprintf(`
resource "gardener_cloud_profile" "parent" {
  metadata = { name = %[1]q }
  spec = {
    type       = "local"
    kubernetes = { versions = { "1.31.2" = {} } }
    machine_images = {
      "gardenlinux" = { versions = { "1877.3.0" = { architectures = ["amd64", "arm64"] } } }
      "ubuntu"      = { versions = { "24.4.0" = { architectures = ["amd64"] } } }
    }
    machine_types = { "m5.large" = { cpu = "2", gpu = "0", memory = "8Gi" } }
    regions       = { "local" = {} }
    provider_config = jsonencode({
      apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1"
      kind       = "CloudProfileConfig"
      machineImages = [
        { name = "gardenlinux", versions = [{ version = "1877.3.0", image = "local/gardenlinux:1877.3.0" }] },
        { name = "ubuntu", versions = [{ version = "24.4.0", image = "local/ubuntu:24.4.0" }] },
      ]
    })
  }
}

resource "gardener_namespaced_cloud_profile" "test" {
  metadata           = { name = %[2]q, namespace = %[3]q }
  keep_merged_status = true
  spec = {
    parent = { kind = "CloudProfile", name = gardener_cloud_profile.parent.metadata.name }
    machine_images = { "gardenlinux" = { versions = { "1900.0.0" = { cri = { containerd = {} }, architectures = ["arm64"] } } } }
    provider_config = jsonencode({
      apiVersion    = "local.provider.extensions.gardener.cloud/v1alpha1"
      kind          = "CloudProfileConfig"
      machineImages = [{ name = "gardenlinux", versions = [{ version = "1900.0.0", image = "local/gardenlinux:1900.0.0" }] }]
    })
  }
}

data "gardener_namespaced_cloud_profile" "test" {
  namespace              = gardener_namespaced_cloud_profile.test.metadata.namespace
  name                   = gardener_namespaced_cloud_profile.test.metadata.name
  include_merged_profile = true
  at                     = "2026-06-01T00:00:00Z"
}
`, parent, name, projectNamespace)
}

// TestAccExtensionLocal_mergedProviderConfigIsTheGardens: against a Garden running provider-local's
// mutator, the data source's merged_spec.provider_config and the keep_merged_status resource's
// status.cloud_profile_spec.provider_config hold the namespaced profile's image mapping merged into
// the parent's exactly as the Garden stores status.cloudProfileSpec.providerConfig (images and
// versions compared as sets); status_in_sync is true although the namespaced profile sets a
// provider config, the merged profile's version lists the image the namespaced profile maps
// (provider_images), and the next plan is empty.
func TestAccExtensionLocal_mergedProviderConfigIsTheGardens(t *testing.T) {
	dyn := requireLocalMutator(t)
	kubeconfig := acctest.Kubeconfig(t)
	parent, name := acctest.UniqueName("acc-extmerge-parent"), acctest.UniqueName("acc-extmerge")
	w := newCLIWorkspace(t, localMergeConfig(kubeconfig, parent, name))
	w.destroyOnCleanup()
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))
	dsWaitForNamespacedStatus(t, acctest.Client(t), projectNamespace, name, func(ncp *gardencorev1beta1.NamespacedCloudProfile) bool {
		return ncp.Status.CloudProfileSpec.ProviderConfig != nil && strings.Contains(string(ncp.Status.CloudProfileSpec.ProviderConfig.Raw), "1900.0.0")
	})
	w.mustRun(0, "plan", "-detailed-exitcode") // the status write of the controller and the mutator changes no plan
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve", "-refresh-only"))

	stored := localImagesAsSets(t, storedMergedProviderConfig(t, dyn, projectNamespace, name))
	values := w.stateValues()
	ds := values["data.gardener_namespaced_cloud_profile.test"]
	if got := localImagesAsSets(t, ds["merged_spec"].(map[string]any)["provider_config"]); !reflect.DeepEqual(got, stored) {
		t.Errorf("the data source's merged provider config\n  %s\ndiffers from the Garden's status\n  %s", toJSON(t, got), toJSON(t, stored))
	}
	if ds["status_in_sync"] != true {
		t.Errorf("status_in_sync = %v, want true", ds["status_in_sync"])
	}
	status := values[ncpAddr]["status"].(map[string]any)["cloud_profile_spec"].(map[string]any)
	if got := localImagesAsSets(t, status["provider_config"]); !reflect.DeepEqual(got, stored) {
		t.Errorf("the resource's kept merged provider config\n  %s\ndiffers from the Garden's status\n  %s", toJSON(t, got), toJSON(t, stored))
	}
	if got := toJSON(t, versionOf(t, ds, "gardenlinux", "1900.0.0")["provider_images"]); got != `[{"architecture":"arm64","image":"local/gardenlinux:1900.0.0","region":null}]` {
		t.Errorf("provider_images of the merged profile's gardenlinux 1900.0.0: %s", got)
	}
	if !strings.Contains(toJSON(t, stored), "local/gardenlinux:1900.0.0") {
		t.Errorf("the Garden's status lacks the namespaced profile's image: %s", toJSON(t, stored))
	}
}

// versionOf finds a version of an image in the machine_images map of a data source's state values.
func versionOf(t *testing.T, values map[string]any, image, version string) map[string]any {
	t.Helper()
	img, _ := values["machine_images"].(map[string]any)[image].(map[string]any)
	v, _ := img["versions"].(map[string]any)[version].(map[string]any)
	if v == nil {
		t.Fatalf("no version %s of %s in machine_images", version, image)
	}
	return v
}

// localParentConfig is localMergeConfig's parent CloudProfile alone, with the data source of the
// NamespacedCloudProfile name (which the test creates outside Terraform) when withDataSource.
func localParentConfig(kubeconfig, parent, name string, withDataSource bool) string {
	config, _, _ := strings.Cut(localMergeConfig(kubeconfig, parent, name), `resource "gardener_namespaced_cloud_profile"`)
	if withDataSource {
		config += fmt.Sprintf(`
data "gardener_namespaced_cloud_profile" "test" {
  namespace              = %q
  name                   = %q
  include_merged_profile = true
  at                     = "2026-06-01T00:00:00Z"
  depends_on             = [gardener_cloud_profile.parent]
}
`, projectNamespace, name)
	}
	return config
}

// TestAccExtensionLocal_mergesAProviderConfigWithoutKind: a NamespacedCloudProfile that the Garden
// holds with a provider config without apiVersion and kind (stored while provider-local's validating
// webhook did not run, see acctest.SkipLocalValidator) gets its mapping merged into its status by
// provider-local's mutator, which fills both in; the data source's merged_spec.provider_config is
// the Garden's status (images and versions as sets), status_in_sync is true and the merged
// profile's version lists the image the NamespacedCloudProfile maps.
func TestAccExtensionLocal_mergesAProviderConfigWithoutKind(t *testing.T) {
	dyn := requireLocalMutator(t)
	kubeconfig := acctest.Kubeconfig(t)
	parent, name := acctest.UniqueName("acc-extmerge-parent"), acctest.UniqueName("acc-extmerge-untyped")
	w := newCLIWorkspace(t, localParentConfig(kubeconfig, parent, name, false))
	w.destroyOnCleanup()
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))

	client := acctest.Client(t)
	ncp := &gardencorev1beta1.NamespacedCloudProfile{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: projectNamespace, Labels: map[string]string{acctest.SkipLocalValidator(t): "true"}},
		Spec: gardencorev1beta1.NamespacedCloudProfileSpec{
			Parent: gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: parent},
			MachineImages: []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: []gardencorev1beta1.MachineImageVersion{{
				ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1900.0.0"},
				CRI:              []gardencorev1beta1.CRI{{Name: gardencorev1beta1.CRINameContainerD}}, Architectures: []string{"arm64"},
			}}}},
			ProviderConfig: &runtime.RawExtension{Raw: []byte(`{"machineImages":[{"name":"gardenlinux","versions":[{"version":"1900.0.0","image":"local/gardenlinux:1900.0.0"}]}]}`)},
		},
	}
	t.Cleanup(func() {
		if err := client.DeleteNamespacedCloudProfile(acctest.Context(t), projectNamespace, name, ""); err != nil {
			t.Logf("cleanup: %v", err)
		}
	})
	deadline := time.Now().Add(time.Minute)
	for {
		_, err := client.ApplyNamespacedCloudProfile(acctest.Context(t), ncp, kube.ApplyOptions{})
		if err == nil {
			break
		}
		if !strings.Contains(err.Error(), "validator.admission-local") || time.Now().After(deadline) {
			t.Fatalf("creating %s past provider-local's validator: %v", name, err)
		}
		time.Sleep(300 * time.Millisecond)
	}
	dsWaitForNamespacedStatus(t, client, projectNamespace, name, func(ncp *gardencorev1beta1.NamespacedCloudProfile) bool {
		return ncp.Status.CloudProfileSpec.ProviderConfig != nil && strings.Contains(string(ncp.Status.CloudProfileSpec.ProviderConfig.Raw), "1900.0.0")
	})

	// The data source goes before the NamespacedCloudProfile does, so that the destroy reads none.
	t.Cleanup(func() { w.write(localParentConfig(kubeconfig, parent, name, false)) })
	w.write(localParentConfig(kubeconfig, parent, name, true))
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))
	stored := localImagesAsSets(t, storedMergedProviderConfig(t, dyn, projectNamespace, name))
	ds := w.stateValues()["data.gardener_namespaced_cloud_profile.test"]
	if got := localImagesAsSets(t, ds["merged_spec"].(map[string]any)["provider_config"]); !reflect.DeepEqual(got, stored) {
		t.Errorf("the data source's merged provider config\n  %s\ndiffers from the Garden's status\n  %s", toJSON(t, got), toJSON(t, stored))
	}
	if ds["status_in_sync"] != true {
		t.Errorf("status_in_sync = %v, want true", ds["status_in_sync"])
	}
	if got := toJSON(t, versionOf(t, ds, "gardenlinux", "1900.0.0")["provider_images"]); got != `[{"architecture":"arm64","image":"local/gardenlinux:1900.0.0","region":null}]` {
		t.Errorf("provider_images of the merged profile's gardenlinux 1900.0.0: %s", got)
	}
}

// TestAccExtensionLocal_aProviderConfigWithoutKindFailsAsTheWebhook: terraform validate of a
// CloudProfile of type local whose provider_config maps every version but lacks kind fails with
// one error on spec.provider_config that quotes provider-local's validating webhook word for word
// (EXT-LOCAL-2), as the Garden answers the same object; with kind it applies.
func TestAccExtensionLocal_aProviderConfigWithoutKindFailsAsTheWebhook(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	name := acctest.UniqueName("acc-ext-nokind")
	complete := localCapabilityProfile(kubeconfig, name, "1877.3.0", "1592.9.0")
	w := newCLIWorkspace(t, strings.Replace(complete, `kind          = "CloudProfileConfig"`, "", 1))
	w.destroyOnCleanup()
	out := w.mustRun(1, "validate")
	quoted := `{"apiVersion":"local.provider.extensions.gardener.cloud/v1alpha1","machineImages":[{"name":"gardenlinux","versions":[` +
		`{"capabilityFlavors":[{"capabilities":{"architecture":["amd64"]},"image":"local/gardenlinux:1877.3.0"}],"version":"1877.3.0"},` +
		`{"capabilityFlavors":[{"capabilities":{"architecture":["amd64"]},"image":"local/gardenlinux:1592.9.0"}],"version":"1592.9.0"}]}]}`
	message := fmt.Sprintf(`could not decode providerConfig of CloudProfile %q: Object 'Kind' is missing in '%s'`, name, quoted)
	if want := `spec.providerConfig: Internal error: ` + message + ` (rule EXT-LOCAL-2)`; !strings.Contains(oneLine(out), want) || strings.Count(out, "Error: ") != 1 {
		t.Errorf("validate of a provider config without kind: want one error with\n  %s\ngot:\n%s", want, out)
	}
	t.Logf("validate:\n%s", out)

	same := minimalCloudProfile(name) // the webhook stops at the provider config, which it quotes
	same.Spec.ProviderConfig = &runtime.RawExtension{Raw: []byte(quoted)}
	_, err := acctest.Client(t).ApplyCloudProfile(acctest.Context(t), same, kube.ApplyOptions{DryRun: true})
	if err == nil || !strings.Contains(err.Error(), `admission webhook "validator.admission-local.extensions.gardener.cloud" denied the request: `+message) {
		t.Errorf("the Garden's answer to the same CloudProfile:\n  got  %v\n  want %s", err, message)
	}

	w.write(complete)
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))
}
