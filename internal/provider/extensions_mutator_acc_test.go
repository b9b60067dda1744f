package provider_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	admissionv1 "k8s.io/api/admission/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/aws"
)

// awsMutatorConfig is the provider_config of the aws profile of TestAccExtensions_: an AMI per
// architecture for gardenlinux 1877.3.0 in eu-west-1, from which the aws mutator fills the
// version's capability flavors.
const awsMutatorConfig = `{"apiVersion":"aws.provider.extensions.gardener.cloud/v1alpha1","kind":"CloudProfileConfig","machineImages":[` +
	`{"name":"gardenlinux","versions":[{"version":"1877.3.0","regions":[{"name":"eu-west-1","ami":"ami-1"},{"name":"eu-west-1","ami":"ami-2","architecture":"arm64"}]}]}]}`

// TestAccExtensions_theAWSMutatorsFlavorsArePlannedOffline: a stand-in for the CloudProfile
// mutating webhook of gardener-extension-provider-aws (the extension's own module is not served
// here) fills the capability flavors of a version that sets none from the AMIs of its
// provider_config, as the extension does (package extensions/aws, whose tables hold what the real
// webhook stores). With server_checks = false the plan is the offline prediction alone: it plans
// both flavors, the apply stores them and matches the plan (no inconsistent result), the object read
// with a raw client holds them, and the next plan is empty.
func TestAccExtensions_theAWSMutatorsFlavorsArePlannedOffline(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	admin := acctest.Client(t)
	label := acctest.UniqueName("aws-mutator")
	startWebhook(t, label, true, func(_ *testing.T, cp *gardencorev1beta1.CloudProfile) *admissionv1.AdmissionResponse {
		mutated := aws.MutateCloudProfile(cp.Spec)
		if reflect.DeepEqual(mutated.MachineImages, cp.Spec.MachineImages) {
			return &admissionv1.AdmissionResponse{Allowed: true}
		}
		patch, _ := json.Marshal([]map[string]any{{"op": "replace", "path": "/spec/machineImages", "value": mutated.MachineImages}})
		return &admissionv1.AdmissionResponse{Allowed: true, Patch: patch, PatchType: ptr.To(admissionv1.PatchTypeJSONPatch)}
	})
	probe := minimalCloudProfile(acctest.UniqueName("acc-probe"))
	probe.Labels = map[string]string{webhookLabel: label}
	probe.Spec = awsMutatorProfileSpec()
	waitForWebhook(t, probe, func(cp *gardencorev1beta1.CloudProfile, err error) bool {
		return err == nil && len(cp.Spec.MachineImages[0].Versions[0].CapabilityFlavors) == 2
	})
	name := acctest.UniqueName("acc-aws-mutator")
	config := fmt.Sprintf(`
provider "gardener" {
  config_path   = %q
  server_checks = false
}

resource "gardener_cloud_profile" "test" {
  metadata = { name = %q, labels = { %q = %q } }
  spec = {
    type                 = "aws"
    machine_capabilities = [{ name = "architecture", values = ["amd64", "arm64"] }]
    kubernetes           = { versions = { "1.31.2" = {} } }
    machine_images       = { "gardenlinux" = { versions = { "1877.3.0" = {} } } }
    machine_types        = { "m5.large" = { cpu = "2", gpu = "0", memory = "8Gi", capabilities = { architecture = ["amd64"] } } }
    regions              = { "eu-west-1" = {} }
    provider_config      = %q
  }
}
`, kubeconfig, name, webhookLabel, label, awsMutatorConfig)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		CheckDestroy:             cloudProfileGone(admin, name),
		Steps: []resource.TestStep{{
			Config: config,
			Check: func(*terraform.State) error {
				got := getCloudProfile(t, admin, name).Spec.MachineImages[0].Versions[0].CapabilityFlavors
				want := []gardencorev1beta1.MachineImageFlavor{
					{Capabilities: gardencorev1beta1.Capabilities{"architecture": {"amd64"}}},
					{Capabilities: gardencorev1beta1.Capabilities{"architecture": {"arm64"}}},
				}
				if !reflect.DeepEqual(got, want) {
					return fmt.Errorf("stored capability flavors %v, want the mutator's %v", got, want)
				}
				return nil
			},
		}},
	})
}

// awsMutatorProfileSpec is the spec of awsMutatorConfig's profile, for the webhook's probe.
func awsMutatorProfileSpec() gardencorev1beta1.CloudProfileSpec {
	spec := minimalCloudProfile("").Spec
	spec.Type = "aws"
	spec.MachineCapabilities = []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"amd64", "arm64"}}}
	spec.Regions = []gardencorev1beta1.Region{{Name: "eu-west-1"}}
	for i := range spec.MachineTypes {
		spec.MachineTypes[i].Architecture = nil
		spec.MachineTypes[i].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"amd64"}}
	}
	spec.MachineImages = []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: []gardencorev1beta1.MachineImageVersion{
		{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1877.3.0"}},
	}}}
	spec.ProviderConfig = &runtime.RawExtension{Raw: []byte(awsMutatorConfig)}
	return spec
}
