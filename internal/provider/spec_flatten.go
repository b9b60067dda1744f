package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/big"

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
// descriptor tree into the Terraform value of the spec attribute. Each level is decoded only as
// far as its descriptor says, so provider_config keeps its exact bytes and numbers their
// precision. The value is built directly in Terraform's own representation: a profile with
// thousands of versions is converted once, without the framework's per-node conversions.
func flattenSpecTerraform(root specField, spec any) (tftypes.Value, diag.Diagnostics) {
	var diags diag.Diagnostics
	raw, err := json.Marshal(spec)
	if err != nil {
		diags.AddError("Cannot read the spec", fmt.Sprintf("Gardener's spec could not be encoded: %v. This is a bug in the provider.", err))
		return tftypes.NewValue(root.tfType, nil), diags
	}
	v, d := flattenObject(root, raw, path.Root(root.attr), false)
	diags.Append(d...)
	return v, diags
}

// isJSONNull tells whether raw is absent or JSON null.
func isJSONNull(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || bytes.Equal(t, []byte("null"))
}

// flattenValue converts the JSON of field f into its Terraform value.
func flattenValue(f specField, raw json.RawMessage, p path.Path) (tftypes.Value, diag.Diagnostics) {
	var diags diag.Diagnostics
	null := tftypes.NewValue(f.tfType, nil)
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
		return tftypes.NewValue(tftypes.String, s), diags
	case kindJSON:
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw); err != nil {
			diags.AddAttributeError(p, "Cannot read the spec", fmt.Sprintf("Gardener's provider_config is not valid JSON: %v.", err))
			return null, diags
		}
		return tftypes.NewValue(tftypes.String, buf.String()), diags
	case kindBool:
		var b bool
		if !decode(&b) {
			return null, diags
		}
		return tftypes.NewValue(tftypes.Bool, b), diags
	case kindInt32:
		var i int32
		if !decode(&i) {
			return null, diags
		}
		return tftypes.NewValue(tftypes.Number, new(big.Float).SetInt64(int64(i))), diags
	case kindStringList:
		var l []string
		if !decode(&l) || len(l) == 0 {
			return null, diags
		}
		return stringListTerraform(l), diags
	case kindStringMap:
		var m map[string]string
		if !decode(&m) || len(m) == 0 {
			return null, diags
		}
		elems := make(map[string]tftypes.Value, len(m))
		for k, s := range m {
			elems[k] = tftypes.NewValue(tftypes.String, s)
		}
		return tftypes.NewValue(f.tfType, elems), diags
	case kindCapabilities:
		var m map[string][]string
		if !decode(&m) || len(m) == 0 {
			return null, diags
		}
		return capabilitiesTerraform(m), diags
	case kindCapabilityFlavors:
		var l []map[string][]string
		if !decode(&l) || len(l) == 0 {
			return null, diags
		}
		elems := make([]tftypes.Value, 0, len(l))
		for _, m := range l {
			elems = append(elems, capabilitiesTerraform(m))
		}
		return tftypes.NewValue(f.tfType, elems), diags
	case kindObject:
		return flattenObject(f, raw, p, f.emptyIsNull)
	case kindObjectList:
		var l []json.RawMessage
		if !decode(&l) || len(l) == 0 {
			return null, diags
		}
		elems := make([]tftypes.Value, 0, len(l))
		for i, er := range l {
			v, d := flattenObject(f, er, p.AtListIndex(i), false)
			diags.Append(d...)
			if d.HasError() {
				return null, diags
			}
			elems = append(elems, v)
		}
		return tftypes.NewValue(f.tfType, elems), diags
	}
	diags.AddAttributeError(p, "Unsupported attribute", fmt.Sprintf("The provider does not know how to read %q (kind %d). This is a bug in the provider.", f.attr, f.kind))
	return null, diags
}

// flattenObject converts a JSON object into an object value of f's children (for a list of
// objects: one element). JSON null is a null object; if emptyIsNull, so is an object whose every
// attribute comes out null.
func flattenObject(f specField, raw json.RawMessage, p path.Path, emptyIsNull bool) (tftypes.Value, diag.Diagnostics) {
	var diags diag.Diagnostics
	objType := f.tfType
	if f.kind == kindObjectList {
		objType = f.tfType.(tftypes.List).ElementType
	}
	if isJSONNull(raw) {
		if f.kind == kindObjectList {
			// An element of a list cannot be null; Kubernetes never sends one.
			raw = json.RawMessage("{}")
		} else {
			return tftypes.NewValue(objType, nil), nil
		}
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		diags.AddAttributeError(p, "Cannot read the spec", fmt.Sprintf("Gardener's value %s is not an object: %v. This is a bug in the provider.", truncate(string(raw)), err))
		return tftypes.NewValue(objType, nil), diags
	}
	attrs := make(map[string]tftypes.Value, len(f.children))
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
		return tftypes.NewValue(objType, nil), diags
	}
	return tftypes.NewValue(objType, attrs), diags
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
