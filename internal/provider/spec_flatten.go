package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// flattenCloudProfileSpec converts a CloudProfile spec into the Terraform value of the `spec`
// attribute. The value has exactly the type of both the resource and the data-source schema.
//
// What Gardener leaves out, or sends empty, becomes null: absent or empty lists and maps, nil
// pointers, and empty strings (Gardener accepts no empty string where the field is optional, and
// sends "" only for required strings that were never set). `kubernetes` with no versions is null
// too. Elements inside lists and maps are kept as they are (an empty flavor stays {}). Quantities
// keep the server's canonical form (q.String()), timestamps are RFC 3339 in UTC, durations as
// Go prints them, provider_config the JSON the server holds.
func flattenCloudProfileSpec(ctx context.Context, spec gardencorev1beta1.CloudProfileSpec) (types.Object, diag.Diagnostics) {
	return flattenSpec(ctx, cloudProfileSpecRoot, spec)
}

// flattenNamespacedCloudProfileSpec converts a NamespacedCloudProfile spec into the Terraform
// value of the `spec` attribute; rules as for flattenCloudProfileSpec (`parent` with neither kind
// nor name is null).
func flattenNamespacedCloudProfileSpec(ctx context.Context, spec gardencorev1beta1.NamespacedCloudProfileSpec) (types.Object, diag.Diagnostics) {
	return flattenSpec(ctx, namespacedCloudProfileSpecRoot, spec)
}

// flattenSpec converts the API value into the types.Object of the spec attribute (see
// flattenSpecTerraform).
func flattenSpec(ctx context.Context, root specField, spec any) (types.Object, diag.Diagnostics) {
	objType := specAttrType(root).(types.ObjectType)
	tv, diags := flattenSpecTerraform(root, spec)
	if diags.HasError() {
		return types.ObjectNull(objType.AttrTypes), diags
	}
	v, err := objType.ValueFromTerraform(ctx, tv)
	obj, ok := v.(types.Object)
	if err != nil || !ok {
		diags.AddError("Cannot read the spec", fmt.Sprintf("The spec could not be converted (%v). This is a bug in the provider.", err))
		return types.ObjectNull(objType.AttrTypes), diags
	}
	return obj, diags
}

// flattenSpecTerraform marshals the API value as Kubernetes would and walks the JSON along the
// descriptor tree into the Terraform value of the spec attribute, in one pass (jsonReader): each
// value is decoded only as its descriptor says, so provider_config keeps its exact bytes and
// numbers their precision. The value is built directly in Terraform's own representation: a
// profile with thousands of versions is converted once, without the framework's per-node
// conversions.
func flattenSpecTerraform(root specField, spec any) (tftypes.Value, diag.Diagnostics) {
	return flattenJSON(root, spec, false, "Cannot read the spec")
}

// terraformValueOf converts a value the provider computes (the data sources' derived lists, a
// CloudProfile's status) into the Terraform value of the attribute root describes, along the same
// descriptors as the spec. The value's JSON names are the descriptors' (json tags without
// omitempty). Unlike the spec it is taken as it is: JSON null (a nil pointer, slice or map) is
// null, but "" stays "" and an empty list or map stays empty.
func terraformValueOf(root specField, value any) (tftypes.Value, diag.Diagnostics) {
	return flattenJSON(root, value, true, "Converting the value")
}

// flattenJSON marshals value and flattens its JSON along root; asIs is flattenValue's. A failure
// is a bug in the provider, reported with summary.
func flattenJSON(root specField, value any, asIs bool, summary string) (tftypes.Value, diag.Diagnostics) {
	var diags diag.Diagnostics
	null := tftypes.NewValue(root.tfType, nil)
	raw, err := json.Marshal(value)
	if err != nil {
		diags.AddAttributeError(path.Root(root.attr), summary, fmt.Sprintf("The value could not be encoded: %v. This is a bug in the provider.", err))
		return null, diags
	}
	v, err := flattenDocument(root, raw, asIs)
	if err != nil {
		p := path.Root(root.attr)
		var fe *flattenError
		if errors.As(err, &fe) {
			p = fe.path(p)
		}
		diags.AddAttributeError(p, summary, fmt.Sprintf("The value could not be read: %v. This is a bug in the provider.", err))
		return null, diags
	}
	return v, diags
}

// flattenDocument converts the JSON document raw along root.
func flattenDocument(root specField, raw []byte, asIs bool) (tftypes.Value, error) {
	r := &jsonReader{data: raw}
	v, err := flattenValue(root, r, asIs)
	if err == nil && r.next() != 0 {
		err = r.unexpected(r.next())
	}
	return v, err
}

// flattenError is a failure to read the value at steps below the root (innermost first).
type flattenError struct {
	steps []path.PathStep
	err   error
}

func (e *flattenError) Error() string { return e.err.Error() }

func (e *flattenError) Unwrap() error { return e.err }

// path is the path of the failed value below root.
func (e *flattenError) path(root path.Path) path.Path {
	p := root
	for i := len(e.steps) - 1; i >= 0; i-- {
		switch s := e.steps[i].(type) {
		case path.PathStepAttributeName:
			p = p.AtName(string(s))
		case path.PathStepElementKeyInt:
			p = p.AtListIndex(int(s))
		case path.PathStepElementKeyString:
			p = p.AtMapKey(string(s))
		}
	}
	return p
}

// within records that err happened at step below the current value.
func within(err error, step path.PathStep) error {
	var fe *flattenError
	if !errors.As(err, &fe) {
		fe = &flattenError{err: err}
	}
	fe.steps = append(fe.steps, step)
	return fe
}

// flattenValue consumes the JSON of field f and converts it into its Terraform value. Unless
// asIs, empty strings, lists and maps become null.
func flattenValue(f specField, r *jsonReader, asIs bool) (tftypes.Value, error) {
	null := tftypes.NewValue(f.tfType, nil)
	if r.null() {
		return null, nil
	}
	switch f.kind {
	case kindString, kindQuantity, kindTimestamp, kindDuration:
		s, err := r.string()
		if err != nil || (s == "" && !asIs) {
			return null, err
		}
		return tftypes.NewValue(tftypes.String, s), nil
	case kindJSON:
		raw, err := r.raw()
		if err != nil {
			return null, err
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw); err != nil {
			return null, fmt.Errorf("provider_config is not valid JSON: %w", err)
		}
		return tftypes.NewValue(tftypes.String, buf.String()), nil
	case kindStringList:
		r.strings = r.strings[:0]
		err := r.array(func(int) error {
			v, err := r.name()
			r.strings = append(r.strings, v)
			return err
		})
		if err != nil || (len(r.strings) == 0 && !asIs) {
			return null, err
		}
		return tftypes.NewValue(f.tfType, slices.Clone(r.strings)), nil
	case kindObject:
		return flattenObject(f, r, f.emptyIsNull, asIs, nil)
	case kindObjectList:
		return flattenObjectList(f, r, asIs)
	case kindObjectMap:
		return flattenObjectMap(f, r, asIs)
	case kindKeyedObjects:
		return flattenKeyedObjects(f, r, asIs)
	}
	raw, err := r.raw()
	if err != nil {
		return null, err
	}
	return flattenLeaf(f, raw, asIs)
}

// flattenLeaf decodes the JSON of a field that is neither a string nor built of objects.
func flattenLeaf(f specField, raw json.RawMessage, asIs bool) (tftypes.Value, error) {
	null := tftypes.NewValue(f.tfType, nil)
	decode := func(target any) error {
		if err := json.Unmarshal(raw, target); err != nil {
			return fmt.Errorf("%s: %w", truncate(string(raw)), err)
		}
		return nil
	}
	switch f.kind {
	case kindBool:
		var b bool
		if err := decode(&b); err != nil {
			return null, err
		}
		return tftypes.NewValue(tftypes.Bool, b), nil
	case kindInt32:
		var i int32
		if err := decode(&i); err != nil {
			return null, err
		}
		return tftypes.NewValue(tftypes.Number, new(big.Float).SetInt64(int64(i))), nil
	case kindNumber:
		n := new(big.Float) // its JSON is the text of a *big.Float, parsed at the precision it was written with (64 bits)
		if err := decode(n); err != nil {
			return null, err
		}
		return tftypes.NewValue(tftypes.Number, n), nil
	case kindStringMap:
		var m map[string]string
		if err := decode(&m); err != nil || (len(m) == 0 && !asIs) {
			return null, err
		}
		elems := make(map[string]tftypes.Value, len(m))
		for k, s := range m {
			elems[k] = tftypes.NewValue(tftypes.String, s)
		}
		return tftypes.NewValue(f.tfType, elems), nil
	case kindCapabilities:
		var m map[string][]string
		if err := decode(&m); err != nil || (len(m) == 0 && !asIs) {
			return null, err
		}
		return capabilitiesTerraform(m), nil
	case kindCapabilityFlavors:
		var l []map[string][]string
		if err := decode(&l); err != nil || (len(l) == 0 && !asIs) {
			return null, err
		}
		elems := make([]tftypes.Value, 0, len(l))
		for _, m := range l {
			elems = append(elems, capabilitiesTerraform(m))
		}
		return tftypes.NewValue(f.tfType, elems), nil
	}
	return null, fmt.Errorf("the provider does not know how to read %q (kind %d)", f.attr, f.kind)
}

// flattenObjectList consumes a JSON array of objects; an element that is null is an object of
// nulls (Kubernetes never sends one).
func flattenObjectList(f specField, r *jsonReader, asIs bool) (tftypes.Value, error) {
	null := tftypes.NewValue(f.tfType, nil)
	elems := []tftypes.Value{}
	err := r.array(func(i int) error {
		v, err := flattenObject(f, r, false, asIs, nil)
		elems = append(elems, v)
		if err != nil {
			return within(err, path.PathStepElementKeyInt(i))
		}
		return nil
	})
	if err != nil || (len(elems) == 0 && !asIs) {
		return null, err
	}
	return tftypes.NewValue(f.tfType, elems), nil
}

// flattenObjectMap consumes a JSON object of objects by key; null elements as for lists.
func flattenObjectMap(f specField, r *jsonReader, asIs bool) (tftypes.Value, error) {
	null := tftypes.NewValue(f.tfType, nil)
	elems := map[string]tftypes.Value{}
	err := r.object(func(escaped []byte) error {
		k, err := unescape(escaped)
		if err != nil {
			return err
		}
		v, err := flattenObject(f, r, false, asIs, nil)
		elems[k] = v
		if err != nil {
			return within(err, path.PathStepElementKeyString(k))
		}
		return nil
	})
	if err != nil || (len(elems) == 0 && !asIs) {
		return null, err
	}
	return tftypes.NewValue(f.tfType, elems), nil
}

// flattenKeyedObjects consumes the JSON array of a keyed list into the map of its entries by key.
// Of entries with the same key (which Gardener rejects in a CloudProfile) the last is kept, as
// Gardener's merge of a NamespacedCloudProfile keeps it; an entry without its key has the key "".
func flattenKeyedObjects(f specField, r *jsonReader, asIs bool) (tftypes.Value, error) {
	null := tftypes.NewValue(f.tfType, nil)
	elems := map[string]tftypes.Value{}
	err := r.array(func(i int) error {
		var key string
		v, err := flattenObject(f, r, false, asIs, &key)
		elems[key] = v
		switch {
		case err != nil && key != "":
			return within(err, path.PathStepElementKeyString(key))
		case err != nil:
			return fmt.Errorf("entry %d: %w", i, err) // its key is not read yet: the error lies at the map
		}
		return nil
	})
	if err != nil || (len(elems) == 0 && !asIs) {
		return null, err
	}
	return tftypes.NewValue(f.tfType, elems), nil
}

// flattenObject consumes a JSON object and converts it into an object value of f's children (for
// a list or map of objects: one element). JSON null is a null object, but an object of nulls for
// an element; if emptyIsNull, an object whose every attribute comes out null is null too. Keys
// without a descriptor are skipped, but the entry key of a keyed list is read into key (non-nil).
// asIs is flattenValue's.
func flattenObject(f specField, r *jsonReader, emptyIsNull, asIs bool, key *string) (tftypes.Value, error) {
	objType := f.tfType
	element := false
	switch f.kind {
	case kindObjectList:
		objType, element = f.tfType.(tftypes.List).ElementType, true
	case kindObjectMap, kindKeyedObjects:
		objType, element = f.tfType.(tftypes.Map).ElementType, true
	}
	null := tftypes.NewValue(objType, nil)
	attrs := make(map[string]tftypes.Value, len(f.children))
	if r.null() {
		if !element {
			return null, nil
		}
	} else if err := r.object(func(name []byte) error {
		if key != nil && string(name) == f.key {
			if r.null() {
				return nil
			}
			s, err := r.string()
			*key = s
			return err
		}
		i, ok := f.childIndex[string(name)]
		if !ok {
			return r.skip()
		}
		c := f.children[i]
		v, err := flattenValue(c, r, asIs)
		attrs[c.attr] = v
		if err != nil {
			return within(err, path.PathStepAttributeName(c.attr))
		}
		return nil
	}); err != nil {
		return null, err
	}
	allNull := true
	for _, c := range f.children {
		if v, ok := attrs[c.attr]; !ok {
			attrs[c.attr] = tftypes.NewValue(c.tfType, nil)
		} else if !v.IsNull() {
			allNull = false
		}
	}
	if emptyIsNull && allNull {
		return null, nil
	}
	return tftypes.NewValue(objType, attrs), nil
}

// nullOf is the null value of a type.
func nullOf(t attr.Type) attr.Value { return valueOfRaw(t, nil) }

// valueOfRaw builds a value of a type from a raw Terraform value that every type accepts: nil
// (null) or tftypes.UnknownValue. Custom types build their own value kinds this way.
func valueOfRaw(t attr.Type, raw any) attr.Value {
	ctx := context.Background()
	v, err := t.ValueFromTerraform(ctx, tftypes.NewValue(t.TerraformType(ctx), raw))
	if err != nil {
		panic(fmt.Sprintf("type %s rejects its own null or unknown value: %v", t, err))
	}
	return v
}

var (
	stringListTerraformType   = tftypes.List{ElementType: tftypes.String}
	capabilitiesTerraformType = tftypes.Map{ElementType: stringListTerraformType}
)

// stringListTerraform is the list(string) value of l.
func stringListTerraform(l []string) tftypes.Value {
	elems := make([]tftypes.Value, len(l))
	for i, s := range l {
		elems[i] = tftypes.NewValue(tftypes.String, s)
	}
	return tftypes.NewValue(stringListTerraformType, elems)
}

// capabilitiesTerraform is the map(list(string)) value of capabilities; a nil map is an empty map.
func capabilitiesTerraform(m map[string][]string) tftypes.Value {
	elems := make(map[string]tftypes.Value, len(m))
	for k, l := range m {
		elems[k] = stringListTerraform(l)
	}
	return tftypes.NewValue(capabilitiesTerraformType, elems)
}

func truncate(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
