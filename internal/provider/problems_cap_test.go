package provider

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// badVersionsProblems validates a CloudProfile with n Kubernetes versions that are not semantic
// versions, and returns its problems and the spec value as Terraform sends it.
func badVersionsProblems(t *testing.T, n int) (cloudprofile.Problems, tftypes.Value) {
	t.Helper()
	cp := &gardencorev1beta1.CloudProfile{ObjectMeta: metav1.ObjectMeta{Name: "big"}, Spec: plainCloudProfileSpec()}
	versions := make([]string, n)
	cp.Spec.Kubernetes.Versions = nil
	for i := range versions {
		versions[i] = fmt.Sprintf("bad-%d", i)
	}
	for _, v := range sortedEntryKeys(newestVersionFirst, slices.Clone(versions)) { // as the provider writes them
		cp.Spec.Kubernetes.Versions = append(cp.Spec.Kubernetes.Versions, gardencorev1beta1.ExpirableVersion{Version: v})
	}
	problems := cloudprofile.ValidateCloudProfileRequest(cp, nil, cloudprofile.OptionsWithAllGates(time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)))
	if len(problems.Errors()) < n {
		t.Fatalf("want at least one error per version, got %d", len(problems.Errors()))
	}
	return problems, kubernetesSpecValue(versions...)
}

// diagnosticsSize is the total length of the summaries and details.
func diagnosticsSize(diags diag.Diagnostics) int {
	size := 0
	for _, d := range diags {
		size += len(d.Summary()) + len(d.Detail())
	}
	return size
}

func TestProblemDiagnostics_TenThousandBadVersionsStayBounded(t *testing.T) {
	problems, spec := badVersionsProblems(t, 10000)
	diags := problemDiagnostics(problems, spec)
	if len(diags) != 2 {
		t.Fatalf("got %d diagnostics, want one (a spec of 10,000 entries) and one that counts the rest", len(diags))
	}
	if size := diagnosticsSize(diags); size > 64<<10 {
		t.Fatalf("summaries and details take %d bytes, want at most 64 KiB", size)
	}
	last := diags[len(diags)-1]
	if last.Severity() != diag.SeverityError || !strings.HasPrefix(last.Summary(), "… and ") || !strings.Contains(last.Summary(), " more problems: ") {
		t.Fatalf("the last diagnostic does not count the rest: %s / %s", last.Summary(), last.Detail())
	}
	if !strings.Contains(last.Detail(), "than the diagnostic of the rules above shows (fewer than the usual 20: Terraform re-reads the whole configuration") {
		t.Fatalf("the count does not say why one diagnostic is shown: %s", last.Detail())
	}
	t.Logf("%d problems, last summary: %s", len(problems), last.Summary())
}

// TestProblemDiagnosticsLimit_ShrinksWithTheEntriesOfTheSpec: Terraform re-reads the whole
// configuration for every diagnostic it prints, so a large spec gets fewer diagnostics (at
// least one), and the rest are counted.
func TestProblemDiagnosticsLimit_ShrinksWithTheEntriesOfTheSpec(t *testing.T) {
	for _, c := range []struct{ entries, want int }{{0, 20}, {1, 20}, {500, 20}, {501, 19}, {1000, 10}, {2500, 4}, {5001, 1}, {10000, 1}, {1 << 30, 1}} {
		if got := problemDiagnosticsLimit(c.entries); got != c.want {
			t.Errorf("problemDiagnosticsLimit(%d) = %d, want %d", c.entries, got, c.want)
		}
	}
	problems, spec := badVersionsProblems(t, 1000) // 1,000 versions of one lifecycle stage each: 2,000 entries
	diags := problemDiagnostics(problems, spec)
	if len(diags) != 6 || !strings.HasPrefix(diags[5].Summary(), "… and 996 more problems") {
		t.Fatalf("a spec of 2,000 entries with an error in each version: got %d diagnostics, the last %q; want 5 and one that counts 996", len(diags), diags[len(diags)-1].Summary())
	}
	if !strings.Contains(diags[5].Detail(), "than the 5 diagnostics of the rules above show (fewer than the usual 20") {
		t.Fatalf("the count does not say why 5 are shown: %s", diags[5].Detail())
	}
}

// numberedSpec is a spec value with the Kubernetes versions 1.0.0 to 1.0.(n-1), which numberedProblems
// name.
func numberedSpec(n int) tftypes.Value {
	versions := make([]string, n)
	for i := range n {
		versions[i] = fmt.Sprintf("1.0.%d", i)
	}
	return kubernetesSpecValue(versions...)
}

// numberedProblems are n problems of severity on distinct Kubernetes versions, with rule.
func numberedProblems(n int, severity cloudprofile.Severity, rule string) cloudprofile.Problems {
	var out cloudprofile.Problems
	for i := range n {
		out = append(out, cloudprofile.Problem{Severity: severity, Rule: rule, Type: cloudprofile.Invalid,
			Detail:   fmt.Sprintf("version %d is odd; look", i),
			Path:     cloudprofile.NewPath("spec").Child("kubernetes").Child("versions").Index(i).Child("version"),
			BadValue: fmt.Sprint(i)})
	}
	return out
}

func TestProblemDiagnostics_CapShowsErrorsFirstAndCountsTheRestByRule(t *testing.T) {
	problems := append(numberedProblems(30, cloudprofile.SeverityWarning, ""), numberedProblems(25, cloudprofile.SeverityError, "C-6")...)
	diags := problemDiagnostics(problems, numberedSpec(30))
	if len(diags) != maxProblemDiagnostics+1 {
		t.Fatalf("got %d diagnostics, want %d", len(diags), maxProblemDiagnostics+1)
	}
	for _, d := range diags[:maxProblemDiagnostics] {
		if d.Severity() != diag.SeverityError {
			t.Fatalf("a warning %q is shown while errors are counted", d.Summary())
		}
	}
	last := diags[maxProblemDiagnostics]
	if want := "… and 35 more problems: without rule id ×30, C-6 ×5"; last.Summary() != want || last.Severity() != diag.SeverityError {
		t.Fatalf("last: %v %q, want an error %q", last.Severity(), last.Summary(), want)
	}
}

func TestProblemDiagnostics_CountedWarningsStayAWarning(t *testing.T) {
	diags := problemDiagnostics(numberedProblems(maxProblemDiagnostics+3, cloudprofile.SeverityWarning, "W-expires-soon"), numberedSpec(maxProblemDiagnostics+3))
	if diags.HasError() || len(diags) != maxProblemDiagnostics+1 || diags[maxProblemDiagnostics].Summary() != "… and 3 more problems: W-expires-soon ×3" {
		t.Fatalf("got %d diagnostics, errors %v, last %q", len(diags), diags.HasError(), diags[len(diags)-1].Summary())
	}
}

func TestProblemDiagnostics_UpToTheCapNothingIsCounted(t *testing.T) {
	diags := problemDiagnostics(numberedProblems(maxProblemDiagnostics, cloudprofile.SeverityError, "C-6"), numberedSpec(maxProblemDiagnostics))
	if len(diags) != maxProblemDiagnostics || strings.HasPrefix(diags[len(diags)-1].Summary(), "…") {
		t.Fatalf("got %d diagnostics, last %q", len(diags), diags[len(diags)-1].Summary())
	}
}

// TestProblemDiagnostics_RuleC8RepeatsAreSaidOnceAndCounted: Gardener reports rule C-8 once per
// pair of supported versions of a minor; each kept diagnostic says so in one line instead of
// listing the same message again, and the diagnostic that counts the rest counts every repeat.
func TestProblemDiagnostics_RuleC8RepeatsAreSaidOnceAndCounted(t *testing.T) {
	const n = 30
	cp := &gardencorev1beta1.CloudProfile{ObjectMeta: metav1.ObjectMeta{Name: "minor"}, Spec: plainCloudProfileSpec()}
	supported := gardencorev1beta1.ClassificationSupported
	var versions []string
	for i := range n {
		versions = append(versions, fmt.Sprintf("1.24.%d", i))
	}
	cp.Spec.Kubernetes.Versions = nil
	for _, v := range sortedEntryKeys(newestVersionFirst, slices.Clone(versions)) {
		cp.Spec.Kubernetes.Versions = append(cp.Spec.Kubernetes.Versions, gardencorev1beta1.ExpirableVersion{Version: v, Classification: &supported})
	}
	problems := cloudprofile.ValidateCloudProfileRequest(cp, nil, cloudprofile.OptionsWithAllGates(time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)))
	diags := problemDiagnostics(problems, kubernetesSpecValue(versions...))
	if len(diags) != maxProblemDiagnostics+1 {
		t.Fatalf("got %d diagnostics, want %d and one that counts the rest", len(diags), maxProblemDiagnostics+1)
	}
	first := diags[0].Detail()
	if !strings.Contains(first, fmt.Sprintf("\n\nGardener reports the same error %d more times.\n\n", n-2)) || strings.Contains(first, "\n  - ") {
		t.Fatalf("the first diagnostic does not say the repeats once:\n%s", first)
	}
	hidden := (n - maxProblemDiagnostics) * (n - 1)
	if want := fmt.Sprintf("… and %d more problems: C-8 ×%d", hidden, hidden); diags[maxProblemDiagnostics].Summary() != want {
		t.Fatalf("last: %q, want %q", diags[maxProblemDiagnostics].Summary(), want)
	}
}

func TestThousands_GroupsDigitsByThree(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 9980: "9,980", 1234567: "1,234,567"} {
		if got := thousands(n); got != want {
			t.Errorf("thousands(%d) = %q, want %q", n, got, want)
		}
	}
}

// Past the cap a problem on the attribute of a shown group still joins that group; the others
// are counted, errors are shown before warnings, and a group of warnings found before the cap was
// reached makes way for an error.
func TestSelectProblemGroups_PastTheCapAProblemJoinsItsShownGroupOrIsCounted(t *testing.T) {
	errs := numberedProblems(3, cloudprofile.SeverityError, "C-6")
	warns := numberedProblems(3, cloudprofile.SeverityWarning, "")
	problems := cloudprofile.Problems{warns[1], errs[0], errs[1], errs[2], errs[0], warns[2]}
	shown, rest := selectProblemGroups(problems, numberedSpec(3), 2)
	var got []string
	for _, g := range shown {
		got = append(got, fmt.Sprintf("%s×%d", g.where.path, len(g.problems)))
	}
	// Gardener's positions count the versions newest first, as the provider writes them.
	want := []string{`spec.kubernetes.versions["1.0.2"]×2`, `spec.kubernetes.versions["1.0.1"]×1`}
	if !slices.Equal(got, want) {
		t.Errorf("shown groups %v, want %v", got, want)
	}
	if len(rest) != 3 || rest.Count() != 3 || len(rest.Errors()) != 1 {
		t.Errorf("rest %v, want the error on 1.0.0 and the two warnings", rest)
	}
	shown, rest = selectProblemGroups(problems, numberedSpec(3), 5)
	if len(shown) != 5 || len(rest) != 0 || shown[0].problems[0].Severity != cloudprofile.SeverityWarning {
		t.Errorf("within the cap every group is shown in the order found: %d shown, %d counted", len(shown), len(rest))
	}
}
