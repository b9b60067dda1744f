package provider_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
)

// emptyMetadataForms are the ways a configuration says "no labels, no annotations": an import of an
// object without them must plan empty under each.
var emptyMetadataForms = []struct{ name, hcl string }{
	{"both empty", "labels = {}\n    annotations = {}"},
	{"both absent", ""},
	{"labels empty, annotations absent", "labels = {}"},
	{"labels absent, annotations empty", "annotations = {}"},
}

// metadataCloudProfileConfig renders a minimal CloudProfile whose metadata body after the name is
// metadata.
func metadataCloudProfileConfig(kubeconfig, name, metadata string) string {
	return acctest.ProviderBlock(kubeconfig) + fmt.Sprintf(`
resource "gardener_cloud_profile" "test" {
  metadata = {
    name = %q
    %s
  }
  spec = {
    type          = "local"
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [for image in ["gardenlinux", "ubuntu", "alpine", "suse", "rhel"] : { name = image, versions = [{ version = "1.0.0", image = "local/${image}" }] }] })
    kubernetes    = { versions = { "1.31.2" = { classification = "supported" } } }
    machine_images = {
      "gardenlinux" = {
        versions = { "1877.3.0" = { classification = "supported", architectures = ["amd64"] } }
      }
    }
    machine_types = { "m5.large" = { cpu = "2", gpu = "0", memory = "8Gi" } }
    regions       = { "local" = { zones = { "local-a" = {} } } }
  }
}
`, name, metadata)
}

// metadataNamespacedConfig renders a parent CloudProfile and a NamespacedCloudProfile whose
// metadata body after name and namespace is metadata.
func metadataNamespacedConfig(kubeconfig, parent, name, metadata string) string {
	return metadataCloudProfileConfig(kubeconfig, parent, "") + fmt.Sprintf(`
resource "gardener_namespaced_cloud_profile" "test" {
  metadata = {
    name      = %q
    namespace = %q
    %s
  }
  spec = {
    parent        = { kind = "CloudProfile", name = gardener_cloud_profile.test.metadata.name }
    machine_types = { "x1.metal" = { cpu = "96", gpu = "0", memory = "1Ti" } }
  }
}
`, name, projectNamespace, metadata)
}

// importSteps applies each empty metadata form and imports the object under it with kind, which
// must plan no change.
func importSteps(address string, kind resource.ImportStateKind, config func(metadata string) string, checks ...statecheck.StateCheck) []resource.TestStep {
	var steps []resource.TestStep
	for _, form := range emptyMetadataForms {
		steps = append(steps,
			resource.TestStep{Config: acctest.RequiredProviders() + config(form.hcl), ConfigStateChecks: checks},
			resource.TestStep{Config: acctest.RequiredProviders() + config(form.hcl), ResourceName: address, ImportState: true, ImportStateKind: kind},
		)
	}
	return steps
}

// TestAccCloudProfile_importBlockEmptyMetadata imports a CloudProfile with an import block by ID
// (Terraform 1.5+, every CLI of the matrix) under each form of empty labels and annotations.
func TestAccCloudProfile_importBlockEmptyMetadata(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	client := acctest.Client(t)
	name := acctest.UniqueName("acc-import-id")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_5_0)},
		CheckDestroy:             cloudProfileGone(client, name),
		Steps: importSteps(cpAddr, resource.ImportBlockWithID, func(metadata string) string {
			return metadataCloudProfileConfig(kubeconfig, name, metadata)
		}),
	})
}

// TestAccCloudProfile_identity records the resource identity and imports by it (Terraform 1.12+)
// under each form of empty labels and annotations.
func TestAccCloudProfile_identity(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	client := acctest.Client(t)
	name := acctest.UniqueName("acc-identity")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		CheckDestroy:             cloudProfileGone(client, name),
		Steps: importSteps(cpAddr, resource.ImportBlockWithResourceIdentity, func(metadata string) string {
			return metadataCloudProfileConfig(kubeconfig, name, metadata)
		}, statecheck.ExpectIdentity(cpAddr, map[string]knownvalue.Check{"name": knownvalue.StringExact(name)})),
	})
}

// TestAccNamespacedCloudProfile_importBlockEmptyMetadata imports a NamespacedCloudProfile with an
// import block by ID (Terraform 1.5+) under each form of empty labels and annotations.
func TestAccNamespacedCloudProfile_importBlockEmptyMetadata(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	client := acctest.Client(t)
	parent, name := acctest.UniqueName("acc-import-parent"), acctest.UniqueName("acc-import-ncp")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_5_0)},
		CheckDestroy:             resource.ComposeTestCheckFunc(namespacedGone(client, name), cloudProfileGone(client, parent)),
		Steps: importSteps(ncpAddr, resource.ImportBlockWithID, func(metadata string) string {
			return metadataNamespacedConfig(kubeconfig, parent, name, metadata)
		}),
	})
}

// TestAccNamespacedCloudProfile_identity records the identity (namespace and name) and imports by
// it (Terraform 1.12+) under each form of empty labels and annotations.
func TestAccNamespacedCloudProfile_identity(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	client := acctest.Client(t)
	parent, name := acctest.UniqueName("acc-identity-parent"), acctest.UniqueName("acc-identity-ncp")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		CheckDestroy:             resource.ComposeTestCheckFunc(namespacedGone(client, name), cloudProfileGone(client, parent)),
		Steps: importSteps(ncpAddr, resource.ImportBlockWithResourceIdentity, func(metadata string) string {
			return metadataNamespacedConfig(kubeconfig, parent, name, metadata)
		}, statecheck.ExpectIdentity(ncpAddr, map[string]knownvalue.Check{
			"namespace": knownvalue.StringExact(projectNamespace),
			"name":      knownvalue.StringExact(name),
		})),
	})
}
