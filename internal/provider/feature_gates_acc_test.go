package provider_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// lifecycleProfileConfig is a CloudProfile whose newest Kubernetes version has a lifecycle, after
// the given provider block.
func lifecycleProfileConfig(providerBlock, name string) string {
	return providerBlock + fmt.Sprintf(`
resource "gardener_cloud_profile" "test" {
  metadata = { name = %q }
  spec = {
    type = "local"
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [for image in ["gardenlinux", "ubuntu", "alpine", "suse", "rhel"] : { name = image, versions = [{ version = "1.0.0", image = "local/${image}" }] }] })
    kubernetes = {
      versions = {
        "1.33.1" = { lifecycle = [{ classification = "preview" }, { classification = "supported", start_time = "2026-01-01T00:00:00Z" }] }
        "1.32.4" = { classification = "supported" }
      }
    }
    machine_images = {
      "gardenlinux" = {
        versions = { "1877.3.0" = { classification = "supported", architectures = ["amd64"] } }
      }
    }
    machine_types = { "m5.large" = { cpu = "2", gpu = "0", memory = "8Gi" } }
    regions       = { "local" = {} }
  }
}
`, name)
}

// offlineProvider is a provider block of an unreachable Garden with the given extra settings: a
// create plan of a CloudProfile needs no cluster.
func offlineProvider(settings string) string {
	return "provider \"gardener\" {\n  host = \"https://127.0.0.1:1\"\n" + settings + "}\n"
}

// TestFeatureGates_D1LifecycleFollowsTheSetting is rule D-1 offline, through the CLI: without
// feature_gates (Gardener's defaults) and with the gate set off, a lifecycle fails at validate on
// the version's attribute, naming the gate and the setting; with the gate on it plans. A gate name
// Gardener does not spell that way fails on its key.
func TestFeatureGates_D1LifecycleFollowsTheSetting(t *testing.T) {
	rejected := regexp.MustCompile(`(?s)Lifecycles need a Gardener feature gate \(Kubernetes version 1\.33\.1\).*` +
		`spec\.kubernetes\.versions\["1\.33\.1"\]\.lifecycle.*VersionClassificationLifecycle feature gate.*D-1.*` +
		`feature_gates = \{ VersionClassificationLifecycle = true \}`)
	for name, c := range map[string]struct {
		settings string
		want     *regexp.Regexp
	}{
		"gardener defaults":  {"", rejected},
		"gate off":           {"  feature_gates = { VersionClassificationLifecycle = false }\n", rejected},
		"misspelt gate":      {"  feature_gates = { versionClassificationLifecycle = true }\n", regexp.MustCompile(`(?s)Unknown feature gate.*feature_gates\["versionClassificationLifecycle"\].*spelled "VersionClassificationLifecycle"`)},
		"gate of shoots":     {"  feature_gates = { InPlaceNodeUpdates = true }\n", regexp.MustCompile(`(?s)Unknown feature gate.*concerns Shoots only`)},
		"gate on (accepted)": {"  feature_gates = { VersionClassificationLifecycle = true }\n", nil},
	} {
		t.Run(name, func(t *testing.T) {
			resource.UnitTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps: []resource.TestStep{{
					Config:             lifecycleProfileConfig(offlineProvider(c.settings), "gates"),
					PlanOnly:           true,
					ExpectNonEmptyPlan: true,
					ExpectError:        c.want,
				}},
			})
		})
	}
}

// TestFeatureGates_D1FailsAtTerraformValidate: `terraform validate` itself (the provider is not
// configured then) rejects a lifecycle without the gate, naming the gate and the setting, and
// accepts it with the gate on.
func TestFeatureGates_D1FailsAtTerraformValidate(t *testing.T) {
	w := newCLIWorkspace(t, lifecycleProfileConfig(offlineProvider(""), "gates"))
	out := strings.Join(strings.Fields(w.mustRun(1, "validate")), " ")
	for _, want := range []string{"Error: Lifecycles need a Gardener feature gate (Kubernetes version 1.33.1)",
		"disabled VersionClassificationLifecycle feature gate (rule D-1)", "feature_gates = { VersionClassificationLifecycle = true }"} {
		if !strings.Contains(out, want) {
			t.Errorf("terraform validate does not say %q:\n%s", want, out)
		}
	}
	w.write(lifecycleProfileConfig(offlineProvider("  feature_gates = { VersionClassificationLifecycle = true }\n"), "gates"))
	w.mustRun(0, "validate")
}

// TestAccFeatureGates_LifecycleAppliesWithTheGate: against the local Garden with the gate on (its
// default), the provider configured with the gate on applies a lifecycle and plans no change after.
func TestAccFeatureGates_LifecycleAppliesWithTheGate(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	if !gardenGate(t, cloudprofile.GateVersionClassificationLifecycle) {
		t.Skipf("the local Garden runs with %s off (%s)", cloudprofile.GateVersionClassificationLifecycle, acctest.EnvFeatureGates)
	}
	name := acctest.UniqueName("gates-on")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: lifecycleProfileConfig(acctest.ProviderBlock(kubeconfig), name),
			ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue("gardener_cloud_profile.test",
				tfjsonpath.New("spec").AtMapKey("kubernetes").AtMapKey("versions").AtMapKey("1.33.1").AtMapKey("lifecycle").AtSliceIndex(1).AtMapKey("classification"),
				knownvalue.StringExact("supported"))},
		}},
	})
}

// TestAccFeatureGates_ServerAgreesWithoutTheGate runs against a local Garden started with the gate
// off (GARDEN_FEATURE_GATES=VersionClassificationLifecycle=false, `make testacc-gates-off`): the
// server rejects a lifecycle with the message of the offline rule D-1, and the provider with its
// defaults rejects it at validate, before any request.
func TestAccFeatureGates_ServerAgreesWithoutTheGate(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	if gardenGate(t, cloudprofile.GateVersionClassificationLifecycle) {
		t.Skipf("the local Garden runs with %s on; run `make testacc-gates-off`", cloudprofile.GateVersionClassificationLifecycle)
	}
	name := acctest.UniqueName("gates-off")
	cp := lifecycleCloudProfile(name)
	_, err := acctest.Client(t).CreateCloudProfile(acctest.Context(t), cp)
	at := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	offline := cloudprofile.ValidateCloudProfileRequest(cp, nil, cloudprofile.Options{Now: at, Gates: cloudprofile.GardenerDefaultFeatureGates()})
	if err == nil || len(offline) != 3 {
		t.Fatalf("server: %v; offline: %v; want both to reject the three lifecycles", err, offline)
	}
	for _, p := range offline {
		if p.Rule != "D-1" || !strings.Contains(err.Error(), p.Error()) {
			t.Errorf("offline %s %q is not in the server's answer: %v", p.Rule, p.Error(), err)
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config:      lifecycleProfileConfig(acctest.ProviderBlock(kubeconfig), name),
			ExpectError: regexp.MustCompile(`(?s)Lifecycles need a Gardener feature gate.*D-1`),
		}},
	})
}

// gardenGate tells whether the local Garden runs with the named gate on.
func gardenGate(t *testing.T, name string) bool {
	t.Helper()
	gates, err := acctest.GardenFeatureGates()
	if err != nil {
		t.Fatal(err)
	}
	return gates[name]
}

// TestAccFeatureGates_InheritedLifecyclesAreOneErrorPerProfile: the local Garden runs with the
// lifecycle gate on and holds a parent with three lifecycles; a provider block that does not say
// so (Gardener's defaults, gate off) plans two NamespacedCloudProfiles of that parent. Each gets one
// error on spec.parent for the three inherited lifecycles, not one per lifecycle, and the warning
// that the Garden accepted what the offline rules reject. Terraform 1.12 and later show the two
// identical errors once.
func TestAccFeatureGates_InheritedLifecyclesAreOneErrorPerProfile(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	if !gardenGate(t, cloudprofile.GateVersionClassificationLifecycle) {
		t.Skipf("the local Garden runs with %s off (%s)", cloudprofile.GateVersionClassificationLifecycle, acctest.EnvFeatureGates)
	}
	parent := acctest.UniqueName("gates-parent")
	createdWithAdmin(t, lifecycleCloudProfile(parent))
	w := newCLIWorkspace(t, fmt.Sprintf(`
provider "gardener" {
  config_path = %q
}

resource "gardener_namespaced_cloud_profile" "test" {
  for_each = toset(["a", "b"])
  metadata = { name = "%s-${each.key}", namespace = "garden-demo" }
  spec = {
    parent        = { kind = "CloudProfile", name = %q }
    machine_types = { "x1.metal" = { cpu = "96", gpu = "0", memory = "1Ti", usable = true } }
  }
}
`, kubeconfig, acctest.UniqueName("gates-ncp"), parent))
	out := w.mustRun(1, "plan")
	requireNoProviderBug(t, out)
	want := 2 // one per profile
	if w.h.foldsIdenticalDiagnostics() {
		want = 1 // the two profiles' errors are identical, and on the same line of main.tf
	}
	if n, gate := strings.Count(out, "Error: "), strings.Count(out, "Error: Lifecycles need a Gardener feature gate"); n != want || gate != want {
		t.Fatalf("want %d errors for the inherited lifecycles of two profiles, got %d errors (%d about the gate):\n%s", want, n, gate, out)
	}
	flat := strings.Join(strings.Fields(out), " ") // the CLI wraps long lines
	for _, want := range []string{"Gardener reports the same for 2 more", "inherited from the parent CloudProfile", "Warning: Offline rules and the Garden disagree"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the plan lacks %q:\n%s", want, out)
		}
	}
}
