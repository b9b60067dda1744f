package provider_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
)

// retiringProfiles is a CloudProfile with the Kubernetes versions and gardenlinux image versions
// given, and a NamespacedCloudProfile of it that overrides the Kubernetes versions and image
// versions given (with later expiration dates).
func retiringProfiles(kubeconfig, name string, versions, images, overriddenVersions, overriddenImages []string) string {
	quoted := func(vs []string) string {
		if len(vs) == 0 {
			return "[]"
		}
		return `["` + strings.Join(vs, `", "`) + `"]`
	}
	return acctest.ProviderBlock(kubeconfig) + fmt.Sprintf(`
locals {
  versions            = %s
  images              = %s
  overridden_versions = %s
  overridden_images   = %s
}

resource "gardener_cloud_profile" "parent" {
  metadata = { name = %q }
  spec = {
    type            = "local"
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [{ name = "gardenlinux", versions = [for v in local.images : { version = v, image = "local/gardenlinux:${v}" }] }] })
    kubernetes      = { versions = { for v in local.versions : v => {} } }
    machine_images  = { "gardenlinux" = { versions = { for v in local.images : v => { cri = { "containerd" = {} } } } } }
    machine_types   = { "m5.large" = { cpu = "2", gpu = "0", memory = "8Gi" } }
    regions         = { "local" = {} }
  }
}

resource "gardener_namespaced_cloud_profile" "team" {
  metadata = { name = "%[5]s-team", namespace = %[6]q }
  spec = {
    parent         = { kind = "CloudProfile", name = gardener_cloud_profile.parent.metadata.name }
    kubernetes     = { versions = { for v in local.overridden_versions : v => { expiration_date = "2099-06-01T00:00:00Z" } } }
    machine_images = length(local.overridden_images) == 0 ? null : { "gardenlinux" = { versions = { for v in local.overridden_images : v => { expiration_date = "2099-06-01T00:00:00Z" } } } }
  }
}
`, quoted(versions), quoted(images), quoted(overriddenVersions), quoted(overriddenImages), name, projectNamespace)
}

// TestAccNamespacedCloudProfile_retiringAVersionAndItsOverrideIsOneApply: one configuration
// removes a Kubernetes version and a machine image version from a CloudProfile and the overrides
// of both from a NamespacedCloudProfile of it. Gardener refuses the CloudProfile's write while the
// overrides exist (rules N-1, N-2) and Terraform writes the parent first, so the plan warns that
// the apply removes the overrides first; one apply stores both objects as planned (read with a raw
// client) and the next plan is empty. An override another field manager wrote stays an error at
// plan, naming the profile, with a fix that works.
func TestAccNamespacedCloudProfile_retiringAVersionAndItsOverrideIsOneApply(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	name := acctest.UniqueName("acc-retire")
	w := newCLIWorkspace(t, retiringProfiles(kubeconfig, name, []string{"1.31.2", "1.31.1", "1.31.0"}, []string{"1.1.0", "1.0.0"},
		[]string{"1.31.1", "1.31.0"}, []string{"1.0.0"}))
	w.destroyOnCleanup()
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))

	w.write(retiringProfiles(kubeconfig, name, []string{"1.31.2", "1.31.0"}, []string{"1.1.0"}, []string{"1.31.0"}, nil))
	out := w.mustRun(2, "plan", "-detailed-exitcode")
	t.Logf("the plan that retires a version and an image version with their overrides (%d lines):\n%s", strings.Count(out, "\n"), out)
	requireNoProviderBug(t, out)
	if n := strings.Count(out, "\nError: "); n != 0 {
		t.Fatalf("want no error, got %d:\n%s", n, out)
	}
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{
		"Warning: The apply removes the overrides of removed versions first (1 NamespacedCloudProfile)",
		fmt.Sprintf("- %s/%s-team: Kubernetes version 1.31.1; machine image gardenlinux", projectNamespace, name),
		"0 to add, 2 to change, 0 to destroy",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("the plan lacks %q:\n%s", want, out)
		}
	}
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))
	parent := storedObject(t, "cloudprofiles", "", name)
	if got := keysOfList(t, parent, "version", "spec", "kubernetes", "versions"); !slices.Equal(got, []string{"1.31.2", "1.31.0"}) {
		t.Errorf("the CloudProfile stores the Kubernetes versions %q, want [1.31.2 1.31.0]", got)
	}
	images, _, _ := unstructured.NestedSlice(parent, "spec", "machineImages")
	if got := keysOfList(t, images[0].(map[string]any), "version", "versions"); !slices.Equal(got, []string{"1.1.0"}) {
		t.Errorf("the CloudProfile stores the gardenlinux versions %q, want [1.1.0]", got)
	}
	team := storedObject(t, "namespacedcloudprofiles", projectNamespace, name+"-team")
	if got := keysOfList(t, team, "version", "spec", "kubernetes", "versions"); !slices.Equal(got, []string{"1.31.0"}) {
		t.Errorf("the NamespacedCloudProfile stores the overrides %q, want [1.31.0]", got)
	}
	if got, found, _ := unstructured.NestedSlice(team, "spec", "machineImages"); found && len(got) > 0 {
		t.Errorf("the NamespacedCloudProfile keeps machine images %v, want none", got)
	}
	w.mustRun(0, "plan", "-detailed-exitcode")

	// An override of 1.31.0 that kubectl wrote: removing the version fails at plan, on the parent.
	foreign := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "core.gardener.cloud/v1beta1", "kind": "NamespacedCloudProfile",
		"metadata": map[string]any{"name": name + "-kubectl", "namespace": projectNamespace},
		"spec": map[string]any{
			"parent":     map[string]any{"kind": "CloudProfile", "name": name},
			"kubernetes": map[string]any{"versions": []any{map[string]any{"version": "1.31.0", "expirationDate": "2099-06-01T00:00:00Z"}}},
		},
	}}
	client := webhookClient(t)
	if _, err := createUnstructured(acctest.Context(t), client, foreign, "kubectl-create", false); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		gvr := schema.GroupVersionResource{Group: "core.gardener.cloud", Version: "v1beta1", Resource: "namespacedcloudprofiles"}
		_ = client.Resource(gvr).Namespace(projectNamespace).Delete(context.Background(), name+"-kubectl", metav1.DeleteOptions{})
	})
	w.write(retiringProfiles(kubeconfig, name, []string{"1.31.2"}, []string{"1.1.0"}, nil, nil))
	out = w.mustRun(1, "plan")
	t.Logf("the plan that retires a version another manager's override extends (%d lines):\n%s", strings.Count(out, "\n"), out)
	flat = strings.Join(strings.Fields(out), " ")
	if n := strings.Count(out, "\nError: "); n != 1 || !strings.Contains(out, "Error: A removed Kubernetes version is still in use") {
		t.Errorf("want one error, that the version is still in use, got %d:\n%s", n, out)
	}
	for _, want := range []string{
		fmt.Sprintf("still in use by NamespacedCloudProfile '%s/%s-kubectl'", projectNamespace, name),
		"kubectl edit namespacedcloudprofile -n <namespace> <name>",
	} {
		if !strings.Contains(flat, want) {
			t.Errorf("the error lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(flat, name+"-team'") || strings.Contains(out, "removes the overrides of removed versions first") {
		t.Errorf("the error names the profile whose override this provider wrote, or the plan still retires it:\n%s", out)
	}
	w.write(retiringProfiles(kubeconfig, name, []string{"1.31.2", "1.31.0"}, []string{"1.1.0"}, []string{"1.31.0"}, nil)) // a configuration that plans, for the destroy
}
