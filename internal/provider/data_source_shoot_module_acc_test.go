package provider_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// shootModuleConfig writes a configuration that calls examples/shoot-module once per entry of
// modules into a file (see exampleModulesConfig).
func shootModuleConfig(t *testing.T, kubeconfig string, modules map[string]string) config.TestStepConfigFunc {
	return exampleModulesConfig(t, kubeconfig, "shoot-module", modules, "kubernetes_version", "worker")
}

// exampleModulesConfig writes a configuration that calls the module examples/<example> once per
// entry of modules (name and arguments) into a file, with an output <name>_<output> of each of
// the module's outputs named. (terraform-plugin-testing runs terraform init with a step's
// configuration only when it comes from a file or directory; modules need that init.)
func exampleModulesConfig(t *testing.T, kubeconfig, example string, modules map[string]string, outputs ...string) config.TestStepConfigFunc {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "examples", example))
	if err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf(`
terraform {
  required_providers {
    gardener = { source = "gardener-community/gardener" }
  }
}

provider "gardener" {
  config_path = %q
}
`, kubeconfig)
	for name, body := range modules {
		cfg += fmt.Sprintf(`
module %[1]q {
  source = %[2]q
  %[3]s
}
`, name, dir, body)
		for _, o := range outputs {
			cfg += fmt.Sprintf("output \"%[1]s_%[2]s\" { value = module.%[1]s.%[2]s }\n", name, o)
		}
	}
	file := filepath.Join(t.TempDir(), "main.tf")
	if err := os.WriteFile(file, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return config.StaticFile(file)
}

func workerCheck(machineType, arch, imageVersion string, zones ...string) knownvalue.Check {
	zoneChecks := make([]knownvalue.Check, len(zones))
	for i, z := range zones {
		zoneChecks[i] = knownvalue.StringExact(z)
	}
	return knownvalue.ObjectExact(map[string]knownvalue.Check{
		"machine": knownvalue.ObjectExact(map[string]knownvalue.Check{
			"type":         knownvalue.StringExact(machineType),
			"architecture": knownvalue.StringExact(arch),
			"image": knownvalue.ObjectExact(map[string]knownvalue.Check{
				"name": knownvalue.StringExact("gardenlinux"), "version": knownvalue.StringExact(imageVersion),
			}),
		}),
		"cri":   knownvalue.ObjectExact(map[string]knownvalue.Check{"name": knownvalue.StringExact("containerd")}),
		"zones": knownvalue.ListExact(zoneChecks),
	})
}

// TestAccDataSourceShootModuleExample_picksVersionImageAndMachineType runs examples/shoot-module
// against a CloudProfile and a NamespacedCloudProfile, each given as a Shoot references it: it
// picks the newest supported Kubernetes version (of a minor), the newest supported image version
// and the smallest usable machine type of the architecture with enough CPUs, in the zones that
// offer it, and fails the plan when the profile offers none.
func TestAccDataSourceShootModuleExample_picksVersionImageAndMachineType(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	client := acctest.Client(t)
	parentName, name := acctest.UniqueName("acc-ds-mod"), acctest.UniqueName("acc-ds-modncp")
	if _, err := client.ApplyCloudProfile(acctest.Context(t), lifecycleCloudProfile(parentName), kube.ApplyOptions{}); err != nil {
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
	// The module declares gardener-community/gardener; serve the provider under that address.
	t.Setenv("TF_ACC_PROVIDER_NAMESPACE", "gardener-community")
	cloudProfile := fmt.Sprintf(`cloud_profile = { name = %q }
  namespace     = %q`, parentName, dsNamespace) // a CloudProfile ignores the shoot's namespace
	namespaced := fmt.Sprintf(`cloud_profile = { kind = "NamespacedCloudProfile", name = %q }
  namespace     = %q`, name, dsNamespace)

	// Providers are given per step, as the configuration files have their own provider block.
	resource.Test(t, resource.TestCase{
		Steps: []resource.TestStep{
			{
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				ConfigFile: shootModuleConfig(t, kubeconfig, map[string]string{
					// m6g.large, the only arm64 type, is unavailable in eu-west-1a.
					"arm": cloudProfile + `
  region        = "eu-west-1"
  architecture  = "arm64"
  at            = "2029-06-01T00:00:00Z"`,
					"minor": cloudProfile + `
  region           = "eu-west-1"
  kubernetes_minor = "1.31"
  at               = "2029-06-01T00:00:00Z"`,
					// In July 2030 the parent's 1.31.9 has expired, the team's has not.
					"team": namespaced + `
  region           = "local"
  kubernetes_minor = "1.31"
  at               = "2030-07-01T00:00:00Z"`,
					// Only the namespaced profile has a type with 8 CPUs or more.
					"team_big": namespaced + `
  region  = "local"
  min_cpu = 8
  at      = "2030-07-01T00:00:00Z"`,
				}),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownOutputValue("arm_kubernetes_version", knownvalue.StringExact("1.32.4")),
					statecheck.ExpectKnownOutputValue("arm_worker", workerCheck("m6g.large", "arm64", "1877.3.0", "eu-west-1b")),
					statecheck.ExpectKnownOutputValue("minor_kubernetes_version", knownvalue.StringExact("1.31.9")),
					statecheck.ExpectKnownOutputValue("minor_worker", workerCheck("m5.large", "amd64", "1877.3.0", "eu-west-1a", "eu-west-1b")),
					statecheck.ExpectKnownOutputValue("team_kubernetes_version", knownvalue.StringExact("1.31.9")),
					statecheck.ExpectKnownOutputValue("team_worker", workerCheck("m5.large", "amd64", "1877.3.0")),
					statecheck.ExpectKnownOutputValue("team_big_worker", workerCheck("x1.metal", "amd64", "1877.3.0")),
				},
			},
			{
				// The parent itself has no supported 1.31 version in July 2030: the plan fails.
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				ConfigFile: shootModuleConfig(t, kubeconfig, map[string]string{
					"parent": cloudProfile + `
  region           = "local"
  kubernetes_minor = "1.31"
  at               = "2030-07-01T00:00:00Z"`,
				}),
				ExpectError: regexp.MustCompile(`has no supported Kubernetes version\s+in\s+1\.31`),
			},
			{
				// A worker pool spanning eu-west-1a gets no arm64 type: the plan fails.
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				ConfigFile: shootModuleConfig(t, kubeconfig, map[string]string{
					"arm_a": namespaced + `
  region       = "eu-west-1"
  zones        = ["eu-west-1a", "eu-west-1b"]
  architecture = "arm64"
  at           = "2029-06-01T00:00:00Z"`,
				}),
				ExpectError: regexp.MustCompile(`has\s+no\s+usable\s+arm64\s+machine\s+type\s+with\s+1\s+CPUs\s+in\s+eu-west-1\s+\(zones\s+eu-west-1a,\s+eu-west-1b\)`),
			},
			{
				// terraform-plugin-testing cannot read state with modules when the test ends:
				// leave none behind.
				ProtoV6ProviderFactories: acctest.ProviderFactories(),
				ConfigFile:               shootModuleConfig(t, kubeconfig, nil),
			},
		},
	})
}
