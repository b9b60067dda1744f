package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
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

// flattenSpec marshals the API value as Kubernetes would and walks the JSON along the descriptor
// tree. Each level is decoded only as far as its descriptor says, so provider_config keeps its
// exact bytes and numbers their precision.
func flattenSpec(_ context.Context, root specField, spec any) (types.Object, diag.Diagnostics) {
	var diags diag.Diagnostics
	objType := specAttrType(root).(types.ObjectType)
	raw, err := json.Marshal(spec)
	if err != nil {
		diags.AddError("Cannot read the spec", fmt.Sprintf("Gardener's spec could not be encoded: %v. This is a bug in the provider.", err))
		return types.ObjectNull(objType.AttrTypes), diags
	}
	v, d := flattenObject(root, raw, path.Root(root.attr), false)
	diags.Append(d...)
	obj, ok := v.(types.Object)
	if diags.HasError() || !ok {
		return types.ObjectNull(objType.AttrTypes), diags
	}
	return obj, diags
}

// isJSONNull tells whether raw is absent or JSON null.
func isJSONNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || bytes.Equal(t, []byte("null"))
}

// flattenValue converts the JSON of field f into its Terraform value.
func flattenValue(f specField, raw json.RawMessage, p path.Path) (attr.Value, diag.Diagnostics) {
	var diags diag.Diagnostics
	typ := specAttrType(f)
	null := nullOf(typ)
	if isJSONNull(raw) && f.kind != kindObject {
		return null, nil
	}
	decode := func(target any) bool {
		if err := json.Unmarshal(raw, target); err != nil {
			diags.AddAttributeError(p, "Cannot read the spec", fmt.Sprintf("Gardener's value %s could not be read: %v. This is a bug in the provider.", truncate(string(raw)), err))
			return false
		}
		return true
	}
	switch f.kind {
	case kindString, kindQuantity, kindTimestamp, kindDuration:
		var s string
		if !decode(&s) || s == "" {
			return null, diags
		}
		switch f.kind {
		case kindQuantity:
			return newCanonicalValue(quantityType, s), diags
		case kindTimestamp:
			return newCanonicalValue(timestampType, s), diags
		case kindDuration:
			return newCanonicalValue(durationType, s), diags
		}
		return types.StringValue(s), diags
	case kindJSON:
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw); err != nil {
			diags.AddAttributeError(p, "Cannot read the spec", fmt.Sprintf("Gardener's provider_config is not valid JSON: %v.", err))
			return null, diags
		}
		return jsontypes.NewNormalizedValue(buf.String()), diags
	case kindBool:
		var b bool
		if !decode(&b) {
			return null, diags
		}
		return types.BoolValue(b), diags
	case kindInt32:
		var i int32
		if !decode(&i) {
			return null, diags
		}
		return types.Int32Value(i), diags
	case kindStringList:
		var l []string
		if !decode(&l) || len(l) == 0 {
			return null, diags
		}
		return stringList(l), diags
	case kindStringMap:
		var m map[string]string
		if !decode(&m) || len(m) == 0 {
			return null, diags
		}
		elems := make(map[string]attr.Value, len(m))
		for k, s := range m {
			elems[k] = types.StringValue(s)
		}
		v, d := types.MapValue(types.StringType, elems)
		diags.Append(d...)
		return v, diags
	case kindCapabilities:
		var m map[string][]string
		if !decode(&m) || len(m) == 0 {
			return null, diags
		}
		v, d := capabilitiesValue(m)
		diags.Append(d...)
		return v, diags
	case kindCapabilityFlavors:
		var l []map[string][]string
		if !decode(&l) || len(l) == 0 {
			return null, diags
		}
		elems := make([]attr.Value, 0, len(l))
		for _, m := range l {
			v, d := capabilitiesValue(m)
			diags.Append(d...)
			elems = append(elems, v)
		}
		v, d := types.ListValue(capabilitiesType, elems)
		diags.Append(d...)
		return v, diags
	case kindObject:
		return flattenObject(f, raw, p, f.emptyIsNull)
	case kindObjectList:
		var l []json.RawMessage
		if !decode(&l) || len(l) == 0 {
			return null, diags
		}
		elemType := typ.(types.ListType).ElemType
		elems := make([]attr.Value, 0, len(l))
		for i, er := range l {
			v, d := flattenObject(f, er, p.AtListIndex(i), false)
			diags.Append(d...)
			if d.HasError() {
				return null, diags
			}
			elems = append(elems, v)
		}
		v, d := types.ListValue(elemType, elems)
		diags.Append(d...)
		return v, diags
	}
	diags.AddAttributeError(p, "Unsupported attribute", fmt.Sprintf("The provider does not know how to read %q (kind %d). This is a bug in the provider.", f.attr, f.kind))
	return null, diags
}

// flattenObject converts a JSON object into an object value of f's children. JSON null is a
// null object; if emptyIsNull, so is an object whose every attribute comes out null.
func flattenObject(f specField, raw json.RawMessage, p path.Path, emptyIsNull bool) (attr.Value, diag.Diagnostics) {
	var diags diag.Diagnostics
	objType := objectTypeOfField(f)
	if isJSONNull(raw) {
		if f.kind == kindObjectList {
			// An element of a list cannot be null; Kubernetes never sends one.
			raw = json.RawMessage("{}")
		} else {
			return types.ObjectNull(objType.AttrTypes), nil
		}
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		diags.AddAttributeError(p, "Cannot read the spec", fmt.Sprintf("Gardener's value %s is not an object: %v. This is a bug in the provider.", truncate(string(raw)), err))
		return types.ObjectNull(objType.AttrTypes), diags
	}
	attrs := make(map[string]attr.Value, len(f.children))
	allNull := true
	for _, c := range f.children {
		v, d := flattenValue(c, fields[c.json], p.AtName(c.attr))
		diags.Append(d...)
		attrs[c.attr] = v
		if !v.IsNull() {
			allNull = false
		}
	}
	if diags.HasError() || (emptyIsNull && allNull) {
		return types.ObjectNull(objType.AttrTypes), diags
	}
	v, d := types.ObjectValue(objType.AttrTypes, attrs)
	diags.Append(d...)
	return v, diags
}

// objectTypeOfField is the object type of f, or of f's elements if f is a list of objects.
func objectTypeOfField(f specField) types.ObjectType {
	t := specAttrType(f)
	if lt, ok := t.(types.ListType); ok {
		t = lt.ElemType
	}
	if ot, ok := t.(types.ObjectType); ok {
		return ot
	}
	return objectTypeOf(f.children)
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

func stringList(l []string) types.List {
	elems := make([]attr.Value, len(l))
	for i, s := range l {
		elems[i] = types.StringValue(s)
	}
	return types.ListValueMust(types.StringType, elems)
}

// capabilitiesValue is the map(list(string)) value of capabilities; a nil map is an empty map.
func capabilitiesValue(m map[string][]string) (types.Map, diag.Diagnostics) {
	elems := make(map[string]attr.Value, len(m))
	for k, l := range m {
		elems[k] = stringList(l)
	}
	return types.MapValue(stringListType, elems)
}

func truncate(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
