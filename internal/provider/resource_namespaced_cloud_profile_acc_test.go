package provider_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

const (
	ncpAddr          = "gardener_namespaced_cloud_profile.test"
	projectNamespace = "garden-demo"
)

// parentAndNamespacedConfig renders a parent CloudProfile and a NamespacedCloudProfile whose spec
// body is ncpSpec (HCL attributes after parent).
func parentAndNamespacedConfig(kubeconfig, parent, name, ncpSpec string) string {
	return cloudProfileConfig(kubeconfig, parent, "", `"1.30.5" = { classification = "deprecated", expiration_date = "2099-01-01T00:00:00Z" }`, "") + fmt.Sprintf(`
resource "gardener_namespaced_cloud_profile" "test" {
  metadata = {
    name      = %q
    namespace = %q
  }
  spec = {
    parent = { kind = "CloudProfile", name = gardener_cloud_profile.test.metadata.name }
    %s
  }
}
`, name, projectNamespace, ncpSpec)
}

func namespacedGone(client *kube.Client, name string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		_, err := client.GetNamespacedCloudProfile(context.Background(), projectNamespace, name)
		if kube.IsNotFound(err) {
			return nil
		}
		return fmt.Errorf("NamespacedCloudProfile %s still exists after destroy (err=%v)", name, err)
	}
}

// TestAccNamespacedCloudProfile_createRefreshImport creates a parent and a NamespacedCloudProfile
// that extends an expiration and adds a machine type; after a refresh the state shows the merged
// profile Gardener's controller rendered; import by namespace/name plans empty.
func TestAccNamespacedCloudProfile_createRefreshImport(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	client := acctest.Client(t)
	parent, name := acctest.UniqueName("acc-parent"), acctest.UniqueName("acc-ncp")
	config := parentAndNamespacedConfig(kubeconfig, parent, name, `
    kubernetes    = { versions = { "1.30.5" = { expiration_date = "2099-06-01T00:00:00Z" } } }
    machine_types = { "x1.metal" = { cpu = "96", gpu = "0", memory = "1Ti" } }
    limits        = { max_nodes_total = 50 }`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		CheckDestroy:             resource.ComposeTestCheckFunc(namespacedGone(client, name), cloudProfileGone(client, parent)),
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ncpAddr, tfjsonpath.New("id"), knownvalue.StringExact(projectNamespace+"/"+name)),
					statecheck.ExpectKnownValue(ncpAddr, tfjsonpath.New("metadata").AtMapKey("generation"), knownvalue.Int64Exact(1)),
				},
				Check: func(*terraform.State) error { return waitForRenderedStatus(t, client, name) },
			},
			{
				// The controller wrote its status meanwhile: no change, as the state keeps no status
				// (with the merged profile) unless asked to.
				Config:           config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ncpAddr, tfjsonpath.New("keep_merged_status"), knownvalue.Bool(false)),
					statecheck.ExpectKnownValue(ncpAddr, tfjsonpath.New("status"), knownvalue.Null()),
				},
			},
			{
				// keep_merged_status = true keeps the status with the merged profile Gardener rendered.
				Config: keepMergedStatus(config),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ncpAddr, tfjsonpath.New("status").AtMapKey("observed_generation"), knownvalue.Int64Exact(1)),
					statecheck.ExpectKnownValue(ncpAddr, tfjsonpath.New("status").AtMapKey("cloud_profile_spec").AtMapKey("machine_types"), knownvalue.MapPartial(map[string]knownvalue.Check{
						"x1.metal": knownvalue.ObjectPartial(map[string]knownvalue.Check{"cpu": knownvalue.StringExact("96")}),
					})),
					statecheck.ExpectKnownValue(ncpAddr, tfjsonpath.New("status").AtMapKey("cloud_profile_spec").AtMapKey("limits").AtMapKey("max_nodes_total"), knownvalue.Int32Exact(50)),
				},
			},
			{
				ResourceName:                         ncpAddr,
				ImportState:                          true,
				ImportStateId:                        projectNamespace + "/" + name,
				ImportStateVerify:                    true,
				ImportStateVerifyIdentifierAttribute: "id",
				ImportStateVerifyIgnore:              []string{"status", "metadata.resource_version", "timeouts", "keep_merged_status"},
			},
		},
	})
}

// keepMergedStatus sets keep_merged_status = true on the namespaced profile of a configuration
// made by parentAndNamespacedConfig.
func keepMergedStatus(config string) string {
	return strings.Replace(config, "resource \"gardener_namespaced_cloud_profile\" \"test\" {\n", "resource \"gardener_namespaced_cloud_profile\" \"test\" {\n  keep_merged_status = true\n", 1)
}

// waitForRenderedStatus waits until Gardener's controller has rendered the merged profile.
func waitForRenderedStatus(t *testing.T, client *kube.Client, name string) error {
	return kube.WaitUntilGone(acctest.Context(t), func(ctx context.Context) error {
		ncp, err := client.GetNamespacedCloudProfile(ctx, projectNamespace, name)
		if err != nil {
			return err
		}
		if ncp.Status.ObservedGeneration == ncp.Generation && len(ncp.Status.CloudProfileSpec.MachineTypes) > 0 {
			return &kube.Error{Kind: kube.KindNotFound, Object: "rendered status", Err: fmt.Errorf("rendered")}
		}
		return fmt.Errorf("status not rendered yet")
	})
}

// TestAccNamespacedCloudProfile_parentRulesFailAtPlan checks Gardener's admission rules against
// the parent at plan time, on the attribute that caused them, with nothing written.
func TestAccNamespacedCloudProfile_parentRulesFailAtPlan(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	client := acctest.Client(t)
	parent := acctest.UniqueName("acc-rules-parent")
	name := acctest.UniqueName("acc-rules")
	base := cloudProfileConfig(kubeconfig, parent, "", "", "")
	cases := []struct {
		rule, spec string
		want       *regexp.Regexp
	}{
		{"L-1 version missing in parent", `kubernetes = { versions = { "1.29.9" = { expiration_date = "2099-06-01T00:00:00Z" } } }`,
			regexp.MustCompile(`(?s)1\.29\.9.*does\s+not\s+exist\s+in\s+parent`)},
		{"L-6 classification on an extended parent version", `machine_images = { "gardenlinux" = { versions = { "1877.3.0" = { classification = "preview", expiration_date = "2099-06-01T00:00:00Z" } } } }`,
			regexp.MustCompile(`(?s)must\s+not\s+provide\s+a\s+classification`)},
		{"M-2/F-7 new version without cri fails in the merged profile", `machine_images = { "gardenlinux" = { versions = { "1900.0.0" = {} } } }`,
			regexp.MustCompile(`(?s)status\.cloudProfileSpec\.machineImages\[0\]\.versions\[1\]\.cri`)},
	}
	steps := []resource.TestStep{{Config: base}}
	for _, c := range cases {
		steps = append(steps, resource.TestStep{
			Config: base + fmt.Sprintf(`
resource "gardener_namespaced_cloud_profile" "test" {
  metadata = { name = %q, namespace = %q }
  spec = {
    parent = { kind = "CloudProfile", name = gardener_cloud_profile.test.metadata.name }
    %s
  }
}`, name, projectNamespace, c.spec),
			ExpectError: c.want,
		})
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		CheckDestroy:             cloudProfileGone(client, parent),
		Steps:                    steps,
	})
	if _, err := client.GetNamespacedCloudProfile(acctest.Context(t), projectNamespace, name); !kube.IsNotFound(err) {
		t.Fatalf("a rejected NamespacedCloudProfile must not be written, got err=%v", err)
	}
}

// TestAccCloudProfile_deleteBlockedByNamespacedProfile: Gardener keeps a CloudProfile while a
// NamespacedCloudProfile references it (rule R-1). Destroy finds the reference before it deletes
// anything and fails at once naming it (the delete timeout is long: the destroy does not wait for
// it); once the reference is gone, destroy succeeds.
func TestAccCloudProfile_deleteBlockedByNamespacedProfile(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	client := acctest.Client(t)
	parent := acctest.UniqueName("acc-blocked")
	child := acctest.UniqueName("acc-child")
	withLongDelete := cloudProfileConfig(kubeconfig, parent, "", "", "")
	withLongDelete = withLongDelete[:len(withLongDelete)-2] + "  timeouts = { delete = \"30m\" }\n}\n"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		CheckDestroy:             cloudProfileGone(client, parent),
		Steps: []resource.TestStep{
			{
				Config: withLongDelete,
				Check: func(*terraform.State) error {
					ncp := &gardencorev1beta1.NamespacedCloudProfile{
						ObjectMeta: metav1.ObjectMeta{Name: child, Namespace: projectNamespace},
						Spec:       gardencorev1beta1.NamespacedCloudProfileSpec{Parent: gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: parent}},
					}
					_, err := client.ApplyNamespacedCloudProfile(acctest.Context(t), ncp, kube.ApplyOptions{})
					return err
				},
			},
			{
				Config: acctest.ProviderBlock(kubeconfig),
				ExpectError: regexp.MustCompile(`(?s)CloudProfile\s+"` + parent + `"\s+is\s+still\s+in\s+use.*rule\s+R-1.*NamespacedCloudProfile\s+` +
					projectNamespace + "/" + child + `.*Nothing\s+was\s+deleted`),
			},
			{
				PreConfig: func() {
					cp, err := client.GetCloudProfile(acctest.Context(t), parent)
					if err != nil || cp.DeletionTimestamp != nil {
						t.Fatalf("the refused destroy must leave the CloudProfile as it was (err=%v, deletionTimestamp=%v)", err, cp.DeletionTimestamp)
					}
					if err := client.DeleteNamespacedCloudProfile(acctest.Context(t), projectNamespace, child, ""); err != nil {
						t.Fatalf("deleting the reference: %v", err)
					}
					if err := kube.WaitUntilGone(acctest.Context(t), func(ctx context.Context) error {
						_, err := client.GetNamespacedCloudProfile(ctx, projectNamespace, child)
						return err
					}); err != nil {
						t.Fatalf("NamespacedCloudProfile %s not released: %v", child, err)
					}
				},
				Config: acctest.ProviderBlock(kubeconfig),
			},
		},
	})
}

// TestAccNamespacedCloudProfile_parentInSameApplyAndUnknownLabels creates the parent and the
// NamespacedCloudProfile in one apply, with labels that are only known after apply and a machine
// type whose server-defaulted `usable` is left out: plan warns that the parent does not exist yet
// instead of failing, and apply succeeds.
func TestAccNamespacedCloudProfile_parentInSameApplyAndUnknownLabels(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	client := acctest.Client(t)
	parent, name := acctest.UniqueName("acc-same-parent"), acctest.UniqueName("acc-same")
	config := cloudProfileConfig(kubeconfig, parent, "", "", "") + fmt.Sprintf(`
resource "gardener_namespaced_cloud_profile" "test" {
  metadata = {
    name      = %q
    namespace = %q
    labels    = { parent-uid = gardener_cloud_profile.test.metadata.uid }
  }
  spec = {
    parent        = { kind = "CloudProfile", name = gardener_cloud_profile.test.metadata.name }
    machine_types = { "x1.metal" = { cpu = "96", gpu = "0", memory = "1Ti" } }
  }
}`, name, projectNamespace)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		CheckDestroy:             resource.ComposeTestCheckFunc(namespacedGone(client, name), cloudProfileGone(client, parent)),
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(ncpAddr, tfjsonpath.New("metadata").AtMapKey("labels").AtMapKey("parent-uid"), knownvalue.NotNull()),
				statecheck.ExpectKnownValue(ncpAddr, tfjsonpath.New("spec").AtMapKey("machine_types").AtMapKey("x1.metal").AtMapKey("usable"), knownvalue.Bool(true)),
			},
		}},
	})
}

// TestAccNamespacedCloudProfile_keptMergedStatusIsPlanned: with keep_merged_status, a change of
// one machine type plans the merged profile exactly (known at plan, changed only at that machine
// type), the apply matches it without waiting for Gardener's controller, the next plan is empty,
// and the kept merged profile is what the controller renders.
func TestAccNamespacedCloudProfile_keptMergedStatusIsPlanned(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	client := acctest.Client(t)
	parent, name := acctest.UniqueName("acc-parent"), acctest.UniqueName("acc-ncp")
	withMemory := func(memory string) string {
		return keepMergedStatus(parentAndNamespacedConfig(kubeconfig, parent, name, fmt.Sprintf(`
    kubernetes    = { versions = { "1.30.5" = { expiration_date = "2099-06-01T00:00:00Z" } } }
    machine_types = { "x1.metal" = { cpu = "96", gpu = "0", memory = %q } }`, memory)))
	}
	mergedMachineType := tfjsonpath.New("status").AtMapKey("cloud_profile_spec").AtMapKey("machine_types").AtMapKey("x1.metal")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		CheckDestroy:             resource.ComposeTestCheckFunc(namespacedGone(client, name), cloudProfileGone(client, parent)),
		Steps: []resource.TestStep{
			{Config: withMemory("1Ti")},
			{
				Config: withMemory("2Ti"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(ncpAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(ncpAddr, mergedMachineType.AtMapKey("memory"), knownvalue.StringExact("2Ti")),
					plancheck.ExpectKnownValue(ncpAddr, tfjsonpath.New("status").AtMapKey("observed_generation"), knownvalue.Int64Exact(2)),
					plancheck.ExpectKnownValue(ncpAddr, tfjsonpath.New("status").AtMapKey("cloud_profile_spec").AtMapKey("kubernetes").AtMapKey("versions"),
						knownvalue.MapPartial(map[string]knownvalue.Check{"1.30.5": knownvalue.ObjectPartial(map[string]knownvalue.Check{
							"expiration_date": knownvalue.StringExact("2099-06-01T00:00:00Z"),
						})})),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ncpAddr, mergedMachineType.AtMapKey("memory"), knownvalue.StringExact("2Ti")),
				},
				Check: func(*terraform.State) error { return waitForRenderedStatus(t, client, name) },
			},
			{
				Config:           withMemory("2Ti"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            keptStatusIsRendered(client, name),
			},
		},
	})
}

// formatTime renders an instant as the state holds it, "" for none.
func formatTime(t *metav1.Time) string {
	if t == nil {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// keptStatusIsRendered compares the state's merged profile with the one Gardener's controller
// rendered, by the names and values of its versions and machine types.
func keptStatusIsRendered(client *kube.Client, name string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		ncp, err := client.GetNamespacedCloudProfile(context.Background(), projectNamespace, name)
		if err != nil {
			return err
		}
		attrs := s.RootModule().Resources[ncpAddr].Primary.Attributes
		rendered := ncp.Status.CloudProfileSpec
		checks := map[string]string{
			"status.cloud_profile_spec.kubernetes.versions.%": fmt.Sprint(len(rendered.Kubernetes.Versions)),
			"status.cloud_profile_spec.machine_types.%":       fmt.Sprint(len(rendered.MachineTypes)),
			"status.cloud_profile_spec.machine_images.%":      fmt.Sprint(len(rendered.MachineImages)),
			"status.observed_generation":                      fmt.Sprint(ncp.Status.ObservedGeneration),
		}
		for _, v := range rendered.Kubernetes.Versions {
			checks[fmt.Sprintf("status.cloud_profile_spec.kubernetes.versions.%s.expiration_date", v.Version)] = formatTime(v.ExpirationDate)
		}
		for _, m := range rendered.MachineTypes {
			checks[fmt.Sprintf("status.cloud_profile_spec.machine_types.%s.memory", m.Name)] = m.Memory.String()
		}
		for k, want := range checks {
			if got := attrs[k]; got != want {
				return fmt.Errorf("%s: state has %q, Gardener's controller rendered %q", k, got, want)
			}
		}
		return nil
	}
}
