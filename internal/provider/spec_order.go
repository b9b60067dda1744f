package provider

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"maps"
	"slices"
	"strconv"

	"github.com/Masterminds/semver/v3"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// The keyed lists of a spec are maps in Terraform and arrays in Gardener's API. Gardener gives the
// order no meaning, and reading accepts any order, so an object in another order reads as the same
// map and plans no change. The provider writes a new list in one stable order, so that the same
// configuration always sends the same object: versions newest first (Gardener's own convention),
// everything else by name (the wire order).
//
// A list the Garden already holds in another order (written by kubectl or another tool, then
// imported) keeps it: a refresh records the orders that differ from the wire order in the
// resource's private state (gardenOrderKey), and a write sends the entries that exist in that
// order. A new entry goes next to the kept entry nearest to it in the wire order, on the side the
// list runs there: a list sorted either way (newest or oldest version first) stays sorted, and a
// list in any other order keeps it and gains the new entry beside its nearest neighbour.
// The plan cannot show an order (the entries are a map), so a write never changes one.

// sortedEntryKeys returns keys sorted in the wire order of a keyed list (see wireOrder), each
// version parsed once.
func sortedEntryKeys(order entryOrder, keys []string) []string {
	if order != newestVersionFirst {
		slices.Sort(keys)
		return keys
	}
	entries := make([]versionKey, len(keys))
	for i, k := range keys {
		entries[i] = versionKey{k, versionOrNil(k)}
	}
	slices.SortFunc(entries, compareVersionKeys)
	for i, e := range entries {
		keys[i] = e.key
	}
	return keys
}

// wireOrder compares two keys of a keyed list with the order: by name, or newest version first
// and then the keys that are no semantic version by name. keys are the keys it will compare (their
// versions are parsed once).
func wireOrder(order entryOrder, keys []string) func(a, b string) int {
	if order != newestVersionFirst {
		return cmp.Compare[string]
	}
	versions := make(map[string]*semver.Version, len(keys))
	for _, k := range keys {
		versions[k] = versionOrNil(k)
	}
	return func(a, b string) int {
		return compareVersionKeys(versionKey{a, versions[a]}, versionKey{b, versions[b]})
	}
}

// versionKey is a key of a list of versions with its version, nil when it is no semantic version.
type versionKey struct {
	key     string
	version *semver.Version
}

// versionOrNil is the semantic version k, or nil.
func versionOrNil(k string) *semver.Version {
	v, err := cloudprofile.ParseVersion(k)
	if err != nil {
		return nil
	}
	return v
}

// compareVersionKeys orders versions newest first, then the keys that are no version by name.
func compareVersionKeys(a, b versionKey) int {
	switch {
	case a.version != nil && b.version != nil:
		return cmp.Or(b.version.Compare(a.version), cmp.Compare(a.key, b.key))
	case a.version != nil:
		return -1
	case b.version != nil:
		return 1
	}
	return cmp.Compare(a.key, b.key)
}

// keyOrders are the orders of a spec's keyed lists that differ from the wire order, by the
// attribute path of the list as diagnostics render it (spec.machine_images["gardenlinux"].versions).
type keyOrders map[string][]string

// gardenOrderKey is the private-state key under which a refresh and a write record the keyOrders
// of the object as the Garden holds it.
const gardenOrderKey = "garden_order"

// keyOrdersOf reads the keyOrders of a spec of the kind root describes.
func keyOrdersOf(root specField, spec any) (keyOrders, error) {
	tree, err := jsonTree(spec)
	if err != nil {
		return nil, err
	}
	orders := keyOrders{}
	walkKeyedLists(root, tree, root.attr, func(f specField, at string, entries []any) {
		keys := entryKeys(f, entries)
		if len(keys) > 1 && !slices.Equal(keys, sortedEntryKeys(f.order, slices.Clone(keys))) {
			orders[at] = keys
		}
	})
	return orders, nil
}

// inOrder returns spec with the entries of its keyed lists in the orders (see above), and the
// orders it has then where they differ from the wire order (the positions Gardener's errors about
// it count in). A spec without orders is returned as it is.
func inOrder[S any](root specField, spec S, orders keyOrders) (S, keyOrders, error) {
	if len(orders) == 0 {
		return spec, nil, nil
	}
	tree, err := jsonTree(spec)
	if err != nil {
		return spec, nil, err
	}
	sent := keyOrders{}
	walkKeyedLists(root, tree, root.attr, func(f specField, at string, entries []any) {
		garden, ok := orders[at]
		if !ok {
			return
		}
		keys := entryKeys(f, entries)
		byKey := make(map[string]any, len(entries))
		for i, k := range keys {
			byKey[k] = entries[i]
		}
		ordered := keptInOrder(f.order, keys, garden)
		for i, k := range ordered {
			entries[i] = byKey[k]
		}
		if !slices.Equal(ordered, sortedEntryKeys(f.order, slices.Clone(ordered))) {
			sent[at] = ordered
		}
	})
	raw, err := json.Marshal(tree)
	if err != nil {
		return spec, nil, err
	}
	var out S
	if err := json.Unmarshal(raw, &out); err != nil {
		return spec, nil, err
	}
	return out, sent, nil
}

// keptInOrder orders the keys of one keyed list: those in garden in its order, and each new one
// next to the kept key nearest to it in the wire order, on the side the list's own order puts it
// (newOrder): a list sorted either way stays sorted, any other list keeps its order and gains
// each new entry beside its nearest neighbour.
func keptInOrder(order entryOrder, keys, garden []string) []string {
	present := make(map[string]bool, len(keys))
	for _, k := range keys {
		present[k] = true
	}
	position := make(map[string]int, len(garden))
	kept := make([]string, 0, len(keys))
	for _, k := range garden {
		if _, seen := position[k]; !seen && present[k] {
			position[k] = len(kept)
			kept = append(kept, k)
		}
	}
	compare := wireOrder(order, keys)
	var added []string
	for _, k := range keys {
		if _, ok := position[k]; !ok {
			added = append(added, k)
		}
	}
	if len(kept) == 0 {
		return slices.SortedFunc(slices.Values(added), compare)
	}
	byWire := slices.SortedFunc(slices.Values(kept), compare)
	before, after := map[string][]string{}, map[string][]string{}
	reversed := map[string]bool{}
	for _, k := range added {
		anchor, goesAfter, reverse := placeNew(k, byWire, position, compare)
		if goesAfter {
			after[anchor] = append(after[anchor], k)
		} else {
			before[anchor] = append(before[anchor], k)
		}
		reversed[anchor] = reversed[anchor] || reverse
	}
	out := make([]string, 0, len(keys))
	for _, k := range kept {
		out = append(out, inDirection(before[k], compare, reversed[k])...)
		out = append(out, k)
		out = append(out, inDirection(after[k], compare, reversed[k])...)
	}
	return out
}

// placeNew finds where the new key k goes among the kept keys (byWire: in the wire order;
// position: their positions in the list): next to its nearest kept neighbour in the wire order,
// before or after it as the list runs there (reverse: against the wire order).
func placeNew(k string, byWire []string, position map[string]int, compare func(a, b string) int) (anchor string, goesAfter, reverse bool) {
	i, _ := slices.BinarySearchFunc(byWire, k, compare)                          // byWire[i-1] < k < byWire[i]
	runsBackwards := func(a, b string) bool { return position[a] > position[b] } // a < b in the wire order
	switch {
	case i > 0 && i < len(byWire):
		prev, next := byWire[i-1], byWire[i]
		if runsBackwards(prev, next) {
			return next, true, true
		}
		return prev, true, false
	case i < len(byWire): // before every kept key in the wire order
		first := byWire[0]
		if len(byWire) > 1 && runsBackwards(first, byWire[1]) {
			return first, true, true
		}
		return first, false, false
	default: // after every kept key in the wire order
		last := byWire[len(byWire)-1]
		if len(byWire) > 1 && runsBackwards(byWire[len(byWire)-2], last) {
			return last, false, true
		}
		return last, true, false
	}
}

// inDirection sorts keys in the wire order, or against it when reverse.
func inDirection(keys []string, compare func(a, b string) int, reverse bool) []string {
	slices.SortFunc(keys, compare)
	if reverse {
		slices.Reverse(keys)
	}
	return keys
}

// walkKeyedLists calls visit with every keyed list below the JSON value v of field f at the
// attribute path at, outer lists before the lists in their entries.
func walkKeyedLists(f specField, v any, at string, visit func(f specField, at string, entries []any)) {
	switch f.kind {
	case kindObject:
		walkChildren(f, v, at, visit)
	case kindKeyedObjects:
		entries, _ := v.([]any)
		visit(f, at, entries)
		for _, e := range entries {
			if key, ok := keyOfEntry(f, e); ok {
				walkChildren(f, e, at+"["+strconv.Quote(key)+"]", visit)
			}
		}
	case kindObjectList:
		entries, _ := v.([]any)
		for i, e := range entries {
			walkChildren(f, e, at+"["+strconv.Itoa(i)+"]", visit)
		}
	case kindObjectMap:
		entries, _ := v.(map[string]any)
		for _, key := range slices.Sorted(maps.Keys(entries)) {
			walkChildren(f, entries[key], at+"["+strconv.Quote(key)+"]", visit)
		}
	}
}

// walkChildren walks the children of f in the JSON object v.
func walkChildren(f specField, v any, at string, visit func(f specField, at string, entries []any)) {
	object, ok := v.(map[string]any)
	if !ok {
		return
	}
	for _, c := range f.children {
		if child, ok := object[c.json]; ok {
			walkKeyedLists(c, child, at+"."+c.attr, visit)
		}
	}
}

// keyOfEntry is the key of an entry of the keyed list f, as JSON.
func keyOfEntry(f specField, entry any) (string, bool) {
	object, _ := entry.(map[string]any)
	key, ok := object[f.key].(string)
	return key, ok
}

// entryKeys are the keys of the entries of the keyed list f, in their order.
func entryKeys(f specField, entries []any) []string {
	keys := make([]string, 0, len(entries))
	for _, e := range entries {
		key, _ := keyOfEntry(f, e)
		keys = append(keys, key)
	}
	return keys
}

// jsonTree is v as a generic JSON value; numbers stay as written.
func jsonTree(v any) (any, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var tree any
	return tree, dec.Decode(&tree)
}

// recordKeyOrders records the keyOrders of spec, the spec of an object as the Garden holds it, in
// the private state (nothing when they are all in the wire order).
func recordKeyOrders(ctx context.Context, private privateState, root specField, spec any) diag.Diagnostics {
	orders, err := keyOrdersOf(root, spec)
	if err != nil || len(orders) == 0 {
		return private.SetKey(ctx, gardenOrderKey, nil)
	}
	raw, err := json.Marshal(orders)
	if err != nil {
		return private.SetKey(ctx, gardenOrderKey, nil)
	}
	return private.SetKey(ctx, gardenOrderKey, raw)
}

// recordedKeyOrders are the keyOrders the private state holds (none when it holds none or cannot
// be read).
func recordedKeyOrders(ctx context.Context, private privateState) (keyOrders, diag.Diagnostics) {
	raw, diags := private.GetKey(ctx, gardenOrderKey)
	if len(raw) == 0 {
		return nil, diags
	}
	var orders keyOrders
	if err := json.Unmarshal(raw, &orders); err != nil {
		return nil, diags
	}
	return orders, diags
}

// objectMetaOf is a copy of the metadata of an API object.
func objectMetaOf(o any) metav1.ObjectMeta {
	if accessor, ok := o.(metav1.ObjectMetaAccessor); ok {
		if om, ok := accessor.GetObjectMeta().(*metav1.ObjectMeta); ok {
			return *om
		}
	}
	return metav1.ObjectMeta{}
}
