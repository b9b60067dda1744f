package cloudprofile

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// ruleIDPattern matches a string literal that is a rule id, such as "C-3" or "W-dropped".
var ruleIDPattern = regexp.MustCompile(`^([A-Z]-[0-9]+|W-[a-z]+(-[a-z]+)*)$`)

// ruleIDLiterals returns the rule ids that occur as string literals in the package's non-test
// source outside the catalogue: every id a Problem constructor, withRulePrefix or a helper taking
// a rule is called with.
func ruleIDLiterals(t *testing.T) map[string][]string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	used := map[string][]string{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || name == "rule_catalogue.go" {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			if s, err := strconv.Unquote(lit.Value); err == nil && ruleIDPattern.MatchString(s) {
				used[s] = append(used[s], fset.Position(lit.Pos()).String())
			}
			return true
		})
	}
	return used
}

func TestRules_EveryIDUsedInTheCodeIsInTheCatalogue(t *testing.T) {
	known := map[string]bool{}
	for _, r := range Rules() {
		known[r.ID] = true
	}
	for id, where := range ruleIDLiterals(t) {
		if !known[id] {
			t.Errorf("rule %s is used at %v but missing from ruleCatalogue", id, where)
		}
	}
}

func TestRules_EveryCatalogueEntryIsUsedInTheCode(t *testing.T) {
	used := ruleIDLiterals(t)
	for _, r := range Rules() {
		if len(used[r.ID]) == 0 {
			t.Errorf("rule %s is in ruleCatalogue but no problem carries it", r.ID)
		}
	}
}

func TestRules_EntriesAreComplete(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Rules() {
		if !ruleIDPattern.MatchString(r.ID) {
			t.Errorf("%q is not a rule id", r.ID)
		}
		if seen[r.ID] {
			t.Errorf("rule %s is listed twice", r.ID)
		}
		seen[r.ID] = true
		if r.Summary == "" || strings.HasSuffix(r.Summary, ".") {
			t.Errorf("rule %s: the summary %q must be a phrase without a final period", r.ID, r.Summary)
		}
		if r.Meaning == "" || !strings.HasSuffix(r.Meaning, ".") {
			t.Errorf("rule %s: the meaning %q must be sentences", r.ID, r.Meaning)
		}
		if !strings.HasSuffix(r.Fix, ".") || strings.Contains(strings.TrimSuffix(r.Fix, "."), ". ") {
			t.Errorf("rule %s: the fix %q must be one sentence", r.ID, r.Fix)
		}
		if !strings.Contains(r.Gardener, ".go ") {
			t.Errorf("rule %s: the Gardener location %q must name a file and a function", r.ID, r.Gardener)
		}
	}
}

func TestRules_AreOrderedByGroupAndNumber(t *testing.T) {
	less := func(a, b RuleInfo) int {
		ga, na, _ := strings.Cut(a.ID, "-")
		gb, nb, _ := strings.Cut(b.ID, "-")
		if c := strings.Compare(ga, gb); c != 0 {
			return c
		}
		ia, errA := strconv.Atoi(na)
		ib, errB := strconv.Atoi(nb)
		if errA == nil && errB == nil {
			return ia - ib
		}
		return strings.Compare(na, nb)
	}
	if rules := Rules(); !slices.IsSortedFunc(rules, less) {
		t.Error("ruleCatalogue is not ordered by group letter and number")
	}
}

func TestRules_ReturnsACopy(t *testing.T) {
	Rules()[0].ID = "changed"
	if Rules()[0].ID == "changed" {
		t.Error("Rules returned the catalogue itself")
	}
}
