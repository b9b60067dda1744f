package rulesdoc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions"
)

// repoRoot is the repository's root, seen from this package's directory.
const repoRoot = "../.."

func TestRender_GuideIsUpToDate(t *testing.T) {
	want, err := Guide()
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(repoRoot, Path))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs from the catalogue in internal/cloudprofile: run 'make docs' and commit the result", Path)
	}
}

func TestRender_EveryRuleHasItsSection(t *testing.T) {
	doc, err := Guide()
	if err != nil {
		t.Fatal(err)
	}
	rules := cloudprofile.Rules()
	for _, e := range extensions.Known() {
		rules = append(rules, e.Rules...)
	}
	for _, r := range rules {
		section := "\n### " + r.ID + "\n\n**" + r.Summary + ".** " + r.Meaning + "\n\n- Fix: " + r.Fix + "\n"
		if !strings.Contains(string(doc), section) {
			t.Errorf("the guide has no section %q", section)
		}
	}
}

func TestRender_EveryGroupHasATitleAndRules(t *testing.T) {
	used := map[string]bool{}
	for _, r := range cloudprofile.Rules() {
		letter, _, _ := strings.Cut(r.ID, "-")
		used[letter] = true
	}
	for letter := range groupTitles {
		if !used[letter] {
			t.Errorf("group %s has a title but no rules", letter)
		}
	}
	if _, err := Render([]cloudprofile.RuleInfo{{ID: "Q"}}); err == nil {
		t.Error("Render accepted a rule of a group without title")
	}
}

func TestRender_EveryRuleNamesItsFirstRelease(t *testing.T) {
	doc, err := Guide()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range cloudprofile.Rules() {
		line := "- First release: " + r.Since.String()
		if r.Since == cloudprofile.OldestKnownRelease() {
			line += " or earlier"
		}
		if !r.Until.IsZero() {
			line += "; last release: " + r.Until.String()
		}
		if !strings.Contains(string(doc), "\n### "+r.ID+"\n") || !strings.Contains(string(doc), line+"\n") {
			t.Errorf("the section of rule %s does not say %q", r.ID, line)
		}
	}
	for _, want := range []string{"- First release: v1.147.0\n", "- First release: v1.146.0 or earlier; last release: v1.148.0\n"} {
		if !strings.Contains(string(doc), want) {
			t.Errorf("the guide does not say %q", want)
		}
	}
}
