package cloudprofile

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Test support of the merge tests.
//
// Goldens under testdata/merge are this package's output; regenerate them with
//
//	go test ./internal/cloudprofile -run 'TestMerge' -update-merge-goldens
//
// and check them against Gardener's own MergeCloudProfiles with the reference command described
// in testdata/merge/reference/README.md (set GARDENER_MERGE_REFERENCE to its binary; the tests
// named ...MatchesGardener then compare every case with Gardener's output, architecture lists
// compared as sets).

var updateMergeGoldens = flag.Bool("update-merge-goldens", false, "rewrite the golden files of the merge tests")

// mergeCase is the input of a merge: the parent's spec and the NamespacedCloudProfile's spec, both
// as served (defaulted).
type mergeCase struct {
	Parent gardencorev1beta1.CloudProfileSpec           `json:"parent"`
	NCP    gardencorev1beta1.NamespacedCloudProfileSpec `json:"ncp"`
}

func loadMergeCase(t testing.TB, file string) mergeCase {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var c mergeCase
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return c
}

func ncpJSON(t testing.TB, v any) []byte {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// mergeToJSON merges with Gardener v1.149 semantics and encodes the result as Gardener does.
func mergeToJSON(t testing.TB, c mergeCase) []byte {
	t.Helper()
	return ncpJSON(t, MergeNamespacedCloudProfile(c.Parent, c.NCP, MergeOptions{}))
}

// expectGolden compares got with the golden file byte for byte (or rewrites it).
func expectGolden(t *testing.T, file string, got []byte) {
	t.Helper()
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, got, "", "  "); err != nil {
		t.Fatal(err)
	}
	pretty.WriteByte('\n')
	if *updateMergeGoldens {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, pretty.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (run with -update-merge-goldens to create it)", err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, want); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if !bytes.Equal(compact.Bytes(), got) {
		t.Fatalf("merge result differs from %s\n got: %s\nwant: %s", file, got, compact.Bytes())
	}
}

// gardenerReference talks to the reference command (Gardener's own MergeCloudProfiles) when
// GARDENER_MERGE_REFERENCE names its binary.
type gardenerReference struct {
	mu  sync.Mutex
	in  *bufio.Writer
	out *bufio.Scanner
	err error
}

var (
	referenceOnce sync.Once
	reference     *gardenerReference
)

// gardenerMerge returns Gardener's merge result for the input line, or skips the test when no
// reference is configured.
func gardenerMerge(t testing.TB, input []byte) []byte {
	t.Helper()
	referenceOnce.Do(func() {
		bin := os.Getenv("GARDENER_MERGE_REFERENCE")
		if bin == "" {
			return
		}
		cmd := exec.Command(bin)
		stdin, err := cmd.StdinPipe()
		if err != nil {
			reference = &gardenerReference{err: err}
			return
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			reference = &gardenerReference{err: err}
			return
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			reference = &gardenerReference{err: err}
			return
		}
		scanner := bufio.NewScanner(stdout)
		scanner.Buffer(make([]byte, 64<<20), 64<<20)
		reference = &gardenerReference{in: bufio.NewWriter(stdin), out: scanner}
	})
	if reference == nil {
		t.Skip("GARDENER_MERGE_REFERENCE is not set")
	}
	if reference.err != nil {
		t.Fatal(reference.err)
	}
	reference.mu.Lock()
	defer reference.mu.Unlock()
	var line bytes.Buffer
	if err := json.Compact(&line, input); err != nil {
		t.Fatal(err)
	}
	line.WriteByte('\n')
	if _, err := reference.in.Write(line.Bytes()); err != nil {
		t.Fatal(err)
	}
	if err := reference.in.Flush(); err != nil {
		t.Fatal(err)
	}
	if !reference.out.Scan() {
		t.Fatalf("reference: %v", reference.out.Err())
	}
	return append([]byte(nil), reference.out.Bytes()...)
}

// sameUpToArchitectureOrder tells whether two encoded merge results are equal when every
// "architectures" list is compared as a set (Gardener derives some of them from sets).
func sameUpToArchitectureOrder(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	na, _ := json.Marshal(sortArchitectures(x))
	nb, _ := json.Marshal(sortArchitectures(y))
	return bytes.Equal(na, nb)
}

func sortArchitectures(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if list, ok := e.([]any); ok && k == "architectures" {
				sort.Slice(list, func(i, j int) bool { return ncpJSONString(list[i]) < ncpJSONString(list[j]) })
			}
			v[k] = sortArchitectures(e)
		}
	case []any:
		for i := range v {
			v[i] = sortArchitectures(v[i])
		}
	}
	return v
}

func ncpJSONString(v any) string {
	s, _ := v.(string)
	return s
}

// mergeGoldenFiles lists the inputs under testdata/merge.
func mergeGoldenFiles(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "merge", "*.input.json"))
	if err != nil {
		t.Fatal(err)
	}
	return files
}
