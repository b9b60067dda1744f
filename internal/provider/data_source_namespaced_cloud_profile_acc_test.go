package provider_test

import (
	"fmt"
	"regexp"
	"slices"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	k8sresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

const (
	dsNamespace = "garden-demo"
	dsNCPAddr   = "data.gardener_namespaced_cloud_profile.this"
)

// teamProfile extends lifecycleCloudProfile: 1.31.9 and gardenlinux 1592.9.0 expire on 2030-09-01
// instead of 2030-06-01, and a machine type is added. (Gardener v1.149 rejects expiration overrides
// of versions with a lifecycle, so the GEP-32 merge gives the same result here; the fake-server test
// covers where it differs.)
func teamProfile(namespace, name, parent string) *gardencorev1beta1.NamespacedCloudProfile {
	return &gardencorev1beta1.NamespacedCloudProfile{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Spec: gardencorev1beta1.NamespacedCloudProfileSpec{
			Parent: gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: parent},
			Kubernetes: &gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{
				{Version: "1.31.9", ExpirationDate: dsTime("2030-09-01T00:00:00Z")},
			}},
			MachineImages: []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: []gardencorev1beta1.MachineImageVersion{
				{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1592.9.0", ExpirationDate: dsTime("2030-09-01T00:00:00Z")}},
			}}},
			MachineTypes: []gardencorev1beta1.MachineType{{
				Name: "x1.metal", CPU: k8sresource.MustParse("96"), GPU: k8sresource.MustParse("0"), Memory: k8sresource.MustParse("1Ti"),
			}},
		},
	}
}

// namespacedDataSourceConfig reads the profile with the local merge (include_merged_profile) and
// the controller's merged status (keep_merged_status), which an output compares.
func namespacedDataSourceConfig(kubeconfig, name, extra string) string {
	return acctest.ProviderBlock(kubeconfig) + `
data "gardener_namespaced_cloud_profile" "this" {
  namespace              = "` + dsNamespace + `"
  name                   = "` + name + `"
  keep_merged_status     = true
  include_merged_profile = true
  ` + extra + `
}

output "merged_equals_status" {
  value = data.gardener_namespaced_cloud_profile.this.merged_spec == data.gardener_namespaced_cloud_profile.this.status.cloud_profile_spec
}
`
}

func hasMachineType(spec gardencorev1beta1.CloudProfileSpec, name string) bool {
	return slices.ContainsFunc(spec.MachineTypes, func(m gardencorev1beta1.MachineType) bool { return m.Name == name })
}

// TestAccDataSourceNamespacedCloudProfile_mergeStatusSyncAndConditions reads a namespaced profile
// created with client-go: the local merge equals the status Gardener's controller rendered; it
// classifies with the team's expiration dates; the GEP-32 merge is an option; and status_in_sync
// turns false when the parent changes while the controllers are paused, and true again once they
// have caught up.
func TestAccDataSourceNamespacedCloudProfile_mergeStatusSyncAndConditions(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	control := gardenControlAddr(t)
	client := acctest.Client(t)
	parentName, name := acctest.UniqueName("acc-ds-parent"), acctest.UniqueName("acc-ds-ncp")
	parent := lifecycleCloudProfile(parentName)
	if _, err := client.ApplyCloudProfile(acctest.Context(t), parent, kube.ApplyOptions{}); err != nil {
		t.Fatalf("creating CloudProfile %s: %v", parentName, err)
	}
	t.Cleanup(func() { _ = client.DeleteCloudProfile(acctest.Context(t), parentName, "") })
	if _, err := client.ApplyNamespacedCloudProfile(acctest.Context(t), teamProfile(dsNamespace, name, parentName), kube.ApplyOptions{}); err != nil {
		t.Fatalf("creating NamespacedCloudProfile %s: %v", name, err)
	}
	t.Cleanup(func() { _ = client.DeleteNamespacedCloudProfile(acctest.Context(t), dsNamespace, name, "") })
	dsWaitForNamespacedStatus(t, client, dsNamespace, name, func(ncp *gardencorev1beta1.NamespacedCloudProfile) bool {
		return hasMachineType(ncp.Status.CloudProfileSpec, "x1.metal")
	})
	// Whatever happens, leave the shared Garden's controllers running.
	t.Cleanup(func() { gardenControllers(t, control, "resume", name) })

	k8s := func(version, attr string) tfjsonpath.Path {
		return tfjsonpath.New("kubernetes_versions").AtMapKey(version).AtMapKey(attr)
	}
	str := knownvalue.StringExact
	a := dsNCPAddr

	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config: namespacedDataSourceConfig(kubeconfig, name, `at = "2030-07-01T00:00:00Z"`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownOutputValue("merged_equals_status", knownvalue.Bool(true)),
					dsCheck(a, tfjsonpath.New("status_in_sync"), knownvalue.Bool(true)),
					dsCheck(a, tfjsonpath.New("parent_found"), knownvalue.Bool(true)),
					dsCheck(a, tfjsonpath.New("spec").AtMapKey("parent").AtMapKey("name"), str(parentName)),
					dsCheck(a, tfjsonpath.New("merged_spec").AtMapKey("machine_types").AtMapKey("x1.metal").AtMapKey("cpu"), knownvalue.NotNull()),
					dsCheck(a, tfjsonpath.New("merged_spec").AtMapKey("type"), str("local")),
					// The parent's 1.31.9 expired on 2030-06-01; for the team it is supported until 2030-09-01.
					dsCheck(a, k8s("1.31.9", "version"), str("1.31.9")),
					dsCheck(a, k8s("1.31.9", "expiration_date"), str("2030-09-01T00:00:00Z")),
					dsCheck(a, k8s("1.31.9", "classification"), str("supported")),
					dsCheck(a, k8s("1.31.9", "status_classification"), knownvalue.Null()),
					dsCheck(a, k8s("1.31.9", "next_transition"), knownvalue.ObjectExact(map[string]knownvalue.Check{
						"at": str("2030-09-01T00:00:00Z"), "classification": str("expired")})),
					dsCheck(a, tfjsonpath.New("latest_kubernetes_versions_by_minor"), knownvalue.MapExact(map[string]knownvalue.Check{
						"1.33": str("1.33.0"), "1.31": str("1.31.9")})),
					dsCheck(a, tfjsonpath.New("latest_machine_image_versions"), knownvalue.MapExact(map[string]knownvalue.Check{"gardenlinux": str("1877.3.0")})),
					dsCondition(a, 1, "ParentExists", "True", "", "ParentFound"),
					dsCondition(a, 2, "StatusInSync", "True", "", "StatusMatchesMerge"),
					dsCondition(a, 3, "KubernetesVersionsSupported", "True", "", "EveryMinorSupported"),
					dsCondition(a, 0, "Ready", "True", "", "AllConditionsMet"),
				},
			},
			{
				// By default neither the controller's merged profile nor the local merge and its lists
				// are returned; the comparison, the lookups and the conditions are made all the same.
				Config: acctest.ProviderBlock(kubeconfig) + `
data "gardener_namespaced_cloud_profile" "this" {
  namespace = "` + dsNamespace + `"
  name      = "` + name + `"
  at        = "2030-07-01T00:00:00Z"
}
`,
				ConfigStateChecks: []statecheck.StateCheck{
					dsCheck(a, tfjsonpath.New("status").AtMapKey("cloud_profile_spec"), knownvalue.Null()),
					dsCheck(a, tfjsonpath.New("status").AtMapKey("observed_generation"), knownvalue.NotNull()),
					dsCheck(a, tfjsonpath.New("status_in_sync"), knownvalue.Bool(true)),
					dsCondition(a, 2, "StatusInSync", "True", "", "StatusMatchesMerge"),
					dsCondition(a, 0, "Ready", "True", "", "AllConditionsMet"),
					dsCheck(a, tfjsonpath.New("latest_kubernetes_versions_by_minor"), knownvalue.MapExact(map[string]knownvalue.Check{
						"1.33": str("1.33.0"), "1.31": str("1.31.9")})),
					dsCheck(a, tfjsonpath.New("latest_machine_image_versions"), knownvalue.MapExact(map[string]knownvalue.Check{"gardenlinux": str("1877.3.0")})),
					dsCheck(a, tfjsonpath.New("merged_spec"), knownvalue.Null()),
					dsCheck(a, tfjsonpath.New("kubernetes_versions"), knownvalue.Null()),
					dsCheck(a, tfjsonpath.New("machine_images"), knownvalue.Null()),
					dsCheck(a, tfjsonpath.New("machine_types"), knownvalue.Null()),
					dsCheck(a, tfjsonpath.New("volume_types"), knownvalue.Null()),
					dsCheck(a, tfjsonpath.New("regions"), knownvalue.Null()),
				},
			},
			{
				// With lifecycle_overrides the GEP-32 merge applies; for expiration overrides of legacy
				// versions it agrees with Gardener v1.149's.
				Config: namespacedDataSourceConfig(kubeconfig, name, `
  at                  = "2030-08-31T23:59:59Z"
  lifecycle_overrides = true`),
				ConfigStateChecks: []statecheck.StateCheck{
					dsCheck(a, k8s("1.31.9", "classification"), str("supported")),
					dsCheck(a, tfjsonpath.New("status_in_sync"), knownvalue.Bool(true)),
					statecheck.ExpectKnownOutputValue("merged_equals_status", knownvalue.Bool(true)),
				},
			},
			{
				// Right after the team's expiration date 1.31.9 is expired for the team too.
				Config: namespacedDataSourceConfig(kubeconfig, name, `at = "2030-09-01T00:00:01Z"`),
				ConfigStateChecks: []statecheck.StateCheck{
					dsCheck(a, k8s("1.31.9", "classification"), str("expired")),
					dsCheck(a, k8s("1.31.9", "next_transition"), knownvalue.Null()),
					dsCheck(a, tfjsonpath.New("latest_kubernetes_versions_by_minor"), knownvalue.MapExact(map[string]knownvalue.Check{"1.33": str("1.33.0")})),
				},
			},
			{
				// The parent gains a machine type while the controllers are paused: the local merge
				// has it, the rendered status does not.
				PreConfig: func() {
					gardenControllers(t, control, "pause", name)
					changed := lifecycleCloudProfile(parentName)
					extra := changed.Spec.MachineTypes[0]
					extra.Name = "c5.xlarge"
					changed.Spec.MachineTypes = append(changed.Spec.MachineTypes, extra)
					if _, err := client.ApplyCloudProfile(acctest.Context(t), changed, kube.ApplyOptions{}); err != nil {
						t.Fatalf("changing the parent: %v", err)
					}
				},
				Config: namespacedDataSourceConfig(kubeconfig, name, `at = "2030-07-01T00:00:00Z"`),
				ConfigStateChecks: []statecheck.StateCheck{
					dsCheck(a, tfjsonpath.New("status_in_sync"), knownvalue.Bool(false)),
					statecheck.ExpectKnownOutputValue("merged_equals_status", knownvalue.Bool(false)),
					dsCondition(a, 2, "StatusInSync", "False", "Warning", "StatusDiffers"),
					dsCheck(a, tfjsonpath.New("conditions").AtSliceIndex(2).AtMapKey("message"), knownvalue.StringRegexp(regexp.MustCompile(`machineTypes\[3\]`))),
					dsCheck(a, tfjsonpath.New("merged_spec").AtMapKey("machine_types").AtMapKey("c5.xlarge").AtMapKey("cpu"), knownvalue.NotNull()),
				},
			},
			{
				// Once the controllers run again they render the new parent, and the status is in sync.
				PreConfig: func() {
					gardenControllers(t, control, "resume", name)
					dsWaitForNamespacedStatus(t, client, dsNamespace, name, func(ncp *gardencorev1beta1.NamespacedCloudProfile) bool {
						return hasMachineType(ncp.Status.CloudProfileSpec, "c5.xlarge")
					})
				},
				Config: namespacedDataSourceConfig(kubeconfig, name, `at = "2030-07-01T00:00:00Z"`),
				ConfigStateChecks: []statecheck.StateCheck{
					dsCheck(a, tfjsonpath.New("status_in_sync"), knownvalue.Bool(true)),
					statecheck.ExpectKnownOutputValue("merged_equals_status", knownvalue.Bool(true)),
					dsCondition(a, 2, "StatusInSync", "True", "", "StatusMatchesMerge"),
				},
			},
		},
	})
}

// TestAccDataSourceNamespacedCloudProfile_missingProfileIsAnError reports a missing namespaced
// profile as an error on `name` that names the profile and the fix.
func TestAccDataSourceNamespacedCloudProfile_missingProfileIsAnError(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	name := acctest.UniqueName("acc-ds-missing")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: namespacedDataSourceConfig(kubeconfig, name, ""),
			ExpectError: regexp.MustCompile(fmt.Sprintf(`(?s)Error: NamespacedCloudProfile "%s/%s" not found.*name\s+=\s+"%s".*To\s+fix:\s+check\s+the\s+name\s+and\s+namespace`,
				dsNamespace, name, name)),
		}},
	})
}
