package kube

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

// A create cut off between its create request and its ownership patch (see create.go) leaves the
// Update entry of the name creates run under (creatingManager), which no later apply releases: a
// server-side apply changes only its own manager's entry, so fields only that entry owns would
// stay in the object after the configuration dropped them. The recovery the create's error
// documents, an import or adopt_existing, ends in an apply of the manager; an apply that finds the
// entry in the object it stored takes it over with one JSON patch, guarded by tests of the
// object's UID and of the entries it changes: the entry's fields join the manager's Apply entry
// (which the apply has just written; the create ID annotation left out), and the entry goes. A second apply of the same object then
// releases what the configuration no longer sets, so that the object is owned as if the create
// had finished.

// takeOverCreatingEntry takes over the entry a cut-off create of the client's manager left in
// into, the object an apply of obj stored, and applies obj again; nothing when there is none.
func (c *Client) takeOverCreatingEntry(ctx context.Context, k objectKind, obj runtime.Object, opts ApplyOptions, into runtime.Object) error {
	m, err := meta.Accessor(into)
	if err != nil {
		return err
	}
	patch, found, err := creatingTakeOverPatch(m, c.fieldManager)
	if err != nil || !found {
		return err
	}
	opts.UID = m.GetUID()
	if err := k.request(c.rest.Patch(types.JSONPatchType)).Name(k.name).Body(patch).Do(ctx).Into(into); err != nil {
		return fmt.Errorf("taking over the entry of field manager %q: %w", creatingManager(c.fieldManager), err)
	}
	_, err = c.applyReporting(ctx, k.request(c.rest.Patch(types.ApplyPatchType)).Name(k.name), obj, opts, into)
	return err
}

// creatingTakeOverPatch is the JSON patch that moves the fields of the entry of manager's creates
// (see creatingManager) into manager's Apply entry and removes a create ID annotation; found is
// false when m lacks either entry.
func creatingTakeOverPatch(m metav1.Object, manager string) ([]byte, bool, error) {
	creating := creatingManager(manager)
	entries := m.GetManagedFields()
	from, into := entryIndex(entries, creating, ""), entryIndex(entries, manager, metav1.ManagedFieldsOperationApply)
	if from < 0 || into < 0 {
		return nil, false, nil
	}
	fields, err := unionOfFields(entries[from].FieldsV1, entries[into].FieldsV1)
	if err != nil {
		return nil, true, err
	}
	at := func(i int, field string) string { return fmt.Sprintf("/metadata/managedFields/%d/%s", i, field) }
	ops := []map[string]any{
		{"op": "test", "path": "/metadata/uid", "value": string(m.GetUID())},
		{"op": "test", "path": at(from, "manager"), "value": creating},
		{"op": "test", "path": at(into, "manager"), "value": manager},
		{"op": "test", "path": at(into, "operation"), "value": string(metav1.ManagedFieldsOperationApply)},
		{"op": "replace", "path": at(into, "fieldsV1"), "value": fields},
		{"op": "remove", "path": fmt.Sprintf("/metadata/managedFields/%d", from)},
	}
	if _, marked := m.GetAnnotations()[CreateIDAnnotation]; marked {
		ops = append(ops, map[string]any{"op": "remove", "path": createIDPointer})
	}
	patch, err := json.Marshal(ops)
	return patch, true, err
}

// createIDPointer is the JSON pointer of the create ID annotation.
var createIDPointer = "/metadata/annotations/" + strings.ReplaceAll(strings.ReplaceAll(CreateIDAnnotation, "~", "~0"), "/", "~1")

// entryIndex is the index of manager's entry for the object itself (of the operation, when not
// empty), or -1.
func entryIndex(entries []metav1.ManagedFieldsEntry, manager string, operation metav1.ManagedFieldsOperationType) int {
	for i, e := range entries {
		if e.Manager == manager && e.Subresource == "" && (operation == "" || e.Operation == operation) {
			return i
		}
	}
	return -1
}

// unionOfFields merges two fieldsV1 sets (nil for none) into one, without the create ID
// annotation.
func unionOfFields(a, b *metav1.FieldsV1) (map[string]any, error) {
	out := map[string]any{}
	for _, set := range []*metav1.FieldsV1{a, b} {
		if set == nil || len(set.GetRawBytes()) == 0 {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(set.GetRawBytes(), &m); err != nil {
			return nil, fmt.Errorf("decoding managed fields: %w", err)
		}
		mergeSets(out, m)
	}
	removeFieldPath(out, "f:metadata", "f:annotations", "f:"+CreateIDAnnotation)
	return out, nil
}

// removeFieldPath removes the field at the keys from set, and every set on the way that it leaves
// empty; it tells whether set is empty afterwards.
func removeFieldPath(set map[string]any, keys ...string) bool {
	if len(keys) == 0 {
		return false
	}
	if len(keys) == 1 {
		delete(set, keys[0])
	} else if sub, ok := set[keys[0]].(map[string]any); ok && removeFieldPath(sub, keys[1:]...) {
		delete(set, keys[0])
	}
	return len(set) == 0
}
