package provider_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/faultproxy"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// degradedConfig is the small profile of ownedConfig.
func degradedConfig(providerBlock, name string) string {
	return ownedConfig(providerBlock, name, "8Gi", "")
}

// apiUnavailable matches the one diagnostic that names the Gardener API and says what to check,
// and makes sure the transport's retry chatter is not what the user reads first.
var apiUnavailable = regexp.MustCompile(`(?s)Error: Gardener API not available.*core\.gardener\.cloud/v1beta1.*apiservice\s+v1beta1\.core\.gardener\.cloud`)

// TestAccReliability_degradedGardenerAPI plays a Garden whose kube-apiserver answers but whose
// Gardener API does not: first the aggregated gardener-apiserver is down (503 for
// /apis/core.gardener.cloud), then the group is not registered (404). Create and refresh fail with
// one diagnostic naming the Gardener API, nothing is written, and once the API is back the same
// configuration applies and destroys normally.
func TestAccReliability_degradedGardenerAPI(t *testing.T) {
	admin := acctest.Client(t)
	// A 503 is retried (gardener-apiserver may be restarting); three attempts keep the test short.
	saved := kube.DefaultRetryPolicy
	kube.DefaultRetryPolicy.MaxAttempts = 3
	t.Cleanup(func() { kube.DefaultRetryPolicy = saved })
	proxy, kubeconfig := startFaultProxy(t, faultproxy.Config{}, true)
	name := acctest.UniqueName("acc-degraded")
	config := degradedConfig(acctest.ProviderBlock(kubeconfig), name)
	nothingWritten := func() {
		if _, err := admin.GetCloudProfile(acctest.Context(t), name); err == nil {
			t.Errorf("CloudProfile %s was written although the Gardener API was unavailable", name)
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		CheckDestroy:             cloudProfileGone(admin, name),
		Steps: []resource.TestStep{
			{
				PreConfig:   func() { proxy.SetOverride(faultproxy.GardenerAPIUnavailable) },
				Config:      config,
				ExpectError: apiUnavailable,
			},
			{
				PreConfig:   func() { nothingWritten(); proxy.SetOverride(faultproxy.GardenerAPINotRegistered) },
				Config:      config,
				ExpectError: apiUnavailable,
			},
			{
				PreConfig: func() { nothingWritten(); proxy.SetOverride(nil) },
				Config:    config,
			},
			{
				// Refresh of the existing object while gardener-apiserver is down.
				PreConfig:   func() { proxy.SetOverride(faultproxy.GardenerAPIUnavailable) },
				Config:      config,
				ExpectError: apiUnavailable,
			},
			{
				PreConfig: func() { proxy.SetOverride(nil) },
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
			},
		},
	})
}

// TestAccReliability_validateAndPlanWorkOffline points the provider at a closed port: validation
// still puts Gardener's rules on the attributes, and a plan of new objects succeeds, because the
// provider builds its client lazily and only talks to the cluster for existing objects.
func TestAccReliability_validateAndPlanWorkOffline(t *testing.T) {
	offline := fmt.Sprintf("provider %q {\n  host = \"https://127.0.0.1:1\"\n  token = \"offline\"\n}\n", "gardener")
	name := acctest.UniqueName("acc-offline")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:      degradedConfig(offline, name+"-BAD"),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)The name is missing or not a DNS-1123 subdomain.*metadata\.name: Invalid value.*RFC\s+1123`),
			},
			{
				Config:             degradedConfig(offline, name),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
		},
	})
}
