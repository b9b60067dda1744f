package provider_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	k8sresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// TestAccReliability_hostileButValidInputApplies: values that are odd but valid apply exactly, and
// the plan after the apply is empty (terraform-plugin-testing checks it): 5,000 Kubernetes
// versions, a huge quantity, an expiration date with a +05:45 offset, control characters in
// provider_config, and a memory value unknown until apply.
func TestAccReliability_hostileButValidInputApplies(t *testing.T) {
	admin := acctest.Client(t)
	name := acctest.UniqueName("acc-hostile")
	versions := make([]string, 0, 5000)
	for minor := range 50 {
		for patch := range 100 {
			v := fmt.Sprintf(`{ version = "1.%d.%d" }`, minor, patch)
			if minor == 0 && patch == 0 {
				v = `{ version = "1.0.0", expiration_date = "2031-01-01T05:45:00+05:45" }`
			}
			versions = append(versions, v)
		}
	}
	providerConfig := map[string]any{"apiVersion": "local.provider.extensions.gardener.cloud/v1alpha1", "kind": "CloudProfileConfig", "note": "bell\a nul\x00 esc\x1b"}
	config := acctest.ProviderBlock(acctest.Kubeconfig(t)) + fmt.Sprintf(`
resource "terraform_data" "memory" {
  input = "8Gi"
}

resource "gardener_cloud_profile" "test" {
  metadata = { name = %q }
  spec = {
    type            = "local"
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", note = "bell\u0007 nul\u0000 esc\u001b" })
    kubernetes      = { versions = [
      %s
    ] }
    machine_images = [{ name = "gardenlinux", versions = [{ version = "1877.3.0" }] }]
    machine_types  = [
      { name = "m5.large", cpu = "2", gpu = "0", memory = terraform_data.memory.output },
      { name = "huge", cpu = "2", gpu = "0", memory = "9999999999999999999999999Ei" },
    ]
    regions = [{ name = "local" }]
  }
}
`, name, strings.Join(versions, ",\n      "))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		CheckDestroy:             cloudProfileGone(admin, name),
		Steps: []resource.TestStep{{
			Config: config,
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(cpAddr, "spec.kubernetes.versions.#", "5000"),
				resource.TestCheckResourceAttr(cpAddr, "spec.kubernetes.versions.0.expiration_date", "2031-01-01T05:45:00+05:45"),
				resource.TestCheckResourceAttr(cpAddr, "spec.machine_types.0.memory", "8Gi"),
				resource.TestCheckResourceAttr(cpAddr, "spec.machine_types.1.memory", "9999999999999999999999999Ei"),
				func(*terraform.State) error {
					cp := getCloudProfile(t, admin, name)
					if n := len(cp.Spec.Kubernetes.Versions); n != 5000 {
						return fmt.Errorf("cluster holds %d versions, want 5000", n)
					}
					want := time.Date(2031, 1, 1, 0, 0, 0, 0, time.UTC)
					if got := cp.Spec.Kubernetes.Versions[0].ExpirationDate; got == nil || !got.Time.Equal(want) {
						return fmt.Errorf("expiration date %v, want %v", got, want)
					}
					if got := cp.Spec.MachineTypes[1].Memory; got.Cmp(k8sresource.MustParse("9999999999999999999999999Ei")) != 0 {
						return fmt.Errorf("huge memory stored as %s", got.String())
					}
					var stored map[string]any
					if cp.Spec.ProviderConfig == nil || json.Unmarshal(cp.Spec.ProviderConfig.Raw, &stored) != nil || stored["note"] != providerConfig["note"] {
						return fmt.Errorf("provider_config with control characters not stored as written: %v", cp.Spec.ProviderConfig)
					}
					return nil
				},
			),
		}},
	})
}

// TestAccReliability_namespacedProfileWithoutItsParent: a NamespacedCloudProfile whose parent is
// itself (no CloudProfile of that name) or missing warns at plan and fails at apply with one error
// on spec.parent.name; nothing is created.
func TestAccReliability_namespacedProfileWithoutItsParent(t *testing.T) {
	admin := acctest.Client(t)
	for _, c := range []struct{ what, name, parent string }{
		{"parent is itself", acctest.UniqueName("acc-self"), ""},
		{"parent missing", acctest.UniqueName("acc-orphan"), acctest.UniqueName("acc-no-such-parent")},
	} {
		t.Run(c.what, func(t *testing.T) {
			parent := c.parent
			if parent == "" {
				parent = c.name
			}
			config := acctest.ProviderBlock(acctest.Kubeconfig(t)) + fmt.Sprintf(`
resource "gardener_namespaced_cloud_profile" "test" {
  metadata = { name = %q, namespace = %q }
  spec = {
    parent        = { kind = "CloudProfile", name = %q }
    machine_types = [{ name = "x1.metal", cpu = "96", gpu = "0", memory = "1Ti" }]
  }
}
`, c.name, projectNamespace, parent)
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps: []resource.TestStep{{
					Config:      config,
					ExpectError: regexp.MustCompile(fmt.Sprintf(`(?s)Error: Parent CloudProfile not found.*parent\s+CloudProfile\s+%q\s+does\s+not\s+exist.*Nothing\s+was\s+created.*fix\s+spec\.parent\.name`, parent)),
				}},
			})
			if _, err := admin.GetNamespacedCloudProfile(acctest.Context(t), projectNamespace, c.name); !kube.IsNotFound(err) {
				t.Fatalf("NamespacedCloudProfile %s must not exist (err=%v)", c.name, err)
			}
		})
	}
}
