package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"maps"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strings"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// expandCloudProfileSpec converts the Terraform value of a CloudProfile `spec` attribute, found at
// p, into the API type.
//
// Unknown values (at plan time, or values taken from other resources) are not errors. The second
// result lists the paths of every unknown value met; the spec is complete if and only if it is
// empty. Where a value is unknown the spec holds what Gardener would see if it were omitted: an
// unknown scalar, object or whole list is left out (zero value, nil pointer, nil slice), while an
// unknown element of a list is kept as an empty element ("" or an empty object), so the indices of
// the other elements, and the paths of problems found in them, stay right. A caller that validates
// a partial spec should disregard problems at or below the listed paths.
//
// Null optional attributes become nil pointers, nil slices and nil maps. Empty lists and maps
// configured as such are what Gardener decodes from them: nil where the API type leaves an empty
// one out of its JSON (omitempty, nearly every field), so that `[]` and leaving an attribute out
// are the same object to every check, as they are on the wire.
//
// Malformed values (a quantity, timestamp or duration that does not parse, provider_config that is
// not a JSON object, a null element in a list) yield attribute errors on the exact attribute path;
// the spec is then incomplete and must not be sent.
func expandCloudProfileSpec(ctx context.Context, v types.Object, p path.Path) (gardencorev1beta1.CloudProfileSpec, []path.Path, diag.Diagnostics) {
	var spec gardencorev1beta1.CloudProfileSpec
	unknown, diags := expandSpec(ctx, cloudProfileSpecRoot, v, p, &spec)
	return spec, unknown, diags
}

// expandCloudProfileSpecTerraform is expandCloudProfileSpec for a value in Terraform's
// representation, as requests carry it.
func expandCloudProfileSpecTerraform(v tftypes.Value, p path.Path) (gardencorev1beta1.CloudProfileSpec, []path.Path, diag.Diagnostics) {
	var spec gardencorev1beta1.CloudProfileSpec
	unknown, diags := expandSpecTerraform(cloudProfileSpecRoot, v, p, &spec)
	return spec, unknown, diags
}

// expandNamespacedCloudProfileSpec converts the Terraform value of a NamespacedCloudProfile `spec`
// attribute, found at p, into the API type. Results as for expandCloudProfileSpec.
func expandNamespacedCloudProfileSpec(ctx context.Context, v types.Object, p path.Path) (gardencorev1beta1.NamespacedCloudProfileSpec, []path.Path, diag.Diagnostics) {
	var spec gardencorev1beta1.NamespacedCloudProfileSpec
	unknown, diags := expandSpec(ctx, namespacedCloudProfileSpecRoot, v, p, &spec)
	return spec, unknown, diags
}

// expandNamespacedCloudProfileSpecTerraform is expandNamespacedCloudProfileSpec for a value in
// Terraform's representation.
func expandNamespacedCloudProfileSpecTerraform(v tftypes.Value, p path.Path) (gardencorev1beta1.NamespacedCloudProfileSpec, []path.Path, diag.Diagnostics) {
	var spec gardencorev1beta1.NamespacedCloudProfileSpec
	unknown, diags := expandSpecTerraform(namespacedCloudProfileSpecRoot, v, p, &spec)
	return spec, unknown, diags
}

// expander walks a Terraform value along the descriptor tree into a JSON-compatible tree (objects
// with Gardener's JSON names, see treeObject), which encoding/json then decodes into the API type.
// Every value is checked during the walk, so that errors carry the attribute's exact path.
type expander struct {
	unknown []path.Path
	diags   diag.Diagnostics
	// empties tells that a field holds an empty list or map.
	empties bool
}

func expandSpec(ctx context.Context, root specField, v types.Object, p path.Path, out any) ([]path.Path, diag.Diagnostics) {
	tv, err := v.ToTerraformValue(ctx)
	if err != nil {
		var diags diag.Diagnostics
		diags.AddAttributeError(p, "Cannot convert the spec", fmt.Sprintf("%v. This is a bug in the provider.", err))
		return nil, diags
	}
	return expandSpecTerraform(root, tv, p, out)
}

func expandSpecTerraform(root specField, v tftypes.Value, p path.Path, out any) ([]path.Path, diag.Diagnostics) {
	e := &expander{}
	tree, present := e.value(root, v, &lazyPath{root: p})
	if e.diags.HasError() || !present {
		return e.unknown, e.diags
	}
	raw, err := appendTreeJSON(nil, tree)
	if err == nil {
		err = json.Unmarshal(raw, out)
	}
	if err == nil && e.empties {
		err = asGardenerDecodes(out)
	}
	if err != nil {
		e.diags.AddAttributeError(p, "Cannot convert the spec",
			fmt.Sprintf("The spec passed every check but could not be converted into Gardener's API type: %v. This is a bug in the provider; please report it with the configuration.", err))
	}
	return e.unknown, e.diags
}

// asGardenerDecodes replaces the API object out points to by what Gardener decodes from its JSON:
// empty lists and maps of the fields whose JSON leaves them out become nil.
func asGardenerDecodes(out any) error {
	raw, err := json.Marshal(out)
	if err != nil {
		return err
	}
	target := reflect.ValueOf(out).Elem()
	target.Set(reflect.Zero(target.Type()))
	return json.Unmarshal(raw, out)
}

// value converts v, the value of field f at p (see fieldValue), and notes an empty list or map.
func (e *expander) value(f specField, v tftypes.Value, p *lazyPath) (any, bool) {
	out, present := e.fieldValue(f, v, p)
	switch x := out.(type) {
	case []any:
		e.empties = e.empties || len(x) == 0
	case map[string]any: // a map attribute; objects are treeObjects
		e.empties = e.empties || len(x) == 0
	}
	return out, present
}

// fieldValue converts v, the value of field f at p. present is false when the field is to be left
// out: v is null or unknown (unknown paths are recorded), or malformed (an error is recorded).
func (e *expander) fieldValue(f specField, v tftypes.Value, p *lazyPath) (out any, present bool) {
	if v.Type() == nil || v.IsNull() {
		return nil, false
	}
	if !v.IsKnown() {
		e.unknown = append(e.unknown, p.path())
		return nil, false
	}
	switch f.kind {
	case kindString:
		s, ok := e.str(v, p)
		return s, ok
	case kindQuantity, kindTimestamp, kindDuration:
		s, ok := e.str(v, p)
		if !ok {
			return nil, false
		}
		kind := map[specKind]canonicalKind{kindQuantity: quantityKind, kindTimestamp: timestampKind, kindDuration: durationKind}[f.kind]
		if err := checkCanonical(kind, s); err != nil {
			e.diags.Append(canonicalError(p.path(), kind, s, err))
			return nil, false
		}
		if kind == timestampKind {
			// metav1.Time decodes with time.RFC3339 as checked above; render it as Kubernetes does.
			t, _ := parseTimestamp(s)
			s = t.UTC().Format(time.RFC3339)
		}
		return s, true
	case kindJSON:
		s, ok := e.str(v, p)
		if !ok {
			return nil, false
		}
		if err := checkJSONObject(s); err != nil {
			e.diags.AddAttributeError(p.path(), "Invalid provider_config",
				fmt.Sprintf("provider_config must be a JSON object, such as jsonencode({ apiVersion = \"...\", kind = \"...\" }): %v.", err))
			return nil, false
		}
		return json.RawMessage(s), true
	case kindBool:
		var b bool
		if err := v.As(&b); err != nil {
			return e.mismatch(f, v, p)
		}
		return b, true
	case kindInt32:
		var n big.Float
		if err := v.As(&n); err != nil {
			return e.mismatch(f, v, p)
		}
		i, acc := n.Int64()
		if acc != big.Exact || i < math.MinInt32 || i > math.MaxInt32 {
			e.diags.AddAttributeError(p.path(), "Invalid number", fmt.Sprintf("%s is not a whole number between %d and %d.", n.String(), math.MinInt32, math.MaxInt32))
			return nil, false
		}
		return int32(i), true
	case kindStringList:
		return e.list(v, p, func(ev tftypes.Value, ep *lazyPath) (any, bool) { return e.element(ev, ep, "", e.strAny) })
	case kindStringMap:
		return e.mapOf(v, p, func(ev tftypes.Value, ep *lazyPath) (any, bool) { return e.element(ev, ep, "", e.strAny) })
	case kindCapabilities:
		return e.capabilities(v, p)
	case kindCapabilityFlavors:
		return e.list(v, p, func(ev tftypes.Value, ep *lazyPath) (any, bool) {
			return e.element(ev, ep, map[string]any{}, e.capabilities)
		})
	case kindObject:
		return e.object(f, v, p)
	case kindObjectList:
		return e.list(v, p, func(ev tftypes.Value, ep *lazyPath) (any, bool) {
			return e.element(ev, ep, treeObject{}, func(ov tftypes.Value, op *lazyPath) (any, bool) { return e.object(f, ov, op) })
		})
	case kindKeyedObjects:
		return e.keyed(f, v, p)
	}
	e.diags.AddAttributeError(p.path(), "Unsupported attribute", fmt.Sprintf("The provider does not know how to convert %q (kind %d). This is a bug in the provider.", f.attr, f.kind))
	return nil, false
}

// element converts one element of a list or map. A null element is an error (Gardener's lists
// hold no nulls); an unknown element is recorded and replaced by placeholder to keep indices.
func (e *expander) element(v tftypes.Value, p *lazyPath, placeholder any, conv func(tftypes.Value, *lazyPath) (any, bool)) (any, bool) {
	if v.Type() == nil || v.IsNull() {
		e.diags.AddAttributeError(p.path(), "Null element", "Elements of this collection must not be null: remove the element or give it a value.")
		return nil, false
	}
	if !v.IsKnown() {
		e.unknown = append(e.unknown, p.path())
		return placeholder, true
	}
	return conv(v, p)
}

// str returns the string of a string-like value.
func (e *expander) str(v tftypes.Value, p *lazyPath) (string, bool) {
	var s string
	if err := v.As(&s); err != nil {
		e.diags.AddAttributeError(p.path(), "Unexpected value type", fmt.Sprintf("Expected a string, got %s. This is a bug in the provider.", v.Type()))
		return "", false
	}
	return s, true
}

// strAny is str with an `any` result.
func (e *expander) strAny(v tftypes.Value, p *lazyPath) (any, bool) {
	return e.str(v, p)
}

// capabilities converts a map(list(string)).
func (e *expander) capabilities(v tftypes.Value, p *lazyPath) (any, bool) {
	return e.mapOf(v, p, func(ev tftypes.Value, ep *lazyPath) (any, bool) {
		return e.element(ev, ep, []any{}, func(lv tftypes.Value, lp *lazyPath) (any, bool) {
			return e.list(lv, lp, func(sv tftypes.Value, sp *lazyPath) (any, bool) { return e.element(sv, sp, "", e.strAny) })
		})
	})
}

// list converts the elements of a list value; the result is never nil (an empty list stays empty).
func (e *expander) list(v tftypes.Value, p *lazyPath, conv func(tftypes.Value, *lazyPath) (any, bool)) (any, bool) {
	var elems []tftypes.Value
	if !v.Type().Is(tftypes.List{}) || v.As(&elems) != nil {
		e.diags.AddAttributeError(p.path(), "Unexpected value type", fmt.Sprintf("Expected a list, got %s. This is a bug in the provider.", v.Type()))
		return nil, false
	}
	out := make([]any, 0, len(elems))
	complete := true
	for i, ev := range elems {
		x, ok := conv(ev, p.atListIndex(i))
		if !ok {
			complete = false
			continue
		}
		out = append(out, x)
	}
	return out, complete
}

// mapOf converts the elements of a map value.
func (e *expander) mapOf(v tftypes.Value, p *lazyPath, conv func(tftypes.Value, *lazyPath) (any, bool)) (any, bool) {
	var elems map[string]tftypes.Value
	if !v.Type().Is(tftypes.Map{}) || v.As(&elems) != nil {
		e.diags.AddAttributeError(p.path(), "Unexpected value type", fmt.Sprintf("Expected a map, got %s. This is a bug in the provider.", v.Type()))
		return nil, false
	}
	out := make(map[string]any, len(elems))
	complete := true
	for k, ev := range elems {
		x, ok := conv(ev, p.atMapKey(k))
		if !ok {
			complete = false
			continue
		}
		out[k] = x
	}
	return out, complete
}

// keyed converts the map of a keyed list into the array Gardener stores: each entry with its key in
// the field f.key, in the field's wire order. An unknown entry is kept as an entry holding only its
// key, so that the other entries keep their positions.
func (e *expander) keyed(f specField, v tftypes.Value, p *lazyPath) (any, bool) {
	var elems map[string]tftypes.Value
	if !v.Type().Is(tftypes.Map{}) || v.As(&elems) != nil {
		e.diags.AddAttributeError(p.path(), "Unexpected value type", fmt.Sprintf("Expected a map, got %s. This is a bug in the provider.", v.Type()))
		return nil, false
	}
	out := make([]any, 0, len(elems))
	complete := true
	for _, k := range sortedEntryKeys(f.order, slices.Collect(maps.Keys(elems))) {
		x, ok := e.element(elems[k], p.atMapKey(k), treeObject{}, func(ov tftypes.Value, op *lazyPath) (any, bool) { return e.object(f, ov, op) })
		if !ok {
			complete = false
			continue
		}
		out = append(out, append(x.(treeObject), treeField{name: f.key, value: k}))
	}
	return out, complete
}

// object converts an object value field by field; absent attributes count as null.
func (e *expander) object(f specField, v tftypes.Value, p *lazyPath) (any, bool) {
	var attrs map[string]tftypes.Value
	if !v.Type().Is(tftypes.Object{}) || v.As(&attrs) != nil {
		e.diags.AddAttributeError(p.path(), "Unexpected value type", fmt.Sprintf("Expected an object, got %s. This is a bug in the provider.", v.Type()))
		return nil, false
	}
	set := 0
	for _, c := range f.children {
		if isNonNull(attrs[c.attr]) {
			set++
		}
	}
	out := make(treeObject, 0, set+1) // and the key of a keyed entry
	for _, c := range f.children {
		a := attrs[c.attr]
		if !isNonNull(a) {
			continue // left out, as fieldValue leaves out a null value
		}
		x, present := e.value(c, a, p.atName(c.attr))
		if present {
			out = append(out, treeField{name: c.json, value: x})
		}
	}
	return out, true
}

// isNonNull tells whether v is a value (known or not) rather than null or absent.
func isNonNull(v tftypes.Value) bool {
	return v.Type() != nil && !v.IsNull()
}

func (e *expander) mismatch(f specField, v tftypes.Value, p *lazyPath) (any, bool) {
	e.diags.AddAttributeError(p.path(), "Unexpected value type",
		fmt.Sprintf("Attribute %q has type %s, which does not match the schema. This is a bug in the provider.", f.attr, v.Type()))
	return nil, false
}

// treeObject is an object of an expansion's tree: its fields in the order of the descriptors,
// each name once. A slice, not a map: a spec holds tens of thousands of objects, most of whose
// fields are unset.
type treeObject []treeField

// fields are the object's fields, name and tree, in order.
func (o treeObject) fields() iter.Seq2[string, any] {
	return func(yield func(string, any) bool) {
		for _, f := range o {
			if !yield(f.name, f.value) {
				return
			}
		}
	}
}

// treeField is one field of a treeObject: Gardener's JSON name and the field's tree.
type treeField struct {
	name  string
	value any
}

// lazyPath is an attribute path that is built only when it is needed: the expander walks every
// value of the spec, but only an unknown value or an error needs its path, and the framework's
// paths copy their steps at every step.
type lazyPath struct {
	parent *lazyPath
	// root is the path of the walk's root (parent nil); the others add one step to their parent:
	// the attribute name, or the map key, or the list index.
	root      path.Path
	kind      lazyStep
	nameOrKey string
	index     int
}

// lazyStep is the kind of step a lazyPath adds to its parent.
type lazyStep uint8

const (
	lazyName lazyStep = iota
	lazyMapKey
	lazyListIndex
)

// atName is the path of the attribute name below p.
func (p *lazyPath) atName(name string) *lazyPath {
	return &lazyPath{parent: p, kind: lazyName, nameOrKey: name}
}

// atMapKey is the path of the map element of key below p.
func (p *lazyPath) atMapKey(key string) *lazyPath {
	return &lazyPath{parent: p, kind: lazyMapKey, nameOrKey: key}
}

// atListIndex is the path of the list element at index i below p.
func (p *lazyPath) atListIndex(i int) *lazyPath {
	return &lazyPath{parent: p, kind: lazyListIndex, index: i}
}

// path builds the framework's path of p.
func (p *lazyPath) path() path.Path {
	if p.parent == nil {
		return p.root
	}
	parent := p.parent.path()
	switch p.kind {
	case lazyMapKey:
		return parent.AtMapKey(p.nameOrKey)
	case lazyListIndex:
		return parent.AtListIndex(p.index)
	}
	return parent.AtName(p.nameOrKey)
}

// checkJSONObject returns why s is not a single JSON object, or nil.
func checkJSONObject(s string) error {
	if !json.Valid([]byte(s)) {
		var x any
		if err := json.Unmarshal([]byte(s), &x); err != nil {
			return fmt.Errorf("not valid JSON (%v)", err)
		}
		return fmt.Errorf("not valid JSON")
	}
	if t := strings.TrimLeft(s, " \t\r\n"); !strings.HasPrefix(t, "{") {
		return fmt.Errorf("the value is valid JSON but not an object")
	}
	if depth := jsonDepth(s); depth > maxProviderConfigDepth {
		return fmt.Errorf("it is nested %d levels deep; the Kubernetes API server decodes an object at most 10000 levels deep, "+
			"so provider_config may be nested at most %d levels", depth, maxProviderConfigDepth)
	}
	return nil
}

// maxProviderConfigDepth leaves room below the API server's limit of 10,000 nested levels for the
// levels at which provider_config sits in the object.
const maxProviderConfigDepth = 10000 - 16

// jsonDepth is the deepest nesting of objects and arrays in valid JSON.
func jsonDepth(s string) int {
	depth, deepest, inString, escaped := 0, 0, false, false
	for _, c := range []byte(s) {
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case inString:
			inString = c != '"'
		case c == '"':
			inString = true
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}
