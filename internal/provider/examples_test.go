package provider_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestExamples_Validate runs `terraform validate` on every example under examples/, as the
// documentation shows it, against the provider built from this source tree. It needs the terraform
// CLI but no cluster: validation checks the HCL against the provider's schemas and runs the
// provider's offline checks (Gardener's validation rules in ValidateConfig), without configuring
// the provider.
//
// Every .tf file is validated on its own, as the rendered page shows it, except import blocks
// (files named import*.tf), which are validated together with the resource.tf beside them, the
// resource they import into. A directory whose files declare required_providers themselves (such
// as examples/demo) is used as is; to every other example the test adds the provider requirement a
// user's configuration would have. New examples are covered without changing this test.
func TestExamples_Validate(t *testing.T) {
	h := newExampleHarness(t)
	modules := exampleModules(t, filepath.Join(h.root, "examples"))
	if len(modules) == 0 {
		t.Fatal("no examples found under examples/")
	}
	for _, m := range modules {
		t.Run(m.name, func(t *testing.T) {
			t.Parallel()
			h.requireValid(t, m)
		})
	}
}

// TestExamples_ValidateCatchesBrokenExamples proves that the example check is a real check: an
// example with an attribute the schema lacks, and one that breaks a Gardener rule the provider
// checks offline, are both reported as invalid, on their file.
func TestExamples_ValidateCatchesBrokenExamples(t *testing.T) {
	h := newExampleHarness(t)
	cases := map[string]struct{ hcl, wantSummary string }{
		"argument the schema lacks": {
			hcl: `resource "gardener_cloud_profile" "broken" {
  metadata         = { name = "broken" }
  no_such_argument = true
}
`,
			wantSummary: "Unsupported argument",
		},
		"gardener rule C-3 (expiration date on the latest Kubernetes version)": {
			hcl: `resource "gardener_cloud_profile" "broken" {
  metadata = { name = "broken" }
  spec = {
    type = "local"
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [for image in ["gardenlinux", "ubuntu", "alpine", "suse", "rhel"] : { name = image, versions = [{ version = "1.0.0", image = "local/${image}" }] }] })
    kubernetes = {
      versions = { "1.33.1" = { classification = "supported", expiration_date = "2099-01-01T00:00:00Z" } }
    }
    machine_images = { "gardenlinux" = { versions = { "1877.3.0" = { classification = "supported" } } } }
    machine_types  = { "m5.large" = { cpu = "2", gpu = "0", memory = "8Gi" } }
    regions        = { "local" = {} }
  }
}
`,
			wantSummary: "The highest Kubernetes version has an expiration date (Kubernetes version 1.33.1)",
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			file := filepath.Join(dir, "broken.tf")
			if err := os.WriteFile(file, []byte(c.hcl), 0o600); err != nil {
				t.Fatal(err)
			}
			res := h.validate(t, exampleModule{name: name, files: []string{file}})
			if res.Valid || res.ErrorCount == 0 {
				t.Fatalf("terraform validate accepted a broken example: %s", res.describe())
			}
			for _, d := range res.Diagnostics {
				if d.Severity == "error" && strings.Contains(d.Summary, c.wantSummary) && d.Range != nil && d.Range.Filename == "broken.tf" {
					return
				}
			}
			t.Fatalf("want an error %q in broken.tf, got: %s", c.wantSummary, res.describe())
		})
	}
}

// TestExamples_AreFormatted checks that the examples, which the documentation shows verbatim, are
// in `terraform fmt` style.
func TestExamples_AreFormatted(t *testing.T) {
	tf := terraformCLI()
	if tf == "" {
		t.Skip("terraform CLI not found: set TF_ACC_TERRAFORM_PATH or put terraform on PATH")
	}
	cmd := exec.Command(tf, "fmt", "-check", "-recursive", "-diff", "-no-color")
	cmd.Dir = filepath.Join("..", "..", "examples")
	cmd.Env = append(os.Environ(), "CHECKPOINT_DISABLE=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("terraform fmt -check -recursive examples/ failed (%v); run `terraform fmt -recursive examples/`:\n%s", err, out)
	}
}
