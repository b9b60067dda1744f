package provider_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

const cpAddr = "gardener_cloud_profile.test"

// cloudProfileConfig renders a CloudProfile resource; extraVersions and extraImageVersions are HCL
// objects appended to the Kubernetes versions and to the gardenlinux image's versions.
func cloudProfileConfig(kubeconfig, name, labels, extraVersions, extraImageVersions string) string {
	return acctest.ProviderBlock(kubeconfig) + fmt.Sprintf(`
resource "gardener_cloud_profile" "test" {
  metadata = {
    name   = %q
    labels = { %s }
  }
  spec = {
    type = "local"
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [for image in ["gardenlinux", "ubuntu", "alpine", "suse", "rhel"] : { name = image, versions = [{ version = "1.0.0", image = "local/${image}" }] }] })
    kubernetes = {
      versions = {
        "1.31.2" = { classification = "supported" }
        %s
      }
    }
    machine_images = {
      "gardenlinux" = {
        versions = {
          "1877.3.0" = { classification = "supported", architectures = ["amd64", "arm64"] }
          %s
        }
      }
    }
    machine_types = { "m5.large" = { cpu = "2", gpu = "0", memory = "8Gi" } }
    regions       = { "local" = { zones = { "local-a" = {} } } }
  }
}
`, name, labels, extraVersions, extraImageVersions)
}

func getCloudProfile(t *testing.T, client *kube.Client, name string) *gardencorev1beta1.CloudProfile {
	t.Helper()
	cp, err := client.GetCloudProfile(acctest.Context(t), name)
	if err != nil {
		t.Fatalf("reading CloudProfile %s: %v", name, err)
	}
	return cp
}

func cloudProfileGone(client *kube.Client, name string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		_, err := client.GetCloudProfile(context.Background(), name)
		if kube.IsNotFound(err) {
			return nil
		}
		return fmt.Errorf("CloudProfile %s still exists after destroy (err=%v)", name, err)
	}
}

// TestAccCloudProfile_createUpdateImport covers the life of a CloudProfile: create with server
// defaults not showing as changes, an update of several field groups, and import by name with an
// empty plan afterwards (terraform-plugin-testing plans after every step and fails on changes).
func TestAccCloudProfile_createUpdateImport(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	client := acctest.Client(t)
	name := acctest.UniqueName("acc-cp")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		CheckDestroy:             cloudProfileGone(client, name),
		Steps: []resource.TestStep{
			{
				Config: cloudProfileConfig(kubeconfig, name, `team = "a"`, "", ""),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(cpAddr, tfjsonpath.New("id"), knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue(cpAddr, tfjsonpath.New("metadata").AtMapKey("uid"), knownvalue.NotNull()),
					// Gardener adds provider.extensions.gardener.cloud/local; it is not the provider's.
					statecheck.ExpectKnownValue(cpAddr, tfjsonpath.New("metadata").AtMapKey("labels"), knownvalue.MapExact(map[string]knownvalue.Check{"team": knownvalue.StringExact("a")})),
					// Server defaults are recorded, so they never show as a change.
					statecheck.ExpectKnownValue(cpAddr, tfjsonpath.New("spec").AtMapKey("machine_images").AtMapKey("gardenlinux").AtMapKey("update_strategy"), knownvalue.StringExact("major")),
					statecheck.ExpectKnownValue(cpAddr, tfjsonpath.New("spec").AtMapKey("machine_types").AtMapKey("m5.large").AtMapKey("architecture"), knownvalue.StringExact("amd64")),
				},
			},
			{
				Config: cloudProfileConfig(kubeconfig, name, `team = "b", tier = "gold"`,
					`"1.30.5" = { classification = "deprecated", expiration_date = "2099-01-01T00:00:00Z" }`,
					`"1592.9.0" = { lifecycle = [{ classification = "preview" }, { classification = "supported", start_time = "2099-01-01T00:00:00Z" }] }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(cpAddr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(cpAddr, tfjsonpath.New("spec").AtMapKey("kubernetes").AtMapKey("versions").AtMapKey("1.30.5").AtMapKey("expiration_date"), knownvalue.StringExact("2099-01-01T00:00:00Z")),
					statecheck.ExpectKnownValue(cpAddr, tfjsonpath.New("metadata").AtMapKey("labels").AtMapKey("tier"), knownvalue.StringExact("gold")),
				},
				Check: func(*terraform.State) error {
					cp := getCloudProfile(t, client, name)
					if len(cp.Spec.Kubernetes.Versions) != 2 || len(cp.Spec.MachineImages[0].Versions) != 2 {
						return fmt.Errorf("the cluster does not have the update: %+v", cp.Spec)
					}
					return nil
				},
			},
			{
				// Every other field group changes in place too.
				Config: allFieldGroupsConfig(kubeconfig, name),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(cpAddr, plancheck.ResourceActionUpdate),
				}},
				Check: func(*terraform.State) error {
					cp := getCloudProfile(t, client, name)
					switch {
					case len(cp.Spec.VolumeTypes) != 1 || len(cp.Spec.Regions[0].Zones) != 2 || cp.Spec.Limits == nil ||
						cp.Spec.SeedSelector == nil || cp.Spec.Bastion == nil || cp.Spec.ProviderConfig == nil:
						return fmt.Errorf("the cluster does not have the update: %+v", cp.Spec)
					case cp.Spec.MachineTypes[0].Memory.String() != "16Gi" || len(cp.Spec.MachineTypes) != 2:
						return fmt.Errorf("machine types not updated: %+v", cp.Spec.MachineTypes)
					}
					return nil
				},
			},
			{
				ResourceName:                         cpAddr,
				ImportState:                          true,
				ImportStateId:                        name,
				ImportStateVerify:                    true,
				ImportStateVerifyIdentifierAttribute: "id",
				ImportStateVerifyIgnore:              []string{"status", "metadata.resource_version", "timeouts"},
			},
		},
	})
}

// TestAccCloudProfile_invalidConfigFailsAtPlanAndWritesNothing puts a Gardener rule violation on
// its attribute at plan time; the object is never created.
func TestAccCloudProfile_invalidConfigFailsAtPlanAndWritesNothing(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	client := acctest.Client(t)
	name := acctest.UniqueName("acc-invalid")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: cloudProfileConfig(kubeconfig, name, "", `"1.31.3" = { classification = "supported" }`,
				`"1592.9.0" = { kubelet_version_constraint = "==1.30.0" }`),
			PlanOnly: true,
			// C-8: two supported versions in minor 1.31; F-5: "==" is no Masterminds operator.
			ExpectError: regexp.MustCompile(`(?s)spec\.kubernetes\.versions\[\d\].*(spec\.machineImages\[0\]\.versions\[1\]\.kubeletVersionConstraint|kubelet_version_constraint)`),
		}},
	})
	if _, err := client.GetCloudProfile(acctest.Context(t), name); !kube.IsNotFound(err) {
		t.Fatalf("an invalid profile must not be written, got err=%v", err)
	}
}

// TestAccCloudProfile_driftIsShownAndDeletedObjectIsRecreated edits a managed field out of band
// (plan shows the change) and deletes the object out of band (plan recreates it).
func TestAccCloudProfile_driftIsShownAndDeletedObjectIsRecreated(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	client := acctest.Client(t)
	name := acctest.UniqueName("acc-drift")
	config := cloudProfileConfig(kubeconfig, name, "", "", "")
	// The out-of-band edit owns the field now: the plan shows it set back, and the apply takes it
	// back (no force_conflicts needed; see TestAccHonestPlans_driftIsSetBackInOneApply).
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		CheckDestroy:             cloudProfileGone(client, name),
		Steps: []resource.TestStep{
			{Config: config},
			{
				PreConfig: func() {
					cp := getCloudProfile(t, client, name)
					cp.ManagedFields = nil
					cp.Spec.Kubernetes.Versions[0].Classification = ptr.To(gardencorev1beta1.ClassificationDeprecated)
					other := acctest.ClientAs(t, "kubectl-edit")
					if _, err := other.ApplyCloudProfile(acctest.Context(t), cp, kube.ApplyOptions{Force: true}); err != nil {
						t.Fatalf("out-of-band edit: %v", err)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(cpAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(cpAddr, tfjsonpath.New("spec").AtMapKey("kubernetes").AtMapKey("versions").AtMapKey("1.31.2").AtMapKey("classification"), knownvalue.StringExact("supported")),
				}},
			},
			{
				PreConfig: func() {
					if err := client.DeleteCloudProfile(acctest.Context(t), name, ""); err != nil {
						t.Fatalf("out-of-band delete: %v", err)
					}
					err := kube.WaitUntilGone(acctest.Context(t), func(ctx context.Context) error { _, err := client.GetCloudProfile(ctx, name); return err })
					if err != nil {
						t.Fatalf("waiting for the out-of-band delete: %v", err)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(cpAddr, plancheck.ResourceActionCreate),
				}},
			},
		},
	})
}

// TestAccCloudProfile_expiredVersionsOnCreateApplyConsistently configures versions that are
// already expired: Gardener drops them on create, the plan warns, and apply and the following
// plan are consistent.
func TestAccCloudProfile_expiredVersionsOnCreateApplyConsistently(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	client := acctest.Client(t)
	name := acctest.UniqueName("acc-expired")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		CheckDestroy:             cloudProfileGone(client, name),
		Steps: []resource.TestStep{{
			Config: cloudProfileConfig(kubeconfig, name, "",
				`"1.30.1" = { classification = "deprecated", expiration_date = "2020-01-01T00:00:00Z" }`,
				`"1.0.0" = { expiration_date = "2020-01-01T00:00:00Z" }`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(cpAddr, tfjsonpath.New("spec").AtMapKey("kubernetes").AtMapKey("versions"), knownvalue.MapSizeExact(2)),
			},
			Check: func(*terraform.State) error {
				cp := getCloudProfile(t, client, name)
				if len(cp.Spec.Kubernetes.Versions) != 1 || len(cp.Spec.MachineImages[0].Versions) != 1 {
					return fmt.Errorf("Gardener should have dropped the expired versions: %+v", cp.Spec)
				}
				return nil
			},
		}},
	})
}

// TestAccCloudProfile_coOwnedVersionIsKeptAndConflictsAreReported: another field manager owns a
// machine image version. Our applies keep it and never show it as a change; changing a field the
// other manager owns fails with a conflict naming it, until force_conflicts takes the field over.
func TestAccCloudProfile_coOwnedVersionIsKeptAndConflictsAreReported(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	client := acctest.Client(t)
	name := acctest.UniqueName("acc-coown")
	imageSync := acctest.ClientAs(t, "image-sync-controller")
	applyOtherVersion := func(classification gardencorev1beta1.VersionClassification) func() {
		return func() {
			patch := &gardencorev1beta1.CloudProfile{
				ObjectMeta: metav1.ObjectMeta{Name: name},
				Spec: gardencorev1beta1.CloudProfileSpec{
					Type: "local",
					MachineImages: []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: []gardencorev1beta1.MachineImageVersion{{
						ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1900.0.0", Classification: ptr.To(classification)},
						Architectures:    []string{"amd64"},
					}}}},
				},
			}
			if _, err := imageSync.ApplyCloudProfile(acctest.Context(t), patch, kube.ApplyOptions{Force: true}); err != nil {
				t.Fatalf("co-owner apply: %v", err)
			}
		}
	}
	base := func(extra, force string) string {
		c := cloudProfileConfig(kubeconfig, name, "", "", extra)
		return strings.Replace(c, "spec = {", "force_conflicts = "+force+"\n  spec = {", 1)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		CheckDestroy:             cloudProfileGone(client, name),
		Steps: []resource.TestStep{
			{Config: base("", "false")},
			{
				PreConfig: applyOtherVersion(gardencorev1beta1.ClassificationPreview),
				Config:    base("", "false"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
			},
			{
				Config:      base(`"1900.0.0" = { classification = "supported", architectures = ["amd64"] }`, "false"),
				ExpectError: regexp.MustCompile(`(?s)image-sync-controller.*classification`),
			},
			{
				Config: base(`"1900.0.0" = { classification = "supported", architectures = ["amd64"] }`, "true"),
				Check: func(*terraform.State) error {
					cp := getCloudProfile(t, client, name)
					for _, v := range cp.Spec.MachineImages[0].Versions {
						if v.Version == "1900.0.0" && (v.Classification == nil || *v.Classification != "supported") {
							return fmt.Errorf("force_conflicts did not take the field over: %+v", v)
						}
					}
					return nil
				},
			},
		},
	})
}

// allFieldGroupsConfig changes every field group of the spec that cloudProfileConfig leaves out or
// sets differently: machine types, volume types, regions and zones, limits, seed selector,
// bastion and provider_config.
func allFieldGroupsConfig(kubeconfig, name string) string {
	return acctest.ProviderBlock(kubeconfig) + fmt.Sprintf(`
resource "gardener_cloud_profile" "test" {
  metadata = { name = %q }
  spec = {
    type = "local"
    kubernetes = { versions = { "1.31.2" = { classification = "supported" } } }
    machine_images = {
      "gardenlinux" = {
        versions = { "1877.3.0" = { classification = "supported", architectures = ["amd64", "arm64"] } }
      }
    }
    machine_types = {
      "m5.large" = { cpu = "2", gpu = "0", memory = "16Gi" }
      "m6g.large" = { cpu = "2", gpu = "0", memory = "8Gi", architecture = "arm64", storage = { class = "standard", type = "gp3", size = "50Gi" } }
    }
    volume_types = { "standard" = { class = "standard", min_size = "20Gi" } }
    regions = {
      "local" = {
        labels = { "topology.example.com/tier" = "one" }
        zones  = { "local-a" = {}, "local-b" = { unavailable_machine_types = ["m6g.large"] } }
      }
    }
    limits        = { max_nodes_total = 100 }
    seed_selector = { match_labels = { "seed.gardener.cloud/region" = "local" }, provider_types = ["local"] }
    bastion       = { machine_type = { name = "m5.large" } }
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [{ name = "gardenlinux", versions = [{ version = "1877.3.0", image = "local/gardenlinux:1877.3.0" }] }] })
  }
}
`, name)
}
