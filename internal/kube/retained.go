package kube

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// RetainedEntry is an entry a plan drops from what the manager manages that stays in the cluster,
// because other field managers own it too (server-side apply removes only what no one else owns).
type RetainedEntry struct {
	// Path is the entry in the API server's notation, e.g. spec.machineTypes[name="m1"].
	Path string
	// Managers are the other managers that own it.
	Managers []string
}

// RetainedByOthers compares what a resource managed (before) with what it is to manage (after) and
// returns the list entries, labels, annotations and fields it drops that other managers of live
// (the object as stored) also own: an apply of after leaves them in the cluster. The managers
// whose fields the apply takes over first (ImportTakeover) keep nothing. List elements are matched
// by the keys the API server records for them in live's managed fields.
func RetainedByOthers(live metav1.Object, before, after runtime.Object, manager string) ([]RetainedEntry, error) {
	sets, err := managerSets(live.GetManagedFields(), manager)
	for _, name := range ImportTakeover(live, manager) {
		delete(sets, name)
	}
	if err != nil || len(sets) == 0 {
		return nil, err
	}
	all := unionOf(sets)
	b, a, err := toMaps(before, after)
	if err != nil {
		return nil, err
	}
	var dropped [][]string
	droppedEntries(b, a, all, nil, nil, &dropped)
	var out []RetainedEntry
	for _, p := range dropped {
		var owners []string
		for name, s := range sets {
			if setHas(s, p) {
				owners = append(owners, name)
			}
		}
		if len(owners) > 0 {
			sort.Strings(owners)
			out = append(out, RetainedEntry{Path: describePath(p), Managers: owners})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// managerSets decodes the fields set of every other manager of the object itself, by name. The
// entry of a cut-off create of manager is manager's own: its next apply takes it over (see
// ownership_creating.go).
func managerSets(entries []metav1.ManagedFieldsEntry, manager string) (map[string]map[string]any, error) {
	sets := map[string]map[string]any{}
	for _, e := range entries {
		if e.Manager == manager || e.Manager == creatingManager(manager) || e.Subresource != "" || e.FieldsV1 == nil {
			continue
		}
		var set map[string]any
		if err := json.Unmarshal(e.FieldsV1.GetRawBytes(), &set); err != nil {
			return nil, fmt.Errorf("decoding managed fields of %q: %w", e.Manager, err)
		}
		if sets[e.Manager] == nil {
			sets[e.Manager] = map[string]any{}
		}
		mergeSets(sets[e.Manager], set)
	}
	return sets, nil
}

// unionOf merges the managers' sets into one.
func unionOf(sets map[string]map[string]any) map[string]any {
	union := map[string]any{}
	for _, s := range sets {
		mergeSets(union, s)
	}
	return union
}

// toMaps decodes both objects into JSON trees.
func toMaps(before, after runtime.Object) (b, a map[string]any, err error) {
	if b, err = toMap(before); err == nil {
		a, err = toMap(after)
	}
	return b, a, err
}

func toMap(obj runtime.Object) (map[string]any, error) {
	raw, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	return m, decodeJSON(raw, &m)
}

// droppedEntries collects, as fields-set paths, what before has and after lacks: keys of the
// free-form maps, elements of associative lists (keyed as recorded in all), and fields.
func droppedEntries(before, after, all map[string]any, at, setPath []string, out *[][]string) {
	for name, value := range before {
		here := slices.Concat(at, []string{name})
		field := slices.Concat(setPath, []string{"f:" + name})
		sub, _ := all["f:"+name].(map[string]any)
		if freeFormMaps[strings.Join(here, ".")] {
			bm, _ := value.(map[string]any)
			am, _ := after[name].(map[string]any)
			for k := range bm {
				if _, kept := am[k]; !kept {
					*out = append(*out, slices.Concat(field, []string{"f:" + k}))
				}
			}
			continue
		}
		if value == nil {
			continue
		}
		if after[name] == nil {
			*out = append(*out, field) // a value, or a whole list or object, the plan leaves out
			continue
		}
		switch v := value.(type) {
		case map[string]any:
			am, _ := after[name].(map[string]any)
			droppedEntries(v, am, sub, here, field, out)
		case []any:
			al, _ := after[name].([]any)
			droppedElements(v, al, sub, here, field, out)
		}
	}
}

// droppedElements is droppedEntries for an associative list; atomic lists have no entries. Where
// no manager's set records the list's keys, the key is guessed (guessedKeyFields): whatever such a
// guess reports, no manager owns it.
func droppedElements(before, after []any, all map[string]any, at, setPath []string, out *[][]string) {
	keyFields := elementKeyFields(all)
	if len(keyFields) == 0 {
		keyFields = guessedKeyFields(before)
	}
	if len(keyFields) == 0 {
		return
	}
	index := map[string]map[string]any{}
	for _, e := range after {
		if m, ok := e.(map[string]any); ok {
			index[elementKey(m, keyFields)] = m
		}
	}
	for _, e := range before {
		m, ok := e.(map[string]any)
		if !ok {
			continue
		}
		key := "k:" + elementKey(m, keyFields)
		element := slices.Concat(setPath, []string{key})
		kept, ok := index[strings.TrimPrefix(key, "k:")]
		if !ok {
			*out = append(*out, element)
			continue
		}
		sub, _ := all[key].(map[string]any)
		droppedEntries(m, kept, sub, at, element, out)
	}
}

// gardenerListKeys are the key fields of Gardener's associative lists, in order of preference.
var gardenerListKeys = []string{"name", "version", "type"}

// guessedKeyFields is the key of a list of objects by its first element: its first field of
// gardenerListKeys; none for lists of scalars.
func guessedKeyFields(list []any) []string {
	if len(list) == 0 {
		return nil
	}
	first, ok := list[0].(map[string]any)
	if !ok {
		return nil
	}
	for _, k := range gardenerListKeys {
		if _, ok := first[k]; ok {
			return []string{k}
		}
	}
	return nil
}

// DropsEntries tells whether after lacks a list entry, label, annotation or field that before has
// (list elements matched by Gardener's key fields). It needs no managed fields, so a plan can tell
// without a request whether RetainedByOthers could find anything.
func DropsEntries(before, after runtime.Object) (bool, error) {
	b, a, err := toMaps(before, after)
	if err != nil {
		return false, err
	}
	var dropped [][]string
	droppedEntries(b, a, nil, nil, nil, &dropped)
	return len(dropped) > 0, nil
}

// setHas tells whether a fields set contains the path.
func setHas(set map[string]any, p []string) bool {
	var at any = set
	for _, seg := range p {
		m, ok := at.(map[string]any)
		if !ok {
			return false
		}
		if at, ok = m[seg]; !ok {
			return false
		}
	}
	return true
}

// describePath renders a fields-set path as the API server writes field paths in conflicts:
// spec.machineImages[name="gardenlinux"].versions[version="1.0.0"], metadata.labels["team"].
func describePath(p []string) string {
	var b strings.Builder
	var fields []string // the field names on the way, to recognise the free-form maps
	for _, seg := range p {
		name, isField := strings.CutPrefix(seg, "f:")
		switch {
		case !isField: // an element key, k:{"name":"m1"}
			var key map[string]any
			_ = json.Unmarshal([]byte(strings.TrimPrefix(seg, "k:")), &key)
			var parts []string
			for _, k := range slices.Sorted(maps.Keys(key)) {
				parts = append(parts, fmt.Sprintf("%s=%q", k, fmt.Sprint(key[k])))
			}
			b.WriteString("[" + strings.Join(parts, ",") + "]")
		case freeFormMaps[strings.Join(fields, ".")]:
			fmt.Fprintf(&b, "[%q]", name)
		default:
			if b.Len() > 0 {
				b.WriteString(".")
			}
			b.WriteString(name)
		}
		if isField {
			fields = append(fields, name)
		}
	}
	return b.String()
}
