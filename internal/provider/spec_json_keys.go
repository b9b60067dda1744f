package provider

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// duplicateKeyDiagnostics reports a key that occurs twice in one object of a provider_config of
// spec (the value of the root attribute "spec" as Terraform sent it, with the descriptors of
// root), on that provider_config. Decoders keep the last of the values, so the others would be
// lost without a word.
func duplicateKeyDiagnostics(root specField, spec tftypes.Value) diag.Diagnostics {
	var diags diag.Diagnostics
	forEachJSON(root, spec, &lazyPath{root: path.Root("spec")}, func(p *lazyPath, s string) {
		if key, at, found := duplicateJSONKey(s); found {
			diags.AddAttributeError(p.path(), "Duplicate key in provider_config",
				fmt.Sprintf("The key %s occurs more than once in one object, at %s. Gardener and the provider extension would "+
					"keep only its last value and drop the others without a word.\n\nTo fix: keep one %s in that object.",
					strconv.Quote(key), at, strconv.Quote(key)))
		}
	})
	return diags
}

// forEachJSON calls visit with every known JSON attribute (kindJSON) of v, the value of field f
// at p. It walks only the fields that hold JSON below them, and builds no path on its way.
func forEachJSON(f specField, v tftypes.Value, p *lazyPath, visit func(*lazyPath, string)) {
	if v.Type() == nil || !v.IsKnown() || v.IsNull() || !holdsJSON(f) {
		return
	}
	switch f.kind {
	case kindJSON:
		var s string
		if v.As(&s) == nil {
			visit(p, s)
		}
	case kindObject:
		forEachJSONOfObject(f, v, p, visit)
	case kindObjectList:
		var elems []tftypes.Value
		if v.As(&elems) != nil {
			return
		}
		for i, ev := range elems {
			if ev.IsKnown() && !ev.IsNull() {
				forEachJSONOfObject(f, ev, p.atListIndex(i), visit)
			}
		}
	case kindKeyedObjects:
		var elems map[string]tftypes.Value
		if v.As(&elems) != nil {
			return
		}
		for _, k := range slices.Sorted(maps.Keys(elems)) {
			if ev := elems[k]; ev.IsKnown() && !ev.IsNull() {
				forEachJSONOfObject(f, ev, p.atMapKey(k), visit)
			}
		}
	}
}

// forEachJSONOfObject is forEachJSON of the children of an object value of f.
func forEachJSONOfObject(f specField, v tftypes.Value, p *lazyPath, visit func(*lazyPath, string)) {
	var attrs map[string]tftypes.Value
	if v.As(&attrs) != nil {
		return
	}
	for _, c := range f.children {
		if holdsJSON(c) {
			forEachJSON(c, attrs[c.attr], p.atName(c.attr), visit)
		}
	}
}

// holdsJSON tells whether f is, or has below it, a JSON attribute.
func holdsJSON(f specField) bool {
	if f.kind == kindJSON {
		return true
	}
	for _, c := range f.children {
		if holdsJSON(c) {
			return true
		}
	}
	return false
}

// duplicateJSONKey finds the first key that occurs twice in one object of the JSON text s, and
// the JSON path of its second occurrence, such as machineImages[0].name. Text that is not valid
// JSON has none (it is reported as such elsewhere).
func duplicateJSONKey(s string) (key, at string, found bool) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	key, at, found, err := keyScanner{dec}.value("")
	if err != nil {
		return "", "", false
	}
	return key, at, found
}

// keyScanner reads one JSON value from the decoder's token stream, looking for duplicate keys.
type keyScanner struct{ dec *json.Decoder }

// value consumes the value at the JSON path at.
func (k keyScanner) value(at string) (key, dupAt string, found bool, err error) {
	tok, err := k.dec.Token()
	if err != nil {
		return "", "", false, err
	}
	switch tok {
	case json.Delim('{'):
		return k.object(at)
	case json.Delim('['):
		return k.array(at)
	}
	return "", "", false, nil
}

// object consumes the rest of an object, stopping at its first repeated key.
func (k keyScanner) object(at string) (key, dupAt string, found bool, err error) {
	seen := map[string]bool{}
	for k.dec.More() {
		tok, err := k.dec.Token()
		if err != nil {
			return "", "", false, err
		}
		name, _ := tok.(string)
		p := jsonMemberPath(at, name)
		if seen[name] {
			return name, p, true, nil
		}
		seen[name] = true
		if key, dupAt, found, err := k.value(p); found || err != nil {
			return key, dupAt, found, err
		}
	}
	_, err = k.dec.Token()
	return "", "", false, err
}

// array consumes the rest of an array.
func (k keyScanner) array(at string) (key, dupAt string, found bool, err error) {
	for i := 0; k.dec.More(); i++ {
		if key, dupAt, found, err := k.value(at + "[" + strconv.Itoa(i) + "]"); found || err != nil {
			return key, dupAt, found, err
		}
	}
	_, err = k.dec.Token()
	return "", "", false, err
}

// plainJSONKey matches keys that a JSON path may name after a dot.
var plainJSONKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_-]*$`)

// jsonMemberPath is the JSON path of member name of the object at at: at.name, or at["name"] for a
// name that is not plain.
func jsonMemberPath(at, name string) string {
	switch {
	case !plainJSONKey.MatchString(name):
		return at + "[" + strconv.Quote(name) + "]"
	case at == "":
		return name
	}
	return at + "." + name
}
