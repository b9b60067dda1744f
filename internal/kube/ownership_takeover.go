package kube

import (
	"encoding/json"
	"fmt"
)

// listKeys are the fields that identify the entries of the associative lists of the profiles'
// specs (machine images and types, versions, regions, zones, ...).
var listKeys = [...]string{"name", "version"}

// keepTakenOver restores, in the view m of the object encoded as raw, the spec fields priorSpec
// sets that the view lacks (see OwnedViewKeeping).
func keepTakenOver(m map[string]any, raw []byte, priorSpec any) error {
	var full map[string]any
	if err := decodeJSON(raw, &full); err != nil {
		return err
	}
	encoded, err := json.Marshal(priorSpec)
	if err != nil {
		return fmt.Errorf("encoding the prior spec: %w", err)
	}
	var prior any
	if err := decodeJSON(encoded, &prior); err != nil {
		return err
	}
	m["spec"] = restoreTakenOver(m["spec"], full["spec"], prior)
	return nil
}

// restoreTakenOver returns view with full's value wherever prior has a value and view none.
func restoreTakenOver(view, full, prior any) any {
	if prior == nil {
		return view
	}
	if view == nil {
		return full
	}
	switch p := prior.(type) {
	case map[string]any:
		v, ok := view.(map[string]any)
		if !ok {
			return view
		}
		f, _ := full.(map[string]any)
		for k, pe := range p {
			if r := restoreTakenOver(v[k], f[k], pe); r != nil {
				v[k] = r
			}
		}
		return v
	case []any:
		v, ok := view.([]any)
		key := keyOfList(p)
		if !ok || key == "" {
			return view
		}
		f, _ := full.([]any)
		priorEntries, fullEntries := entriesByKey(p, key), entriesByKey(f, key)
		for i, ve := range v {
			k, _ := entryKey(ve, key)
			if pe, found := priorEntries[k]; found {
				v[i] = restoreTakenOver(ve, fullEntries[k], pe)
			}
		}
		return v
	}
	return view
}

// keyOfList returns the field that identifies every entry of the list, "" when there is none.
func keyOfList(list []any) string {
	for _, key := range listKeys {
		all := len(list) > 0
		for _, e := range list {
			if _, ok := entryKey(e, key); !ok {
				all = false
				break
			}
		}
		if all {
			return key
		}
	}
	return ""
}

func entryKey(entry any, key string) (string, bool) {
	m, ok := entry.(map[string]any)
	if !ok {
		return "", false
	}
	k, ok := m[key].(string)
	return k, ok
}

// entriesByKey indexes the entries of list by their value of key; the first of equal keys wins.
func entriesByKey(list []any, key string) map[string]any {
	byKey := make(map[string]any, len(list))
	for _, e := range list {
		if k, ok := entryKey(e, key); ok {
			if _, seen := byKey[k]; !seen {
				byKey[k] = e
			}
		}
	}
	return byKey
}
