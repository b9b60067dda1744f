package provider_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// TestAccCloudProfile_statusIsKeptOnlyWhenAsked: by default the state holds no controller status,
// so plans never show it; with keep_status = true the create and the update plan the status the
// write answers with (checked by Terraform against the applied state), and a refresh reads the
// classifications the controller wrote.
func TestAccCloudProfile_statusIsKeptOnlyWhenAsked(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	client := acctest.Client(t)
	name := acctest.UniqueName("acc-status")
	base := cloudProfileConfig(kubeconfig, name, "", "", "")
	keep := strings.Replace(base, `resource "gardener_cloud_profile" "test" {`, "resource \"gardener_cloud_profile\" \"test\" {\n  keep_status = true", 1)
	bigger := strings.Replace(keep, `memory = "8Gi"`, `memory = "16Gi"`, 1)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		CheckDestroy:             cloudProfileGone(client, name),
		Steps: []resource.TestStep{
			{
				Config:            base,
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(cpAddr, tfjsonpath.New("status"), knownvalue.Null())},
			},
			{
				Config: keep,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(cpAddr, tfjsonpath.New("keep_status"), knownvalue.Bool(true)),
				}},
			},
			{
				Config: bigger,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(cpAddr, tfjsonpath.New("metadata").AtMapKey("generation"), knownvalue.Int64Exact(0)),
				}},
			},
			{
				PreConfig: func() { waitForController(t, client, name) },
				Config:    bigger,
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(cpAddr,
					tfjsonpath.New("status").AtMapKey("kubernetes_versions"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectExact(map[string]knownvalue.Check{"version": knownvalue.StringExact("1.31.2"), "classification": knownvalue.StringExact("supported")}),
					}))},
			},
		},
	})
}

// waitForController waits until Gardener's CloudProfile controller has reconciled the new
// profile: its finalizer is set and the classifications of its Kubernetes versions are written.
func waitForController(t *testing.T, client *kube.Client, name string) {
	t.Helper()
	err := wait.PollUntilContextTimeout(acctest.Context(t), 200*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		cp, err := client.GetCloudProfile(ctx, name)
		return err == nil && slices.Contains(cp.Finalizers, "gardener") && cp.Status.Kubernetes != nil && len(cp.Status.Kubernetes.Versions) > 0, nil
	})
	if err != nil {
		t.Fatalf("the controller wrote no status for %s: %v", name, err)
	}
}
