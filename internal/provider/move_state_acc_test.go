package provider_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// movedStep applies config, whose `moved` block takes the state of a generic provider's resource
// over to address: the plan after the move (and its refresh) changes nothing, and the state is
// bound to the object the source managed (its UID).
func movedStep(config, address string, uid func() string) resource.TestStep {
	return resource.TestStep{
		Config:           config,
		ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(address, plancheck.ResourceActionNoop)}},
		ConfigStateChecks: []statecheck.StateCheck{
			statecheck.ExpectKnownValue(address, tfjsonpath.New("metadata").AtMapKey("uid"), knownvalue.StringFunc(func(v string) error {
				if want := uid(); v != want {
					return fmt.Errorf("uid %s, want %s (the object the moved resource managed)", v, want)
				}
				return nil
			})),
		},
	}
}

// TestAccMoveState_fromKubernetesManifest moves a kubernetes_manifest (hashicorp/kubernetes) of a
// CloudProfile, which that provider applied as field manager "Terraform" and whose state holds no
// UID (only a resource identity), to gardener_cloud_profile with a `moved` block (Terraform 1.8+):
// the state is bound to the object found by name.
func TestAccMoveState_fromKubernetesManifest(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	admin := acctest.Client(t)
	name := acctest.UniqueName("acc-move-km")
	created, err := acctest.ClientAs(t, "Terraform").ApplyCloudProfile(acctest.Context(t), minimalCloudProfile(name), kube.ApplyOptions{})
	if err != nil {
		t.Fatalf("creating the profile as kubernetes_manifest would: %v", err)
	}
	t.Cleanup(func() { _ = admin.DeleteCloudProfile(context.Background(), name, "") })
	manifest := fmt.Sprintf(`
resource "kubernetes_manifest" "profile" {
  manifest = {
    apiVersion = "core.gardener.cloud/v1beta1"
    kind       = "CloudProfile"
    metadata   = { name = %q, labels = { team = "acc" } }
    spec = {
      type           = "local"
      providerConfig = { apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [for image in ["gardenlinux", "ubuntu", "alpine", "suse", "rhel"] : { name = image, versions = [{ version = "1.0.0", image = "local/${image}" }] }] }
      kubernetes     = { versions = [{ version = "1.31.2", classification = "supported" }] }
      machineImages  = [{ name = "gardenlinux", versions = [{ version = "1877.3.0" }] }]
      machineTypes   = [{ name = "m5.large", cpu = "2", gpu = "0", memory = "8Gi" }]
      regions        = [{ name = "local" }]
    }
  }
}
`, name)
	target := acctest.ProviderBlock(kubeconfig) + fmt.Sprintf(`
resource "gardener_cloud_profile" "profile" {
  metadata = { name = %q, labels = { team = "acc" } }
  spec = {
    type           = "local"
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [for image in ["gardenlinux", "ubuntu", "alpine", "suse", "rhel"] : { name = image, versions = [{ version = "1.0.0", image = "local/${image}" }] }] })
    kubernetes     = { versions = { "1.31.2" = { classification = "supported" } } }
    machine_images = { "gardenlinux" = { versions = { "1877.3.0" = {} } } }
    machine_types  = { "m5.large" = { cpu = "2", gpu = "0", memory = "8Gi" } }
    regions        = { "local" = {} }
  }
}

moved {
  from = kubernetes_manifest.profile
  to   = gardener_cloud_profile.profile
}
`, name)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		ProtoV5ProviderFactories: manifestProviderFactories(kubectlWriter{}),
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_8_0)},
		CheckDestroy:             cloudProfileGone(admin, name),
		Steps: []resource.TestStep{
			{Config: manifest},
			movedStep(target, "gardener_cloud_profile.profile", func() string { return string(created.UID) }),
		},
	})
}

// TestAccMoveState_fromKubectlManifest moves a kubectl_manifest (alekc/kubectl) of a
// NamespacedCloudProfile, applied from YAML as field manager "kubectl", to
// gardener_namespaced_cloud_profile.
func TestAccMoveState_fromKubectlManifest(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	admin := acctest.Client(t)
	parent, name := acctest.UniqueName("acc-move-parent"), acctest.UniqueName("acc-move-kubectl")
	manifest := metadataCloudProfileConfig(kubeconfig, parent, "") + fmt.Sprintf(`
resource "kubectl_manifest" "team" {
  server_side_apply = true
  yaml_body         = <<-YAML
    apiVersion: core.gardener.cloud/v1beta1
    kind: NamespacedCloudProfile
    metadata:
      name: %s
      namespace: %s
    spec:
      parent:
        kind: CloudProfile
        name: ${gardener_cloud_profile.test.metadata.name}
      machineTypes:
      - name: x1.metal
        cpu: "96"
        gpu: "0"
        memory: 1Ti
  YAML
}
`, name, projectNamespace)
	target := metadataNamespacedConfig(kubeconfig, parent, name, "") + `
moved {
  from = kubectl_manifest.team
  to   = gardener_namespaced_cloud_profile.test
}
`
	uid := func() string {
		ncp, err := admin.GetNamespacedCloudProfile(context.Background(), projectNamespace, name)
		if err != nil {
			return "reading the NamespacedCloudProfile: " + err.Error()
		}
		return string(ncp.UID)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		ProtoV5ProviderFactories: manifestProviderFactories(kubectlAs(t)),
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_8_0)},
		CheckDestroy:             resource.ComposeTestCheckFunc(namespacedGone(admin, name), cloudProfileGone(admin, parent)),
		Steps: []resource.TestStep{
			{Config: manifest},
			movedStep(target, ncpAddr, uid),
		},
	})
}

// kubectlAs is how the stand-in kubectl_manifest writes to the local Garden.
func kubectlAs(t *testing.T) kubectlWriter {
	t.Helper()
	return kubectlWriter{apply: acctest.ClientAs(t, "kubectl"), create: webhookClient(t)}
}

// TestAccMoveState_fromKubectlManifestClientSideApply moves a kubectl_manifest of a CloudProfile
// created with kubectl's default client-side apply, whose object carries the last-applied
// annotation, to gardener_cloud_profile: the configuration leaves the annotation out, so the first
// apply after the move writes the object, which succeeds with no inconsistent result; it takes
// over the client-side manager's fields, so that the annotation leaves the Garden and only the
// provider's manager is left (read with a raw client); the next plan is empty and the state is
// bound to the same object.
func TestAccMoveState_fromKubectlManifestClientSideApply(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	admin := acctest.Client(t)
	name := acctest.UniqueName("acc-move-csa")
	manifest := acctest.ProviderBlock(kubeconfig) + fmt.Sprintf(`
resource "kubectl_manifest" "profile" {
  yaml_body = <<-YAML
    apiVersion: core.gardener.cloud/v1beta1
    kind: CloudProfile
    metadata:
      name: %s
    spec:
      type: local
      providerConfig:
        apiVersion: local.provider.extensions.gardener.cloud/v1alpha1
        kind: CloudProfileConfig
        machineImages:
        - name: gardenlinux
          versions:
          - version: 1.0.0
            image: local/gardenlinux
        - name: ubuntu
          versions:
          - version: 1.0.0
            image: local/ubuntu
        - name: alpine
          versions:
          - version: 1.0.0
            image: local/alpine
        - name: suse
          versions:
          - version: 1.0.0
            image: local/suse
        - name: rhel
          versions:
          - version: 1.0.0
            image: local/rhel
      kubernetes:
        versions:
        - version: 1.31.2
          classification: supported
      machineImages:
      - name: gardenlinux
        versions:
        - version: 1877.3.0
          classification: supported
          architectures: [amd64]
      machineTypes:
      - name: m5.large
        cpu: "2"
        gpu: "0"
        memory: 8Gi
      regions:
      - name: local
        zones:
        - name: local-a
  YAML
}
`, name)
	target := metadataCloudProfileConfig(kubeconfig, name, "") + `
moved {
  from = kubectl_manifest.profile
  to   = gardener_cloud_profile.test
}
`
	var uid string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		ProtoV5ProviderFactories: manifestProviderFactories(kubectlAs(t)),
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_8_0)},
		CheckDestroy:             cloudProfileGone(admin, name),
		Steps: []resource.TestStep{
			{Config: manifest, Check: func(*terraform.State) error {
				cp, err := admin.GetCloudProfile(context.Background(), name)
				if err != nil {
					return err
				}
				if cp.Annotations[lastAppliedAnnotation] == "" {
					return fmt.Errorf("the client-side apply left no %s annotation", lastAppliedAnnotation)
				}
				uid = string(cp.UID)
				return nil
			}},
			{
				Config:           target,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction("gardener_cloud_profile.test", plancheck.ResourceActionUpdate)}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("gardener_cloud_profile.test", tfjsonpath.New("metadata").AtMapKey("uid"), knownvalue.StringFunc(func(v string) error {
						if v != uid {
							return fmt.Errorf("uid %s, want %s (the object kubectl created)", v, uid)
						}
						return nil
					})),
				},
				Check: func(*terraform.State) error {
					stored := storedObject(t, "cloudprofiles", "", name)
					if annotations, _ := stored["metadata"].(map[string]any)["annotations"].(map[string]any); annotations[lastAppliedAnnotation] != nil {
						return fmt.Errorf("the first apply after the move left the %s annotation", lastAppliedAnnotation)
					}
					if owners := managedFieldsOf(t, stored); owners[clientSideManager+"/Update"] != "" {
						return fmt.Errorf("the client-side manager %s still has an entry after the first apply: %v", clientSideManager, owners)
					}
					return nil
				},
			},
		},
	})
}
