package provider

import (
	"os"
	"strings"
	"testing"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// TestDocs_GardenerReleasesTableNamesEveryKnownReleaseAndRule: the table of the provider page's
// "Gardener releases" has a row for each release the rules package knows, no other, and names
// each rule that not every known release applies (its first or last release is in the catalogue),
// so that a release or a rule difference added to the package cannot miss the user's table.
func TestDocs_GardenerReleasesTableNamesEveryKnownReleaseAndRule(t *testing.T) {
	raw, err := os.ReadFile("../../templates/index.md.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	_, section, found := strings.Cut(string(raw), "\n## Gardener releases\n")
	if !found {
		t.Fatal("templates/index.md.tmpl has no section Gardener releases")
	}
	_, table, found := strings.Cut(section, "| release | what changes for cloud profiles, against the previous known release |\n|---|---|\n")
	if !found {
		t.Fatal("the section has no table of releases")
	}
	table, _, _ = strings.Cut(table, "\n\n")
	var rows []string
	for _, row := range strings.Split(table, "\n") {
		release, _, _ := strings.Cut(strings.TrimPrefix(row, "| "), " |")
		rows = append(rows, release)
	}
	var known []string
	for _, r := range cloudprofile.KnownReleases() {
		known = append(known, r.String())
	}
	if strings.Join(rows, " ") != strings.Join(known, " ") {
		t.Errorf("the table's releases are %v, the known ones %v", rows, known)
	}
	for _, r := range cloudprofile.Rules() {
		if r.Since != cloudprofile.OldestKnownRelease() || !r.Until.IsZero() {
			if !strings.Contains(table, "rule "+r.ID) && !strings.Contains(table, "rules "+r.ID) && !strings.Contains(table, "and "+r.ID) {
				t.Errorf("the table does not name rule %s, which %s to %s apply", r.ID, r.Since, r.Until)
			}
		}
	}
}
