package provider

import (
	"context"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	k8stypes "k8s.io/apimachinery/pkg/types"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
	"github.com/gardener-community/terraform-provider-gardener/internal/provider/largevalue"
)

// readEnds handles the outcomes of a Read's request that end the Read: an object deleted out of
// band, or replaced by one with another UID than stateUID, leaves the state (with its identity,
// which the framework wants even for a resource that is gone); any other error is reported. obj
// is read only without an error.
func readEnds(ctx context.Context, resp *resource.ReadResponse, ref objectRef, identity any, stateUID k8stypes.UID, obj metav1.Object, err error) bool {
	switch {
	case kube.IsNotFound(err):
	case err != nil:
		resp.Diagnostics.Append(requestError("Reading "+ref.kind+" "+ref.importID, err))
		return true
	case stateUID != "" && stateUID != obj.GetUID():
		resp.Diagnostics.Append(replacedWarning(ref, stateUID, obj.GetUID()))
	default:
		return false
	}
	resp.Diagnostics.Append(setIdentity(ctx, resp.Identity, identity)...)
	resp.State.RemoveResource(ctx)
	return true
}

// priorSpec is the spec the state holds, expanded with expand; nil when it holds none.
func priorSpec[T any](state tfsdk.State, large largevalue.Values, expand func(tftypes.Value, path.Path) (T, []path.Path, diag.Diagnostics), diags *diag.Diagnostics) *T {
	spec := large.Prior(state, specLargePath)
	if !spec.IsKnown() || spec.IsNull() {
		return nil
	}
	out, _, d := expand(spec, path.Root("spec"))
	diags.Append(d...)
	return &out
}

// ownedViewOf is the view of obj that manager owns (kube.OwnedViewKeeping), keeping the fields of
// desired, the spec this state held, that another manager may have taken over since; nil keeps none.
func ownedViewOf[T runtime.Object, S any](obj T, manager string, desired *S, diags *diag.Diagnostics) (T, bool) {
	var prior any
	if desired != nil {
		prior = desired
	}
	view, err := kube.OwnedViewKeeping(obj, manager, prior)
	if err != nil {
		diags.AddError("Reading managed fields", err.Error())
		return view, false
	}
	return view, true
}

// stateMetadata is the metadata the state records of managed, the metadata the provider's field
// manager owns (without the labels Gardener manages), read on top of base, the metadata of the
// state or plan: the labels and annotations of an import are empty maps.
func stateMetadata(ctx context.Context, base types.Object, managed metav1.ObjectMeta) (metadataModel, diag.Diagnostics) {
	var diags diag.Diagnostics
	meta := metadataOf(base)
	if base.IsNull() || base.IsUnknown() {
		meta.Labels, meta.Annotations = importedStringMaps()
	}
	managed.Labels = cloudprofile.WithoutExtensionLabels(managed.Labels)
	diags.Append(meta.fromObjectMeta(ctx, managed)...)
	return meta, diags
}

// falseUnlessSet is a flag of the state: false where it is null or unknown.
func falseUnlessSet(flag types.Bool) types.Bool {
	if flag.IsNull() || flag.IsUnknown() {
		return types.BoolValue(false)
	}
	return flag
}

// timeoutsUnlessSet is the timeouts block of the state: null where it is null or unknown.
func timeoutsUnlessSet(t timeouts.Value) timeouts.Value {
	if t.IsNull() || t.IsUnknown() {
		return timeouts.Value{Object: types.ObjectNull(timeoutsAttrTypes())}
	}
	return t
}

// profileResourceModel is what the state and plan models of both resources hold alike.
type profileResourceModel struct {
	ID             types.String   `tfsdk:"id"`
	Metadata       types.Object   `tfsdk:"metadata"`
	ForceConflicts types.Bool     `tfsdk:"force_conflicts"`
	AdoptExisting  types.Bool     `tfsdk:"adopt_existing"`
	Timeouts       timeouts.Value `tfsdk:"timeouts"`
}

// common is the part of a model both resources hold alike.
func (m profileResourceModel) common() profileResourceModel { return m }

// profileModel is the state and plan model of a profile resource.
type profileModel interface {
	common() profileResourceModel
}

// forState is the shared part of a state that records the object with id and metadata: the
// resource's own arguments false (or null timeouts) where they are not set, force_conflicts null
// (an argument of writes only).
func (m profileResourceModel) forState(id string, metadata types.Object) profileResourceModel {
	m.ID, m.Metadata = types.StringValue(id), metadata
	m.ForceConflicts = types.BoolNull()
	m.AdoptExisting = falseUnlessSet(m.AdoptExisting)
	m.Timeouts = timeoutsUnlessSet(m.Timeouts)
	return m
}

// recorded is the shared part of the state that records an object with id, whose owned view is
// view, of stored as read; m is the state's or plan's.
func (m profileResourceModel) recorded(ctx context.Context, id string, view, stored metav1.Object) (profileResourceModel, diag.Diagnostics) {
	prior := metadataOf(m.Metadata)
	meta, diags := stateMetadata(ctx, m.Metadata, metav1.ObjectMeta{
		Name: view.GetName(), Namespace: view.GetNamespace(),
		Labels:      withTakenOver(prior.Labels, view.GetLabels(), stored.GetLabels()),
		Annotations: withTakenOver(prior.Annotations, view.GetAnnotations(), stored.GetAnnotations()),
		UID:         view.GetUID(), ResourceVersion: view.GetResourceVersion(), Generation: view.GetGeneration(),
	})
	metadata, d := meta.object(ctx, view.GetNamespace() != "")
	return m.forState(id, metadata), append(diags, d...)
}

// withTakenOver is owned, the labels or annotations the provider's field manager owns, with the
// entries of prior (the state's or plan's) that another manager has taken over since (kubectl
// label --overwrite, a forced apply) at their values in stored, the object as read: the state then
// holds the Garden's value, and a plan shows the entry being set back (old -> new) rather than
// added. Entries the object no longer has stay out.
func withTakenOver(prior types.Map, owned, stored map[string]string) map[string]string {
	if prior.IsNull() || prior.IsUnknown() {
		return owned
	}
	out := owned
	for key := range prior.Elements() {
		value, kept := stored[key]
		if _, mine := owned[key]; mine || !kept {
			continue
		}
		if len(out) == len(owned) {
			out = make(map[string]string, len(owned)+1) // owned is the view's: copied, not changed
			maps.Copy(out, owned)
		}
		out[key] = value
	}
	return out
}
