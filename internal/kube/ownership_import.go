package kube

import (
	"context"
	"encoding/json"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/util/csaupgrade"
)

// An object created or changed with kubectl create, edit, patch or replace, or with client-side
// kubectl apply, carries Update entries in its managed fields, not Apply entries. An import of it
// records all of it (the manager has never applied it; see OwnedView), and the configuration says
// what it is to be. A server-side apply of the configuration alone would only share the fields
// with those entries: a value it changes would conflict, and an entry it leaves out would stay,
// theirs. The first apply of an object its manager has not applied yet therefore first takes
// their fields over, as kubectl does when it moves an object from client-side to server-side apply
// (client-go's csaupgrade): the entries' fields join the manager's Apply entry and the entries go,
// so that the apply sets and removes them as configured, and as the plan showed.
//
// Taken over are the Update entries of the object itself (not of its status) whose fields all lie
// in what an import records, the spec, labels and annotations, so that the plan showed everything
// that changes hands. An entry with other fields as well (a controller's finalizer) stays, as do
// the Apply entries of other server-side-apply managers (controllers, bots, other workspaces):
// their fields change hands only where the plan says so (see conflicts.go).

// HasApplied tells whether manager has applied obj: it has an Apply entry for the object itself.
func HasApplied(obj metav1.Object, manager string) bool {
	return appliedEntry(obj.GetManagedFields(), manager) != nil
}

// ImportTakeover names the field managers whose fields the next apply of obj by manager takes
// over (ApplyOptions.TakeOver): none once manager has applied obj.
func ImportTakeover(obj metav1.Object, manager string) []string {
	if HasApplied(obj, manager) {
		return nil
	}
	entries := obj.GetManagedFields()
	names := sets.New[string]()
	for _, e := range entries {
		if e.Operation == metav1.ManagedFieldsOperationUpdate && e.Subresource == "" && e.Manager != manager && withinImportedFields(e.FieldsV1) {
			names.Insert(e.Manager)
		}
	}
	return sets.List(names)
}

// withinImportedFields tells whether a fields set owns nothing but fields of the spec, labels and
// annotations.
func withinImportedFields(fields *metav1.FieldsV1) bool {
	if fields == nil {
		return true
	}
	var set map[string]map[string]any
	if err := json.Unmarshal(fields.GetRawBytes(), &set); err != nil {
		return false
	}
	for name, below := range set {
		switch name {
		case "f:spec":
		case "f:metadata":
			for field := range below {
				if field != "f:labels" && field != "f:annotations" {
					return false
				}
			}
		default:
			return false
		}
	}
	return true
}

// takeOverImported takes over, in the object k of uid, the entries ImportTakeover names, with
// csaupgrade's JSON patch (which fails when the object changed since it was read: then it is read
// again). Nothing when there are none, or when the object has another UID (the apply that
// follows reports that).
func (c *Client) takeOverImported(ctx context.Context, k objectKind, uid types.UID) error {
	var last error
	for range maxOwnershipAttempts {
		obj, err := k.request(c.rest.Get()).Name(k.name).Do(ctx).Get()
		if err != nil {
			return classify(err, k.ref)
		}
		m, err := meta.Accessor(obj)
		if err != nil || m.GetUID() != uid {
			return err
		}
		patch, err := importTakeoverPatch(obj, c.fieldManager)
		if err != nil || patch == nil {
			return err
		}
		last = k.request(c.rest.Patch(types.JSONPatchType)).Name(k.name).Body(patch).Do(ctx).Error()
		if !apierrors.IsConflict(last) {
			break
		}
	}
	if last != nil {
		return fmt.Errorf("taking over the fields of the field managers that wrote %s before its import: %w", k.ref, classify(last, k.ref))
	}
	return nil
}

// importTakeoverPatch is csaupgrade's JSON patch that moves the entries ImportTakeover names into
// manager's Apply entry; nil when there are none.
func importTakeoverPatch(obj runtime.Object, manager string) ([]byte, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, err
	}
	names := ImportTakeover(m, manager)
	if len(names) == 0 {
		return nil, nil
	}
	return csaupgrade.UpgradeManagedFieldsPatch(obj, sets.New(names...), manager)
}
