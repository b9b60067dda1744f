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
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// TestAccReferences_removingAVersionANamespacedProfileUsesFailsAtPlan is N-1 at plan time: a
// NamespacedCloudProfile (made out of band) extends a Kubernetes version of a Terraform-managed
// CloudProfile; a configuration that removes that version fails at plan with Gardener's message
// naming the NamespacedCloudProfile, and nothing is written.
func TestAccReferences_removingAVersionANamespacedProfileUsesFailsAtPlan(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	client := acctest.Client(t)
	name := acctest.UniqueName("acc-refs")
	ncpName := acctest.UniqueName("acc-refs-ncp")
	const namespace = "garden-demo"
	const used = "1.30.5"
	withVersion := shortDelete(cloudProfileConfig(kubeconfig, name, "", fmt.Sprintf(`%q = { classification = "supported" }`, used), ""))
	withoutVersion := shortDelete(cloudProfileConfig(kubeconfig, name, "", "", ""))

	deleteNCP := func() error {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := client.DeleteNamespacedCloudProfile(ctx, namespace, ncpName, ""); err != nil {
			return err
		}
		return kube.WaitUntilGone(ctx, func(ctx context.Context) error {
			_, err := client.GetNamespacedCloudProfile(ctx, namespace, ncpName)
			return err
		})
	}
	// If the test fails half-way, the NamespacedCloudProfile would keep the CloudProfile alive (the
	// destroy times out): delete it, then ask again to delete the CloudProfile.
	t.Cleanup(func() {
		_ = deleteNCP()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		_ = client.DeleteCloudProfile(ctx, name, "")
	})

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		CheckDestroy:             cloudProfileGone(client, name),
		Steps: []resource.TestStep{
			{
				Config: withVersion,
				Check: func(*terraform.State) error {
					ncp := &gardencorev1beta1.NamespacedCloudProfile{
						ObjectMeta: metav1.ObjectMeta{Name: ncpName, Namespace: namespace},
						Spec: gardencorev1beta1.NamespacedCloudProfileSpec{
							Parent: gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: name},
							Kubernetes: &gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{{
								Version:        used,
								ExpirationDate: &metav1.Time{Time: time.Now().Add(90 * 24 * time.Hour).UTC().Truncate(time.Second)},
							}}},
						},
					}
					_, err := client.ApplyNamespacedCloudProfile(acctest.Context(t), ncp, kube.ApplyOptions{})
					return err
				},
			},
			{
				// The plan fails (PlanOnly: without the check, the plan would succeed and the step
				// fail for a non-empty plan instead): nothing is applied.
				Config:   withoutVersion,
				PlanOnly: true,
				ExpectError: regexp.MustCompile(fmt.Sprintf(`(?s)unable\s+to\s+delete\s+Kubernetes\s+version\s+"%s"\s+from\s+CloudProfile\s+"%s".*NamespacedCloudProfile\s+'%s/%s'.*N-1`,
					regexp.QuoteMeta(used), name, namespace, ncpName)),
			},
			{
				// The version is still there; with the NamespacedCloudProfile gone, the removal
				// plans and applies.
				PreConfig: func() {
					cp := getCloudProfile(t, client, name)
					if len(cp.Spec.Kubernetes.Versions) != 2 {
						t.Fatalf("the failed plan must not change the CloudProfile, got versions %+v", cp.Spec.Kubernetes.Versions)
					}
					if err := deleteNCP(); err != nil {
						t.Fatalf("deleting the NamespacedCloudProfile: %v", err)
					}
				},
				Config: withoutVersion,
				Check: func(*terraform.State) error {
					if cp := getCloudProfile(t, client, name); len(cp.Spec.Kubernetes.Versions) != 1 {
						return fmt.Errorf("the version was not removed: %+v", cp.Spec.Kubernetes.Versions)
					}
					return nil
				},
			},
		},
	})
}

// shortDelete gives every resource of config a delete timeout of one minute: should a step fail
// while another object still refers to one of them, the destroy gives up soon instead of waiting
// 10 minutes for Gardener's finalizer; the tests' cleanup then deletes the referring objects.
func shortDelete(config string) string {
	return strings.ReplaceAll(config, "spec = {", "timeouts = { delete = \"1m\" }\n  spec = {")
}
