package provider_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
)

// TestAccCloudProfile_identity records the resource identity and imports by it. It needs
// Terraform 1.12+, so it skips with the 1.11 CLI of this project's machines (the unit tests in
// identity_test.go cover the provider's side there).
func TestAccCloudProfile_identity(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	client := acctest.Client(t)
	name := acctest.UniqueName("acc-identity")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_12_0)},
		CheckDestroy:             cloudProfileGone(client, name),
		Steps: []resource.TestStep{
			{
				Config: cloudProfileConfig(kubeconfig, name, "", "", ""),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentity(cpAddr, map[string]knownvalue.Check{"name": knownvalue.StringExact(name)}),
				},
			},
			{
				ResourceName:    cpAddr,
				ImportState:     true,
				ImportStateKind: resource.ImportBlockWithResourceIdentity,
			},
		},
	})
}
