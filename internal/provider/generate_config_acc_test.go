package provider_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/go-version"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
	k8sresource "k8s.io/apimachinery/pkg/api/resource"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// skipTerraform1160 skips a test of an import block without `provider` on Terraform 1.16.0, which
// ignores required_providers there and looks for hashicorp/gardener (fixed after 1.16.0; the
// onboarding guide gives the workaround, `provider = gardener` in the import block).
var skipTerraform1160 = tfversion.SkipBetween(version.Must(version.NewVersion("1.16.0")), version.Must(version.NewVersion("1.16.1")))

// skipOpenTofuGeneratedKeys skips a test of generated configuration on OpenTofu: OpenTofu 1.12.6
// writes the keys of a map attribute without quotes, and cannot read a key that is no identifier,
// such as the version key "1.31.2" of spec.kubernetes.versions ("Invalid number literal"), so it
// writes no file. TestAccOnboarding_openTofuStateShowGivesTheConfiguration holds what the
// onboarding guide tells OpenTofu users to do instead.
func skipOpenTofuGeneratedKeys(t *testing.T) {
	t.Helper()
	if isOpenTofu() {
		t.Skip("OpenTofu 1.12 writes map keys without quotes in generated configuration")
	}
}

// isOpenTofu tells whether the acceptance tests run on OpenTofu.
func isOpenTofu() bool {
	return os.Getenv("TF_ACC_PROVIDER_HOST") == "registry.opentofu.org" || filepath.Base(os.Getenv("TF_ACC_TERRAFORM_PATH")) == "tofu"
}

// readOnlyLine is a line of `state show` that sets an attribute only the provider sets, or shows
// a write-only one (force_conflicts): the onboarding guide tells users to delete these lines.
var readOnlyLine = regexp.MustCompile(`(?m)^\s*((id|uid|resource_version|generation)\s+=.*|\w+\s+=\s+\(write-only attribute\))\n`)

// TestAccOnboarding_openTofuStateShowGivesTheConfiguration: what the onboarding guide says about
// generated configuration on OpenTofu. There `plan -generate-config-out` fails on the unquoted keys
// it writes ("Invalid number literal") and writes no file; an import into an empty resource block
// and `state show`, without the lines of the read-only attributes, give a configuration whose plan
// is empty, on every CLI.
func TestAccOnboarding_openTofuStateShowGivesTheConfiguration(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	admin := acctest.Client(t)
	name := acctest.UniqueName("acc-tofu-show")
	cp := minimalCloudProfile(name)
	cp.Spec.Regions[0].Zones = []gardencorev1beta1.AvailabilityZone{{Name: "local-a"}, {Name: "local-b", UnavailableMachineTypes: []string{"m5.large"}}}
	if _, err := acctest.ClientAs(t, "image-pipeline").ApplyCloudProfile(acctest.Context(t), cp, kube.ApplyOptions{}); err != nil {
		t.Fatalf("creating CloudProfile %s: %v", name, err)
	}
	t.Cleanup(func() { _ = admin.DeleteCloudProfile(context.Background(), name, "") })
	const address = "gardener_cloud_profile.imported"

	w := newCLIWorkspace(t, acctest.ProviderBlock(kubeconfig)+fmt.Sprintf("import {\n  to = %s\n  id = %q\n}\n", address, name))
	if w.h.openTofu {
		out, code := w.run("plan", "-generate-config-out=generated.tf")
		if code == 0 || !strings.Contains(out, "Invalid number literal") {
			t.Errorf("OpenTofu now generates configuration (exit %d): update the onboarding guide and skipOpenTofuGeneratedKeys:\n%s", code, out)
		}
		if _, err := os.Stat(filepath.Join(w.dir, "generated.tf")); err == nil {
			t.Errorf("OpenTofu wrote generated.tf: update the onboarding guide")
		}
	}

	w.write(acctest.ProviderBlock(kubeconfig) + fmt.Sprintf("resource %q %q {}\n", "gardener_cloud_profile", "imported"))
	w.mustRun(0, "import", address, name)
	shown := w.mustRun(0, "state", "show", address)
	_, block, found := strings.Cut(shown, "\nresource ")
	if !found {
		t.Fatalf("state show printed no resource block:\n%s", shown)
	}
	resourceBlock := readOnlyLine.ReplaceAllString("resource "+block, "")
	w.write(acctest.ProviderBlock(kubeconfig) + resourceBlock)
	out := w.mustRun(0, "plan", "-detailed-exitcode")
	requireNoProviderBug(t, out)
	w.mustRun(0, "state", "rm", address) // the object is the test's, not the workspace's
}

// generateConfigStep imports the object with an import block and `plan -generate-config-out`;
// terraform-plugin-testing fails the step unless the plan with the generated configuration is a
// no-op import.
func generateConfigStep(address, id, config string) resource.TestStep {
	return resource.TestStep{
		Config:          config,
		ResourceName:    address,
		ImportState:     true,
		ImportStateKind: resource.ImportBlockWithID,
		ImportStateId:   id,
		GenerateConfig:  true,
	}
}

// TestAccGenerateConfig_bothKinds: for a CloudProfile and a NamespacedCloudProfile this provider
// created, the configuration Terraform generates for an import block plans empty.
func TestAccGenerateConfig_bothKinds(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	skipOpenTofuGeneratedKeys(t)
	client := acctest.Client(t)
	parent, name := acctest.UniqueName("acc-gen-parent"), acctest.UniqueName("acc-gen-ncp")
	config := acctest.RequiredProviders() + metadataNamespacedConfig(kubeconfig, parent, name, `labels = { team = "a" }`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_5_0), skipTerraform1160},
		CheckDestroy:             resource.ComposeTestCheckFunc(namespacedGone(client, name), cloudProfileGone(client, parent)),
		Steps: []resource.TestStep{
			{Config: config},
			generateConfigStep(cpAddr, parent, config),
			generateConfigStep(ncpAddr, projectNamespace+"/"+name, config),
		},
	})
}

// TestAccGenerateConfig_coOwnedProfile: a CloudProfile this provider's field manager applied (a
// workspace whose state was lost) to which a colleague added a machine type and a label. The
// generated configuration holds what the provider's field manager owns and plans empty.
func TestAccGenerateConfig_coOwnedProfile(t *testing.T) {
	skipOpenTofuGeneratedKeys(t)
	kubeconfig := acctest.Kubeconfig(t)
	admin := acctest.Client(t)
	name := acctest.UniqueName("acc-gen-coowned")
	ours := minimalCloudProfile(name)
	if _, err := acctest.ClientAs(t, kube.DefaultFieldManager).ApplyCloudProfile(acctest.Context(t), ours, kube.ApplyOptions{}); err != nil {
		t.Fatalf("applying the profile as %s: %v", kube.DefaultFieldManager, err)
	}
	t.Cleanup(func() { _ = admin.DeleteCloudProfile(context.Background(), name, "") })
	theirs := minimalCloudProfile(name)
	theirs.Labels["owner"] = "colleague"
	theirs.Spec.MachineTypes = append(theirs.Spec.MachineTypes, gardencorev1beta1.MachineType{
		Name: "m5.xlarge", CPU: k8sresource.MustParse("4"), GPU: k8sresource.MustParse("0"), Memory: k8sresource.MustParse("16Gi"),
	})
	if _, err := acctest.ClientAs(t, "colleague").ApplyCloudProfile(acctest.Context(t), theirs, kube.ApplyOptions{}); err != nil {
		t.Fatalf("applying the colleague's additions: %v", err)
	}
	const address = "gardener_cloud_profile.imported"
	step := generateConfigStep(address, name, acctest.RequiredProviders()+acctest.ProviderBlock(kubeconfig))
	// The planned values are the generated configuration's: without the colleague's additions.
	step.ImportPlanChecks.PreApply = []plancheck.PlanCheck{
		plancheck.ExpectKnownValue(address, tfjsonpath.New("metadata").AtMapKey("labels"),
			knownvalue.MapExact(map[string]knownvalue.Check{"team": knownvalue.StringExact("acc")})),
		plancheck.ExpectKnownValue(address, tfjsonpath.New("spec").AtMapKey("machine_types"), knownvalue.MapSizeExact(1)),
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_5_0), skipTerraform1160},
		Steps:                    []resource.TestStep{step},
	})
}
