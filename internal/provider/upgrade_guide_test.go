package provider_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// The guide "Upgrading to the map schema" gives a for expression for every keyed collection and a
// module (examples/upgrade-to-maps) that converts a whole spec of the list schema. These tests run
// both through the terraform CLI, without a Garden, and compare what they give with the spec
// written in the map schema by hand.

// listFormCloudProfileSpec and listFormNamespacedSpec are the specs of keyedProfiles as the list
// schema had them (schema version 1), with every kind of keyed collection: versions, images with
// versions, cri and container_runtimes, machine and volume types, regions with zones. parent is
// the expression of the NamespacedCloudProfile's parent name.
const listFormCloudProfileSpec = `{
    type = "local"
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [for image in ["gardenlinux", "ubuntu", "alpine", "suse", "rhel"] : { name = image, versions = [{ version = "1.0.0", image = "local/${image}" }] }] })
    kubernetes = { versions = [
      { version = "1.31.2", classification = "supported" },
      { version = "1.30.5", classification = "deprecated", expiration_date = "2099-01-01T00:00:00Z" },
    ] }
    machine_images = [
      { name = "gardenlinux", versions = [
        { version = "1877.3.0", architectures = ["amd64", "arm64"] },
        { version = "1592.9.0", cri = [{ name = "containerd", container_runtimes = [{ type = "gvisor" }] }] },
      ] },
      { name = "alpine", update_strategy = "minor", versions = [{ version = "3.20.0" }] },
    ]
    machine_types = [
      { name = "m6g.large", cpu = "2", gpu = "0", memory = "8Gi", architecture = "arm64" },
      { name = "c5.large", cpu = "2", gpu = "0", memory = "4Gi" },
    ]
    volume_types = [{ name = "gp3", class = "standard" }, { name = "io1", class = "premium", usable = false }]
    regions = [
      { name = "us-east-1", zones = [{ name = "us-east-1b" }, { name = "us-east-1a", unavailable_machine_types = ["m6g.large"] }] },
      { name = "eu-west-1", access_restrictions = [{ name = "eu-access-only" }] },
    ]
  }`

func listFormNamespacedSpec(parent string) string {
	return `{
    parent          = { kind = "CloudProfile", name = ` + parent + ` }
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [{ name = "custom", versions = [{ version = "1.0.0", image = "local/custom:1.0.0" }] }] })
    kubernetes      = { versions = [{ version = "1.30.5", expiration_date = "2099-06-01T00:00:00Z" }] }
    machine_images  = [{ name = "custom", update_strategy = "patch", versions = [{ version = "1.0.0", cri = [{ name = "containerd" }], architectures = ["amd64"] }] }]
    machine_types   = [{ name = "x1.metal", cpu = "96", gpu = "0", memory = "1Ti" }, { name = "a1.large", cpu = "2", gpu = "0", memory = "4Gi", usable = false }]
    volume_types    = [{ name = "nfs", class = "standard" }]
  }`
}

// mapFormCloudProfileSpec and mapFormNamespacedSpec are the same specs written for the map schema,
// as keyedProfiles has them.
const mapFormCloudProfileSpec = `{
    type = "local"
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [for image in ["gardenlinux", "ubuntu", "alpine", "suse", "rhel"] : { name = image, versions = [{ version = "1.0.0", image = "local/${image}" }] }] })
    kubernetes = { versions = {
      "1.31.2" = { classification = "supported" }
      "1.30.5" = { classification = "deprecated", expiration_date = "2099-01-01T00:00:00Z" }
    } }
    machine_images = {
      "gardenlinux" = { versions = {
        "1877.3.0" = { architectures = ["amd64", "arm64"] }
        "1592.9.0" = { cri = { containerd = { container_runtimes = { gvisor = {} } } } }
      } }
      "alpine" = { update_strategy = "minor", versions = { "3.20.0" = {} } }
    }
    machine_types = {
      "m6g.large" = { cpu = "2", gpu = "0", memory = "8Gi", architecture = "arm64" }
      "c5.large"  = { cpu = "2", gpu = "0", memory = "4Gi" }
    }
    volume_types = { "gp3" = { class = "standard" }, "io1" = { class = "premium", usable = false } }
    regions = {
      "us-east-1" = { zones = { "us-east-1b" = {}, "us-east-1a" = { unavailable_machine_types = ["m6g.large"] } } }
      "eu-west-1" = { access_restrictions = [{ name = "eu-access-only" }] }
    }
  }`

const mapFormNamespacedSpec = `{
    parent          = { kind = "CloudProfile", name = "parent" }
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [{ name = "custom", versions = [{ version = "1.0.0", image = "local/custom:1.0.0" }] }] })
    kubernetes      = { versions = { "1.30.5" = { expiration_date = "2099-06-01T00:00:00Z" } } }
    machine_images  = { "custom" = { update_strategy = "patch", versions = { "1.0.0" = { cri = { containerd = {} }, architectures = ["amd64"] } } } }
    machine_types   = { "x1.metal" = { cpu = "96", gpu = "0", memory = "1Ti" }, "a1.large" = { cpu = "2", gpu = "0", memory = "4Gi", usable = false } }
    volume_types    = { "nfs" = { class = "standard" } }
  }`

// upgradeModuleSource is the module of the guide, as a module source of a test's configuration.
func upgradeModuleSource(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "examples", "upgrade-to-maps"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestUpgradeModule_convertsEveryCollectionOfBothKinds: examples/upgrade-to-maps turns the list form
// of a CloudProfile's and of a NamespacedCloudProfile's spec into exactly their map form.
func TestUpgradeModule_convertsEveryCollectionOfBothKinds(t *testing.T) {
	source := upgradeModuleSource(t)
	outputs := terraformOutputs(t, `
module "cloud_profile" {
  source = "`+source+`"
  spec   = `+listFormCloudProfileSpec+`
}

module "namespaced" {
  source = "`+source+`"
  spec   = `+listFormNamespacedSpec(`"parent"`)+`
}

output "cloud_profile"      { value = module.cloud_profile.spec }
output "cloud_profile_want" { value = `+mapFormCloudProfileSpec+` }
output "namespaced"         { value = module.namespaced.spec }
output "namespaced_want"    { value = `+mapFormNamespacedSpec+` }
`)
	for _, kind := range []string{"cloud_profile", "namespaced"} {
		if got, want := outputs[kind], outputs[kind+"_want"]; !reflect.DeepEqual(got, want) {
			t.Errorf("%s: the module gives\n%s\nwant\n%s", kind, jsonOf(t, got), jsonOf(t, want))
		}
	}
}

// TestUpgradeGuide_forExpressionsConvertEveryCollection: the for expressions the guide shows, taken
// from the template as they are, turn every collection of the list form into its map form.
func TestUpgradeGuide_forExpressionsConvertEveryCollection(t *testing.T) {
	guide, err := os.ReadFile(filepath.Join("..", "..", "templates", "guides", "upgrading-to-map-schema.md.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	var snippet string
	for _, block := range regexp.MustCompile("(?s)```terraform\n(.*?)```").FindAllStringSubmatch(string(guide), -1) {
		if strings.Contains(block[1], "local.aws_spec_in_list_form") {
			snippet = block[1]
		}
	}
	if snippet == "" {
		t.Fatal("the guide has no terraform block that converts local.aws_spec_in_list_form")
	}
	outputs := terraformOutputs(t, snippet+`
locals {
  aws_spec_in_list_form = `+listFormCloudProfileSpec+`
  want                  = `+mapFormCloudProfileSpec+`
}

output "got" {
  value = {
    kubernetes     = local.kubernetes
    machine_images = local.machine_images
    machine_types  = local.machine_types
    volume_types   = local.volume_types
    regions        = local.regions
  }
}

output "want" {
  value = {
    kubernetes     = local.want.kubernetes
    machine_images = local.want.machine_images
    machine_types  = local.want.machine_types
    volume_types   = local.want.volume_types
    regions        = local.want.regions
  }
}
`)
	if !reflect.DeepEqual(outputs["got"], outputs["want"]) {
		t.Errorf("the guide's expressions give\n%s\nwant\n%s", jsonOf(t, outputs["got"]), jsonOf(t, outputs["want"]))
	}
}

// terraformOutputs applies a configuration without resources (modules, locals and outputs) with the
// terraform CLI and returns its outputs' values.
func terraformOutputs(t *testing.T, config string) map[string]any {
	t.Helper()
	tf := terraformCLI()
	if tf == "" {
		t.Skip("terraform CLI not found: set TF_ACC_TERRAFORM_PATH or put terraform on PATH")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	cliConfig := filepath.Join(dir, "empty.tfrc")
	if err := os.WriteFile(cliConfig, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "TF_CLI_CONFIG_FILE="+cliConfig, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1", "TF_DATA_DIR="+filepath.Join(dir, ".terraform"))
	run := func(args ...string) []byte {
		cmd := exec.Command(tf, args...)
		cmd.Dir, cmd.Env = dir, env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil {
			var exit *exec.ExitError
			if !errors.As(err, &exit) {
				t.Fatalf("running terraform %v: %v", args, err)
			}
			t.Fatalf("terraform %s exited %d:\n%s%s", strings.Join(args, " "), exit.ExitCode(), stdout.String(), stderr.String())
		}
		return stdout.Bytes()
	}
	run("init", "-no-color", "-input=false")
	run("apply", "-auto-approve", "-no-color", "-input=false")
	var outputs map[string]struct {
		Value any `json:"value"`
	}
	if err := json.Unmarshal(run("output", "-json"), &outputs); err != nil {
		t.Fatal(err)
	}
	values := map[string]any{}
	for name, o := range outputs {
		values[name] = o.Value
	}
	return values
}

// jsonOf renders a value for a failure message.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	raw, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}
