package cloudprofile

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDoc_FileIndexNamesEveryFile keeps the file index of doc.go complete and current.
func TestDoc_FileIndexNamesEveryFile(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	indexed := map[string]bool{}
	for _, name := range regexp.MustCompile(`[a-z0-9_]+\.go\b`).FindAllString(string(doc), -1) {
		indexed[name] = true
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	exists := map[string]bool{}
	for _, name := range files {
		exists[name] = true
		if !strings.HasSuffix(name, "_test.go") && name != "doc.go" && !indexed[name] {
			t.Errorf("doc.go does not name %s in its file index", name)
		}
	}
	for name := range indexed {
		if !exists[name] {
			t.Errorf("doc.go names %s, which does not exist", name)
		}
	}
}
