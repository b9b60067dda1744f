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

// TestAccReliability_interruptedApplyIsRepairedByTheNextApply cuts an apply off after the server
// acted: with retries turned off, the connection of the server-side apply is reset once the
// Garden has stored the object, so Terraform records an error and no state, as when the process
// is killed mid-apply. The object exists in the cluster but not in the state. The next apply
// adopts it (server-side apply is an upsert under the same field manager): one object, state and
// cluster equal, empty plan afterwards.
func TestAccReliability_interruptedApplyIsRepairedByTheNextApply(t *testing.T) {
	admin := acctest.Client(t)
	saved := kube.DefaultRetryPolicy
	kube.DefaultRetryPolicy.MaxAttempts = 1
	t.Cleanup(func() { kube.DefaultRetryPolicy = saved })
	proxy, kubeconfig := startFaultProxy(t, faultproxy.Config{
		Faults: []faultproxy.Fault{faultproxy.ResetAfterUpstream},
		Match:  func(r *http.Request) bool { return r.Method == http.MethodPatch },
	}, true)
	name := acctest.UniqueName("acc-cut")
	config := degradedConfig(acctest.ProviderBlock(kubeconfig), name)
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
						t.Fatalf("the cut-off apply should have reached the server: %v", err)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					// Not in the state, so Terraform creates it; the provider adopts the object.
					plancheck.ExpectResourceAction("gardener_cloud_profile.test", plancheck.ResourceActionCreate),
				}},
				Check: clusterHolds(admin, []string{name}, map[string]string{name: ""}),
			},
		},
	})
}
