package provider

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// fileParts are the first words a file name may start with (see the package doc).
var fileParts = []string{"provider", "resource", "plan", "data", "function", "list", "spec", "status", "schema", "diagnostics"}

// TestDoc_FileIndexNamesEveryFile keeps the file index of doc.go complete and current, and every
// file name in the convention the index follows.
func TestDoc_FileIndexNamesEveryFile(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	named := regexp.MustCompile(`[a-z0-9_]+\.go\b`).FindAllString(string(doc), -1)
	sources, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range sources {
		if strings.HasSuffix(file, "_test.go") || file == "doc.go" {
			continue
		}
		if !slices.Contains(named, file) {
			t.Errorf("doc.go does not name %s in its file index", file)
		}
		if part, _, _ := strings.Cut(file, "_"); !slices.Contains(fileParts, strings.TrimSuffix(part, ".go")) {
			t.Errorf("%s does not start with the part of the provider it serves (%s)", file, strings.Join(fileParts, ", "))
		}
	}
	for _, file := range named {
		if !slices.Contains(sources, file) {
			t.Errorf("doc.go names %s, which does not exist", file)
		}
	}
}
