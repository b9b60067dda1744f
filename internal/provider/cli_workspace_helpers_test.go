package provider_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// cliWorkspace is a Terraform working directory driven with the real CLI and the provider binary
// built from this tree (dev_overrides), for what terraform-plugin-testing cannot do: saved plans
// applied after the cluster changed, and reading everything the CLI prints.
type cliWorkspace struct {
	t   *testing.T
	h   *exampleHarness
	dir string
}

// newCLIWorkspace builds the provider and writes the configuration into a fresh directory.
func newCLIWorkspace(t *testing.T, config string) *cliWorkspace {
	t.Helper()
	w := &cliWorkspace{t: t, h: newExampleHarness(t), dir: t.TempDir()}
	w.write(config)
	return w
}

// write replaces the configuration.
func (w *cliWorkspace) write(config string) {
	w.t.Helper()
	if err := os.WriteFile(filepath.Join(w.dir, "main.tf"), []byte(providerRequirement()+config), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

// providerRequirement names the provider's source, so that dev_overrides applies to it.
func providerRequirement() string {
	return "terraform {\n  required_providers {\n    gardener = { source = \"" + providerSource + "\" }\n  }\n}\n"
}

// run runs terraform with the arguments and returns what it printed and its exit code.
func (w *cliWorkspace) run(args ...string) (string, int) {
	w.t.Helper()
	cmd := exec.Command(w.h.terraform, append(args, "-no-color")...)
	cmd.Dir = w.dir
	cmd.Env = w.h.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return out.String(), exit.ExitCode()
	case err != nil:
		w.t.Fatalf("running terraform %v: %v", args, err)
	}
	return out.String(), 0
}

// mustRun runs terraform and fails the test unless it exits with want.
func (w *cliWorkspace) mustRun(want int, args ...string) string {
	w.t.Helper()
	out, code := w.run(args...)
	if code != want {
		w.t.Fatalf("terraform %s exited %d, want %d:\n%s", strings.Join(args, " "), code, want, out)
	}
	return out
}

// destroyOnCleanup destroys what the workspace still manages when the test ends.
func (w *cliWorkspace) destroyOnCleanup() {
	w.t.Cleanup(func() {
		if out, code := w.run("destroy", "-auto-approve"); code != 0 {
			w.t.Logf("cleanup: terraform destroy exited %d:\n%s", code, out)
		}
	})
}

// stateValues reads the values of every resource in the state by address (one terraform show).
func (w *cliWorkspace) stateValues() map[string]map[string]any {
	w.t.Helper()
	out := w.mustRun(0, "show", "-json")
	var show struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Address string         `json:"address"`
					Values  map[string]any `json:"values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(out), &show); err != nil {
		w.t.Fatalf("decoding terraform show -json: %v", err)
	}
	values := map[string]map[string]any{}
	for _, r := range show.Values.RootModule.Resources {
		values[r.Address] = r.Values
	}
	return values
}

// stateAttribute reads an attribute of a resource's state (terraform show -json), by the names of
// the nested attributes; nil when the resource is not in the state.
func (w *cliWorkspace) stateAttribute(address string, names ...string) any {
	w.t.Helper()
	values, ok := w.stateValues()[address]
	if !ok {
		return nil
	}
	var v any = values
	for _, n := range names {
		m, _ := v.(map[string]any)
		v = m[n]
	}
	return v
}

// requireNoProviderBug fails when the CLI output blames the provider for an invalid result.
func requireNoProviderBug(t *testing.T, out string) {
	t.Helper()
	for _, bug := range []string{"invalid result object", "inconsistent result after apply", "This is a bug in the provider", "always a bug in the provider"} {
		if strings.Contains(out, bug) {
			t.Fatalf("terraform reports %q:\n%s", bug, out)
		}
	}
}

// toJSON renders a value decoded from terraform show -json for comparisons and messages.
func toJSON(t *testing.T, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// waitGone waits until Gardener has released a deleted CloudProfile.
func waitGone(t *testing.T, client *kube.Client, name string) {
	t.Helper()
	err := kube.WaitUntilGone(acctest.Context(t), func(ctx context.Context) error {
		_, err := client.GetCloudProfile(ctx, name)
		return err
	})
	if err != nil {
		t.Fatalf("CloudProfile %s not gone: %v", name, err)
	}
}
