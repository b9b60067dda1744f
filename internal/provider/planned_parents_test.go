package provider

import (
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
)

// TestPlannedCloudProfiles_planCreateAndReportOnce: a planned create is seen by the plans that
// follow; a missing parent is reported once per name, however many plans ask at once.
func TestPlannedCloudProfiles_planCreateAndReportOnce(t *testing.T) {
	var p plannedCloudProfiles
	if p.plansCreate("parent") {
		t.Fatal("nothing planned yet")
	}
	p.planCreate("parent")
	if !p.plansCreate("parent") || p.plansCreate("other") {
		t.Fatal("only the planned create is known")
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	firsts := map[string]int{}
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := []string{"typo-a", "typo-b"}[i%2]
			if p.firstReport(name) {
				mu.Lock()
				firsts[name]++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if firsts["typo-a"] != 1 || firsts["typo-b"] != 1 {
		t.Fatalf("want each missing parent reported once, got %v", firsts)
	}
}

// TestMissingParentWarning_onTheParentNameWithTheFix: the warning is on spec.parent.name, names
// the parent and rule L-0, and says how to fix it.
func TestMissingParentWarning_onTheParentNameWithTheFix(t *testing.T) {
	d := missingParentWarning("typo")
	if d.Severity() != diag.SeverityWarning || d.Summary() != `Parent CloudProfile "typo" does not exist` {
		t.Fatalf("got %v %q", d.Severity(), d.Summary())
	}
	if at := d.(diag.DiagnosticWithPath).Path(); !at.Equal(path.Root("spec").AtName("parent").AtName("name")) {
		t.Fatalf("on %s, want spec.parent.name", at)
	}
	for _, want := range []string{"rule L-0", "To fix: correct spec.parent.name", "gardener_cloud_profile.<name>.metadata.name"} {
		if !strings.Contains(d.Detail(), want) {
			t.Errorf("detail lacks %q:\n%s", want, d.Detail())
		}
	}
}
