package provider_test

import (
	"fmt"
	"regexp"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	k8sresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// createdWithAdmin creates cp with the admin client and deletes it when the test ends; it returns
// the admin client.
func createdWithAdmin(t *testing.T, cp *gardencorev1beta1.CloudProfile) *kube.Client {
	t.Helper()
	admin := acctest.Client(t)
	if _, err := admin.ApplyCloudProfile(acctest.Context(t), cp, kube.ApplyOptions{}); err != nil {
		t.Fatalf("creating CloudProfile %s: %v", cp.Name, err)
	}
	t.Cleanup(func() { _ = admin.DeleteCloudProfile(acctest.Context(t), cp.Name, "") })
	return admin
}

// localProviderConfigJSON is the provider config of the tests' profiles of type local, as
// provider-local's admission requires it: an image for each machine image the tests use. The HCL
// configurations write the same with jsonencode.
const localProviderConfigJSON = `{"apiVersion":"local.provider.extensions.gardener.cloud/v1alpha1","kind":"CloudProfileConfig","machineImages":[` +
	`{"name":"gardenlinux","versions":[{"version":"1.0.0","image":"local/gardenlinux"}]},` +
	`{"name":"ubuntu","versions":[{"version":"1.0.0","image":"local/ubuntu"}]},` +
	`{"name":"alpine","versions":[{"version":"1.0.0","image":"local/alpine"}]},` +
	`{"name":"suse","versions":[{"version":"1.0.0","image":"local/suse"}]},` +
	`{"name":"rhel","versions":[{"version":"1.0.0","image":"local/rhel"}]}]}`

// minimalCloudProfile is a small CloudProfile that Gardener and provider-local's admission accept.
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
			Regions:        []gardencorev1beta1.Region{{Name: "local"}},
			ProviderConfig: &runtime.RawExtension{Raw: []byte(localProviderConfigJSON)},
		},
	}
}

// TestAccDataSourceCloudProfile_readsProfileCreatedWithClientGo proves the provider reaches the
// real Gardener API: it reads a CloudProfile that the test created directly with client-go.
func TestAccDataSourceCloudProfile_readsProfileCreatedWithClientGo(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	client := acctest.Client(t)
	name := acctest.UniqueName("acc-ds")
	created, err := client.ApplyCloudProfile(acctest.Context(t), minimalCloudProfile(name), kube.ApplyOptions{})
	if err != nil {
		t.Fatalf("creating CloudProfile %s: %v", name, err)
	}
	t.Cleanup(func() { _ = client.DeleteCloudProfile(acctest.Context(t), name, "") })

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
				statecheck.ExpectKnownValue("data.gardener_cloud_profile.this", tfjsonpath.New("kubernetes_versions").AtMapKey("1.31.2").AtMapKey("version"), knownvalue.StringExact("1.31.2")),
			},
		}},
	})
}

const dsCloudProfileAddr = "data.gardener_cloud_profile.this"

// lifecycleCloudProfile has versions on both sides of fixed instants far from the wall clock:
//
//	1.33.0    preview, supported from 2030-01-01, deprecated from 2031-01-01
//	1.32.4    supported, deprecated from 2030-01-01, expired from 2031-01-01
//	1.31.9    supported (legacy), expires 2030-06-01
//	gardenlinux 1877.3.0 (amd64, arm64) supported, deprecated from 2031-01-01
//	gardenlinux 1592.9.0 (amd64) supported (legacy), expires 2030-06-01
func lifecycleCloudProfile(name string) *gardencorev1beta1.CloudProfile {
	cp := minimalCloudProfile(name)
	no := false
	cp.Spec.Kubernetes.Versions = []gardencorev1beta1.ExpirableVersion{
		{Version: "1.33.0", Lifecycle: []gardencorev1beta1.LifecycleStage{
			dsStage(gardencorev1beta1.ClassificationPreview, ""),
			dsStage(gardencorev1beta1.ClassificationSupported, "2030-01-01T00:00:00Z"),
			dsStage(gardencorev1beta1.ClassificationDeprecated, "2031-01-01T00:00:00Z"),
		}},
		{Version: "1.32.4", Lifecycle: []gardencorev1beta1.LifecycleStage{
			dsStage(gardencorev1beta1.ClassificationSupported, ""),
			dsStage(gardencorev1beta1.ClassificationDeprecated, "2030-01-01T00:00:00Z"),
			dsStage(gardencorev1beta1.ClassificationExpired, "2031-01-01T00:00:00Z"),
		}},
		{Version: "1.31.9", Classification: dsClass(gardencorev1beta1.ClassificationSupported), ExpirationDate: dsTime("2030-06-01T00:00:00Z")},
	}
	cp.Spec.MachineImages = []gardencorev1beta1.MachineImage{{
		Name: "gardenlinux",
		Versions: []gardencorev1beta1.MachineImageVersion{
			{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1877.3.0", Lifecycle: []gardencorev1beta1.LifecycleStage{
				dsStage(gardencorev1beta1.ClassificationSupported, ""),
				dsStage(gardencorev1beta1.ClassificationDeprecated, "2031-01-01T00:00:00Z"),
			}}, Architectures: []string{"amd64", "arm64"}},
			{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1592.9.0", Classification: dsClass(gardencorev1beta1.ClassificationSupported),
				ExpirationDate: dsTime("2030-06-01T00:00:00Z")}, Architectures: []string{"amd64"}},
		},
	}}
	arm := "arm64"
	base := cp.Spec.MachineTypes[0]
	arm64Type, retired := base, base
	arm64Type.Name, arm64Type.Architecture = "m6g.large", &arm
	retired.Name, retired.Usable = "m4.retired", &no
	cp.Spec.MachineTypes = append(cp.Spec.MachineTypes, arm64Type, retired)
	cp.Spec.VolumeTypes = []gardencorev1beta1.VolumeType{{Name: "gp3", Class: "standard"}, {Name: "io2", Class: "premium"}}
	cp.Spec.Regions = []gardencorev1beta1.Region{
		{Name: "eu-west-1", Zones: []gardencorev1beta1.AvailabilityZone{
			{Name: "eu-west-1a", UnavailableMachineTypes: []string{"m6g.large"}, UnavailableVolumeTypes: []string{"io2"}},
			{Name: "eu-west-1b"},
		}},
		{Name: "local"},
	}
	return cp
}

// dsMachineType checks a machine type of lifecycleCloudProfile: 2 CPUs, 8Gi, no GPU, no storage.
func dsMachineType(name, arch string) knownvalue.Check {
	return knownvalue.ObjectExact(map[string]knownvalue.Check{
		"name": knownvalue.StringExact(name), "cpu": knownvalue.Int64Exact(2), "gpu": knownvalue.Int64Exact(0),
		"memory": knownvalue.StringExact("8Gi"), "memory_gib": knownvalue.Int64Exact(8),
		"architecture": knownvalue.StringExact(arch), "storage": knownvalue.Null(),
	})
}

func cloudProfileDataSourceConfig(kubeconfig, name, extra string) string {
	return acctest.ProviderBlock(kubeconfig) + `
data "gardener_cloud_profile" "this" {
  name = "` + name + `"
  ` + extra + `
}`
}

// TestAccDataSourceCloudProfile_classificationsLookupsAndConditionsAtFixedInstants reads a profile
// created with client-go at fixed instants on both sides of every transition.
func TestAccDataSourceCloudProfile_classificationsLookupsAndConditionsAtFixedInstants(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	client := acctest.Client(t)
	name := acctest.UniqueName("acc-ds-lc")
	if _, err := client.ApplyCloudProfile(acctest.Context(t), lifecycleCloudProfile(name), kube.ApplyOptions{}); err != nil {
		t.Fatalf("creating CloudProfile %s: %v", name, err)
	}
	t.Cleanup(func() { _ = client.DeleteCloudProfile(acctest.Context(t), name, "") })
	dsWaitForCloudProfileStatus(t, client, name)

	k8s := func(version, attr string) tfjsonpath.Path {
		return tfjsonpath.New("kubernetes_versions").AtMapKey(version).AtMapKey(attr)
	}
	image := func(version, attr string) tfjsonpath.Path {
		return tfjsonpath.New("machine_images").AtMapKey("gardenlinux").AtMapKey("versions").AtMapKey(version).AtMapKey(attr)
	}
	transition := func(at, c string) knownvalue.Check {
		return knownvalue.ObjectExact(map[string]knownvalue.Check{"at": knownvalue.StringExact(at), "classification": knownvalue.StringExact(c)})
	}
	str := knownvalue.StringExact
	a := dsCloudProfileAddr

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				// Healthy: every classification as of 2029, all conditions met.
				Config: cloudProfileDataSourceConfig(kubeconfig, name, `at = "2029-06-01T00:00:00Z"`),
				ConfigStateChecks: []statecheck.StateCheck{
					dsCheck(a, tfjsonpath.New("at"), str("2029-06-01T00:00:00Z")),
					dsCheck(a, tfjsonpath.New("spec").AtMapKey("type"), str("local")),
					dsCheck(a, k8s("1.33.0", "classification"), str("preview")),
					dsCheck(a, k8s("1.33.0", "status_classification"), str("preview")), // written by Gardener's controller today
					dsCheck(a, k8s("1.33.0", "next_transition"), transition("2030-01-01T00:00:00Z", "supported")),
					dsCheck(a, k8s("1.33.0", "lifecycle").AtSliceIndex(1).AtMapKey("start_time"), str("2030-01-01T00:00:00Z")),
					dsCheck(a, k8s("1.32.4", "classification"), str("supported")),
					dsCheck(a, k8s("1.32.4", "next_transition"), transition("2030-01-01T00:00:00Z", "deprecated")),
					dsCheck(a, k8s("1.31.9", "classification"), str("supported")),
					dsCheck(a, k8s("1.31.9", "expiration_date"), str("2030-06-01T00:00:00Z")),
					dsCheck(a, k8s("1.31.9", "next_transition"), transition("2030-06-01T00:00:00Z", "expired")),
					dsCheck(a, image("1877.3.0", "architectures"), knownvalue.ListExact([]knownvalue.Check{str("amd64"), str("arm64")})),
					dsCheck(a, image("1877.3.0", "cri"), knownvalue.ListExact([]knownvalue.Check{str("containerd")})),
					dsCheck(a, image("1592.9.0", "next_transition"), transition("2030-06-01T00:00:00Z", "expired")),
					dsCheck(a, tfjsonpath.New("latest_kubernetes_version"), str("1.32.4")),
					dsCheck(a, tfjsonpath.New("latest_kubernetes_versions_by_minor"), knownvalue.MapExact(map[string]knownvalue.Check{"1.32": str("1.32.4"), "1.31": str("1.31.9")})),
					dsCheck(a, tfjsonpath.New("latest_machine_image_versions"), knownvalue.MapExact(map[string]knownvalue.Check{"gardenlinux": str("1877.3.0")})),
					dsCheck(a, tfjsonpath.New("status_in_sync"), knownvalue.Bool(true)),
					dsCheck(a, tfjsonpath.New("regions"), knownvalue.MapExact(map[string]knownvalue.Check{
						"eu-west-1": knownvalue.ObjectExact(map[string]knownvalue.Check{
							"name":                 str("eu-west-1"),
							"usable_machine_types": knownvalue.ListExact([]knownvalue.Check{str("m5.large"), str("m6g.large")}),
							"usable_volume_types":  knownvalue.ListExact([]knownvalue.Check{str("gp3"), str("io2")}),
							"zones": knownvalue.MapExact(map[string]knownvalue.Check{
								"eu-west-1a": knownvalue.ObjectExact(map[string]knownvalue.Check{"name": str("eu-west-1a"),
									"usable_machine_types": knownvalue.ListExact([]knownvalue.Check{str("m5.large")}), "usable_volume_types": knownvalue.ListExact([]knownvalue.Check{str("gp3")})}),
								"eu-west-1b": knownvalue.ObjectExact(map[string]knownvalue.Check{"name": str("eu-west-1b"),
									"usable_machine_types": knownvalue.ListExact([]knownvalue.Check{str("m5.large"), str("m6g.large")}), "usable_volume_types": knownvalue.ListExact([]knownvalue.Check{str("gp3"), str("io2")})}),
							}),
						}),
						"local": knownvalue.ObjectExact(map[string]knownvalue.Check{
							"name":                 str("local"),
							"usable_machine_types": knownvalue.ListExact([]knownvalue.Check{str("m5.large"), str("m6g.large")}),
							"usable_volume_types":  knownvalue.ListExact([]knownvalue.Check{str("gp3"), str("io2")}),
							"zones":                knownvalue.MapExact(map[string]knownvalue.Check{}),
						}),
					})),
					// Every usable type, with its details; m4.retired is not usable.
					dsCheck(a, tfjsonpath.New("machine_types"), knownvalue.MapExact(map[string]knownvalue.Check{
						"m5.large":  dsMachineType("m5.large", "amd64"),
						"m6g.large": dsMachineType("m6g.large", "arm64"),
					})),
					dsCheck(a, tfjsonpath.New("volume_types").AtMapKey("io2").AtMapKey("class"), str("premium")),
					dsCondition(a, 0, "Ready", "True", "", "AllConditionsMet"),
					dsCondition(a, 1, "KubernetesVersionsSupported", "True", "", "EveryMinorSupported"),
					dsCondition(a, 2, "LatestKubernetesVersionNotDeprecated", "True", "", "LatestVersionInPreview"),
					dsCondition(a, 3, "ExpirationsHaveSuccessors", "True", "", "NoExpirationWithoutSuccessor"),
					dsCondition(a, 4, "MachineImagesSupported", "True", "", "EveryArchitectureSupported"),
					dsConditionSince(a, 0, "Ready", "True", "2029-06-01T00:00:00Z"),
				},
			},
			{
				// Exactly at 2030-01-01 the stages starting then are not active yet; the architecture
				// filters images and machine types.
				Config: cloudProfileDataSourceConfig(kubeconfig, name, `
  at                         = "2030-01-01T00:00:00Z"
  machine_image_architecture = "arm64"`),
				ConfigStateChecks: []statecheck.StateCheck{
					dsCheck(a, k8s("1.33.0", "classification"), str("preview")),
					dsCheck(a, k8s("1.33.0", "next_transition"), transition("2030-01-01T00:00:00Z", "supported")),
					dsCheck(a, k8s("1.32.4", "classification"), str("supported")),
					dsCheck(a, tfjsonpath.New("latest_kubernetes_version"), str("1.32.4")),
					dsCheck(a, tfjsonpath.New("latest_machine_image_versions"), knownvalue.MapExact(map[string]knownvalue.Check{"gardenlinux": str("1877.3.0")})),
					dsCheck(a, tfjsonpath.New("machine_types"), knownvalue.MapExact(map[string]knownvalue.Check{"m6g.large": dsMachineType("m6g.large", "arm64")})),
					dsCheck(a, tfjsonpath.New("regions").AtMapKey("eu-west-1").AtMapKey("zones").AtMapKey("eu-west-1a").AtMapKey("usable_machine_types"),
						knownvalue.ListExact([]knownvalue.Check{})),
					dsCheck(a, tfjsonpath.New("regions").AtMapKey("local").AtMapKey("usable_machine_types"), knownvalue.ListExact([]knownvalue.Check{str("m6g.large")})),
					dsCondition(a, 0, "Ready", "True", "", "AllConditionsMet"),
				},
			},
			{
				// Right after 2030-01-01: 1.33.0 is supported, 1.32.4 deprecated; minor 1.32 has no
				// supported version, but its shoots can update to the newer supported minor 1.33.
				Config: cloudProfileDataSourceConfig(kubeconfig, name, `at = "2030-01-01T00:00:01Z"`),
				ConfigStateChecks: []statecheck.StateCheck{
					dsCheck(a, k8s("1.33.0", "classification"), str("supported")),
					dsCheck(a, k8s("1.33.0", "next_transition"), transition("2031-01-01T00:00:00Z", "deprecated")),
					dsCheck(a, k8s("1.32.4", "classification"), str("deprecated")),
					dsCheck(a, k8s("1.32.4", "status_classification"), str("supported")),
					dsCheck(a, tfjsonpath.New("latest_kubernetes_version"), str("1.33.0")),
					dsCheck(a, tfjsonpath.New("latest_kubernetes_versions_by_minor"), knownvalue.MapExact(map[string]knownvalue.Check{"1.33": str("1.33.0"), "1.31": str("1.31.9")})),
					dsCondition(a, 0, "Ready", "True", "", "AllConditionsMet"),
					dsCondition(a, 1, "KubernetesVersionsSupported", "True", "", "EveryMinorSupported"),
					dsCondition(a, 2, "LatestKubernetesVersionNotDeprecated", "True", "", "LatestVersionSupported"),
				},
			},
			{
				// 1.31.9 expires on 2030-06-01 and no supported 1.31 or 1.32 version succeeds it: a
				// warning since the expiration entered the 30-day window.
				Config: cloudProfileDataSourceConfig(kubeconfig, name, `
  at                    = "2030-05-20T00:00:00Z"
  expiry_warning_window = "720h"`),
				ConfigStateChecks: []statecheck.StateCheck{
					dsCondition(a, 3, "ExpirationsHaveSuccessors", "False", "Warning", "ExpirationWithoutSuccessor"),
					dsConditionSince(a, 3, "ExpirationsHaveSuccessors", "False", "2030-05-02T00:00:00Z"),
					dsCheck(a, tfjsonpath.New("conditions").AtSliceIndex(3).AtMapKey("message"),
						str("Kubernetes 1.31.9 expires at 2030-06-01T00:00:00Z without a supported successor in its minor or the next")),
				},
			},
			{
				// Broken: in mid 2031 nothing is supported any more.
				Config: cloudProfileDataSourceConfig(kubeconfig, name, `at = "2031-06-01T00:00:00Z"`),
				ConfigStateChecks: []statecheck.StateCheck{
					dsCheck(a, k8s("1.33.0", "classification"), str("deprecated")),
					dsCheck(a, k8s("1.33.0", "next_transition"), knownvalue.Null()),
					dsCheck(a, k8s("1.32.4", "classification"), str("expired")),
					dsCheck(a, k8s("1.31.9", "classification"), str("expired")),
					dsCheck(a, image("1877.3.0", "classification"), str("deprecated")),
					dsCheck(a, tfjsonpath.New("latest_kubernetes_version"), knownvalue.Null()),
					dsCheck(a, tfjsonpath.New("latest_kubernetes_versions_by_minor"), knownvalue.MapExact(map[string]knownvalue.Check{})),
					dsCheck(a, tfjsonpath.New("latest_machine_image_versions"), knownvalue.MapExact(map[string]knownvalue.Check{})),
					dsCheck(a, tfjsonpath.New("machine_images").AtMapKey("gardenlinux").AtMapKey("latest_supported_version"), knownvalue.Null()),
					dsCondition(a, 0, "Ready", "False", "Error", "NoSupportedKubernetesVersion"),
					dsCondition(a, 1, "KubernetesVersionsSupported", "False", "Error", "NoSupportedKubernetesVersion"),
					dsConditionSince(a, 1, "KubernetesVersionsSupported", "False", "2031-01-01T00:00:00Z"),
					dsCondition(a, 2, "LatestKubernetesVersionNotDeprecated", "False", "Warning", "LatestVersionDeprecated"),
					dsConditionSince(a, 2, "LatestKubernetesVersionNotDeprecated", "False", "2031-01-01T00:00:00Z"),
					dsCondition(a, 4, "MachineImagesSupported", "False", "Error", "NoSupportedMachineImage"),
					dsConditionSince(a, 4, "MachineImagesSupported", "False", "2031-01-01T00:00:00Z"),
				},
			},
		},
	})
}

// TestAccDataSourceCloudProfile_missingProfileIsAnError reports a missing profile as an error on
// `name` that names the profile and the fix.
func TestAccDataSourceCloudProfile_missingProfileIsAnError(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	name := acctest.UniqueName("acc-ds-missing")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config:      cloudProfileDataSourceConfig(kubeconfig, name, ""),
			ExpectError: regexp.MustCompile(fmt.Sprintf(`(?s)Error: CloudProfile "%s" not found.*name\s+=\s+"%s".*To\s+fix:\s+check\s+the\s+name\.`, name, name)),
		}},
	})
}

// TestAccDataSourceCloudProfile_defaultInstantIsNow checks that without `at` the data source
// evaluates at the time of reading and records it.
func TestAccDataSourceCloudProfile_defaultInstantIsNow(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	client := acctest.Client(t)
	name := acctest.UniqueName("acc-ds-now")
	if _, err := client.ApplyCloudProfile(acctest.Context(t), lifecycleCloudProfile(name), kube.ApplyOptions{}); err != nil {
		t.Fatalf("creating CloudProfile %s: %v", name, err)
	}
	t.Cleanup(func() { _ = client.DeleteCloudProfile(acctest.Context(t), name, "") })
	before := time.Now().UTC()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: cloudProfileDataSourceConfig(kubeconfig, name, ""),
			ConfigStateChecks: []statecheck.StateCheck{
				// Until 2030 1.33.0 is in preview, whatever today is.
				dsCheck(dsCloudProfileAddr, tfjsonpath.New("kubernetes_versions").AtMapKey("1.33.0").AtMapKey("classification"), knownvalue.StringExact("preview")),
				dsCheck(dsCloudProfileAddr, tfjsonpath.New("at"), knownvalue.StringFunc(func(s string) error {
					at, err := time.Parse(time.RFC3339Nano, s)
					if err != nil || at.Before(before.Add(-time.Second)) || at.After(time.Now().Add(time.Second)) {
						return fmt.Errorf("at = %q is not the time of reading (%v)", s, err)
					}
					return nil
				})),
			},
		}},
	})
}
