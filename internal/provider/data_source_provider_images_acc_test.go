package provider_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// imageProfile is a CloudProfile of the provider type with gardenlinux 1877.3.0 (amd64 and arm64)
// and 1950.0.0 (of archs1950), both supported, in the regions, with the provider config.
func imageProfile(name, providerType, config string, archs1950 []string, regions ...string) *gardencorev1beta1.CloudProfile {
	cp := minimalCloudProfile(name)
	cp.Spec.Type = providerType
	supported := dsClass(gardencorev1beta1.ClassificationSupported)
	cp.Spec.MachineImages[0].Versions = []gardencorev1beta1.MachineImageVersion{
		{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1877.3.0", Classification: supported}, Architectures: []string{"amd64", "arm64"}},
		{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1950.0.0", Classification: supported}, Architectures: archs1950},
	}
	cp.Spec.Regions = nil
	for _, r := range regions {
		cp.Spec.Regions = append(cp.Spec.Regions, gardencorev1beta1.Region{Name: r})
	}
	cp.Spec.ProviderConfig = &runtime.RawExtension{Raw: []byte(config)}
	return cp
}

// imageModule is the arguments of examples/shoot-module-image for a CloudProfile.
func imageModule(profile, region, arch string) string {
	return fmt.Sprintf(`cloud_profile = { name = %q }
  region        = %q
  architecture  = %q
  at            = "2026-06-01T00:00:00Z"`, profile, region, arch)
}

// imageCheck is the machine_image output of examples/shoot-module-image.
func imageCheck(version, providerImage string) knownvalue.Check {
	return knownvalue.ObjectExact(map[string]knownvalue.Check{
		"name": knownvalue.StringExact("gardenlinux"), "version": knownvalue.StringExact(version), "provider_image": knownvalue.StringExact(providerImage),
	})
}

// TestAccDataSourceShootModuleImageExample_picksTheNewestVersionWithAnImageInTheRegion runs
// examples/shoot-module-image, whose expression is "the newest supported gardenlinux version
// with an image in the region for the architecture", against a profile of type local (whose
// images serve every region; 1950.0.0 is amd64 only) and one of type aws (AMIs per region and
// architecture; the Garden runs no aws extension): it picks the version and names its image, and a region without
// an image fails the plan.
func TestAccDataSourceShootModuleImageExample_picksTheNewestVersionWithAnImageInTheRegion(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	client := acctest.Client(t)
	local, aws := acctest.UniqueName("acc-img-local"), acctest.UniqueName("acc-img-aws")
	for _, cp := range []*gardencorev1beta1.CloudProfile{
		imageProfile(local, "local", `{"apiVersion":"local.provider.extensions.gardener.cloud/v1alpha1","kind":"CloudProfileConfig","machineImages":[{"name":"gardenlinux","versions":[`+
			`{"version":"1877.3.0","image":"local/gardenlinux:1877.3.0"},{"version":"1950.0.0","image":"local/gardenlinux:1950.0.0"}]}]}`, []string{"amd64"}, "local"),
		imageProfile(aws, "aws", `{"apiVersion":"aws.provider.extensions.gardener.cloud/v1alpha1","kind":"CloudProfileConfig","machineImages":[{"name":"gardenlinux","versions":[`+
			`{"version":"1877.3.0","regions":[{"name":"eu-west-1","ami":"ami-1877-amd64"},{"name":"eu-west-1","ami":"ami-1877-arm64","architecture":"arm64"}]},`+
			`{"version":"1950.0.0","regions":[{"name":"eu-west-1","ami":"ami-1950-amd64"},{"name":"us-east-1","ami":"ami-1950-arm64","architecture":"arm64"}]}]}]}`,
			[]string{"amd64", "arm64"}, "eu-west-1", "us-east-1"),
	} {
		if _, err := client.ApplyCloudProfile(acctest.Context(t), cp, kube.ApplyOptions{}); err != nil {
			t.Fatalf("creating CloudProfile %s: %v", cp.Name, err)
		}
		t.Cleanup(func() { _ = client.DeleteCloudProfile(acctest.Context(t), cp.Name, "") })
	}
	// The module declares gardener-community/gardener; serve the provider under that address.
	t.Setenv("TF_ACC_PROVIDER_NAMESPACE", "gardener-community")
	resource.Test(t, resource.TestCase{
		Steps: []resource.TestStep{{
			ProtoV6ProviderFactories: acctest.ProviderFactories(),
			ConfigFile: exampleModulesConfig(t, kubeconfig, "shoot-module-image", map[string]string{
				"local_arm":  imageModule(local, "local", "arm64"),
				"local_amd":  imageModule(local, "local", "amd64"),
				"aws_eu_arm": imageModule(aws, "eu-west-1", "arm64"),
				"aws_us_arm": imageModule(aws, "us-east-1", "arm64"),
				"aws_eu_amd": imageModule(aws, "eu-west-1", "amd64"),
			}, "machine_image"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("local_arm_machine_image", imageCheck("1877.3.0", "local/gardenlinux:1877.3.0")),
				statecheck.ExpectKnownOutputValue("local_amd_machine_image", imageCheck("1950.0.0", "local/gardenlinux:1950.0.0")),
				statecheck.ExpectKnownOutputValue("aws_eu_arm_machine_image", imageCheck("1877.3.0", "ami-1877-arm64")),
				statecheck.ExpectKnownOutputValue("aws_us_arm_machine_image", imageCheck("1950.0.0", "ami-1950-arm64")),
				statecheck.ExpectKnownOutputValue("aws_eu_amd_machine_image", imageCheck("1950.0.0", "ami-1950-amd64")),
			},
		}, {
			// No AMI in ap-south-1: the module's precondition fails the plan.
			ProtoV6ProviderFactories: acctest.ProviderFactories(),
			ConfigFile: exampleModulesConfig(t, kubeconfig, "shoot-module-image", map[string]string{
				"aws_nowhere": imageModule(aws, "ap-south-1", "arm64"),
			}, "machine_image"),
			ExpectError: regexp.MustCompile(`has\s+no\s+supported\s+gardenlinux\s+version\s+with\s+an\s+image\s+in\s+ap-south-1\s+for\s+arm64`),
		}, {
			// terraform-plugin-testing cannot read state with modules when the test ends: leave none.
			ProtoV6ProviderFactories: acctest.ProviderFactories(),
			ConfigFile:               exampleModulesConfig(t, kubeconfig, "shoot-module-image", nil),
		}},
	})
}

// TestAccProviderImages_checkFindsAVersionMissingInARegion runs the check of the provider
// extensions guide (examples/guides/provider-extensions/images_in_every_region.tf) against a
// profile of type aws whose AMIs cover each architecture of a version in one region only, which
// the extension's admission accepts: the plan warns about every version, architecture and region
// without an AMI, and names none that has one.
func TestAccProviderImages_checkFindsAVersionMissingInARegion(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	client := acctest.Client(t)
	name := acctest.UniqueName("acc-img-check")
	cp := imageProfile(name, "aws", `{"apiVersion":"aws.provider.extensions.gardener.cloud/v1alpha1","kind":"CloudProfileConfig","machineImages":[{"name":"gardenlinux","versions":[`+
		`{"version":"1877.3.0","regions":[{"name":"eu-west-1","ami":"ami-1877-amd64"},{"name":"eu-west-1","ami":"ami-1877-arm64","architecture":"arm64"},`+
		`{"name":"us-east-1","ami":"ami-1877-amd64-us"},{"name":"us-east-1","ami":"ami-1877-arm64-us","architecture":"arm64"}]},`+
		`{"version":"1950.0.0","regions":[{"name":"eu-west-1","ami":"ami-1950-amd64"},{"name":"us-east-1","ami":"ami-1950-arm64","architecture":"arm64"}]}]}]}`,
		[]string{"amd64", "arm64"}, "eu-west-1", "us-east-1")
	if _, err := client.ApplyCloudProfile(acctest.Context(t), cp, kube.ApplyOptions{}); err != nil {
		t.Fatalf("creating CloudProfile %s: %v", name, err)
	}
	t.Cleanup(func() { _ = client.DeleteCloudProfile(acctest.Context(t), name, "") })
	example, err := os.ReadFile(filepath.Join("..", "..", "examples", "guides", "provider-extensions", "images_in_every_region.tf"))
	if err != nil {
		t.Fatal(err)
	}
	config := strings.Replace(string(example), `name = "aws"`, fmt.Sprintf("name = %q", name), 1)
	w := newCLIWorkspace(t, acctest.ProviderBlock(kubeconfig)+config)
	out := w.mustRun(0, "plan")
	requireNoProviderBug(t, out)
	flat := strings.Join(strings.Fields(out), " ")
	if !strings.Contains(flat, "No image of the provider extension for: gardenlinux 1950.0.0 amd64 in us-east-1, gardenlinux 1950.0.0 arm64 in eu-west-1.") {
		t.Errorf("the check does not name exactly the two missing AMIs:\n%s", out)
	}
}
