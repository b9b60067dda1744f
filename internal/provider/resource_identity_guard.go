package provider

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8stypes "k8s.io/apimachinery/pkg/types"

	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// The resources write only the object they manage: a create never takes over an object that
// exists (unless adopt_existing says so), an update and a delete name the UID recorded in the state,
// so that neither re-creates a deleted object nor touches one created again by someone else.

// writeMode says which request a resource's write makes.
type writeMode struct {
	// create is set for Create: a create-only request, or an adopting apply with adopt_existing.
	create bool
	// uid is, for Update, the UID in the state, which the object must still have.
	uid k8stypes.UID
	// takeOver and setBack are, for Update, what the apply takes over from other field managers
	// (see resource_ownership.go).
	takeOver bool
	setBack  []kube.SetBack
}

// createMode is the write mode of Create.
func createMode() writeMode { return writeMode{create: true} }

// updateMode is the write mode of Update: the UID of the prior state's metadata, and what the
// private state of the plan says the apply takes over.
func updateMode(ctx context.Context, prior tfsdk.State, private privateReader) (writeMode, diag.Diagnostics) {
	var metadata types.Object
	diags := prior.GetAttribute(ctx, path.Root("metadata"), &metadata)
	takeOver, setBack, d := ownershipOfWrite(ctx, private)
	return writeMode{uid: uidOf(metadata), takeOver: takeOver, setBack: setBack}, append(diags, d...)
}

// uidOf returns metadata.uid, empty while unknown (an import before its first read).
func uidOf(metadata types.Object) k8stypes.UID {
	if metadata.IsNull() || metadata.IsUnknown() {
		return ""
	}
	uid, _ := metadata.Attributes()["uid"].(types.String)
	return k8stypes.UID(uid.ValueString())
}

// adoptExistingAttribute is the resources' opt-in to take over an existing object on create.
func adoptExistingAttribute(kind string) schema.BoolAttribute {
	return schema.BoolAttribute{
		Optional: true, Computed: true, Default: booldefault.StaticBool(false),
		MarkdownDescription: fmt.Sprintf("Let create take over a %[1]s of the same name that already exists, instead of failing. "+
			"Off by default: a create never adopts, so two configurations cannot manage one %[1]s without knowing it, and a "+
			"destroy never deletes an object this state did not create or import. Prefer an `import` block; adopt only when "+
			"this configuration is meant to take over, e.g. in a migration after the old owner's state was removed. "+
			"An adopting create warns with the object's previous field managers.", kind),
	}
}

// writeFailure turns a failed create or update of spec (its Terraform value, its keyed lists sent in
// the wire order except for orders) into diagnostics; existing reads the object a create found in
// its way, to name its owners. Only an update names a UID, so only its not-found
// means that the object was deleted since the plan (a create's not-found is, e.g., a missing
// namespace).
func writeFailure(ctx context.Context, o objectRef, mode writeMode, action string, err error, spec tftypes.Value, orders keyOrders, existing func(context.Context) (metav1.Object, error)) diag.Diagnostics {
	kind := kube.KindOf(err)
	if replaced := (*kube.CreatedObjectReplaced)(nil); errors.As(err, &replaced) {
		return diag.Diagnostics{replacedDuringCreateError(o, replaced)}
	}
	if mode.uid == "" && (kind == kube.KindNotFound || kind == kube.KindReplaced) {
		return requestDiagnostics(action, err, spec, orders)
	}
	if conflicts, since := kube.ConflictsSinceThePlan(err); since {
		return diag.Diagnostics{conflictsSincePlanError(o, conflicts, spec)}
	}
	switch kind {
	case kube.KindAlreadyExists:
		return diag.Diagnostics{alreadyExistsError(ctx, o, existing)}
	case kube.KindNotFound:
		return diag.Diagnostics{diag.NewErrorDiagnostic(o.kind+" deleted outside of Terraform",
			fmt.Sprintf("%s was deleted after this plan was made, so the planned update was not applied and nothing was re-created "+
				"(%v).\n\nRun terraform plan again: it plans to create the %s anew.", o, err, o.kind))}
	case kube.KindReplaced:
		return diag.Diagnostics{diag.NewErrorDiagnostic(o.kind+" replaced outside of Terraform",
			fmt.Sprintf("%s was deleted and created again by someone else since this state last read it: the object in the "+
				"cluster has another UID than the state. Nothing was changed (%v).\n\nRun terraform plan again. To manage the new "+
				"object with this resource, import it (see adopt_existing for the alternative).", o, err))}
	}
	return requestDiagnostics(action, err, spec, orders)
}

// replacedDuringCreateError says that a create's object was deleted and its name taken by another
// object before the create finished: nothing is recorded, and the other object was left alone.
func replacedDuringCreateError(o objectRef, r *kube.CreatedObjectReplaced) diag.Diagnostic {
	return diag.NewErrorDiagnostic(o.kind+" replaced during the create",
		fmt.Sprintf("This create stored %[1]s (UID %[2]s), but before it finished someone else deleted that object and created "+
			"another %[3]s of the same name (UID %[4]s; field managers: %[5]s). The create failed: %[6]v.\n\n"+
			"The other object is not this configuration's: the provider left it as it is and records nothing in the state, so no "+
			"later apply or destroy of this resource touches it.\n\nTo fix: ask the owners of the other object whether they need "+
			"it. If they do, give this resource another metadata.name; if this configuration is meant to manage it, import it "+
			"(import block with id = %[7]q).",
			o, r.Created, o.kind, r.Found, strings.Join(r.Managers, ", "), r.Failure, o.importID))
}

// conflictsSincePlanError says that the apply met conflicts the plan did not show (another
// manager changed fields since, or shares them), each once, and that nothing was written.
func conflictsSincePlanError(o objectRef, conflicts []kube.Conflict, spec tftypes.Value) diag.Diagnostic {
	steps := stepsThrough(spec)
	lines := make([]string, 0, len(conflicts))
	for _, c := range conflicts {
		where := strings.TrimPrefix(c.Field, ".")
		if at := steps.field(c.Field); len(at) > 0 {
			where = orWhole(describeAttribute(at, spec).path)
		}
		lines = append(lines, fmt.Sprintf("  - %s: field manager %q holds %s", where, c.Manager, orNone(c.Value)))
	}
	return diag.NewErrorDiagnostic("Conflict with changes made since the plan",
		fmt.Sprintf("Applying %s found %s that the plan did not show being set back: another field manager changed them "+
			"after the plan, or shares them with this resource. Nothing was written.\n%s\n\nTo fix: run terraform plan "+
			"again, review what it shows, and apply that plan.", o, countOf(len(conflicts), "field", "fields"), strings.Join(lines, "\n")))
}

// alreadyExistsError says that a create found the name taken, by whom, and how to import.
func alreadyExistsError(ctx context.Context, o objectRef, existing func(context.Context) (metav1.Object, error)) diag.Diagnostic {
	about := ""
	if m, err := existing(ctx); err == nil {
		about = fmt.Sprintf(" (created %s, uid %s; field managers: %s)", m.GetCreationTimestamp().UTC().Format(time.RFC3339), m.GetUID(), managersOf(m))
	}
	return diag.NewErrorDiagnostic(o.kind+" already exists",
		fmt.Sprintf("%s already exists in the Garden cluster%s. This resource creates new objects only and leaves an existing one "+
			"alone, so that two configurations never manage one object without knowing it.\n\n"+
			"To manage the existing object with this resource, import it, with an import block\n\n"+
			"  import {\n    to = <this resource's address>\n    id = %q\n  }\n\n"+
			"or with terraform import <this resource's address> %s. Set adopt_existing = true only when this configuration is meant "+
			"to take the object over (e.g. in a migration). If an earlier apply of this configuration was interrupted after it "+
			"created the object, importing it is safe.", o, about, o.importID, o.importID))
}

// managersOf lists the field managers of an object with their operations, e.g. "team-a (Apply)".
func managersOf(m metav1.Object) string {
	var out []string
	for _, e := range m.GetManagedFields() {
		s := fmt.Sprintf("%s (%s", e.Manager, e.Operation)
		if e.Subresource != "" {
			s += " of " + e.Subresource
		}
		s += ")"
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return "none recorded"
	}
	return strings.Join(out, ", ")
}

// adoptedWarning reports that an adopting create took over an object that existed.
func adoptedWarning(o objectRef, m metav1.Object) diag.Diagnostic {
	return diag.NewWarningDiagnostic(o.kind+" adopted",
		fmt.Sprintf("%s already existed (created %s, field managers: %s); adopt_existing = true took it over instead of creating it. "+
			"Fields the other managers also own stay theirs as well; a destroy of this resource deletes the object.",
			o, m.GetCreationTimestamp().UTC().Format(time.RFC3339), managersOf(m)))
}

// deleteFailure turns a failed delete into a diagnostic; a replaced object is never deleted.
func deleteFailure(o objectRef, action string, err error) diag.Diagnostic {
	if kube.KindOf(err) == kube.KindReplaced {
		return diag.NewErrorDiagnostic(o.kind+" replaced outside of Terraform",
			fmt.Sprintf("%s in the cluster is not the object this state manages: it was deleted and created again by someone else "+
				"(another UID). The destroy deleted nothing (%v).\n\nIf the new object is no longer wanted, delete it yourself; to "+
				"forget the old one, run terraform state rm for this resource.", o, err))
	}
	return requestError(action, err)
}

// replacedWarning reports, at refresh, that the object of the state's name is another object.
func replacedWarning(o objectRef, stateUID, clusterUID k8stypes.UID) diag.Diagnostic {
	return diag.NewWarningDiagnostic(o.kind+" replaced outside of Terraform",
		fmt.Sprintf("%s in the cluster has UID %s, the state recorded %s: it was deleted and created again by someone else. "+
			"This resource no longer tracks it and plans to create the %s, which fails while the name is taken: import the new "+
			"object to manage it here.", o, clusterUID, stateUID, o.kind))
}
