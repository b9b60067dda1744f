// Package exttest holds test helpers shared by the extension packages' tests.
package exttest

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

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

// Extension is what every extension package exports, in the shape a registry by provider type
// can hold; each package's tests fill it, so that the packages keep the same API.
type Extension struct {
	Type                           string
	Release                        string
	ValidateCloudProfile           func(string, gardencorev1beta1.CloudProfileSpec) cloudprofile.Problems
	ValidateNamespacedCloudProfile func(string, gardencorev1beta1.NamespacedCloudProfileSpec, gardencorev1beta1.CloudProfileSpec) cloudprofile.Problems
	MutateCloudProfile             func(gardencorev1beta1.CloudProfileSpec) gardencorev1beta1.CloudProfileSpec
	MutateNamespacedCloudProfile   func(gardencorev1beta1.NamespacedCloudProfileSpec, gardencorev1beta1.CloudProfileSpec) gardencorev1beta1.NamespacedCloudProfileSpec
	Rules                          func() []cloudprofile.RuleInfo
}

// CheckExtension fails t unless every part of e is set and the functions accept empty specs.
func CheckExtension(t *testing.T, e Extension) {
	t.Helper()
	if e.Type == "" || !strings.HasPrefix(e.Release, "gardener-extension-provider-"+e.Type+" ") {
		t.Errorf("type %q, release %q", e.Type, e.Release)
	}
	if e.ValidateCloudProfile == nil || e.ValidateNamespacedCloudProfile == nil || e.MutateCloudProfile == nil || e.MutateNamespacedCloudProfile == nil || e.Rules == nil {
		t.Fatal("a function is missing")
	}
	if len(e.Rules()) == 0 {
		t.Error("no rules")
	}
	// An empty CloudProfile lacks the providerConfig; an empty NamespacedCloudProfile has no parent
	// of kind CloudProfile. Both are rejected, neither panics.
	if len(e.ValidateCloudProfile("p", gardencorev1beta1.CloudProfileSpec{})) == 0 {
		t.Error("an empty CloudProfile passes")
	}
	if len(e.ValidateNamespacedCloudProfile("n", gardencorev1beta1.NamespacedCloudProfileSpec{}, gardencorev1beta1.CloudProfileSpec{})) == 0 {
		t.Error("a NamespacedCloudProfile without parent kind passes")
	}
	_ = e.MutateCloudProfile(gardencorev1beta1.CloudProfileSpec{})
	_ = e.MutateNamespacedCloudProfile(gardencorev1beta1.NamespacedCloudProfileSpec{}, gardencorev1beta1.CloudProfileSpec{})
}
