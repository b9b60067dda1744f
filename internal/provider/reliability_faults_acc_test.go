package provider_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/faultproxy"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// TestAccReliability_appliesUnderTransientFaults runs a sequence of applies that create, update
// and delete CloudProfiles through a proxy that fails 30% of the requests (500, 503, 429 with
// Retry-After, connection resets before and after the server acted, answers held back past the
// attempt timeout). Every apply must succeed, the plan after it must be empty (state equals
// cluster), and the cluster must hold exactly the configured objects with the configured labels:
// no duplicate, no orphan, nothing missing. TF_ACC_RELIABILITY_APPLIES sets the number of applies.
func TestAccReliability_appliesUnderTransientFaults(t *testing.T) {
	applies := envInt("TF_ACC_RELIABILITY_APPLIES", 30)
	withAttemptTimeout(t, 2*time.Second)
	// A step fails if one of its requests fails on every attempt: at a 30% fault rate that is
	// 0.3^10 = 6e-6 per request with 10 attempts, so well under 1% for a run of ~300 requests
	// (with the default 8 attempts it would be about 2%).
	kube.DefaultRetryPolicy.MaxAttempts = 10
	proxy, kubeconfig := startFaultProxy(t, faultproxy.Config{Rate: 0.3, Seed: 20261121, Delay: 3 * time.Second}, true)
	admin := acctest.Client(t)
	prefix := acctest.UniqueName("acc-rel")
	universe := []string{prefix + "-a", prefix + "-b", prefix + "-c"}
	t.Cleanup(func() {
		for _, n := range universe {
			_ = admin.DeleteCloudProfile(context.Background(), n, "")
		}
	})

	rng := rand.New(rand.NewPCG(uint64(applies), 42))
	var steps []resource.TestStep
	for i := range applies {
		desired := map[string]string{}
		for _, n := range universe {
			// Each object is present in about two thirds of the steps, with a label that changes.
			if rng.IntN(3) > 0 || i == 0 {
				desired[n] = fmt.Sprintf("v%d", rng.IntN(3))
			}
		}
		steps = append(steps, resource.TestStep{
			Config: reliabilityConfig(kubeconfig, universe, desired),
			Check:  clusterHolds(admin, universe, desired),
		})
	}
	start := time.Now()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		CheckDestroy: func(*terraform.State) error {
			return clusterHolds(admin, universe, map[string]string{})(nil)
		},
		Steps: steps,
	})
	if proxy.Injected() == 0 {
		t.Fatal("the proxy injected no fault: the test proves nothing")
	}
	t.Logf("%d applies in %s; %d requests, faults %v", applies, time.Since(start).Round(time.Second), proxy.Requests(), proxy.Counts())
}

// reliabilityConfig renders one resource block per object of the universe, each with count 1
// when desired (and its label) or 0, so that objects come and go without renaming others.
func reliabilityConfig(kubeconfig string, universe []string, desired map[string]string) string {
	var b strings.Builder
	b.WriteString(acctest.ProviderBlock(kubeconfig))
	for i, n := range universe {
		label, present := desired[n]
		count := 0
		if present {
			count = 1
		}
		fmt.Fprintf(&b, `
resource "gardener_cloud_profile" "rel%d" {
  count = %d
  metadata = {
    name   = %q
    labels = { generation = %q }
  }
  spec = {
    type           = "local"
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [for image in ["gardenlinux", "ubuntu", "alpine", "suse", "rhel"] : { name = image, versions = [{ version = "1.0.0", image = "local/${image}" }] }] })
    kubernetes     = { versions = { "1.31.2" = {} } }
    machine_images = { "gardenlinux" = { versions = { "1877.3.0" = {} } } }
    machine_types  = { "m5.large" = { cpu = "2", gpu = "0", memory = "8Gi" } }
    regions        = { "local" = {} }
  }
}
`, i, count, n, label)
	}
	return b.String()
}

// clusterHolds checks, with the admin client (not through the proxy), that exactly the desired
// objects of the universe exist, each once with its label, and that the state has the same set.
func clusterHolds(admin *kube.Client, universe []string, desired map[string]string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		for _, n := range universe {
			cp, err := admin.GetCloudProfile(ctx, n)
			want, wanted := desired[n]
			switch {
			case kube.IsNotFound(err) && wanted:
				return fmt.Errorf("CloudProfile %s is configured but missing in the cluster", n)
			case kube.IsNotFound(err):
			case err != nil:
				return fmt.Errorf("reading CloudProfile %s: %v", n, err)
			case !wanted:
				return fmt.Errorf("CloudProfile %s is orphaned: not configured but still in the cluster (deletionTimestamp %v)", n, cp.DeletionTimestamp)
			case cp.Labels["generation"] != want:
				return fmt.Errorf("CloudProfile %s has label generation=%q, want %q", n, cp.Labels["generation"], want)
			}
		}
		if s == nil {
			return nil
		}
		inState := map[string]bool{}
		for _, r := range s.RootModule().Resources {
			if r.Type == "gardener_cloud_profile" {
				if inState[r.Primary.ID] {
					return fmt.Errorf("CloudProfile %s is in the state twice", r.Primary.ID)
				}
				inState[r.Primary.ID] = true
			}
		}
		if len(inState) != len(desired) {
			return fmt.Errorf("state holds %v, want %v", inState, desired)
		}
		for n := range desired {
			if !inState[n] {
				return fmt.Errorf("CloudProfile %s missing from the state", n)
			}
		}
		return nil
	}
}
