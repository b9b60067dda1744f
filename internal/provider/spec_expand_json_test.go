package provider

import (
	"encoding/json"
	"reflect"
	"testing"
)

// appendTreeJSON writes what json.Marshal writes for an expansion's tree: both decode to the same
// value, strings with quotes, control characters, HTML characters, line separators and invalid
// UTF-8 included, and provider_config's JSON is compacted as json.Marshal embeds it.
func TestAppendTreeJSON_DecodesAsJSONMarshalOfTheTree(t *testing.T) {
	tree := map[string]any{
		"name":     "a \"quoted\" \\ name\twith\ncontrols\x00\x1f <b>&amp; \u2028\u2029 ünïcödé 🚀 \xff\xfe broken",
		"enabled":  true,
		"disabled": false,
		"count":    int32(-2147483648),
		"max":      int32(2147483647),
		"empty":    []any{},
		"nothing":  map[string]any{},
		"list":     []any{"x", map[string]any{"k": "v"}, []any{}},
		"objects":  []any{treeObject{{name: "name", value: "m1"}, {name: "cpu", value: "2"}, {name: "usable", value: false}}, treeObject{}},
		"labels":   map[string]any{"b": "2", "a": "1", "": "empty key", "ä<>": "odd key"},
		"config":   json.RawMessage(" {\n  \"apiVersion\": \"v1\", \"html\": \"<&>\" }\n"),
		"null":     nil,
	}
	want, err := json.Marshal(withObjectsAsMaps(tree))
	if err != nil {
		t.Fatal(err)
	}
	got, err := appendTreeJSON(nil, tree)
	if err != nil {
		t.Fatal(err)
	}
	var wantValue, gotValue any
	if err := json.Unmarshal(want, &wantValue); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &gotValue); err != nil {
		t.Fatalf("the tree's JSON does not decode: %v\n%s", err, got)
	}
	if !reflect.DeepEqual(gotValue, wantValue) {
		t.Errorf("decodes to\n%#v\nwant (json.Marshal's)\n%#v", gotValue, wantValue)
	}
	var gotConfig, wantConfig struct {
		Config json.RawMessage `json:"config"`
	}
	_ = json.Unmarshal(got, &gotConfig)
	_ = json.Unmarshal(want, &wantConfig)
	if string(gotConfig.Config) != string(wantConfig.Config) {
		t.Errorf("provider_config's bytes %s, want json.Marshal's %s", gotConfig.Config, wantConfig.Config)
	}
	if _, err := appendTreeJSON(nil, map[string]any{"x": 1.5}); err == nil {
		t.Error("a value the expander never builds is encoded without an error")
	}
}

// withObjectsAsMaps is an expansion's tree with each treeObject a map, which json.Marshal encodes
// as the object it stands for.
func withObjectsAsMaps(tree any) any {
	switch x := tree.(type) {
	case treeObject:
		out := make(map[string]any, len(x))
		for _, f := range x {
			out[f.name] = withObjectsAsMaps(f.value)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, v := range x {
			out[k] = withObjectsAsMaps(v)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, v := range x {
			out[i] = withObjectsAsMaps(v)
		}
		return out
	}
	return tree
}
