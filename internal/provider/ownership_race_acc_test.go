package provider_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	k8stypes "k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
)

// workspaceBConfig is workspace B's part of the raced profile: the shared base with equal values
// and its own machine type, applied under its own field manager; it adopted the profile A created.
func workspaceBConfig(providerBlock, name, cpu string) string {
	return withFieldManager(providerBlock, "workspace-b") + fmt.Sprintf(`
resource "gardener_cloud_profile" "test" {
  metadata = { name = %q }
  spec = {
    type           = "local"
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [for image in ["gardenlinux", "ubuntu", "alpine", "suse", "rhel"] : { name = image, versions = [{ version = "1.0.0", image = "local/${image}" }] }] })
    kubernetes     = { versions = { "1.31.2" = {} } }
    machine_images = { "gardenlinux" = { versions = { "1877.3.0" = {} } } }
    machine_types  = { "b.large" = { cpu = %q, gpu = "0", memory = "8Gi" } }
    regions        = { "local" = {} }
  }
  adopt_existing = true
}
`, name, cpu)
}

// mergePatchAnnotation writes an annotation with a raw JSON merge patch, as a third writer.
func mergePatchAnnotation(t *testing.T, name, value string) error {
	cfg, err := clientcmd.BuildConfigFromFlags("", acctest.Kubeconfig(t))
	if err != nil {
		return err
	}
	dc, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return err
	}
	gvr := schema.GroupVersionResource{Group: "core.gardener.cloud", Version: "v1beta1", Resource: "cloudprofiles"}
	patch := fmt.Sprintf(`{"metadata":{"annotations":{"racer-c":%q}}}`, value)
	_, err = dc.Resource(gvr).Patch(context.Background(), name, k8stypes.MergePatchType, []byte(patch), metav1.PatchOptions{FieldManager: "racer-c"})
	return err
}

// TestAccOwnership_threeWritersRaceOnOneProfile: workspace A (its machine type's memory),
// workspace B (its own machine type, own field manager) and a raw JSON merge patch (an annotation)
// write one profile at the same time, three rounds. Every write succeeds, nothing is lost: the
// cluster holds each writer's last value, and both workspaces' next plans are empty.
func TestAccOwnership_threeWritersRaceOnOneProfile(t *testing.T) {
	admin := acctest.Client(t)
	name := acctest.UniqueName("acc-race3")
	block := acctest.ProviderBlock(acctest.Kubeconfig(t))
	a := newCLIWorkspace(t, ownedConfig(block, name, "8Gi", ""))
	a.destroyOnCleanup()
	a.mustRun(0, "apply", "-auto-approve")
	b := newCLIWorkspace(t, workspaceBConfig(block, name, "2"))
	b.mustRun(0, "apply", "-auto-approve")
	t.Cleanup(func() { b.run("state", "rm", cpAddr) }) // A's destroy deletes the profile

	memories := []string{"16Gi", "32Gi", "64Gi"}
	for round, memory := range memories {
		cpu := strconv.Itoa(round + 3)
		a.write(ownedConfig(block, name, memory, ""))
		b.write(workspaceBConfig(block, name, cpu))
		var wg sync.WaitGroup
		errs := make([]string, 3)
		wg.Add(3)
		go func() { defer wg.Done(); errs[0] = runFailure(a, "apply", "-auto-approve") }()
		go func() { defer wg.Done(); errs[1] = runFailure(b, "apply", "-auto-approve") }()
		go func() {
			defer wg.Done()
			if err := mergePatchAnnotation(t, name, cpu); err != nil {
				errs[2] = err.Error()
			}
		}()
		wg.Wait()
		for i, e := range errs {
			if e != "" {
				t.Fatalf("round %d: writer %d failed:\n%s", round, i, e)
			}
		}
	}
	a.mustRun(0, "plan", "-detailed-exitcode")
	b.mustRun(0, "plan", "-detailed-exitcode")
	cp := getCloudProfile(t, admin, name)
	byName := map[string]string{}
	for _, m := range cp.Spec.MachineTypes {
		byName[m.Name] = m.Memory.String() + "/" + m.CPU.String()
	}
	if byName["m5.large"] != "64Gi/2" || byName["b.large"] != "8Gi/5" || cp.Annotations["racer-c"] != "5" {
		t.Fatalf("cluster after the race: machine types %v, annotation %q; want m5.large 64Gi/2, b.large 8Gi/5, annotation 5", byName, cp.Annotations["racer-c"])
	}
}

// runFailure runs terraform and returns its output when it fails, "" when it succeeds.
func runFailure(w *cliWorkspace, args ...string) string {
	out, code := w.run(args...)
	if code != 0 {
		return fmt.Sprintf("terraform %s exited %d:\n%s", strings.Join(args, " "), code, out)
	}
	return ""
}

// bigProfileConfig is a CloudProfile with 5,000 Kubernetes versions; the first expires at expiry.
func bigProfileConfig(providerBlock, name, expiry string) string {
	versions := make([]string, 0, 5000)
	for minor := range 50 {
		for patch := range 100 {
			if minor == 0 && patch == 0 {
				versions = append(versions, fmt.Sprintf(`"1.0.0" = { expiration_date = %q }`, expiry))
				continue
			}
			versions = append(versions, fmt.Sprintf(`"1.%d.%d" = {}`, minor, patch))
		}
	}
	return providerBlock + fmt.Sprintf(`
resource "gardener_cloud_profile" "test" {
  metadata = { name = %q }
  spec = {
    type           = "local"
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [for image in ["gardenlinux", "ubuntu", "alpine", "suse", "rhel"] : { name = image, versions = [{ version = "1.0.0", image = "local/${image}" }] }] })
    kubernetes     = { versions = {
      %s
    } }
    machine_images = { "gardenlinux" = { versions = { "1877.3.0" = {} } } }
    machine_types  = { "m5.large" = { cpu = "2", gpu = "0", memory = "8Gi" } }
    regions        = { "local" = {} }
  }
}
`, name, strings.Join(versions, "\n      "))
}

// startApply starts terraform apply and returns once it prints that it is modifying the profile,
// with a channel closed when terraform has ended and a function returning its output so far.
func startApply(t *testing.T, w *cliWorkspace) (*exec.Cmd, <-chan struct{}, func() string) {
	t.Helper()
	cmd := exec.Command(w.h.terraform, "apply", "-auto-approve", "-no-color")
	cmd.Dir, cmd.Env = w.dir, w.h.env
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var out strings.Builder
	modifying := make(chan struct{})
	go func() {
		s := bufio.NewScanner(pr)
		s.Buffer(make([]byte, 1<<20), 1<<24)
		signalled := false
		for s.Scan() {
			mu.Lock()
			out.WriteString(s.Text() + "\n")
			mu.Unlock()
			if !signalled && strings.Contains(s.Text(), "Modifying...") {
				close(modifying)
				signalled = true
			}
		}
	}()
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); _ = pw.Close(); close(done) }()
	select {
	case <-modifying:
	case <-time.After(3 * time.Minute):
		_ = cmd.Process.Kill()
		t.Fatalf("terraform apply never started modifying the profile:\n%s", out.String())
	}
	return cmd, done, func() string { mu.Lock(); defer mu.Unlock(); return out.String() }
}

// providerChild finds the provider process terraform started.
func providerChild(t *testing.T, terraformPID int) int {
	t.Helper()
	for range 50 {
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			pid, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
			if err != nil {
				continue
			}
			fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
			if len(fields) > 1 && fields[1] == strconv.Itoa(terraformPID) && strings.Contains(string(stat), "terraform-provi") {
				return pid
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("the provider process of terraform was not found")
	return 0
}

// requireExits waits for a process to end (or to be only a zombie).
func requireExits(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		stat, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
		if err != nil {
			return
		}
		if fields := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:])); len(fields) > 0 && fields[0] == "Z" {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatalf("process %d still runs 15s after its parent was killed", pid)
}

// TestAccReliability_killedOrInterruptedApplyOfABigProfile interrupts the update of a profile
// with 5,000 versions while it is being applied, three ways: kill -9 of terraform (whose provider
// then exits instead of running on as an orphan), kill -9 of the provider process, and one SIGINT
// to terraform. After each, the next apply converges, its plan is
// empty afterwards, and the cluster holds exactly the configured expiration date (one profile,
// nothing lost, nothing duplicated).
func TestAccReliability_killedOrInterruptedApplyOfABigProfile(t *testing.T) {
	admin := acctest.Client(t)
	name := acctest.UniqueName("acc-kill")
	block := acctest.ProviderBlock(acctest.Kubeconfig(t))
	w := newCLIWorkspace(t, bigProfileConfig(block, name, "2031-01-01T00:00:00Z"))
	w.destroyOnCleanup()
	w.mustRun(0, "apply", "-auto-approve")

	interrupts := []struct {
		what   string
		expiry string
		cut    func(cmd *exec.Cmd)
	}{
		{"kill -9 of terraform", "2032-01-01T00:00:00Z", func(cmd *exec.Cmd) {
			provider := providerChild(t, cmd.Process.Pid)
			_ = cmd.Process.Kill()
			requireExits(t, provider) // and does not run on as an orphan
		}},
		{"kill -9 of the provider", "2033-01-01T00:00:00Z", func(cmd *exec.Cmd) { _ = syscall.Kill(providerChild(t, cmd.Process.Pid), syscall.SIGKILL) }},
		{"one SIGINT to terraform", "2034-01-01T00:00:00Z", func(cmd *exec.Cmd) { _ = cmd.Process.Signal(os.Interrupt) }},
	}
	for _, in := range interrupts {
		w.write(bigProfileConfig(block, name, in.expiry))
		cmd, done, output := startApply(t, w)
		in.cut(cmd)
		select {
		case <-done:
			t.Logf("%s: terraform ended (%v)", in.what, cmd.ProcessState)
		case <-time.After(3 * time.Minute):
			t.Fatalf("%s: terraform did not end:\n%s", in.what, output())
		}
		if out := output(); strings.Contains(out, "invalid result object") || strings.Contains(out, "panic:") {
			t.Fatalf("%s: terraform reported a provider bug:\n%s", in.what, out)
		}
		w.mustRun(0, "apply", "-auto-approve")
		w.mustRun(0, "plan", "-detailed-exitcode")
		cp := getCloudProfile(t, admin, name)
		want, _ := time.Parse(time.RFC3339, in.expiry)
		if n := len(cp.Spec.Kubernetes.Versions); n != 5000 {
			t.Fatalf("%s: cluster holds %d versions, want 5000", in.what, n)
		}
		oldest := cp.Spec.Kubernetes.Versions[len(cp.Spec.Kubernetes.Versions)-1] // written newest first
		if got := oldest.ExpirationDate; oldest.Version != "1.0.0" || got == nil || !got.Time.Equal(want) {
			t.Fatalf("%s: cluster expiration %v, want %s", in.what, got, in.expiry)
		}
		if got := w.stateAttribute(cpAddr, "spec", "kubernetes", "versions"); !strings.Contains(toJSON(t, got), in.expiry) {
			t.Fatalf("%s: the state does not hold the applied expiration %s", in.what, in.expiry)
		}
	}
}
