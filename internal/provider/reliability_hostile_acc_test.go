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
			v := fmt.Sprintf(`"1.%d.%d" = {}`, minor, patch)
			if minor == 0 && patch == 0 {
				v = `"1.0.0" = { expiration_date = "2031-01-01T05:45:00+05:45" }`
			}
			versions = append(versions, v)
		}
	}
	const hostileImage = "bell\a nul\x00 esc\x1b" // in provider_config, the image of gardenlinux 1877.3.0
	config := acctest.ProviderBlock(acctest.Kubeconfig(t)) + fmt.Sprintf(`
resource "terraform_data" "memory" {
  input = "8Gi"
}

resource "gardener_cloud_profile" "test" {
  metadata = { name = %q }
  spec = {
    type            = "local"
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [{ name = "gardenlinux", versions = [{ version = "1877.3.0", image = "bell\u0007 nul\u0000 esc\u001b" }] }] })
    kubernetes      = { versions = {
      %s
    } }
    machine_images = { "gardenlinux" = { versions = { "1877.3.0" = {} } } }
    machine_types  = {
      "m5.large" = { cpu = "2", gpu = "0", memory = terraform_data.memory.output }
      "huge" = { cpu = "2", gpu = "0", memory = "9999999999999999999999999Ei" }
    }
    regions = { "local" = {} }
  }
}
`, name, strings.Join(versions, "\n      "))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		CheckDestroy:             cloudProfileGone(admin, name),
		Steps: []resource.TestStep{{
			Config: config,
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(cpAddr, "spec.kubernetes.versions.%", "5000"),
				resource.TestCheckResourceAttr(cpAddr, "spec.kubernetes.versions.1.0.0.expiration_date", "2031-01-01T05:45:00+05:45"),
				resource.TestCheckResourceAttr(cpAddr, "spec.machine_types.m5.large.memory", "8Gi"),
				resource.TestCheckResourceAttr(cpAddr, "spec.machine_types.huge.memory", "9999999999999999999999999Ei"),
				func(*terraform.State) error {
					cp := getCloudProfile(t, admin, name)
					if n := len(cp.Spec.Kubernetes.Versions); n != 5000 {
						return fmt.Errorf("cluster holds %d versions, want 5000", n)
					}
					want := time.Date(2031, 1, 1, 0, 0, 0, 0, time.UTC)
					oldest := cp.Spec.Kubernetes.Versions[len(cp.Spec.Kubernetes.Versions)-1] // written newest first
					if got := oldest.ExpirationDate; oldest.Version != "1.0.0" || got == nil || !got.Time.Equal(want) {
						return fmt.Errorf("expiration date %v, want %v", got, want)
					}
					if got := cp.Spec.MachineTypes[0].Memory; cp.Spec.MachineTypes[0].Name != "huge" || got.Cmp(k8sresource.MustParse("9999999999999999999999999Ei")) != 0 {
						return fmt.Errorf("huge memory stored as %s", got.String())
					}
					var stored struct {
						MachineImages []struct {
							Versions []struct{ Image string }
						}
					}
					if cp.Spec.ProviderConfig == nil || json.Unmarshal(cp.Spec.ProviderConfig.Raw, &stored) != nil || len(stored.MachineImages) != 1 ||
						len(stored.MachineImages[0].Versions) != 1 || stored.MachineImages[0].Versions[0].Image != hostileImage {
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
    machine_types = { "x1.metal" = { cpu = "96", gpu = "0", memory = "1Ti" } }
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

// floodProfile is a CloudProfile with n Kubernetes versions that are not MAJOR.MINOR.PATCH and a
// machine type whose name carries terminal control characters (ESC, BEL, NUL; HCL escapes).
func floodProfile(kubeconfig string, n int) string {
	var versions strings.Builder
	for i := range n {
		fmt.Fprintf(&versions, "      \"1.%d\" = {}\n", i)
	}
	return acctest.ProviderBlock(kubeconfig) + fmt.Sprintf(`
resource "gardener_cloud_profile" "flood" {
  metadata = { name = "flood" }
  spec = {
    type = "local"
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [for image in ["gardenlinux", "ubuntu", "alpine", "suse", "rhel"] : { name = image, versions = [{ version = "1.0.0", image = "local/${image}" }] }] })
    kubernetes = { versions = {
%s    } }
    machine_images = { "gardenlinux" = { versions = { "1877.3.0" = {} } } }
    machine_types  = { "m5\u001b[31mRED\u0007\u0000" = { cpu = "2", gpu = "0", memory = "8Gi" } }
    regions        = { "local" = {} }
  }
}
`, versions.String())
}

// TestAccReliability_floodsAndTerminalsStayBounded: `terraform validate` of a profile with 10,000
// bad Kubernetes versions and a machine type name with ESC, BEL and NUL prints at most a few
// hundred lines, and no raw control character (the config's characters are escaped).
func TestAccReliability_floodsAndTerminalsStayBounded(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	w := newCLIWorkspace(t, floodProfile(kubeconfig, 10_000))
	out := w.mustRun(1, "validate")
	t.Logf("validate printed %d lines (%d bytes); the last ones:\n%s", strings.Count(out, "\n"), len(out), out[max(0, len(out)-1500):])
	if lines := strings.Count(out, "\n"); lines > 400 || len(out) > 64<<10 {
		t.Errorf("validate printed %d lines (%d bytes) for 10,000 bad versions, want at most 400 lines and 64 KiB", lines, len(out))
	}
	if !strings.Contains(out, "more problems") {
		t.Errorf("validate does not count the problems it leaves out:\n%.3000s", out)
	}
	requireNoRawControlCharacters(t, out)

	w.write(floodProfile(kubeconfig, 1))
	out = w.mustRun(1, "validate")
	if !strings.Contains(out, `m5\x1b[31mRED\a\x00`) {
		t.Errorf("validate does not show the machine type's name with its control characters escaped:\n%s", out)
	}
	requireNoRawControlCharacters(t, out)
}

// requireNoRawControlCharacters fails when the output holds a control character other than a
// newline or a tab.
func requireNoRawControlCharacters(t *testing.T, out string) {
	t.Helper()
	for _, r := range out {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f {
			t.Fatalf("the output holds the raw control character %q:\n%.3000s", r, out)
		}
	}
}
