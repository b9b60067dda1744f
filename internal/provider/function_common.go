package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// The provider functions take Gardener objects as dynamic arguments, so that any object literal,
// data source attribute or decoded YAML will do: the argument is first conformed to the Terraform
// type of the spec descriptors (missing attributes become null, tuples lists, numbers strings
// where a string is expected), then converted with the same expand code the resources use, and
// results are converted back with the same flatten code.

// errUnknownArgument signals a value inside an argument that is not known yet.
var errUnknownArgument = errors.New("unknown value in argument")

// conformValue converts v (of any type) into a value of exactly the type target. p names the value
// in error messages. Object attributes that target lacks are errors unless ignoreExtra (which
// applies to the outermost object only).
func conformValue(ctx context.Context, v attr.Value, target attr.Type, p string, ignoreExtra bool) (attr.Value, error) {
	if dv, ok := v.(basetypes.DynamicValue); ok {
		if dv.IsUnknown() {
			return nil, errUnknownArgument
		}
		v = dv.UnderlyingValue()
	}
	if v == nil || v.IsNull() {
		return nullOf(target), nil
	}
	if v.IsUnknown() {
		return nil, errUnknownArgument
	}
	switch t := target.(type) {
	case basetypes.ObjectType:
		return conformObject(ctx, v, t, p, ignoreExtra)
	case basetypes.ListType:
		elems, ok := sequenceElements(v)
		if !ok {
			return nil, fmt.Errorf("%s: a list is required, got %s", p, describeValue(ctx, v))
		}
		out := make([]attr.Value, len(elems))
		for i, e := range elems {
			c, err := conformValue(ctx, e, t.ElemType, fmt.Sprintf("%s[%d]", p, i), false)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return fromDiags(types.ListValue(t.ElemType, out))
	case basetypes.MapType:
		entries, ok := mappingEntries(v)
		if !ok {
			return nil, fmt.Errorf("%s: a map is required, got %s", p, describeValue(ctx, v))
		}
		out := make(map[string]attr.Value, len(entries))
		for k, e := range entries {
			c, err := conformValue(ctx, e, t.ElemType, fmt.Sprintf("%s[%q]", p, k), false)
			if err != nil {
				return nil, err
			}
			out[k] = c
		}
		return fromDiags(types.MapValue(t.ElemType, out))
	case basetypes.BoolType:
		switch b := v.(type) {
		case basetypes.BoolValue:
			return b, nil
		case basetypes.StringValue:
			if parsed, err := strconv.ParseBool(b.ValueString()); err == nil {
				return types.BoolValue(parsed), nil
			}
		}
		return nil, fmt.Errorf("%s: a bool is required, got %s", p, describeValue(ctx, v))
	case basetypes.Int32Type:
		var f *big.Float
		switch n := v.(type) {
		case basetypes.NumberValue:
			f = n.ValueBigFloat()
		case basetypes.Int64Value:
			f = new(big.Float).SetInt64(n.ValueInt64())
		case basetypes.StringValue:
			f, _, _ = big.ParseFloat(n.ValueString(), 10, 64, big.ToNearestEven)
		}
		if f != nil && f.IsInt() {
			if i, acc := f.Int64(); acc == big.Exact && i >= math.MinInt32 && i <= math.MaxInt32 {
				return types.Int32Value(int32(i)), nil
			}
		}
		return nil, fmt.Errorf("%s: a whole number is required, got %s", p, describeValue(ctx, v))
	}
	s, err := stringOf(ctx, v, target, p)
	if err != nil {
		return nil, err
	}
	if st, ok := target.(basetypes.StringTypable); ok && !target.Equal(types.StringType) {
		value, diags := st.ValueFromString(ctx, types.StringValue(s))
		if diags.HasError() {
			return nil, fmt.Errorf("%s: %s", p, diagText(diags))
		}
		return value, nil
	}
	return types.StringValue(s), nil
}

func conformObject(ctx context.Context, v attr.Value, t basetypes.ObjectType, p string, ignoreExtra bool) (attr.Value, error) {
	attrs, ok := mappingEntries(v)
	if !ok {
		return nil, fmt.Errorf("%s: an object is required, got %s", pathOrArgument(p), describeValue(ctx, v))
	}
	if !ignoreExtra {
		var extra []string
		for name := range attrs {
			if _, ok := t.AttrTypes[name]; !ok {
				extra = append(extra, name)
			}
		}
		if len(extra) > 0 {
			slices.Sort(extra)
			known := make([]string, 0, len(t.AttrTypes))
			for name := range t.AttrTypes {
				known = append(known, name)
			}
			slices.Sort(known)
			return nil, fmt.Errorf("%s: unsupported attribute %q; the attributes are %s", pathOrArgument(p), extra[0], strings.Join(known, ", "))
		}
	}
	out := make(map[string]attr.Value, len(t.AttrTypes))
	for name, at := range t.AttrTypes {
		child := name
		if p != "" {
			child = p + "." + name
		}
		a, present := attrs[name]
		if !present {
			out[name] = nullOf(at)
			continue
		}
		c, err := conformValue(ctx, a, at, child, false)
		if err != nil {
			return nil, err
		}
		out[name] = c
	}
	return fromDiags(types.ObjectValue(t.AttrTypes, out))
}

func pathOrArgument(p string) string {
	if p == "" {
		return "the argument"
	}
	return p
}

// sequenceElements returns the elements of a list, tuple or set.
func sequenceElements(v attr.Value) ([]attr.Value, bool) {
	switch t := v.(type) {
	case basetypes.ListValue:
		return t.Elements(), true
	case basetypes.TupleValue:
		return t.Elements(), true
	case basetypes.SetValue:
		return t.Elements(), true
	}
	return nil, false
}

// mappingEntries returns the attributes of an object or the elements of a map.
func mappingEntries(v attr.Value) (map[string]attr.Value, bool) {
	switch t := v.(type) {
	case basetypes.ObjectValue:
		return t.Attributes(), true
	case basetypes.MapValue:
		return t.Elements(), true
	}
	return nil, false
}

// stringOf converts a primitive into a string; for a JSON target (provider_config) objects, maps
// and lists are encoded as JSON.
func stringOf(ctx context.Context, v attr.Value, target attr.Type, p string) (string, error) {
	switch t := v.(type) {
	case basetypes.StringValue:
		return t.ValueString(), nil
	case basetypes.NumberValue:
		return t.ValueBigFloat().Text('f', -1), nil
	case basetypes.Int64Value:
		return strconv.FormatInt(t.ValueInt64(), 10), nil
	case basetypes.BoolValue:
		return strconv.FormatBool(t.ValueBool()), nil
	}
	if _, isJSON := target.(jsontypes.NormalizedType); isJSON {
		g, err := goValue(v)
		if err == nil {
			var raw []byte
			if raw, err = json.Marshal(g); err == nil {
				return string(raw), nil
			}
		}
		if errors.Is(err, errUnknownArgument) {
			return "", err
		}
	}
	return "", fmt.Errorf("%s: a string is required, got %s", p, describeValue(ctx, v))
}

// goValue converts a value into plain Go values for encoding/json.
func goValue(v attr.Value) (any, error) {
	if v == nil || v.IsNull() {
		return nil, nil
	}
	if v.IsUnknown() {
		return nil, errUnknownArgument
	}
	if dv, ok := v.(basetypes.DynamicValue); ok {
		return goValue(dv.UnderlyingValue())
	}
	if entries, ok := mappingEntries(v); ok {
		out := make(map[string]any, len(entries))
		for k, e := range entries {
			g, err := goValue(e)
			if err != nil {
				return nil, err
			}
			out[k] = g
		}
		return out, nil
	}
	if elems, ok := sequenceElements(v); ok {
		out := make([]any, len(elems))
		for i, e := range elems {
			g, err := goValue(e)
			if err != nil {
				return nil, err
			}
			out[i] = g
		}
		return out, nil
	}
	switch t := v.(type) {
	case basetypes.StringValue:
		return t.ValueString(), nil
	case basetypes.NumberValue:
		return json.Number(t.ValueBigFloat().Text('g', -1)), nil
	case basetypes.Int64Value:
		return t.ValueInt64(), nil
	case basetypes.BoolValue:
		return t.ValueBool(), nil
	}
	return nil, fmt.Errorf("unsupported value %s", v)
}

func describeValue(ctx context.Context, v attr.Value) string {
	return v.Type(ctx).String()
}

func fromDiags[T attr.Value](v T, diags diag.Diagnostics) (attr.Value, error) {
	if diags.HasError() {
		return nil, errors.New(diagText(diags))
	}
	return v, nil
}

// diagText joins the errors of diags into one text.
func diagText(diags diag.Diagnostics) string {
	var parts []string
	for _, d := range diags.Errors() {
		text := d.Summary()
		if d.Detail() != "" {
			text += ": " + d.Detail()
		}
		if wp, ok := d.(diag.DiagnosticWithPath); ok && !wp.Path().Equal(path.Empty()) {
			text = wp.Path().String() + ": " + text
		}
		parts = append(parts, text)
	}
	return strings.Join(parts, "\n")
}

// argumentError turns an error about argument position into a function error.
func argumentError(position int64, err error) *function.FuncError {
	return function.NewArgumentFuncError(position, err.Error())
}

// kubernetesVersionField describes one element of spec.kubernetes.versions.
func kubernetesVersionField() specField {
	versions, _ := kubernetesField.child("versions")
	return specField{json: "version", attr: "version", kind: kindObject, children: versions.entryWithKey()}
}

// expandVersionArgument converts a version argument ({version, classification, expiration_date,
// lifecycle}; other attributes are ignored) into the API type. unknown is true when part of it is
// not known yet.
func expandVersionArgument(ctx context.Context, v types.Dynamic, position int64) (gardencorev1beta1.ExpirableVersion, bool, *function.FuncError) {
	var out gardencorev1beta1.ExpirableVersion
	field := kubernetesVersionField()
	conformed, err := conformValue(ctx, v, specAttrType(field), "", true)
	if errors.Is(err, errUnknownArgument) {
		return out, true, nil
	}
	if err != nil {
		return out, false, argumentError(position, fmt.Errorf("the version must be an object like an element of spec.kubernetes.versions: %w", err))
	}
	unknown, diags := expandSpec(ctx, field, conformed.(types.Object), path.Empty(), &out)
	if diags.HasError() {
		return out, false, argumentError(position, errors.New(diagText(diags)))
	}
	return out, len(unknown) > 0, nil
}

// parseInstantArgument parses an RFC 3339 instant argument.
func parseInstantArgument(s string, position int64) (time.Time, *function.FuncError) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, function.NewArgumentFuncError(position, fmt.Sprintf("%q is not an RFC 3339 timestamp such as \"2030-01-01T00:00:00Z\" (timestamp() and plantimestamp() return one)", s))
	}
	return t, nil
}

// versionAndInstantArguments reads the (version, at) arguments that classification and
// next_transition share; unknown tells that the version is not known yet.
func versionAndInstantArguments(ctx context.Context, req function.RunRequest) (v gardencorev1beta1.ExpirableVersion, at time.Time, unknown bool, ferr *function.FuncError) {
	var version types.Dynamic
	var atArg string
	if ferr = req.Arguments.Get(ctx, &version, &atArg); ferr != nil {
		return v, at, false, ferr
	}
	if v, unknown, ferr = expandVersionArgument(ctx, version, 0); ferr != nil {
		return v, at, false, ferr
	}
	at, ferr = parseInstantArgument(atArg, 1)
	return v, at, unknown, ferr
}
