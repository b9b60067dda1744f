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
// of associative lists (machine images, versions, machine types, ...) and metadata labels and
// annotations that the manager's server-side-apply entry does not list. Everything else, including
// values the server defaulted, is kept. An object the manager has never applied (for example one
// being imported) is returned whole, so that an import takes over what is there.
func OwnedView[T runtime.Object](obj T, manager string) (T, error) {
	var zero T
	accessor, ok := any(obj).(metav1.Object)
	if !ok {
		return zero, fmt.Errorf("%T has no object metadata", obj)
	}
	owned, found, err := appliedFields(accessor.GetManagedFields(), manager)
	if err != nil || !found {
		return obj, err
	}
	raw, err := json.Marshal(obj)
	if err != nil {
		return zero, err
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return zero, err
	}
	keepOwned(m, owned, nil)
	raw, err = json.Marshal(m)
	if err != nil {
		return zero, err
	}
	// Decode into a new object: decoding into a copy would merge maps instead of replacing them.
	out := reflect.New(reflect.TypeOf(obj).Elem()).Interface().(T)
	if err := json.Unmarshal(raw, any(out)); err != nil {
		return zero, err
	}
	return out, nil
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

// freeFormMaps are the maps whose keys several managers share; a key only others set is left out.
var freeFormMaps = map[string]bool{"metadata.labels": true, "metadata.annotations": true}

// keepOwned removes, in place, what only other managers set (see OwnedView). at is the path of
// field names from the root, used to recognise the free-form maps.
func keepOwned(obj map[string]any, owned map[string]any, at []string) {
	for name, value := range obj {
		here := slices.Concat(at, []string{name})
		child, isOwned := owned["f:"+name].(map[string]any)
		if freeFormMaps[strings.Join(here, ".")] {
			keepOwnedKeys(value, child)
			continue
		}
		if !isOwned {
			// Nothing below is the manager's, but free-form maps below may still carry
			// keys others set: walk on with an empty set, which removes nothing else.
			child = map[string]any{}
		}
		switch v := value.(type) {
		case map[string]any:
			keepOwned(v, child, here)
		case []any:
			obj[name] = keepOwnedElements(v, child, here)
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
func keepOwnedElements(list []any, owned map[string]any, at []string) []any {
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
		child, mine := owned["k:"+elementKey(m, keyFields)].(map[string]any)
		if !mine {
			continue
		}
		keepOwned(m, child, at)
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
