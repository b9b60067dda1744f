package provider_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// TestAccProjectKubeconfig_managesOnlyItsNamespace uses the local Garden's project user, who may
// manage NamespacedCloudProfiles in garden-demo only: that works, while a CloudProfile and a
// NamespacedCloudProfile elsewhere fail with a clear permission error and nothing is written.
func TestAccProjectKubeconfig_managesOnlyItsNamespace(t *testing.T) {
	project := acctest.ProjectKubeconfig(t)
	parent := acctest.UniqueName("acc-rbac-parent")
	admin := createdWithAdmin(t, minimalCloudProfile(parent))
	name := acctest.UniqueName("acc-rbac")
	ncp := func(namespace string) string {
		return acctest.ProviderBlock(project) + fmt.Sprintf(`
resource "gardener_namespaced_cloud_profile" "test" {
  metadata = { name = %q, namespace = %q }
  spec = {
    parent        = { kind = "CloudProfile", name = %q }
    machine_types = { "x1.metal" = { cpu = "96", gpu = "0", memory = "1Ti" } }
  }
}`, name, namespace, parent)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		CheckDestroy:             namespacedGone(admin, name),
		Steps: []resource.TestStep{
			{Config: ncp(projectNamespace)},
			{
				Config:      ncp("default"),
				ExpectError: regexp.MustCompile(`(?s)Permission\s+denied.*namespacedcloudprofiles`),
			},
			{
				Config: ncp(projectNamespace) + fmt.Sprintf(`
resource "gardener_cloud_profile" "forbidden" {
  metadata = { name = %q }
  spec = {
    type = "local"
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [for image in ["gardenlinux", "ubuntu", "alpine", "suse", "rhel"] : { name = image, versions = [{ version = "1.0.0", image = "local/${image}" }] }] })
    kubernetes = { versions = { "1.31.2" = {} } }
    machine_images = { "gardenlinux" = { versions = { "1.0.0" = {} } } }
    machine_types = { "m5.large" = { cpu = "2", gpu = "0", memory = "8Gi" } }
    regions = { "local" = {} }
  }
}`, name+"-cp"),
				ExpectError: regexp.MustCompile(`(?s)Permission\s+denied.*cloudprofiles`),
			},
		},
	})
	if _, err := admin.GetNamespacedCloudProfile(acctest.Context(t), "default", name); !kube.IsNotFound(err) {
		t.Fatalf("nothing may be written outside the project namespace, got err=%v", err)
	}
	if _, err := admin.GetCloudProfile(acctest.Context(t), name+"-cp"); !kube.IsNotFound(err) {
		t.Fatalf("the project user must not create CloudProfiles, got err=%v", err)
	}
}
