package cloudprofile

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// hugeExponent matches decimal exponents of five or more digits.
var hugeExponent = regexp.MustCompile(`[eE][+-]?[0-9]{5,}`)

// FuzzMerge decodes a parent spec and a NamespacedCloudProfile spec from JSON and checks that the
// merge never panics, never modifies its inputs and is deterministic, in both merge modes. With
// GARDENER_MERGE_REFERENCE set (see testdata/merge/reference) it also compares the result with
// Gardener's own merge. The seed corpus is testdata/fuzz/FuzzMerge plus the merge golden inputs.
func FuzzMerge(f *testing.F) {
	for _, file := range mergeGoldenFiles(f) {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, data); err != nil {
			f.Fatal(err)
		}
		f.Add(compact.Bytes())
	}
	f.Add([]byte(`{"parent":{"kubernetes":{"versions":[{"version":"1.0.0"}]}},"ncp":{"kubernetes":{"versions":[{"version":"1.0.0"}]}}}`))

	f.Fuzz(func(t *testing.T, data []byte) {
		if hugeExponent.Match(data) {
			// apimachinery decodes a quantity like "1e-99999999" in time quadratic in the
			// exponent; that has nothing to do with the merge and only stalls the fuzzer.
			return
		}
		var c mergeCase
		if json.Unmarshal(data, &c) != nil {
			return
		}
		// Work on the canonical encoding, which is also what the reference decodes.
		input := ncpJSON(t, c)
		c = mergeCase{}
		if err := json.Unmarshal(input, &c); err != nil {
			t.Fatalf("re-decoding %s: %v", input, err)
		}
		parentBefore, ncpBefore := ncpJSON(t, c.Parent), ncpJSON(t, c.NCP)

		for _, opts := range []MergeOptions{{}, {LifecycleOverrides: true, Now: testNow}} {
			first := ncpJSON(t, MergeNamespacedCloudProfile(c.Parent, c.NCP, opts))
			second := ncpJSON(t, MergeNamespacedCloudProfile(c.Parent, c.NCP, opts))
			if !bytes.Equal(first, second) {
				t.Fatalf("merge is not deterministic (%+v):\n%s\n%s", opts, first, second)
			}
			if !bytes.Equal(parentBefore, ncpJSON(t, c.Parent)) || !bytes.Equal(ncpBefore, ncpJSON(t, c.NCP)) {
				t.Fatalf("merge modified its inputs (%+v)", opts)
			}
			if opts.LifecycleOverrides {
				continue
			}
			if os.Getenv("GARDENER_MERGE_REFERENCE") == "" {
				continue
			}
			ref := gardenerMerge(t, input)
			if !sameUpToArchitectureOrder(first, ref) {
				t.Fatalf("differs from Gardener's merge for %s\n     got: %s\ngardener: %s", input, first, ref)
			}
		}
	})
}

// TestFuzzMergeSeedCorpusExists keeps the checked-in seed corpus from disappearing unnoticed.
func TestFuzzMergeSeedCorpusExists(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "fuzz", "FuzzMerge", "*"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no seed corpus under testdata/fuzz/FuzzMerge (%v)", err)
	}
}
