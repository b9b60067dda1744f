// Package exttest holds test helpers shared by the extension packages' tests.
package exttest

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// CheckCatalogue fails t unless the catalogue's ids are unique and complete (summary, Gardener
// location, meaning and fix set), every id of the form prefix-N written in the package's non-test
// Go files in dir is in the catalogue, and every catalogue id is in used (the rules the tests saw
// reported).
func CheckCatalogue(t *testing.T, dir, prefix string, rules []cloudprofile.RuleInfo, used map[string]bool) {
	t.Helper()
	ids := map[string]bool{}
	for _, r := range rules {
		if ids[r.ID] {
			t.Errorf("rule %s is in the catalogue twice", r.ID)
		}
		ids[r.ID] = true
		if !strings.HasPrefix(r.ID, prefix+"-") {
			t.Errorf("rule %s does not start with %s-", r.ID, prefix)
		}
		if r.Summary == "" || r.Gardener == "" || r.Meaning == "" || r.Fix == "" {
			t.Errorf("rule %s has an empty field: %+v", r.ID, r)
		}
	}
	re := regexp.MustCompile(regexp.QuoteMeta(prefix) + `-[0-9]+`)
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range re.FindAllString(string(b), -1) {
			if !ids[id] {
				t.Errorf("%s uses rule %s, which is not in the catalogue", filepath.Base(f), id)
			}
		}
	}
	var unused []string
	for id := range ids {
		if !used[id] {
			unused = append(unused, id)
		}
	}
	sort.Strings(unused)
	for _, id := range unused {
		t.Errorf("catalogue rule %s is reported by no test case", id)
	}
	for id := range used {
		if !ids[id] {
			t.Errorf("tests saw rule %s, which is not in the catalogue", id)
		}
	}
}
