package provider_test

import (
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/faultproxy"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// cutsOff matches the requests a create cut off by a lost connection (or a killed process) cannot
// complete: the create request, and the reads with which it would look for what it left.
func cutsOff(r *http.Request) bool { return r.Method == http.MethodPost || r.Method == http.MethodGet }

// TestAccReliability_interruptedCreateIsImportedAndThenUpdated cuts a create off after the server
// acted: with retries turned off, the connection of the create request is reset once the Garden
// has stored the object, and so are the reads with which the create looks for what it left, so
// Terraform records an error and no state, as when the process is killed mid-apply. The object exists in the cluster but not in the state. The next apply does not adopt
// it: it fails naming the provider's own field manager and the import; after the import the plan
// is empty, and an update applies without conflicting with the cut-off create's ownership entry.
func TestAccReliability_interruptedCreateIsImportedAndThenUpdated(t *testing.T) {
	admin := acctest.Client(t)
	saved := kube.DefaultRetryPolicy
	kube.DefaultRetryPolicy.MaxAttempts = 1
	t.Cleanup(func() { kube.DefaultRetryPolicy = saved })
	proxy, kubeconfig := startFaultProxy(t, faultproxy.Config{
		Faults: []faultproxy.Fault{faultproxy.ResetAfterUpstream},
		Match:  cutsOff,
	}, true)
	name := acctest.UniqueName("acc-cut")
	config := acctest.RequiredProviders() + ownedConfig(acctest.ProviderBlock(kubeconfig), name, "8Gi", "")
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
					resource.TestCheckResourceAttr(cpAddr, "spec.machine_types.m5.large.memory", "16Gi"),
				),
			},
		},
	})
}

// twoTypesConfig is a CloudProfile of the given machine types (names, each 2 CPUs and memory),
// with extra attributes of the resource.
func twoTypesConfig(providerBlock, name, memory, extra string, types ...string) string {
	var entries []string
	for _, t := range types {
		entries = append(entries, fmt.Sprintf(`%q = { cpu = "2", gpu = "0", memory = %q }`, t, memory))
	}
	return providerBlock + fmt.Sprintf(`
resource "gardener_cloud_profile" "test" {
  metadata = { name = %q }
  spec = {
    type           = "local"
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [for image in ["gardenlinux", "ubuntu", "alpine", "suse", "rhel"] : { name = image, versions = [{ version = "1.0.0", image = "local/${image}" }] }] })
    kubernetes     = { versions = { "1.31.2" = {} } }
    machine_images = { "gardenlinux" = { versions = { "1877.3.0" = {} } } }
    machine_types  = { %s }
    regions        = { "local" = {} }
  }
  %s
}
`, name, strings.Join(entries, ", "), extra)
}

// cutOffCreate makes an object as a create cut off between its create request and its ownership
// patch leaves it (the create request stored it, its answer was lost), through the provider.
func cutOffCreate(t *testing.T, name string, types ...string) resource.TestStep {
	saved := kube.DefaultRetryPolicy
	proxy, kubeconfig := startFaultProxy(t, faultproxy.Config{
		Faults: []faultproxy.Fault{faultproxy.ResetAfterUpstream},
		Match:  cutsOff,
	}, true)
	return resource.TestStep{
		PreConfig: func() {
			kube.DefaultRetryPolicy.MaxAttempts = 1
			t.Cleanup(func() { kube.DefaultRetryPolicy = saved })
			proxy.SetRate(1)
		},
		Config:      twoTypesConfig(acctest.RequiredProviders()+acctest.ProviderBlock(kubeconfig), name, "8Gi", "", types...),
		ExpectError: regexp.MustCompile(`(?s)Garden cluster unreachable.*Applying CloudProfile`),
	}
}

// ownedAsIfCreated checks, with a raw client, that the CloudProfile has exactly the machine types
// and that no field manager entry is a cut-off create's.
func ownedAsIfCreated(t *testing.T, name string, types ...string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		obj, err := rawCloudProfile(t, name)
		if err != nil {
			return err
		}
		for _, e := range obj.GetManagedFields() {
			if strings.Contains(e.Manager, "(creating)") {
				return fmt.Errorf("CloudProfile %s still has the entry of %q (%s)", name, e.Manager, e.Operation)
			}
		}
		entries, _, _ := unstructured.NestedSlice(obj.Object, "spec", "machineTypes")
		var got []string
		for _, e := range entries {
			got = append(got, e.(map[string]any)["name"].(string))
		}
		if !slices.Equal(got, types) {
			return fmt.Errorf("CloudProfile %s has machine types %v in the Garden, want %v", name, got, types)
		}
		return nil
	}
}

// rawCloudProfile reads a CloudProfile with client-go's dynamic client.
func rawCloudProfile(t *testing.T, name string) (*unstructured.Unstructured, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", acctest.Kubeconfig(t))
	if err != nil {
		return nil, err
	}
	dc, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	gvr := schema.GroupVersionResource{Group: "core.gardener.cloud", Version: "v1beta1", Resource: "cloudprofiles"}
	return dc.Resource(gvr).Get(acctest.Context(t), name, metav1.GetOptions{})
}

// TestAccReliability_importAfterCutOffCreateLeavesNoStaleOwner: after a create cut off between its
// create request and its ownership patch, the documented recovery (import) and the first apply
// leave no entry of the cut-off create, so that a machine type later removed from the
// configuration is removed from the Garden.
func TestAccReliability_importAfterCutOffCreateLeavesNoStaleOwner(t *testing.T) {
	admin := acctest.Client(t)
	name := acctest.UniqueName("acc-stale")
	block := acctest.RequiredProviders() + acctest.ProviderBlock(acctest.Kubeconfig(t))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		CheckDestroy:             cloudProfileGone(admin, name),
		Steps: []resource.TestStep{
			cutOffCreate(t, name, "a.large", "b.large"),
			{
				Config:             twoTypesConfig(block, name, "8Gi", "", "a.large", "b.large"),
				ResourceName:       cpAddr,
				ImportState:        true,
				ImportStateId:      name,
				ImportStatePersist: true,
			},
			{
				Config: twoTypesConfig(block, name, "16Gi", "", "a.large", "b.large"),
				Check:  ownedAsIfCreated(t, name, "a.large", "b.large"),
			},
			{
				Config: twoTypesConfig(block, name, "16Gi", "", "a.large"),
				Check:  ownedAsIfCreated(t, name, "a.large"),
			},
		},
	})
}

// TestAccReliability_adoptingACutOffCreateLeavesNoStaleOwner: adopt_existing, the other documented
// recovery of a cut-off create, leaves no entry of the cut-off create either, so that a machine
// type later removed from the configuration is removed from the Garden.
func TestAccReliability_adoptingACutOffCreateLeavesNoStaleOwner(t *testing.T) {
	admin := acctest.Client(t)
	name := acctest.UniqueName("acc-stale")
	block := acctest.RequiredProviders() + acctest.ProviderBlock(acctest.Kubeconfig(t))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		CheckDestroy:             cloudProfileGone(admin, name),
		Steps: []resource.TestStep{
			cutOffCreate(t, name, "a.large", "b.large"),
			{
				Config: twoTypesConfig(block, name, "8Gi", "adopt_existing = true", "a.large", "b.large"),
				Check:  ownedAsIfCreated(t, name, "a.large", "b.large"),
			},
			{
				Config: twoTypesConfig(block, name, "8Gi", "adopt_existing = true", "a.large"),
				Check:  ownedAsIfCreated(t, name, "a.large"),
			},
		},
	})
}
