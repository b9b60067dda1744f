package provider_test

import (
	"net/http"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/faultproxy"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// TestAccReliability_interruptedCreateIsImportedAndThenUpdated cuts a create off after the server
// acted: with retries turned off, the connection of the create request is reset once the Garden
// has stored the object, so Terraform records an error and no state, as when the process is killed
// mid-apply. The object exists in the cluster but not in the state. The next apply does not adopt
// it: it fails naming the provider's own field manager and the import; after the import the plan
// is empty, and an update applies without conflicting with the cut-off create's ownership entry.
func TestAccReliability_interruptedCreateIsImportedAndThenUpdated(t *testing.T) {
	admin := acctest.Client(t)
	saved := kube.DefaultRetryPolicy
	kube.DefaultRetryPolicy.MaxAttempts = 1
	t.Cleanup(func() { kube.DefaultRetryPolicy = saved })
	proxy, kubeconfig := startFaultProxy(t, faultproxy.Config{
		Faults: []faultproxy.Fault{faultproxy.ResetAfterUpstream},
		Match:  func(r *http.Request) bool { return r.Method == http.MethodPost },
	}, true)
	name := acctest.UniqueName("acc-cut")
	config := ownedConfig(acctest.ProviderBlock(kubeconfig), name, "8Gi", "")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		CheckDestroy:             cloudProfileGone(admin, name),
		Steps: []resource.TestStep{
			{
				PreConfig:   func() { proxy.SetRate(1) },
				Config:      config,
				ExpectError: regexp.MustCompile(`(?s)Garden cluster unreachable.*Applying CloudProfile`),
			},
			{
				PreConfig: func() {
					proxy.SetRate(0)
					if _, err := admin.GetCloudProfile(acctest.Context(t), name); err != nil {
						t.Fatalf("the cut-off create should have reached the server: %v", err)
					}
				},
				Config:      config,
				ExpectError: alreadyExists(name, kube.DefaultFieldManager+" (Update)"),
			},
			{
				Config:             config,
				ResourceName:       cpAddr,
				ImportState:        true,
				ImportStateId:      name,
				ImportStatePersist: true,
			},
			{
				Config:           config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config: ownedConfig(acctest.ProviderBlock(kubeconfig), name, "16Gi", ""),
				Check: resource.ComposeAggregateTestCheckFunc(
					clusterHolds(admin, []string{name}, map[string]string{name: ""}),
					resource.TestCheckResourceAttr(cpAddr, "spec.machine_types.0.memory", "16Gi"),
				),
			},
		},
	})
}
