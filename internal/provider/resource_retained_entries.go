package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	k8stypes "k8s.io/apimachinery/pkg/types"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// maxRetainedListed bounds the entries a retained-entries warning names.
const maxRetainedListed = 20

// retainedEntriesError fails a plan of an update that removes list entries, labels, annotations
// or fields that other field managers keep in the Garden: a server-side apply removes only what no
// other manager manages, so the plan would show a removal the apply does not carry out. What the
// first apply after an import takes over (kube.ImportTakeover) it removes, so that keeps nothing.
// before and after hold metadata and spec only; prior is the prior spec, for the attribute names.
// uid is the UID of the object in state. The object is read only when the plan drops an entry, so
// other plans make no request; when it cannot be read, or the name holds another object than the
// state's, nothing is said (the apply removes what it can).
func retainedEntriesError(ctx context.Context, data *providerData, o objectRef, uid k8stypes.UID, before, after runtime.Object, prior tftypes.Value, get func(context.Context, *kube.Client) (metav1.Object, error)) diag.Diagnostics {
	drops, err := kube.DropsEntries(before, after)
	if err != nil || !drops {
		return nil
	}
	client, d := clientFrom(data)
	if d.HasError() {
		return nil
	}
	live, err := get(ctx, client)
	if err != nil || live.GetUID() != uid {
		return nil
	}
	entries, err := kube.RetainedByOthers(live, before, after, client.FieldManager())
	if err != nil || len(entries) == 0 {
		return nil
	}
	return diag.Diagnostics{retainedEntriesDiagnostic(o, entries, prior)}
}

// retainedEntriesSummary starts the summary of retainedEntriesDiagnostic.
const retainedEntriesSummary = "Removal the apply cannot carry out: other field managers keep "

// retainedEntriesDiagnostic names the entries a plan removes that stay in the Garden, by their
// attributes, with the managers that keep them, and how to go on.
func retainedEntriesDiagnostic(o objectRef, entries []kube.RetainedEntry, prior tftypes.Value) diag.Diagnostic {
	steps := stepsThrough(prior)
	var lines []string
	var first []cloudprofile.Step
	for i, e := range entries {
		if i == maxRetainedListed {
			lines = append(lines, fmt.Sprintf("  … and %d more", len(entries)-maxRetainedListed))
			break
		}
		where := e.Path
		if at := steps.field("." + e.Path); strings.HasPrefix(e.Path, "spec.") && len(at) > 0 {
			where = orWhole(describeAttribute(at, prior).path)
			if first == nil {
				first = at
			}
		}
		lines = append(lines, fmt.Sprintf("  - %s: kept by %s", where, quotedList(e.Managers)))
	}
	summary := retainedEntriesSummary + countOf(len(entries), "entry", "entries")
	detail := fmt.Sprintf("This plan removes %s of %s that other field managers also manage. A server-side apply removes only "+
		"what no other manager manages, so the Garden would keep them after the apply:\n%s\n\nTo fix: keep them in the "+
		"configuration; or have each manager named release them first (its server-side apply without them, or for kubectl's "+
		"managers (kubectl-create, kubectl-edit, kubectl-patch, kubectl-client-side-apply) kubectl edit %s, deleting them), "+
		"then plan again: the plan then shows no removal, as the Garden no longer has them.",
		countOf(len(entries), "entry", "entries"), o, strings.Join(lines, "\n"), o.kubectlArgs())
	var diags diag.Diagnostics
	addOn(&diags, diag.SeverityError, first, summary, detail)
	return diags[0]
}

// quotedList renders names quoted and joined with "and".
func quotedList(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = fmt.Sprintf("%q", n)
	}
	if len(quoted) <= 1 {
		return strings.Join(quoted, "")
	}
	return strings.Join(quoted[:len(quoted)-1], ", ") + " and " + quoted[len(quoted)-1]
}
