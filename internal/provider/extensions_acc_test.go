package provider_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
)

// localCapabilityProfile is a CloudProfile of type local with machine capabilities, whose
// provider_config maps the given versions of gardenlinux (provider-local then needs a mapping
// for every version and flavor).
func localCapabilityProfile(kubeconfig, name string, mapped ...string) string {
	var versions []string
	for _, v := range mapped {
		versions = append(versions, fmt.Sprintf(`{ version = %q, capabilityFlavors = [{ image = "local/gardenlinux:%s", capabilities = { architecture = ["amd64"] } }] }`, v, v))
	}
	return acctest.ProviderBlock(kubeconfig) + fmt.Sprintf(`
resource "gardener_cloud_profile" "test" {
  metadata = { name = %q }
  spec = {
    type                 = "local"
    machine_capabilities = [{ name = "architecture", values = ["amd64"] }]
    kubernetes           = { versions = { "1.31.2" = {} } }
    machine_images = { "gardenlinux" = { versions = {
      "1877.3.0" = {}
      "1592.9.0" = { classification = "deprecated" }
    } } }
    machine_types = { "m5.large" = { cpu = "2", gpu = "0", memory = "8Gi" } }
    regions       = { "local" = {} }
    provider_config = jsonencode({
      apiVersion    = "local.provider.extensions.gardener.cloud/v1alpha1"
      kind          = "CloudProfileConfig"
      machineImages = [{ name = "gardenlinux", versions = [%s] }]
    })
  }
}
`, name, strings.Join(versions, ", "))
}

// TestAccExtensions_validateFindsAVersionWithoutItsImage: terraform validate of a CloudProfile of
// type local whose provider_config lacks the image of one version fails on that version's
// attribute with provider-local's message and rule (EXT-LOCAL-11), without a Garden; with the
// mapping the profile validates, applies and plans no change.
func TestAccExtensions_validateFindsAVersionWithoutItsImage(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	name := acctest.UniqueName("acc-ext")
	w := newCLIWorkspace(t, localCapabilityProfile(kubeconfig, name, "1877.3.0"))
	w.destroyOnCleanup()
	out := oneLine(w.mustRun(1, "validate"))
	want := `spec.machine_images["gardenlinux"].versions["1592.9.0"] Extension Gardener v1.149.3 (provider-local): ` +
		`spec.providerConfig.machineImages[0].versions[1]: Required value: machine image version gardenlinux@1592.9.0 is not defined in the providerConfig (rule EXT-LOCAL-11)`
	if !strings.Contains(out, want) || strings.Count(out, "Error: ") != 1 {
		t.Errorf("validate of a version without its image: want one error on the version, got:\n%s", out)
	}
	w.write(localCapabilityProfile(kubeconfig, name, "1877.3.0", "1592.9.0"))
	w.mustRun(0, "validate")
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))
	w.mustRun(0, "plan", "-detailed-exitcode")
}

// TestAccExtensions_namespacedProfileMapsWhatItAdds: a NamespacedCloudProfile of a local parent
// that adds an image version without its image in the project's provider_config fails at plan on
// that version (EXT-LOCAL-14), and nothing is created; one that only gives an inherited version
// another expiration date needs no mapping; one that maps the version it adds applies.
func TestAccExtensions_namespacedProfileMapsWhatItAdds(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	parent, name := acctest.UniqueName("acc-ext-parent"), acctest.UniqueName("acc-ext")
	config := func(images, extra string) string {
		return cloudProfileConfig(kubeconfig, parent, "", "", "") + fmt.Sprintf(`
resource "gardener_namespaced_cloud_profile" "test" {
  metadata = { name = %q, namespace = %q }
  spec = {
    parent         = { kind = "CloudProfile", name = gardener_cloud_profile.test.metadata.name }
    machine_images = %s
    %s
  }
}
`, name, projectNamespace, images, extra)
	}
	w := newCLIWorkspace(t, config(`{ "gardenlinux" = { versions = { "1877.3.0" = { expiration_date = "2099-01-01T00:00:00Z" } } } }`, ""))
	w.destroyOnCleanup()
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))

	added := `{ "gardenlinux" = { versions = { "1900.0.0" = { cri = { containerd = {} }, architectures = ["amd64"] } } } }`
	w.write(config(added, ""))
	out := oneLine(w.mustRun(1, "plan"))
	want := regexp.MustCompile(`spec\.machine_images\["gardenlinux"\]\.versions\["1900\.0\.0"\] .*machine image version gardenlinux@1900\.0\.0 is not defined in the NamespacedCloudProfile providerConfig \(rule EXT-LOCAL-14\)`)
	if !want.MatchString(out) {
		t.Errorf("an added version without its image: want the error on the version, got:\n%s", out)
	}
	w.write(config(added, `provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [{ name = "gardenlinux", versions = [{ version = "1900.0.0", image = "local/gardenlinux:1900.0.0" }] }] })`))
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))
	w.mustRun(0, "plan", "-detailed-exitcode")
}

// oneLine is the CLI's output with every run of white space (its line wrapping) as one space.
func oneLine(out string) string {
	return strings.Join(strings.Fields(out), " ")
}

// awsProfile is a CloudProfile of type aws whose provider_config maps its one image version to an
// AMI in its region; kind is the provider_config's kind line ("" for none).
func awsProfile(kubeconfig, name, kind string) string {
	return acctest.ProviderBlock(kubeconfig) + fmt.Sprintf(`
resource "gardener_cloud_profile" "test" {
  metadata = { name = %q }
  spec = {
    type           = "aws"
    kubernetes     = { versions = { "1.31.2" = {} } }
    machine_images = { "gardenlinux" = { versions = { "1877.3.0" = {} } } }
    machine_types  = { "m5.large" = { cpu = "2", gpu = "0", memory = "8Gi" } }
    regions        = { "eu-west-1" = {} }
    provider_config = jsonencode({
      apiVersion    = "aws.provider.extensions.gardener.cloud/v1alpha1"
      %s
      machineImages = [{ name = "gardenlinux", versions = [{ version = "1877.3.0", regions = [{ name = "eu-west-1", ami = "ami-0123456789abcdef0" }] }] }]
    })
  }
}
`, name, kind)
}

// TestAccExtensions_validateRejectsAnAWSProviderConfigWithoutKind: terraform validate of an AWS
// CloudProfile whose provider_config has apiVersion and a complete image mapping but no kind fails
// on spec.provider_config with the AWS validating webhook's message (EXT-AWS-2), as apply would;
// with kind it validates.
func TestAccExtensions_validateRejectsAnAWSProviderConfigWithoutKind(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	name := acctest.UniqueName("acc-ext-aws")
	w := newCLIWorkspace(t, awsProfile(kubeconfig, name, ""))
	out := w.mustRun(1, "validate")
	want := fmt.Sprintf(`spec.provider_config Extension gardener-extension-provider-aws v1.73.0: spec.providerConfig: Internal error: `+
		`could not decode providerConfig of CloudProfile %q: Object 'Kind' is missing in '{"apiVersion":"aws.provider.extensions.gardener.cloud/v1alpha1",`+
		`"machineImages":[{"name":"gardenlinux","versions":[{"regions":[{"ami":"ami-0123456789abcdef0","name":"eu-west-1"}],"version":"1877.3.0"}]}]}' (rule EXT-AWS-2)`, name)
	if !strings.Contains(oneLine(out), want) || strings.Count(out, "Error: ") != 1 {
		t.Errorf("validate of a provider config without kind: want one error with\n  %s\ngot:\n%s", want, out)
	}
	t.Logf("validate:\n%s", out)
	w.write(awsProfile(kubeconfig, name, `kind = "CloudProfileConfig"`))
	w.mustRun(0, "validate")
}
