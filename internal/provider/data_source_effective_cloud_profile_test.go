package provider_test

import (
	"fmt"
	"math/big"
	"net/http/httptest"
	"regexp"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	k8sresource "k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// effectiveParent is lifecycleCloudProfile with three arm64 types more, served as the API server
// serves it: in eu-west-1a c6g.xlarge and m6g.large are unavailable.
func effectiveParent() *gardencorev1beta1.CloudProfile {
	parent := lifecycleCloudProfile("parent")
	parent.TypeMeta = metav1.TypeMeta{APIVersion: "core.gardener.cloud/v1beta1", Kind: "CloudProfile"}
	arm := "arm64"
	for _, m := range []struct{ name, cpu, memory string }{{"m6g.2xlarge", "8", "32Gi"}, {"m6g.xlarge", "4", "16Gi"}, {"c6g.xlarge", "4", "8Gi"}} {
		parent.Spec.MachineTypes = append(parent.Spec.MachineTypes, gardencorev1beta1.MachineType{Name: m.name, Architecture: &arm,
			CPU: k8sresource.MustParse(m.cpu), GPU: k8sresource.MustParse("0"), Memory: k8sresource.MustParse(m.memory)})
	}
	parent.Spec.Regions[0].Zones[0].UnavailableMachineTypes = append(parent.Spec.Regions[0].Zones[0].UnavailableMachineTypes, "c6g.xlarge")
	return cloudprofile.DefaultedCloudProfile(parent)
}

// TestEffectiveCloudProfile_BothKindsOneExpressionLookups reads through a fake API server the
// profile a Shoot references, of both kinds: a CloudProfile takes one GET, a NamespacedCloudProfile
// two; the effective spec is the profile's spec or the local merge; and "the smallest arm64 type
// with at least 4 CPUs usable in a zone" is one expression over regions and machine_types.
func TestEffectiveCloudProfile_BothKindsOneExpressionLookups(t *testing.T) {
	parent := effectiveParent()
	team := teamProfile("team", "ncp", "parent")
	team.TypeMeta = metav1.TypeMeta{APIVersion: "core.gardener.cloud/v1beta1", Kind: "NamespacedCloudProfile"}
	team.Generation = 2
	team.Status.ObservedGeneration = 2
	team.Status.CloudProfileSpec = cloudprofile.MergeNamespacedCloudProfile(parent.Spec, team.Spec, cloudprofile.MergeOptions{})
	fake := &fakeGarden{seen: map[string]int{}, objects: map[string]any{
		fakeAPI + "/cloudprofiles/parent":                        parent,
		fakeAPI + "/namespaces/team/namespacedcloudprofiles/ncp": team,
		fakeGardenerInfo: gardenerInfo("v1.149.3"),
	}}
	server := httptest.NewServer(fake)
	defer server.Close()

	config := fmt.Sprintf(`
provider "gardener" {
  host = %q
}

data "gardener_effective_cloud_profile" "cp" {
  name                       = "parent"
  namespace                  = "team" # ignored for a CloudProfile
  at                         = "2029-06-01T00:00:00Z"
  machine_image_architecture = "arm64"
}

data "gardener_effective_cloud_profile" "ncp" {
  kind      = "NamespacedCloudProfile"
  name      = "ncp"
  namespace = "team"
  at        = "2029-06-01T00:00:00Z"
}

data "gardener_cloud_profile" "parent" {
  name = "parent"
  at   = "2029-06-01T00:00:00Z"
}

locals {
  p = data.gardener_effective_cloud_profile.cp
}

output "smallest_arm64_4cpu_in_a" {
  value = [for n in local.p.regions["eu-west-1"].zones["eu-west-1a"].usable_machine_types : n if local.p.machine_types[n].cpu >= 4][0]
}

output "smallest_arm64_4cpu_in_b" {
  value = [for n in local.p.regions["eu-west-1"].zones["eu-west-1b"].usable_machine_types : n if local.p.machine_types[n].cpu >= 4][0]
}

output "cp_spec_is_the_profiles" {
  value = local.p.spec == data.gardener_cloud_profile.parent.spec
}
`, server.URL)
	cp, ncp := "data.gardener_effective_cloud_profile.cp", "data.gardener_effective_cloud_profile.ncp"
	names := func(n ...string) knownvalue.Check {
		checks := make([]knownvalue.Check, len(n))
		for i, s := range n {
			checks[i] = knownvalue.StringExact(s)
		}
		return knownvalue.ListExact(checks)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("smallest_arm64_4cpu_in_a", knownvalue.StringExact("m6g.xlarge")),
				statecheck.ExpectKnownOutputValue("smallest_arm64_4cpu_in_b", knownvalue.StringExact("c6g.xlarge")),
				statecheck.ExpectKnownOutputValue("cp_spec_is_the_profiles", knownvalue.Bool(true)),
				dsCheck(cp, tfjsonpath.New("kind"), knownvalue.StringExact("CloudProfile")),
				dsCheck(cp, tfjsonpath.New("parent"), knownvalue.Null()),
				// arm64 only, smallest first; m4.retired is not usable.
				dsCheck(cp, tfjsonpath.New("regions").AtMapKey("eu-west-1").AtMapKey("usable_machine_types"),
					names("m6g.large", "c6g.xlarge", "m6g.xlarge", "m6g.2xlarge")),
				dsCheck(cp, tfjsonpath.New("regions").AtMapKey("eu-west-1").AtMapKey("zones").AtMapKey("eu-west-1a").AtMapKey("usable_machine_types"),
					names("m6g.xlarge", "m6g.2xlarge")),
				dsCheck(cp, tfjsonpath.New("regions").AtMapKey("local").AtMapKey("zones"), knownvalue.MapExact(map[string]knownvalue.Check{})),
				dsCheck(cp, tfjsonpath.New("machine_types").AtMapKey("m6g.xlarge"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"name": knownvalue.StringExact("m6g.xlarge"), "cpu": knownvalue.NumberExact(big.NewFloat(4)), "gpu": knownvalue.NumberExact(big.NewFloat(0)),
					"memory": knownvalue.StringExact("16Gi"), "memory_gib": knownvalue.NumberExact(big.NewFloat(16)),
					"architecture": knownvalue.StringExact("arm64"), "storage": knownvalue.Null(),
				})),
				dsCheck(cp, tfjsonpath.New("machine_types"), knownvalue.MapSizeExact(4)), // the arm64 types, without m5.large
				dsCheck(cp, tfjsonpath.New("volume_types").AtMapKey("io2"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"name": knownvalue.StringExact("io2"), "class": knownvalue.StringExact("premium"), "min_size": knownvalue.Null(),
				})),
				dsCheck(cp, tfjsonpath.New("regions").AtMapKey("eu-west-1").AtMapKey("zones").AtMapKey("eu-west-1a").AtMapKey("usable_volume_types"),
					names("gp3")),
				dsCheck(ncp, tfjsonpath.New("parent"), knownvalue.StringExact("parent")),
				dsCheck(ncp, tfjsonpath.New("status_in_sync"), knownvalue.Bool(true)),
				// Without a filter every usable type counts, the namespaced profile's x1.metal included.
				dsCheck(ncp, tfjsonpath.New("regions").AtMapKey("local").AtMapKey("usable_machine_types"),
					names("m5.large", "m6g.large", "c6g.xlarge", "m6g.xlarge", "m6g.2xlarge", "x1.metal")),
				dsCheck(ncp, tfjsonpath.New("machine_types").AtMapKey("x1.metal").AtMapKey("architecture"), knownvalue.StringExact("amd64")),
				dsCheck(ncp, tfjsonpath.New("latest_kubernetes_versions_by_minor").AtMapKey("1.31"), knownvalue.StringExact("1.31.9")),
				dsCondition(ncp, 1, "ParentExists", "True", "", "ParentFound"),
				dsCondition(ncp, 2, "StatusInSync", "True", "", "StatusMatchesMerge"),
				dsCondition(cp, 1, "KubernetesVersionsSupported", "True", "", "EveryMinorSupported"),
			},
		}},
	})

	reads := fake.count("LIST", fakeAPI+"/namespaces/team/namespacedcloudprofiles/ncp")
	if reads == 0 {
		t.Fatal("no reads recorded")
	}
	// The parent is read by the CloudProfile lookup and gardener_cloud_profile; the namespaced lookup
	// takes it from the run's parent cache when one of them came first, else reads it itself.
	if got := fake.count("LIST", fakeAPI+"/cloudprofiles/parent"); got < 2*reads || got > 3*reads {
		t.Errorf("%d GETs of the CloudProfile, want %d to %d (two or three per read)", got, 2*reads, 3*reads)
	}
	// The run's release, for the CloudProfile's status_in_sync: one read per run.
	if got := fake.count("GET", fakeGardenerInfo); got != reads {
		t.Errorf("%d GETs of gardener-info, want %d (one per run)", got, reads)
	}
	if len(fake.seen) != 3 {
		t.Errorf("requests other than the reads of the two profiles and of gardener-info: %v", fake.seen)
	}
}

// TestEffectiveCloudProfile_BadReferences: a kind a Shoot cannot reference, and a
// NamespacedCloudProfile without namespace, are errors on the attribute, before any request.
func TestEffectiveCloudProfile_BadReferences(t *testing.T) {
	for name, c := range map[string]struct{ body, want string }{
		"unknown kind":      {`kind = "Shoot"` + "\n  name = \"x\"", `(?s)Invalid kind.*with data\.gardener_effective_cloud_profile\.this.*kind.*not "Shoot"`},
		"missing namespace": {`kind = "NamespacedCloudProfile"` + "\n  name = \"x\"", `(?s)Missing namespace.*namespace`},
	} {
		t.Run(name, func(t *testing.T) {
			resource.UnitTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				Steps: []resource.TestStep{{
					Config: `
provider "gardener" {
  host = "https://127.0.0.1:1"
}

data "gardener_effective_cloud_profile" "this" {
  ` + c.body + `
}
`,
					ExpectError: regexp.MustCompile(c.want),
				}},
			})
		})
	}
}
