package provider

import (
	"strings"
	"sync"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestPlannedCloudProfiles_planAndReportOnce: a planned change is seen by the plans that follow,
// as a copy of the planned object (nil when not known); a missing parent is reported once per
// name, however many plans ask at once.
func TestPlannedCloudProfiles_planAndReportOnce(t *testing.T) {
	var p plannedCloudProfiles
	if _, ok := p.lookup("parent"); ok {
		t.Fatal("nothing planned yet")
	}
	p.plan("parent", &gardencorev1beta1.CloudProfile{ObjectMeta: metav1.ObjectMeta{Name: "parent"}, Spec: gardencorev1beta1.CloudProfileSpec{Type: "local"}})
	p.plan("unknown", nil)
	got, ok := p.lookup("parent")
	if !ok || got == nil || got.Spec.Type != "local" {
		t.Fatalf("the planned parent is not known: %v %v", got, ok)
	}
	got.Spec.Type = "changed"
	if again, _ := p.lookup("parent"); again.Spec.Type != "local" {
		t.Fatal("a caller changed the planned object")
	}
	if got, ok := p.lookup("unknown"); !ok || got != nil {
		t.Fatalf("a plan not fully known is planned without an object, got %v %v", got, ok)
	}
	if _, ok := p.lookup("other"); ok {
		t.Fatal("only the planned changes are known")
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
