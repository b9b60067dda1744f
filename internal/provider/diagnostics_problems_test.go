package provider

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

func TestProblemDiagnostics_LandOnTheAttribute(t *testing.T) {
	p := cloudprofile.Problem{
		Rule: "F-5", Type: cloudprofile.Invalid, BadValue: "==1.30.0", Detail: "invalid constraint",
		Path: cloudprofile.NewPath("spec").Child("machineImages").Index(1).Child("versions").Index(0).Child("kubeletVersionConstraint"),
	}
	spec, flattened := flattenSpecTerraform(cloudProfileSpecRoot, richCloudProfileSpec())
	requireNoDiags(t, flattened)
	diags := problemDiagnostics(cloudprofile.Problems{p}, spec)
	if len(diags) != 1 || !diags.HasError() {
		t.Fatalf("want one error, got %v", diags)
	}
	d, ok := diags[0].(interface{ Path() path.Path })
	if !ok {
		t.Fatal("diagnostic has no attribute path")
	}
	want := path.Root("spec").AtName("machine_images").AtMapKey("ubuntu").AtName("versions").AtMapKey("24.4.0").AtName("kubelet_version_constraint")
	if !d.Path().Equal(want) {
		t.Fatalf("path %s, want %s", d.Path(), want)
	}
	for _, s := range []string{"spec.machineImages[1].versions[0].kubeletVersionConstraint", "==1.30.0", "F-5"} {
		if !strings.Contains(diags[0].Detail(), s) {
			t.Errorf("detail %q lacks %q", diags[0].Detail(), s)
		}
	}
}

func TestProblemDiagnostics_WarningsStayWarnings(t *testing.T) {
	p := cloudprofile.Problem{Severity: cloudprofile.SeverityWarning, Type: cloudprofile.Invalid, Detail: "the capability is odd",
		Path: cloudprofile.NewPath("spec").Child("capabilities").ChildKey("architecture")}
	diags := problemDiagnostics(cloudprofile.Problems{p}, tftypes.Value{})
	if diags.HasError() || diags.WarningsCount() != 1 {
		t.Fatalf("want one warning, got %v", diags)
	}
	want := path.Root("spec").AtName("capabilities").AtMapKey("architecture")
	if got := diags[0].(interface{ Path() path.Path }).Path(); !got.Equal(want) {
		t.Fatalf("path %s, want %s", got, want)
	}
	if got := diags[0].Summary(); got != "The capability is odd" {
		t.Fatalf("a warning's summary is the start of its detail, got %q", got)
	}
}

func TestProblemDetail_ShortensLongBadValues(t *testing.T) {
	long := strings.Repeat("a", 1<<20)
	d := problemDetail(cloudprofile.Problem{Rule: "M-1", Type: cloudprofile.Invalid,
		Path: cloudprofile.NewPath("metadata").Child("labels"), BadValue: long, Detail: "must be no more than 63 characters"}, "metadata.labels")
	if len(d) > 600 || !strings.Contains(d, "(1048576 characters)") || !strings.Contains(d, "must be no more than 63 characters") {
		t.Fatalf("detail of %d bytes: %.600s", len(d), d)
	}
	short := problemDetail(cloudprofile.Problem{Type: cloudprofile.Invalid, Path: cloudprofile.NewPath("spec").Child("type"), BadValue: "x", Detail: "d"}, "spec.type")
	if !strings.Contains(short, `Invalid value: "x"`) {
		t.Fatalf("a short value must stay as it is: %s", short)
	}
}

// kubernetesSpecValue is a spec value as Terraform sends it, with the Kubernetes versions given,
// each with one lifecycle stage.
func kubernetesSpecValue(versions ...string) tftypes.Value {
	stage := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"classification": tftypes.String}}
	version := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"lifecycle": tftypes.List{ElementType: stage}}}
	kubernetes := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"versions": tftypes.Map{ElementType: version}}}
	spec := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"kubernetes": kubernetes}}
	vs := map[string]tftypes.Value{}
	for _, v := range versions {
		lifecycle := tftypes.NewValue(tftypes.List{ElementType: stage}, []tftypes.Value{
			tftypes.NewValue(stage, map[string]tftypes.Value{"classification": tftypes.NewValue(tftypes.String, "supported")}),
		})
		vs[v] = tftypes.NewValue(version, map[string]tftypes.Value{"lifecycle": lifecycle})
	}
	return tftypes.NewValue(spec, map[string]tftypes.Value{
		"kubernetes": tftypes.NewValue(kubernetes, map[string]tftypes.Value{"versions": tftypes.NewValue(tftypes.Map{ElementType: version}, vs)}),
	})
}

// TestProblemDiagnostics_SayWhatWhereAndHowToFixForEveryRule: for every rule of the catalogue, the
// diagnostic's summary is the rule's summary in words with the entry it concerns, its detail starts
// with the Terraform attribute path in snake_case with the user's index and the entry's key, then
// gives Gardener's message with Gardener's field path and the rule id (for the provider's own
// checks, its detail with the rule id and no word of Gardener), then the rule's fix.
func TestProblemDiagnostics_SayWhatWhereAndHowToFixForEveryRule(t *testing.T) {
	spec := kubernetesSpecValue("1.32.4", "1.33.5")
	// The provider writes versions newest first: index 0 is 1.33.5.
	at := cloudprofile.NewPath("spec").Child("kubernetes").Child("versions").Index(0).Child("lifecycle").Index(0).Child("classification")
	const terraformPath = `spec.kubernetes.versions["1.33.5"].lifecycle[0].classification`
	for _, rule := range cloudprofile.Rules() {
		t.Run(rule.ID, func(t *testing.T) {
			severity := cloudprofile.SeverityError
			detail := "stages must be in order"
			if strings.HasPrefix(rule.ID, "W-") {
				severity, detail = cloudprofile.SeverityWarning, `Kubernetes version "1.33.5" expires after 2030-01-01T00:00:00Z`
			}
			p := cloudprofile.Problem{Rule: rule.ID, Type: cloudprofile.Invalid, Severity: severity, Path: at, BadValue: "supported", Detail: detail}
			diags := problemDiagnostics(cloudprofile.Problems{p}, spec)
			if len(diags) != 1 {
				t.Fatalf("want one diagnostic, got %v", diags)
			}
			wantSummary := rule.Summary + " (Kubernetes version 1.33.5)"
			if severity == cloudprofile.SeverityWarning {
				wantSummary = detail
			}
			if got := diags[0].Summary(); got != wantSummary {
				t.Errorf("summary %q, want %q", got, wantSummary)
			}
			got := diags[0].Detail()
			if !strings.HasPrefix(got, terraformPath+"\n") {
				t.Errorf("detail does not start with the Terraform path %q:\n%s", terraformPath, got)
			}
			message := `Gardener: spec.kubernetes.versions[0].lifecycle[0].classification: Invalid value: "supported": ` + detail + " (rule " + rule.ID + ")"
			if rule.ProviderOwn {
				message = upperFirst(detail) + " (rule " + rule.ID + ", the provider's own check)"
				if strings.Contains(got, "Gardener:") {
					t.Errorf("the provider's own check is attributed to Gardener:\n%s", got)
				}
			}
			fix := "To fix: " + rule.Fix
			if cloudprofile.IsNotice(rule.ID) {
				fix = rule.Fix
				if strings.Contains(got, "To fix:") {
					t.Errorf("a notice says \"To fix\":\n%s", got)
				}
			}
			for _, want := range []string{message, fix} {
				if !strings.Contains(got, want) {
					t.Errorf("detail lacks %q:\n%s", want, got)
				}
			}
		})
	}
}

// TestProblemDiagnostics_AGoodTransitionIsNoProblemToFix: a version that becomes supported soon is
// a warning (Terraform has no notices) whose detail says there is nothing to fix.
func TestProblemDiagnostics_AGoodTransitionIsNoProblemToFix(t *testing.T) {
	cp := &gardencorev1beta1.CloudProfile{ObjectMeta: metav1.ObjectMeta{Name: "profile"}, Spec: richCloudProfileSpec()}
	now := time.Date(2027, 1, 15, 0, 0, 0, 0, time.UTC)
	cp.Spec.Kubernetes.Versions = append(cp.Spec.Kubernetes.Versions, gardencorev1beta1.ExpirableVersion{Version: "1.34.1", Lifecycle: []gardencorev1beta1.LifecycleStage{
		{Classification: gardencorev1beta1.ClassificationPreview},
		{Classification: gardencorev1beta1.ClassificationSupported, StartTime: &metav1.Time{Time: now.Add(48 * time.Hour)}},
	}})
	opts := cloudprofile.OptionsWithAllGates(now)
	opts.ExpiryWarningWindow = 30 * 24 * time.Hour
	spec, diags := flattenSpecTerraform(cloudProfileSpecRoot, cp.Spec)
	requireNoDiags(t, diags)
	diags = problemDiagnostics(cloudprofile.WarnCloudProfile(cp, nil, opts), spec)
	for _, d := range diags {
		if strings.Contains(d.Summary(), `"1.34.1" changes from preview to supported`) {
			if d.Severity() != diag.SeverityWarning || strings.Contains(d.Detail(), "To fix") || !strings.Contains(d.Detail(), "Nothing to fix") {
				t.Errorf("the good transition reads as a problem to fix:\n%s\n%s", d.Summary(), d.Detail())
			}
			return
		}
	}
	t.Fatalf("no warning about 1.34.1 among %v", diags)
}

// TestProblemDiagnostics_ALabelHasItsOwnTitleAndFix: a bad label value is titled as a label, with
// its key, on metadata.labels, and its fix is about label keys and values, not the name.
func TestProblemDiagnostics_ALabelHasItsOwnTitleAndFix(t *testing.T) {
	cp := &gardencorev1beta1.CloudProfile{ObjectMeta: metav1.ObjectMeta{Name: "profile", Labels: map[string]string{"owner": "team a"}}, Spec: richCloudProfileSpec()}
	d := diagnosticOn(t, problemDiagnostics(cloudprofile.ValidateCloudProfileRequest(cp, nil, cloudprofile.OptionsWithAllGates(time.Date(2027, 1, 15, 0, 0, 0, 0, time.UTC))), tftypes.Value{}), "metadata")
	if d.Summary() != "A label is not valid (owner)" {
		t.Errorf("summary %q", d.Summary())
	}
	if at := d.(diag.DiagnosticWithPath).Path(); !at.Equal(path.Root("metadata").AtName("labels").AtMapKey("owner")) {
		t.Errorf("on %s", at)
	}
	if strings.Contains(d.Detail(), "metadata.name") || !strings.Contains(d.Detail(), "To fix: Correct the label in `metadata.labels`") {
		t.Errorf("the fix is not about the label:\n%s", d.Detail())
	}
}

// diagnosticOn is the one diagnostic of diags whose detail starts with one of the attribute paths
// prefixes (the other problems of the profile lie elsewhere).
func diagnosticOn(t *testing.T, diags diag.Diagnostics, prefixes ...string) diag.Diagnostic {
	t.Helper()
	var found []diag.Diagnostic
	for _, d := range diags {
		for _, p := range prefixes {
			if strings.HasPrefix(d.Detail(), p) {
				found = append(found, d)
				break
			}
		}
	}
	if len(found) != 1 {
		t.Fatalf("want one diagnostic on %q, got %v", prefixes, diags)
	}
	return found[0]
}

// TestProblemDiagnostics_AnInvalidTypeIsReportedOnSpecType: a provider type that cannot be a label
// key is an error on spec.type that says so, not one about the name.
func TestProblemDiagnostics_AnInvalidTypeIsReportedOnSpecType(t *testing.T) {
	cp := &gardencorev1beta1.CloudProfile{ObjectMeta: metav1.ObjectMeta{Name: "profile"}, Spec: richCloudProfileSpec()}
	cp.Spec.Type = "AWS Cloud"
	d := diagnosticOn(t, problemDiagnostics(cloudprofile.ValidateCloudProfileRequest(cp, nil, cloudprofile.OptionsWithAllGates(time.Date(2027, 1, 15, 0, 0, 0, 0, time.UTC))), tftypes.Value{}), "metadata", "spec.type")
	if d.Summary() != "The provider type cannot be a label" {
		t.Errorf("summary %q", d.Summary())
	}
	if at := d.(diag.DiagnosticWithPath).Path(); !at.Equal(path.Root("spec").AtName("type")) {
		t.Errorf("on %s", at)
	}
	if strings.Contains(d.Detail(), "metadata.name") || !strings.Contains(d.Detail(), "To fix: Set `spec.type`") {
		t.Errorf("the fix is not about spec.type:\n%s", d.Detail())
	}
}

// TestProblemDiagnostics_OnlyGardenersErrorsAreQuotedAsGardeners: a W-expired warning's detail
// has no "Gardener:" line, nor do the further problems of its group; a C-5 error's has.
func TestProblemDiagnostics_OnlyGardenersErrorsAreQuotedAsGardeners(t *testing.T) {
	at := cloudprofile.NewPath("spec").Child("kubernetes").Child("versions")
	expired := func(i int) cloudprofile.Problem {
		return cloudprofile.Problem{Rule: "W-expired", Type: cloudprofile.Invalid, Severity: cloudprofile.SeverityWarning, Path: at.Index(i),
			BadValue: "1.30.1", Detail: `Kubernetes version "1.30.1" expired at 2026-01-01T00:00:00Z, its expiration date`}
	}
	warning := problemGroupDetail(cloudprofile.Problems{expired(0), expired(1)}, "spec.kubernetes.versions")
	if strings.Contains(warning, "Gardener") || !strings.Contains(warning, "(rule W-expired, the provider's own check)") ||
		!strings.Contains(warning, "The provider finds the same for 1 more") {
		t.Errorf("W-expired:\n%s", warning)
	}
	c5 := cloudprofile.Problem{Rule: "C-5", Type: cloudprofile.Invalid, Path: at.Index(0).Child("version"), BadValue: "v1.30.1", Detail: "must be MAJOR.MINOR.PATCH"}
	if got := problemDetail(c5, "spec.kubernetes.versions[0].version"); !strings.Contains(got,
		`Gardener: spec.kubernetes.versions[0].version: Invalid value: "v1.30.1": must be MAJOR.MINOR.PATCH (rule C-5)`) {
		t.Errorf("C-5:\n%s", got)
	}
}

// TestProblemDiagnostics_ACompoundRuleIsExplainedByTheRuleApplied: "M-1/C-3" is rule C-3 applied
// to the merged profile.
func TestProblemDiagnostics_ACompoundRuleIsExplainedByTheRuleApplied(t *testing.T) {
	c3, _ := cloudprofile.RuleOf("C-3")
	p := cloudprofile.Problem{Rule: "M-1/C-3", Type: cloudprofile.Invalid, Path: cloudprofile.NewPath("spec").Child("kubernetes"), Detail: "d"}
	d := problemDiagnostics(cloudprofile.Problems{p}, tftypes.Value{})[0]
	if d.Summary() != c3.Summary || !strings.Contains(d.Detail(), "(rule M-1/C-3)") || !strings.Contains(d.Detail(), c3.Fix) {
		t.Fatalf("got %q:\n%s", d.Summary(), d.Detail())
	}
}

// TestProblemDiagnostics_NeverDumpAWholeObject: a bad semver is reported with the version object
// as Gardener's bad value (rule C-5); the diagnostic names the entry instead of printing it.
func TestProblemDiagnostics_NeverDumpAWholeObject(t *testing.T) {
	cp := &gardencorev1beta1.CloudProfile{Spec: gardencorev1beta1.CloudProfileSpec{Type: "local",
		Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{{Version: "1.32.4"}, {Version: "1.x"}}}}}
	var c5 *cloudprofile.Problem
	problems := cloudprofile.ValidateCloudProfileRequest(cp, nil, cloudprofile.OptionsWithAllGates(time.Date(2027, 1, 15, 0, 0, 0, 0, time.UTC)))
	for i := range problems {
		if problems[i].Rule == "C-5" {
			c5 = &problems[i]
		}
	}
	if c5 == nil {
		t.Fatalf("no C-5 among %v", problems)
	}
	d := problemDiagnostics(cloudprofile.Problems{*c5}, kubernetesSpecValue("1.32.4", "1.x"))[0]
	if strings.Contains(d.Detail(), `{"`) || !strings.HasPrefix(d.Detail(), `spec.kubernetes.versions["1.x"]`) {
		t.Fatalf("got %q:\n%s", d.Summary(), d.Detail())
	}
	if !strings.HasSuffix(d.Summary(), "(Kubernetes version 1.x)") {
		t.Fatalf("the summary names the entry: %q", d.Summary())
	}
}

// TestProblemDiagnostics_OverrideErrorsSayLaterChecksFollow: an error that stops Gardener's
// admission at the overrides says, in its own detail, that the next plan may find more; the
// merged profile's errors do not.
func TestProblemDiagnostics_OverrideErrorsSayLaterChecksFollow(t *testing.T) {
	at := cloudprofile.NewPath("spec").Child("kubernetes").Child("versions").Index(0).Child("version")
	override := cloudprofile.Problem{Rule: "L-1", Type: cloudprofile.Invalid, Path: at, BadValue: "1.29.9",
		Detail: "invalid kubernetes version specified: '1.29.9' does not exist in parent CloudProfile and thus cannot be overridden"}
	merged := cloudprofile.Problem{Rule: "M-1/C-3", Type: cloudprofile.Invalid, Path: at, Detail: "d"}
	diags := problemDiagnostics(cloudprofile.Problems{override, merged}, tftypes.Value{})
	if len(diags) != 2 {
		t.Fatalf("want two errors, got %v", diags)
	}
	if d := diags[0].Detail(); !strings.HasSuffix(d, "\n\n"+laterChecksNote) || !strings.Contains(d, "next plan may find more problems") {
		t.Errorf("the override's error does not end with the note:\n%s", d)
	}
	if d := diags[1].Detail(); strings.Contains(d, laterChecksNote) {
		t.Errorf("the merged profile's error has the note:\n%s", d)
	}
}

// TestProblemDiagnostics_SameProblemOnOneAttributeIsOneDiagnostic: the entries a
// NamespacedCloudProfile inherits from its parent all land on spec.parent. Twelve parent versions
// with a lifecycle, with the gate off, make one error that quotes the first and lists the others'
// field paths (at most eight); a problem elsewhere keeps its own diagnostic, in the order found.
func TestProblemDiagnostics_SameProblemOnOneAttributeIsOneDiagnostic(t *testing.T) {
	now := time.Date(2027, 1, 15, 0, 0, 0, 0, time.UTC)
	parent := &gardencorev1beta1.CloudProfile{ObjectMeta: metav1.ObjectMeta{Name: "p"}, Spec: gardencorev1beta1.CloudProfileSpec{Type: "local"}}
	for i := range 12 {
		parent.Spec.Kubernetes.Versions = append(parent.Spec.Kubernetes.Versions, gardencorev1beta1.ExpirableVersion{
			Version: fmt.Sprintf("1.31.%d", i), Lifecycle: []gardencorev1beta1.LifecycleStage{{Classification: gardencorev1beta1.ClassificationSupported}}})
	}
	ncp := &gardencorev1beta1.NamespacedCloudProfile{ObjectMeta: metav1.ObjectMeta{Name: "n", Namespace: "garden-p"},
		Spec: gardencorev1beta1.NamespacedCloudProfileSpec{Parent: gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: "p"}}}
	opts := cloudprofile.OptionsWithAllGates(now)
	opts.Gates = cloudprofile.GardenerDefaultFeatureGates() // VersionClassificationLifecycle off
	inherited := cloudprofile.AdmitNamespacedCloudProfileRequest(ncp, nil, parent, opts)
	if len(inherited) != 12 {
		t.Fatalf("want one problem per parent version, got %v", inherited)
	}
	own := cloudprofile.Problem{Rule: "C-6", Type: cloudprofile.Duplicate, BadValue: "1.31.1",
		Path: cloudprofile.NewPath("spec").Child("kubernetes").Child("versions").Index(1).Child("version")}
	problems := slices.Concat(inherited[:6], cloudprofile.Problems{own}, inherited[6:])
	diags := problemDiagnostics(problems, tftypes.Value{})
	if len(diags) != 2 {
		t.Fatalf("want the inherited problems as one error and the own one apart, got %d: %v", len(diags), diags)
	}
	if at := diags[0].(interface{ Path() path.Path }).Path(); !at.Equal(path.Root("spec").AtName("parent")) {
		t.Fatalf("the group is on %s, want spec.parent", at)
	}
	d := diags[0].Detail()
	for _, want := range []string{
		"Gardener: status.cloudProfileSpec.kubernetes.versions[0].lifecycle: Forbidden: ",
		"Gardener reports the same for 11 more: status.cloudProfileSpec.kubernetes.versions[1].lifecycle, ",
		"status.cloudProfileSpec.kubernetes.versions[8].lifecycle, and 3 more.\n\nTo fix: ",
	} {
		if !strings.Contains(d, want) {
			t.Errorf("detail lacks %q:\n%s", want, d)
		}
	}
	if strings.Contains(d, "versions[9]") {
		t.Errorf("detail lists more than eight further problems:\n%s", d)
	}
	if !strings.Contains(diags[1].Detail(), "Duplicate value") || strings.Contains(diags[1].Detail(), "reports the same") {
		t.Errorf("the problem elsewhere is not on its own:\n%s", diags[1].Detail())
	}
}

// TestProblemDiagnostics_SameFieldGroupListsTheMessages: problems of one rule on the same field
// (a removed version that three NamespacedCloudProfiles still extend, rule N-1) differ only in
// Gardener's message, so the one diagnostic lists the messages of the others.
func TestProblemDiagnostics_SameFieldGroupListsTheMessages(t *testing.T) {
	at := cloudprofile.NewPath("spec").Child("kubernetes").Child("versions")
	var problems cloudprofile.Problems
	for _, ncp := range []string{"a", "b", "c"} {
		problems = append(problems, cloudprofile.Problem{Rule: "N-1", Type: cloudprofile.Forbidden, Path: at,
			Detail: `unable to delete Kubernetes version "1.31.1" from CloudProfile "p" - version is still in use by NamespacedCloudProfile 'garden-x/` + ncp + `'`})
	}
	diags := problemDiagnostics(problems, tftypes.Value{})
	if len(diags) != 1 {
		t.Fatalf("want one error, got %v", diags)
	}
	d := diags[0].Detail()
	for _, want := range []string{"'garden-x/a' (rule N-1)", "Gardener reports 2 more:\n  - unable to delete", "'garden-x/b'\n  - ", "'garden-x/c'\n\nTo fix: "} {
		if !strings.Contains(d, want) {
			t.Errorf("detail lacks %q:\n%s", want, d)
		}
	}
}

// TestProblemDiagnostics_AMissingTypeIsReportedAsSuch: a CloudProfile without spec.type gets the
// error that the type is missing, and none that names metadata.name or the labels.
func TestProblemDiagnostics_AMissingTypeIsReportedAsSuch(t *testing.T) {
	cp := &gardencorev1beta1.CloudProfile{ObjectMeta: metav1.ObjectMeta{Name: "profile"}, Spec: richCloudProfileSpec()}
	cp.Spec.Type = ""
	diags := problemDiagnostics(cloudprofile.ValidateCloudProfileRequest(cp, nil, cloudprofile.OptionsWithAllGates(time.Date(2027, 1, 15, 0, 0, 0, 0, time.UTC))), tftypes.Value{})
	var summaries []string
	for _, d := range diags {
		summaries = append(summaries, d.Summary())
		if strings.Contains(d.Detail(), "metadata") {
			t.Errorf("%q names the metadata:\n%s", d.Summary(), d.Detail())
		}
	}
	if !slices.Contains(summaries, "The provider type is missing") {
		t.Errorf("no error of rule B-1 among %q", summaries)
	}
}
