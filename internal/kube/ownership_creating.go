package kube

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/util/csaupgrade"
)

// A create cut off between its create request and its ownership patch (see create.go) leaves the
// Update entry of the name creates run under (creatingManager), which no later apply releases: a
// server-side apply changes only its own manager's entry, so fields only that entry owns would
// stay in the object after the configuration dropped them. The recovery the create's error
// documents, an import or adopt_existing, ends in an apply of the manager. The first apply after an
// import takes the entry over with the other entries of creates and updates (ownership_import.go);
// an apply that still finds the entry in the object it stored (an adopting create) takes it over
// with client-go's csaupgrade (a JSON patch guarded by the object's resourceVersion): the entry's
// fields join the manager's Apply entry, and the entry goes. A second apply of the same object then
// releases what the configuration no longer sets (the create ID annotation among it), so that the
// object is owned as if the create had finished.

// takeOverCreatingEntry takes over the entry a cut-off create of the client's manager left in
// into, the object an apply of obj stored, and applies obj again; nothing when there is none.
func (c *Client) takeOverCreatingEntry(ctx context.Context, k objectKind, obj runtime.Object, opts ApplyOptions, into runtime.Object) error {
	m, err := meta.Accessor(into)
	if err != nil {
		return err
	}
	patch, err := creatingTakeOverPatch(into, c.fieldManager)
	if err != nil || patch == nil {
		return err
	}
	opts.UID = m.GetUID()
	if err := k.request(c.rest.Patch(types.JSONPatchType)).Name(k.name).Body(patch).Do(ctx).Into(into); err != nil {
		return fmt.Errorf("taking over the entry of field manager %q: %w", creatingManager(c.fieldManager), err)
	}
	_, err = c.applyReporting(ctx, k.request(c.rest.Patch(types.ApplyPatchType)).Name(k.name), obj, opts, into)
	return err
}

// creatingTakeOverPatch is csaupgrade's JSON patch that moves the fields of the entry of
// manager's creates (see creatingManager) into manager's Apply entry and removes the entry; nil
// when obj has no such entry. The create ID annotation joins the manager's fields, so that the
// apply that follows removes it.
func creatingTakeOverPatch(obj runtime.Object, manager string) ([]byte, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, err
	}
	creating := creatingManager(manager)
	for _, e := range m.GetManagedFields() {
		if e.Manager == creating && e.Subresource == "" {
			return csaupgrade.UpgradeManagedFieldsPatch(obj, sets.New(creating), manager)
		}
	}
	return nil, nil
}
