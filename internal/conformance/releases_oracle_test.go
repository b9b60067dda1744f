package conformance

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// oraclesEnv names the folder of the oracle binaries, one per known release, named
// oracle-<release> (scripts/build-oracles.sh builds them into .cache/oracles).
const oraclesEnv = "GARDENER_ORACLES"

// oracle is a running oracle (internal/conformance/oracle) built with one Gardener release: it
// answers with that release's own code what gardener-apiserver and gardener-controller-manager do.
type oracle struct {
	release cloudprofile.Release
	cmd     *exec.Cmd
	in      io.WriteCloser
	out     *bufio.Scanner
}

// oracleRequest and oracleResponse are the oracle's protocol (see its main.go).
type oracleRequest struct {
	Op     string          `json:"op"`
	Gates  map[string]bool `json:"gates,omitempty"`
	Object any             `json:"object,omitempty"`
	Old    any             `json:"old,omitempty"`
	Parent any             `json:"parent,omitempty"`
}

type oracleResponse struct {
	Accepted bool `json:"accepted"`
	Message  string
	Causes   []kube.Cause `json:"causes"`
	Stored   json.RawMessage
	Status   json.RawMessage
	// RequeueAfter is in nanoseconds.
	RequeueAfter int64 `json:"requeueAfter"`
	Gates        []struct {
		Name    string
		Default bool
	}
	Release string
	Error   string
}

// startOracle starts the oracle of release r, or skips the test when GARDENER_ORACLES is not set.
func startOracle(t *testing.T, r cloudprofile.Release) *oracle {
	t.Helper()
	dir := os.Getenv(oraclesEnv)
	if dir == "" {
		t.Skipf("%s is not set: run 'make test-releases', which builds the oracles of every known release", oraclesEnv)
	}
	bin := filepath.Join(dir, "oracle-"+r.String())
	cmd := exec.Command(bin)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting the oracle of %s: %v (build it with scripts/build-oracles.sh)", r, err)
	}
	o := &oracle{release: r, cmd: cmd, in: in, out: bufio.NewScanner(out)}
	o.out.Buffer(make([]byte, 0, 1<<20), 64<<20)
	t.Cleanup(func() {
		_ = in.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("the oracle of %s: %v", r, err)
		}
	})
	if got := o.ask(t, oracleRequest{Op: "release"}).Release; got != r.String() {
		t.Fatalf("%s is built with github.com/gardener/gardener %s, want %s", bin, got, r)
	}
	return o
}

// ask sends one request and returns the answer; an answer that is no verdict fails the test.
func (o *oracle) ask(t testing.TB, req oracleRequest) oracleResponse {
	t.Helper()
	line, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.in.Write(append(line, '\n')); err != nil {
		t.Fatalf("writing to the oracle of %s: %v", o.release, err)
	}
	if !o.out.Scan() {
		t.Fatalf("the oracle of %s did not answer: %v", o.release, o.out.Err())
	}
	var resp oracleResponse
	if err := json.Unmarshal(o.out.Bytes(), &resp); err != nil {
		t.Fatalf("reading the answer of the oracle of %s: %v", o.release, err)
	}
	if resp.Error != "" {
		t.Fatalf("the oracle of %s could not answer %s: %s", o.release, req.Op, resp.Error)
	}
	return resp
}

// gatesOf are gates as the oracle reads them.
func gatesOf(g cloudprofile.FeatureGates) map[string]bool {
	return map[string]bool{
		cloudprofile.GateVersionClassificationLifecycle: g.VersionClassificationLifecycle,
		cloudprofile.GateCloudProfileCapabilities:       g.CloudProfileCapabilities,
	}
}

// verdict is the oracle's answer to a create or update, with the spec it stores when it accepts.
func (o *oracle) answer(t testing.TB, op string, gates cloudprofile.FeatureGates, obj, old, parent any, spec any) verdict {
	t.Helper()
	resp := o.ask(t, oracleRequest{Op: op, Gates: gatesOf(gates), Object: withTypeMeta(obj), Old: withTypeMeta(old), Parent: parent})
	v := verdict{accepted: resp.Accepted, causes: resp.Causes, message: resp.Message, via: "gardener " + o.release.String() + " " + op}
	if resp.Accepted && spec != nil {
		if err := json.Unmarshal(resp.Stored, spec); err != nil {
			t.Fatal(err)
		}
		v.stored = spec
	}
	return v
}

// withTypeMeta sets apiVersion and kind of a profile, as a client sends them.
func withTypeMeta(obj any) any {
	switch o := obj.(type) {
	case *cpT:
		if o == nil {
			return nil
		}
		c := o.DeepCopy()
		c.TypeMeta = metav1.TypeMeta{APIVersion: gardencorev1beta1.SchemeGroupVersion.String(), Kind: "CloudProfile"}
		return c
	case *ncpT:
		if o == nil {
			return nil
		}
		c := o.DeepCopy()
		c.TypeMeta = metav1.TypeMeta{APIVersion: gardencorev1beta1.SchemeGroupVersion.String(), Kind: "NamespacedCloudProfile"}
		return c
	}
	return obj
}

// createCloudProfile is the oracle's answer to creating cp.
func (o *oracle) createCloudProfile(t testing.TB, gates cloudprofile.FeatureGates, cp *cpT) verdict {
	return o.answer(t, "create", gates, cp, nil, nil, &gardencorev1beta1.CloudProfileSpec{})
}

// updateCloudProfile is the oracle's answer to replacing old with cp.
func (o *oracle) updateCloudProfile(t testing.TB, gates cloudprofile.FeatureGates, cp, old *cpT) verdict {
	return o.answer(t, "update", gates, cp, old, nil, &gardencorev1beta1.CloudProfileSpec{})
}

// namespaced is the oracle's answer to creating ncp (old == nil) or replacing old with it, under
// parent (nil: the parent does not exist).
func (o *oracle) namespaced(t testing.TB, gates cloudprofile.FeatureGates, ncp, old *ncpT, parent *cpT) verdict {
	op := "create-namespaced"
	if old != nil {
		op = "update-namespaced"
	}
	var p any
	if parent != nil {
		p = withTypeMeta(parent)
	}
	return o.answer(t, op, gates, ncp, old, p, &gardencorev1beta1.NamespacedCloudProfileSpec{})
}

// stored returns cp as the oracle's release stores it on create, or fails the test when it rejects
// cp.
func (o *oracle) stored(t testing.TB, gates cloudprofile.FeatureGates, cp *cpT) *cpT {
	t.Helper()
	v := o.createCloudProfile(t, gates, cp)
	if !v.accepted {
		t.Fatalf("%s rejects the fixture %s: %s", o.release, cp.Name, v)
	}
	out := cp.DeepCopy()
	out.Spec = *v.stored.(*gardencorev1beta1.CloudProfileSpec)
	return out
}

// merge is the status.cloudProfileSpec the release's controller writes for ncp under parent.
func (o *oracle) merge(t testing.TB, ncp *ncpT, parent *cpT) gardencorev1beta1.CloudProfileSpec {
	t.Helper()
	resp := o.ask(t, oracleRequest{Op: "merge", Object: withTypeMeta(ncp), Parent: withTypeMeta(parent)})
	var spec gardencorev1beta1.CloudProfileSpec
	if err := json.Unmarshal(resp.Stored, &spec); err != nil {
		t.Fatal(err)
	}
	return spec
}

// status is the status the release's CloudProfile controller leaves for cp, and its requeue.
func (o *oracle) status(t testing.TB, cp *cpT) (gardencorev1beta1.CloudProfileStatus, int64) {
	t.Helper()
	resp := o.ask(t, oracleRequest{Op: "status", Object: withTypeMeta(cp)})
	var status gardencorev1beta1.CloudProfileStatus
	if err := json.Unmarshal(resp.Status, &status); err != nil {
		t.Fatal(err)
	}
	return status, resp.RequeueAfter
}

// gates are the feature gates the release's gardener-apiserver registers, with their defaults.
func (o *oracle) gates(t testing.TB) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, g := range o.ask(t, oracleRequest{Op: "gates"}).Gates {
		out[g.Name] = g.Default
	}
	if len(out) == 0 {
		t.Fatalf("the oracle of %s names no feature gates", o.release)
	}
	return out
}

// String names the oracle in messages.
func (o *oracle) String() string { return fmt.Sprintf("the oracle of Gardener %s", o.release) }
