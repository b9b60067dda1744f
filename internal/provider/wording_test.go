package provider

import (
	"errors"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// TestCountedTexts_OneIsSingular: the diagnostics that count entries, values, rules and problems
// say "1 entry", not "1 entries".
func TestCountedTexts_OneIsSingular(t *testing.T) {
	retained := retainedEntriesDiagnostic(objectRef{kind: "CloudProfile", importID: "aws"},
		[]kube.RetainedEntry{{Path: `spec.machineTypes[name="m1"]`, Managers: []string{"kubectl"}}}, tftypes.NewValue(cloudProfileSpecRoot.tfType, nil))
	if !strings.Contains(retained.Detail(), `removes 1 entry of CloudProfile "aws"`) || !strings.HasSuffix(retained.Summary(), "keep 1 entry") {
		t.Errorf("retained entries: %s", retained.Detail())
	}
	changes := make([]changedValue, maxChangedValues+1)
	for i := range changes {
		changes[i].steps = []cloudprofile.Step{{Kind: cloudprofile.StepAttribute, Name: "type"}}
	}
	diags := changedValuesAtPlan(changes, tftypes.Value{})
	if last := diags[len(diags)-1]; !strings.HasPrefix(last.Detail(), "1 more configured value would be stored differently") {
		t.Errorf("changed values: %s", last.Detail())
	}
	if got := moreProblemsDiagnostic(numberedProblems(1, cloudprofile.SeverityError, "C-6"), maxProblemDiagnostics).Summary(); got != "… and 1 more problem: C-6 ×1" {
		t.Errorf("more problems: %s", got)
	}
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 entries"}, {1, "1 entry"}, {2, "2 entries"}, {1234, "1,234 entries"}} {
		if got := countOf(c.n, "entry", "entries"); got != c.want {
			t.Errorf("countOf(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

// TestListFailure_HintMatchesTheScopeOfTheList: a forbidden list in one namespace is not
// explained by cluster-wide permissions; one in all namespaces is.
func TestListFailure_HintMatchesTheScopeOfTheList(t *testing.T) {
	forbidden := &kube.Error{Kind: kube.KindForbidden, Err: errors.New("shoots is forbidden")}
	namespaced := listFailure("Shoots", "garden-team", forbidden)
	if strings.Contains(namespaced, "cluster-wide") || !strings.Contains(namespaced, `in namespace "garden-team"`) {
		t.Errorf("namespaced list: %s", namespaced)
	}
	if all := listFailure("Shoots", "", forbidden); !strings.Contains(all, "all namespaces") || !strings.Contains(all, "cluster-wide") {
		t.Errorf("cluster-wide list: %s", all)
	}
	shoots := shootsNotListedDetail("garden-team", forbidden)
	if strings.Contains(shoots, "cluster-wide") || !strings.Contains(shoots, `Listing the Shoots of namespace "garden-team" failed`) {
		t.Errorf("namespaced Shoots: %s", shoots)
	}
}
