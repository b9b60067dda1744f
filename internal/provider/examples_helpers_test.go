package provider_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The helpers of examples_test.go: build the provider, point the terraform CLI at it with
// dev_overrides, and run `terraform validate -json` on a folder of example files.

// providerSource is the provider's source address as users write it in required_providers.
const providerSource = "gardener-community/gardener"

// exampleModule is one root module to validate: the example files that belong together.
type exampleModule struct {
	// name is the path of the example below examples/, e.g. resources/gardener_cloud_profile/resource.tf.
	name  string
	files []string
}

// exampleModules lists the root modules of the examples below dir (see TestExamples_Validate).
func exampleModules(t *testing.T, dir string) []exampleModule {
	t.Helper()
	var modules []exampleModule
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".tf" {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		m := exampleModule{name: filepath.ToSlash(rel), files: []string{path}}
		if strings.HasPrefix(d.Name(), "import") {
			target := filepath.Join(filepath.Dir(path), "resource.tf")
			if _, err := os.Stat(target); err == nil {
				m.files = append(m.files, target)
			}
		}
		modules = append(modules, m)
		return nil
	})
	if err != nil {
		t.Fatalf("listing the examples: %v", err)
	}
	return modules
}

// exampleHarness runs the terraform CLI against a provider binary built from this source tree.
type exampleHarness struct {
	root      string // the repository root
	terraform string
	version   [3]int // of the terraform CLI
	openTofu  bool   // the CLI is OpenTofu, whose version numbers are its own
	env       []string
}

// newExampleHarness finds terraform (TF_ACC_TERRAFORM_PATH, else PATH, else /usr/local/bin),
// builds the provider into a temporary folder and writes a CLI configuration whose dev_overrides
// point there, so that validate needs neither `terraform init` nor the network.
func newExampleHarness(t *testing.T) *exampleHarness {
	t.Helper()
	tf := terraformCLI()
	if tf == "" {
		t.Skip("terraform CLI not found: set TF_ACC_TERRAFORM_PATH or put terraform on PATH")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("the repository root %s has no go.mod: %v", root, err)
	}
	pluginDir := t.TempDir()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build the provider for the examples: %v", err)
	}
	build := exec.Command(goBin, "build", "-o", filepath.Join(pluginDir, "terraform-provider-gardener"), ".")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the provider: %v\n%s", err, out)
	}
	cliConfig := filepath.Join(t.TempDir(), "terraformrc")
	rc := fmt.Sprintf("provider_installation {\n  dev_overrides {\n    %q = %q\n  }\n  direct {}\n}\n", providerSource, pluginDir)
	if err := os.WriteFile(cliConfig, []byte(rc), 0o600); err != nil {
		t.Fatal(err)
	}
	env := slices.DeleteFunc(os.Environ(), func(kv string) bool {
		// Settings of the caller's terraform that would change what validate sees.
		return strings.HasPrefix(kv, "TF_CLI_ARGS") || strings.HasPrefix(kv, "TF_CLI_CONFIG_FILE=") ||
			strings.HasPrefix(kv, "TF_DATA_DIR=") || strings.HasPrefix(kv, "TF_REATTACH_PROVIDERS=") ||
			strings.HasPrefix(kv, "TF_LOG")
	})
	env = append(env, "TF_CLI_CONFIG_FILE="+cliConfig, "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
	h := &exampleHarness{root: root, terraform: tf, env: env}
	if h.openTofu, h.version, err = cliVersion(tf, env); err != nil {
		t.Fatalf("reading the version of %s: %v", tf, err)
	}
	return h
}

// foldsIdenticalDiagnostics tells whether the CLI shows a diagnostic only once when several
// instances of one block (count, for_each) report it with the same summary, detail and attribute:
// Terraform does since 1.12, OpenTofu does not.
func (h *exampleHarness) foldsIdenticalDiagnostics() bool {
	return !h.openTofu && slices.Compare(h.version[:], []int{1, 12, 0}) >= 0
}

// cliVersion reads the first line of `version` ("Terraform v1.16.0", "OpenTofu v1.12.6"): whether
// the CLI is OpenTofu, and its version.
func cliVersion(cli string, env []string) (openTofu bool, version [3]int, err error) {
	cmd := exec.Command(cli, "version")
	cmd.Env = env
	out, err := cmd.Output()
	if err != nil {
		return false, version, err
	}
	firstLine, _, _ := strings.Cut(string(out), "\n")
	name, number, found := strings.Cut(firstLine, " v")
	if !found {
		return false, version, fmt.Errorf("unexpected first line %q", firstLine)
	}
	version, err = parseVersion(number, nil)
	return name == "OpenTofu", version, err
}

// parseVersion reads "MAJOR.MINOR[.PATCH]" (anything after a '-' is ignored).
func parseVersion(s string, err error) ([3]int, error) {
	var v [3]int
	if err != nil {
		return v, err
	}
	s, _, _ = strings.Cut(s, "-")
	for i, part := range strings.SplitN(s, ".", 3) {
		if v[i], err = strconv.Atoi(part); err != nil {
			return v, fmt.Errorf("version %q: %w", s, err)
		}
	}
	return v, nil
}

// minimumVersion matches a `required_version = ">= X.Y[.Z]"` constraint of an example.
var minimumVersion = regexp.MustCompile(`required_version\s*=\s*">=\s*([0-9][0-9.]*)"`)

// tooOld returns the minimum Terraform version an example's files require when the CLI is older.
// Terraform itself reports syntax it does not know (such as `identity` in import blocks before
// 1.12) before it checks required_version, so the test checks it first.
func (h *exampleHarness) tooOld(t *testing.T, m exampleModule) (string, bool) {
	t.Helper()
	for _, f := range m.files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, match := range minimumVersion.FindAllSubmatch(src, -1) {
			want, err := parseVersion(string(match[1]), nil)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if slices.Compare(h.version[:], want[:]) < 0 {
				return string(match[1]), true
			}
		}
	}
	return "", false
}

func terraformCLI() string {
	if p := os.Getenv("TF_ACC_TERRAFORM_PATH"); p != "" {
		return p
	}
	if p, err := exec.LookPath("terraform"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/local/bin/terraform"); err == nil {
		return "/usr/local/bin/terraform"
	}
	return ""
}

// validateResult is the JSON output of `terraform validate -json`.
type validateResult struct {
	Valid        bool                 `json:"valid"`
	ErrorCount   int                  `json:"error_count"`
	WarningCount int                  `json:"warning_count"`
	Diagnostics  []validateDiagnostic `json:"diagnostics"`
}

type validateDiagnostic struct {
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
	Detail   string `json:"detail"`
	Range    *struct {
		Filename string `json:"filename"`
		Start    struct {
			Line int `json:"line"`
		} `json:"start"`
	} `json:"range"`
}

// describe renders the diagnostics for a failure message.
func (r validateResult) describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "valid=%t, %d error(s), %d warning(s)", r.Valid, r.ErrorCount, r.WarningCount)
	for _, d := range r.Diagnostics {
		at := ""
		if d.Range != nil {
			at = fmt.Sprintf(" (%s:%d)", d.Range.Filename, d.Range.Start.Line)
		}
		fmt.Fprintf(&b, "\n  %s%s: %s\n    %s", d.Severity, at, d.Summary, strings.ReplaceAll(d.Detail, "\n", "\n    "))
	}
	return b.String()
}

// validate copies the module's files into a fresh folder, adds the provider requirement unless the
// files declare their own, and runs `terraform validate -json` there.
func (h *exampleHarness) validate(t *testing.T, m exampleModule) validateResult {
	t.Helper()
	dir := t.TempDir()
	declared := false
	for _, f := range m.files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		declared = declared || bytes.Contains(src, []byte("required_providers"))
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), src, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if !declared {
		req := fmt.Sprintf("terraform {\n  required_providers {\n    gardener = {\n      source = %q\n    }\n  }\n}\n", providerSource)
		if err := os.WriteFile(filepath.Join(dir, "zz_required_providers.tf"), []byte(req), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, h.terraform, "validate", "-json", "-no-color")
	cmd.Dir = dir
	cmd.Env = append(slices.Clone(h.env), "TF_DATA_DIR="+filepath.Join(dir, ".terraform"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	var res validateResult
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatalf("terraform validate in %s gave no JSON result (%v, %v)\nstdout: %s\nstderr: %s", m.name, runErr, err, stdout.String(), stderr.String())
	}
	// The one warning the harness itself causes.
	res.Diagnostics = slices.DeleteFunc(res.Diagnostics, func(d validateDiagnostic) bool {
		if d.Severity == "warning" && d.Summary == "Provider development overrides are in effect" {
			res.WarningCount--
			return true
		}
		return false
	})
	return res
}

// requireValid fails t unless the module validates without errors and without warnings. An example
// that requires a newer Terraform (required_version = ">= ...") than the CLI at hand is skipped.
func (h *exampleHarness) requireValid(t *testing.T, m exampleModule) {
	t.Helper()
	if want, old := h.tooOld(t, m); old {
		t.Skipf("examples/%s requires Terraform >= %s; %s is %d.%d.%d", m.name, want, h.terraform, h.version[0], h.version[1], h.version[2])
	}
	res := h.validate(t, m)
	if !res.Valid || res.ErrorCount > 0 || res.WarningCount > 0 {
		t.Fatalf("examples/%s: %s", m.name, res.describe())
	}
}
