package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	k8stypes "k8s.io/apimachinery/pkg/types"

	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// maxRetainedListed bounds the entries a retained-entries warning names.
const maxRetainedListed = 20

// retainedEntriesWarning says, for an update that stops managing list entries, labels or
// annotations, which of them stay in the cluster because other field managers own them too (the
// typical case right after an import): the plan shows them leaving the resource, the apply leaves
// them in place. before and after hold metadata and spec only; uid is the UID of the object in
// state. The object is read only when the plan drops an entry, so other plans make no request;
// when it cannot be read, or the name holds another object than the state's, nothing is said.
func retainedEntriesWarning(ctx context.Context, data *providerData, o objectRef, uid k8stypes.UID, before, after runtime.Object, get func(context.Context, *kube.Client) (metav1.Object, error)) diag.Diagnostics {
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
	return diag.Diagnostics{retainedEntriesDiagnostic(o, entries)}
}

// retainedEntriesDiagnostic names the entries a plan stops managing that stay in the cluster.
func retainedEntriesDiagnostic(o objectRef, entries []kube.RetainedEntry) diag.Diagnostic {
	var lines []string
	for i, e := range entries {
		if i == maxRetainedListed {
			lines = append(lines, fmt.Sprintf("  … and %d more", len(entries)-maxRetainedListed))
			break
		}
		lines = append(lines, fmt.Sprintf("  - %s (owned by %s)", e.Path, strings.Join(e.Managers, ", ")))
	}
	return diag.NewWarningDiagnostic("Removed entries stay in the cluster: other field managers own them",
		fmt.Sprintf("This plan stops managing %s of %s that other field managers also own. Server-side apply leaves them in the "+
			"cluster, so the apply does not remove them; they just leave this resource:\n%s\n\nTo keep managing an entry, add it back to "+
			"the configuration. To remove it from the cluster, its other owners must release it first (see the migration guide).",
			countOf(len(entries), "entry", "entries"), o, strings.Join(lines, "\n")))
}
