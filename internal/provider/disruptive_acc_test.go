package provider_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
)

// gardenProcessGroup is the process group of the local Garden that scripts/garden.sh started.
func gardenProcessGroup(t *testing.T) int {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", ".cache", "garden", "pid"))
	if err != nil {
		t.Fatalf("the local Garden's process group (scripts/garden.sh): %v", err)
	}
	pgid, err := strconv.Atoi(strings.TrimSpace(string(raw)))
	if err != nil {
		t.Fatal(err)
	}
	return pgid
}

// TestAccDisruptive_gardenStoppedAndStartedMidApply stops the whole local Garden (etcd,
// kube-apiserver, gardener-apiserver, controllers: SIGSTOP to its process group) while a profile
// with 5,000 versions is being updated, and starts it again (SIGCONT) with all its data once
// terraform has given up. Terraform prints one clear error and no provider bug, the state keeps
// the prior values, and the next apply converges with an empty plan afterwards. It freezes the
// shared Garden, so it runs only alone (make testacc-disruptive sets GARDEN_DISRUPTIVE).
func TestAccDisruptive_gardenStoppedAndStartedMidApply(t *testing.T) {
	if os.Getenv("GARDEN_DISRUPTIVE") == "" {
		t.Skip("stops the shared local Garden: run alone by make testacc-disruptive")
	}
	admin := acctest.Client(t)
	pgid := gardenProcessGroup(t)
	name := acctest.UniqueName("acc-stopped")
	block := acctest.ProviderBlock(acctest.Kubeconfig(t))
	withTimeout := func(config string) string {
		return strings.Replace(config, "  spec = {", "  timeouts = { update = \"40s\" }\n  spec = {", 1)
	}
	w := newCLIWorkspace(t, withTimeout(bigProfileConfig(block, name, "2031-01-01T00:00:00Z")))
	w.destroyOnCleanup()
	w.mustRun(0, "apply", "-auto-approve")

	w.write(withTimeout(bigProfileConfig(block, name, "2032-01-01T00:00:00Z")))
	cmd, done, output := startApply(t, w)
	if err := syscall.Kill(-pgid, syscall.SIGSTOP); err != nil {
		t.Fatalf("stopping the Garden: %v", err)
	}
	started := false
	start := func() {
		if !started {
			started = true
			_ = syscall.Kill(-pgid, syscall.SIGCONT)
		}
	}
	t.Cleanup(start)
	select {
	case <-done:
	case <-time.After(3 * time.Minute):
		start()
		t.Fatalf("terraform did not give up while the Garden was stopped:\n%s", output())
	}
	start()
	t.Logf("terraform ended while the Garden was stopped (%v)", cmd.ProcessState)
	out := output()
	requireNoProviderBug(t, out)
	if n := strings.Count(out, "Error: "); n != 1 || !strings.Contains(out, "Garden cluster unreachable") {
		t.Fatalf("want exactly one error, Garden cluster unreachable; got %d:\n%s", n, out)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for {
		if _, err := admin.GetCloudProfile(ctx, name); err == nil {
			break
		} else if ctx.Err() != nil {
			t.Fatalf("the Garden did not answer after it was started again: %v", err)
		}
		time.Sleep(time.Second)
	}
	if got := toJSON(t, w.stateAttribute(cpAddr, "spec", "kubernetes", "versions")); !strings.Contains(got, "2031-01-01T00:00:00Z") {
		t.Fatal("the failed apply changed the state's expiration date")
	}
	w.mustRun(0, "apply", "-auto-approve")
	w.mustRun(0, "plan", "-detailed-exitcode")
	cp := getCloudProfile(t, admin, name)
	oldest := cp.Spec.Kubernetes.Versions[len(cp.Spec.Kubernetes.Versions)-1] // written newest first: 1.0.0 is last
	if len(cp.Spec.Kubernetes.Versions) != 5000 || oldest.Version != "1.0.0" || oldest.ExpirationDate == nil ||
		!oldest.ExpirationDate.Time.Equal(time.Date(2032, 1, 1, 0, 0, 0, 0, time.UTC)) {
		t.Fatalf("cluster after the restart: %d versions, 1.0.0 expires %v; want 5000 and 2032-01-01", len(cp.Spec.Kubernetes.Versions), oldest.ExpirationDate)
	}
}
