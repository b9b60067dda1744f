package kube

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
)

// The API server names the field of an apply conflict as structured-merge-diff prints a path:
// `.spec.machineTypes[name="m5.large"].memory`, `.metadata.labels.team`, `.spec.regions[name="a"]
// .zones[name="b"].unavailableMachineTypes`, a set element as `[="x"]` and a list index as `[0]`.
// A field name may itself hold dots (an annotation such as kubectl.kubernetes.io/…), so a path is
// not split up front: it is followed through an object (or a managed-fields set), which names the
// fields there are, and a name that could be several matches the longest one that exists.

// pathSelector is a bracketed segment of a field path: the key of an associative list's entry,
// a set element, or an index.
type pathSelector struct {
	key   map[string]string // field name: value as printed (strings unquoted)
	value *string           // a set element, as printed
	index int               // a list index; -1 for none
}

// nextSegment reads the segment at the start of rest: a field name (one of names, the longest
// that fits) or a selector; it returns the rest after it. ok is false where rest fits neither.
func nextSegment(rest string, names func() []string) (name string, sel *pathSelector, after string, ok bool) {
	switch {
	case strings.HasPrefix(rest, "."):
		rest = rest[1:]
		best := -1
		for _, n := range names() {
			if len(n) > best && strings.HasPrefix(rest, n) && (len(rest) == len(n) || rest[len(n)] == '.' || rest[len(n)] == '[') {
				name, best = n, len(n)
			}
		}
		return name, nil, rest[max(best, 0):], best >= 0
	case strings.HasPrefix(rest, "["):
		end := selectorEnd(rest)
		if end < 0 {
			return "", nil, "", false
		}
		sel, ok := parseSelector(rest[1:end])
		return "", sel, rest[end+1:], ok
	}
	return "", nil, "", false
}

// selectorEnd is the index of the ']' that closes the selector at the start of s, outside
// quotes; -1 when there is none.
func selectorEnd(s string) int {
	quoted := false
	for i := 1; i < len(s); i++ {
		switch {
		case quoted && s[i] == '\\':
			i++
		case s[i] == '"':
			quoted = !quoted
		case !quoted && s[i] == ']':
			return i
		}
	}
	return -1
}

// parseSelector reads a selector's content: `name="a",version="1"`, `="x"` or `3`.
func parseSelector(s string) (*pathSelector, bool) {
	if i, err := strconv.Atoi(s); err == nil {
		return &pathSelector{index: i}, true
	}
	if v, ok := strings.CutPrefix(s, "="); ok {
		printed, _, ok := printedValue(v)
		return &pathSelector{value: &printed, index: -1}, ok
	}
	sel := &pathSelector{key: map[string]string{}, index: -1}
	for s != "" {
		name, rest, found := strings.Cut(s, "=")
		if !found {
			return nil, false
		}
		value, after, ok := printedValue(rest)
		if !ok {
			return nil, false
		}
		sel.key[name] = value
		if s = strings.TrimPrefix(after, ","); len(s) == len(after) && s != "" {
			return nil, false
		}
	}
	return sel, len(sel.key) > 0
}

// printedValue reads a value as structured-merge-diff prints it, up to a ',' outside quotes: a
// quoted string (returned unquoted) or a number or bool (returned as printed).
func printedValue(s string) (value, rest string, ok bool) {
	if !strings.HasPrefix(s, `"`) {
		end := strings.IndexByte(s, ',')
		if end < 0 {
			end = len(s)
		}
		return s[:end], s[end:], end > 0
	}
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			v, err := strconv.Unquote(s[:i+1])
			return v, s[i+1:], err == nil
		}
	}
	return "", "", false
}

// printed renders a decoded JSON value as a selector prints it (strings unquoted).
func printed(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return fmt.Sprint(v)
}

// matches tells whether a list element (decoded JSON) is the one the selector names.
func (s *pathSelector) matches(element any) bool {
	if s.value != nil {
		return printed(element) == *s.value
	}
	m, ok := element.(map[string]any)
	if !ok {
		return false
	}
	for name, want := range s.key {
		if v, ok := m[name]; !ok || printed(v) != want {
			return false
		}
	}
	return true
}

// FieldValue is the value of the field (a path the API server names, as in a conflict) in obj,
// encoded as JSON; "" when obj has no value there.
func FieldValue(obj runtime.Object, field string) string {
	m, err := toMap(obj)
	if err != nil {
		return ""
	}
	return valueAt(m, field)
}

// valueAt is FieldValue of an object decoded from JSON.
func valueAt(obj map[string]any, field string) string {
	var at any = obj
	for rest := field; rest != ""; {
		name, sel, after, ok := nextSegment(rest, func() []string { return keysOf(at) })
		if !ok {
			return ""
		}
		if sel == nil {
			at = at.(map[string]any)[name]
		} else {
			list, _ := at.([]any)
			at = selected(list, sel)
		}
		if at == nil {
			return ""
		}
		rest = after
	}
	raw, err := json.Marshal(at)
	if err != nil {
		return ""
	}
	return string(raw)
}

// keysOf are the field names of a decoded JSON object; none for anything else.
func keysOf(v any) []string {
	m, _ := v.(map[string]any)
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	return names
}

// selected is the element of the list the selector names; nil when there is none.
func selected(list []any, sel *pathSelector) any {
	if sel.index >= 0 {
		if sel.index < len(list) {
			return list[sel.index]
		}
		return nil
	}
	for _, e := range list {
		if sel.matches(e) {
			return e
		}
	}
	return nil
}

// setHasField tells whether a managed-fields set (decoded fieldsV1) holds the field (a path the
// API server names), or a field below it.
func setHasField(set map[string]any, field string) bool {
	at := set
	for rest := field; rest != ""; {
		name, sel, after, ok := nextSegment(rest, func() []string { return fieldNamesOf(at) })
		if !ok {
			return false
		}
		var next any
		if sel == nil {
			next = at["f:"+name]
		} else {
			next = selectedMember(at, sel)
		}
		if at, ok = next.(map[string]any); !ok {
			return false
		}
		rest = after
	}
	return true
}

// fieldNamesOf are the field names ("f:" members) of a managed-fields set.
func fieldNamesOf(set map[string]any) []string {
	var names []string
	for k := range set {
		if name, ok := strings.CutPrefix(k, "f:"); ok {
			names = append(names, name)
		}
	}
	return names
}

// selectedMember is the member of a managed-fields set that the selector names: a "k:" key, a
// "v:" set element or an "i:" index.
func selectedMember(set map[string]any, sel *pathSelector) any {
	if sel.index >= 0 {
		return set[fmt.Sprintf("i:%d", sel.index)]
	}
	for k, member := range set {
		var decoded any
		switch {
		case strings.HasPrefix(k, "k:"):
			if json.Unmarshal([]byte(k[2:]), &decoded) != nil || sel.value != nil {
				continue
			}
		case strings.HasPrefix(k, "v:"):
			if json.Unmarshal([]byte(k[2:]), &decoded) != nil || sel.value == nil {
				continue
			}
		default:
			continue
		}
		if key, ok := decoded.(map[string]any); ok && len(key) != len(sel.key) {
			continue
		}
		if sel.matches(decoded) {
			return member
		}
	}
	return nil
}
