package kube

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// OwnedView returns a copy of obj without the parts that only other field managers set: elements
// of associative lists (machine images, versions, machine types, ...), metadata labels and
// annotations that the manager's server-side-apply entry does not list, and fields that another
// manager of the object (not of its status) owns and this one does not, such as a classification
// another team set on a version both configure. Everything else, including values the server
// defaulted (owned by nobody), is kept. An object the manager has never applied (for example one
// being imported) is returned whole, so that an import takes over what is there. The create ID
// annotation (see create.go) is never part of the view.
func OwnedView[T runtime.Object](obj T, manager string) (T, error) {
	return OwnedViewKeeping(obj, manager, nil)
}

// OwnedViewKeeping is OwnedView, except that the view's spec also keeps the fields that priorSpec
// (the spec this manager wrote or read before; nil for none) sets and that another manager has
// taken over since (a forced apply, an update): with the cluster's values, so that a plan shows
// them being set back rather than appearing. Entries of keyed lists are matched by their key;
// other lists are atomic.
func OwnedViewKeeping[T runtime.Object](obj T, manager string, priorSpec any) (T, error) {
	var zero T
	accessor, ok := any(obj).(metav1.Object)
	if !ok {
		return zero, fmt.Errorf("%T has no object metadata", obj)
	}
	owned, found, err := appliedFields(accessor.GetManagedFields(), manager)
	if err != nil {
		return zero, err
	}
	if !found {
		return withoutCreateID(obj), nil
	}
	others, err := othersFields(accessor.GetManagedFields(), manager)
	if err != nil {
		return zero, err
	}
	// The managed fields are in no field set, so the view keeps them as they are: they are left
	// out of the JSON that is filtered (with several managers they take more than the spec).
	managedFields := accessor.GetManagedFields()
	raw, err := json.Marshal(withoutManagedFields(obj))
	if err != nil {
		return zero, err
	}
	var m map[string]any
	if err := decodeJSON(raw, &m); err != nil {
		return zero, err
	}
	keepOwned(m, owned, others, nil)
	// Only a spec field another manager owns can have been taken over.
	if _, othersOwnSpec := others["f:spec"]; priorSpec != nil && othersOwnSpec {
		if err := keepTakenOver(m, raw, priorSpec); err != nil {
			return zero, err
		}
	}
	if meta, ok := m["metadata"].(map[string]any); ok {
		if annotations, ok := meta["annotations"].(map[string]any); ok {
			delete(annotations, CreateIDAnnotation)
		}
	}
	raw, err = json.Marshal(m)
	if err != nil {
		return zero, err
	}
	// Decode into a new object: decoding into a copy would merge maps instead of replacing them.
	out := reflect.New(reflect.TypeOf(obj).Elem()).Interface().(T)
	if err := json.Unmarshal(raw, any(out)); err != nil {
		return zero, err
	}
	any(out).(metav1.Object).SetManagedFields(managedFields)
	return out, nil
}

// withoutManagedFields is a shallow copy of obj without its managed fields.
func withoutManagedFields[T runtime.Object](obj T) T {
	shallow := reflect.New(reflect.TypeOf(obj).Elem())
	shallow.Elem().Set(reflect.ValueOf(obj).Elem())
	out := shallow.Interface().(T)
	any(out).(metav1.Object).SetManagedFields(nil)
	return out
}

// appliedFields decodes the fieldsV1 set of the manager's Apply entry.
func appliedFields(entries []metav1.ManagedFieldsEntry, manager string) (map[string]any, bool, error) {
	for _, e := range entries {
		if e.Manager != manager || e.Operation != metav1.ManagedFieldsOperationApply || e.Subresource != "" || e.FieldsV1 == nil {
			continue
		}
		var set map[string]any
		if err := json.Unmarshal(e.FieldsV1.GetRawBytes(), &set); err != nil {
			return nil, false, fmt.Errorf("decoding managed fields of %q: %w", manager, err)
		}
		return set, true, nil
	}
	return nil, false, nil
}

// withoutCreateID returns obj, or a copy without the create ID annotation a cut-off create left
// (the client's own bookkeeping, never part of what a resource manages).
func withoutCreateID[T runtime.Object](obj T) T {
	accessor, ok := any(obj).(metav1.Object)
	if !ok {
		return obj
	}
	if _, marked := accessor.GetAnnotations()[CreateIDAnnotation]; !marked {
		return obj
	}
	out := obj.DeepCopyObject().(T)
	copied := any(out).(metav1.Object)
	annotations := copied.GetAnnotations()
	delete(annotations, CreateIDAnnotation)
	copied.SetAnnotations(annotations)
	return out
}

// othersFields is the union of the fields set of every other manager's entry for the object
// itself (status subresource entries are the controllers' and not compared).
func othersFields(entries []metav1.ManagedFieldsEntry, manager string) (map[string]any, error) {
	sets, err := managerSets(entries, manager)
	if err != nil {
		return nil, err
	}
	return unionOf(sets), nil
}

// mergeSets adds the fields set src to dst.
func mergeSets(dst, src map[string]any) {
	for k, v := range src {
		child, _ := v.(map[string]any)
		existing, ok := dst[k].(map[string]any)
		if !ok {
			existing = map[string]any{}
			dst[k] = existing
		}
		mergeSets(existing, child)
	}
}

// freeFormMaps are the maps whose keys several managers share; a key only others set is left out.
var freeFormMaps = map[string]bool{"metadata.labels": true, "metadata.annotations": true}

// keepOwned removes, in place, what only other managers set (see OwnedView); others is the union
// of the other managers' sets at the same place. at is the path of field names from the root,
// used to recognise the free-form maps.
func keepOwned(obj map[string]any, owned, others map[string]any, at []string) {
	for name, value := range obj {
		here := slices.Concat(at, []string{name})
		child, isOwned := owned["f:"+name].(map[string]any)
		otherChild, byOthers := others["f:"+name].(map[string]any)
		if freeFormMaps[strings.Join(here, ".")] {
			keepOwnedKeys(value, child)
			continue
		}
		if !isOwned && byOthers && len(otherChild) == 0 {
			// A value (scalar or atomic) only others set.
			delete(obj, name)
			continue
		}
		if !isOwned {
			// Nothing below is the manager's, but free-form maps below may still carry
			// keys others set: walk on with an empty set.
			child = map[string]any{}
		}
		switch v := value.(type) {
		case map[string]any:
			keepOwned(v, child, otherChild, here)
			if !isOwned && byOthers && len(v) == 0 {
				delete(obj, name) // emptied of what only others set
			}
		case []any:
			obj[name] = keepOwnedElements(v, child, otherChild, here)
		}
	}
}

// keepOwnedKeys keeps only the keys of a free-form map that the manager set.
func keepOwnedKeys(value any, owned map[string]any) {
	m, ok := value.(map[string]any)
	if !ok {
		return
	}
	for k := range m {
		if _, mine := owned["f:"+k]; !mine {
			delete(m, k)
		}
	}
}

// keepOwnedElements filters an associative list to the elements whose key the manager set, and
// recurses into them. Atomic lists (no element keys in the set) are kept whole.
func keepOwnedElements(list []any, owned, others map[string]any, at []string) []any {
	keyFields := elementKeyFields(owned)
	if len(keyFields) == 0 {
		return list
	}
	out := make([]any, 0, len(list))
	for _, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			out = append(out, e)
			continue
		}
		key := "k:" + elementKey(m, keyFields)
		child, mine := owned[key].(map[string]any)
		if !mine {
			continue
		}
		otherChild, _ := others[key].(map[string]any)
		keepOwned(m, child, otherChild, at)
		out = append(out, m)
	}
	return out
}

// elementKeyFields returns the names of the key fields of an associative list, read from any of
// its "k:{...}" entries.
func elementKeyFields(owned map[string]any) []string {
	for k := range owned {
		if !strings.HasPrefix(k, "k:") {
			continue
		}
		var key map[string]any
		if json.Unmarshal([]byte(strings.TrimPrefix(k, "k:")), &key) != nil {
			continue
		}
		fields := make([]string, 0, len(key))
		for f := range key {
			fields = append(fields, f)
		}
		sort.Strings(fields)
		return fields
	}
	return nil
}

// elementKey renders an element's key as the managed-fields set does: compact JSON with sorted keys.
func elementKey(element map[string]any, fields []string) string {
	key := make(map[string]any, len(fields))
	for _, f := range fields {
		key[f] = element[f]
	}
	raw, _ := json.Marshal(key) // a map of decoded JSON values always encodes
	return string(raw)
}
