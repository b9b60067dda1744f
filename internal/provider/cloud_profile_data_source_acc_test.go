package provider_test

import (
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	k8sresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// minimalCloudProfile is a small CloudProfile that Gardener accepts.
func minimalCloudProfile(name string) *gardencorev1beta1.CloudProfile {
	return &gardencorev1beta1.CloudProfile{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"team": "acc"}},
		Spec: gardencorev1beta1.CloudProfileSpec{
			Type: "local",
			Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{
				{Version: "1.31.2", Classification: ptr.To(gardencorev1beta1.ClassificationSupported)},
			}},
			MachineImages: []gardencorev1beta1.MachineImage{{
				Name: "gardenlinux",
				Versions: []gardencorev1beta1.MachineImageVersion{{
					ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1877.3.0"},
				}},
			}},
			MachineTypes: []gardencorev1beta1.MachineType{{
				Name: "m5.large", CPU: k8sresource.MustParse("2"), GPU: k8sresource.MustParse("0"), Memory: k8sresource.MustParse("8Gi"),
			}},
			Regions: []gardencorev1beta1.Region{{Name: "local"}},
		},
	}
}

// TestAccCloudProfileDataSource_readsProfileCreatedWithClientGo proves the provider reaches the
// real Gardener API: it reads a CloudProfile that the test created directly with client-go.
func TestAccCloudProfileDataSource_readsProfileCreatedWithClientGo(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	client := acctest.Client(t)
	name := acctest.UniqueName("acc-ds")
	created, err := client.ApplyCloudProfile(acctest.Context(t), minimalCloudProfile(name), kube.ApplyOptions{})
	if err != nil {
		t.Fatalf("creating CloudProfile %s: %v", name, err)
	}
	t.Cleanup(func() { _ = client.DeleteCloudProfile(acctest.Context(t), name) })

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: acctest.ProviderBlock(kubeconfig) + `
data "gardener_cloud_profile" "this" {
  name = "` + name + `"
}`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.gardener_cloud_profile.this", tfjsonpath.New("uid"), knownvalue.StringExact(string(created.UID))),
				statecheck.ExpectKnownValue("data.gardener_cloud_profile.this", tfjsonpath.New("type"), knownvalue.StringExact("local")),
				statecheck.ExpectKnownValue("data.gardener_cloud_profile.this", tfjsonpath.New("labels"), knownvalue.MapExact(map[string]knownvalue.Check{
					"team": knownvalue.StringExact("acc"),
					"provider.extensions.gardener.cloud/local": knownvalue.StringExact("true"),
				})),
				statecheck.ExpectKnownValue("data.gardener_cloud_profile.this", tfjsonpath.New("kubernetes_versions").AtSliceIndex(0).AtMapKey("version"), knownvalue.StringExact("1.31.2")),
			},
		}},
	})
}
