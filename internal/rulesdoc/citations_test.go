package rulesdoc

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// Comments, docs and scripts cite rule ids of the catalogue and nothing outside the repository.

// skippedDirs and skippedFile are what .gitignore leaves untracked, and the checksums.
var skippedDirs = map[string]bool{".git": true, ".cache": true, "bin": true, "dist": true, ".terraform": true}

func skippedFile(name string) bool {
	return name == "go.sum" || name == ".terraform.lock.hcl" || name == "terraform-provider-gardener" ||
		strings.Contains(name, ".tfstate")
}

// repositoryFiles returns the repository's text files and their contents, without this file.
func repositoryFiles(t *testing.T) map[string][]byte {
	t.Helper()
	self, err := filepath.Abs("citations_test.go")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	err = filepath.WalkDir(repoRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if skippedDirs[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		if abs, _ := filepath.Abs(path); abs == self || skippedFile(d.Name()) {
			return nil
		}
		content, err := os.ReadFile(path)
		if err != nil || bytes.IndexByte(content, 0) >= 0 {
			return err
		}
		files[path] = content
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 100 {
		t.Fatalf("found only %d files below %s", len(files), repoRoot)
	}
	return files
}

// outsideReferences are ways of citing documents that live outside the repository: section signs,
// the design and seed documents of the project's workspace, and the seeds' file names.
// The words of a citation may be split over two comment lines.
var outsideReferences = regexp.MustCompile(`\x{00a7}|(?i)gardener-semantics|semantics\s+(//\s*|#\s*)?doc(ument)?\b|appendix\s+(//\s*|#\s*)?a\b|shared/(design|seeds)|\b[0-9]{3}_[0-9a-f]{16}\.txt\b`)

func TestRepository_CitesNoDocumentOutsideIt(t *testing.T) {
	for path, content := range repositoryFiles(t) {
		for _, loc := range outsideReferences.FindAllIndex(content, -1) {
			line := 1 + bytes.Count(content[:loc[0]], []byte("\n"))
			t.Errorf("%s:%d cites %q, a document outside the repository; cite a rule id of %s instead", path, line, content[loc[0]:loc[1]], Path)
		}
	}
}

// ruleIDCitation matches what reads as a rule id: a capital letter, a dash and a number, or a
// warning id such as W-dropped.
var ruleIDCitation = regexp.MustCompile(`(?:^|[^A-Za-z0-9_-])([A-Z]-[0-9]+[a-z]?|W-[a-z]+(?:-[a-z]+)*)\b`)

func TestRepository_RuleIDsResolveInTheCatalogue(t *testing.T) {
	known := map[string]bool{}
	for _, r := range cloudprofile.Rules() {
		known[r.ID] = true
	}
	for path, content := range repositoryFiles(t) {
		for i, line := range strings.Split(string(content), "\n") {
			for _, m := range ruleIDCitation.FindAllStringSubmatch(line, -1) {
				if !known[m[1]] {
					t.Errorf("%s:%d cites rule %s, which is not in %s", path, i+1, m[1], Path)
				}
			}
		}
	}
}
