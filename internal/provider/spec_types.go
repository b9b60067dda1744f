package provider

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"k8s.io/apimachinery/pkg/api/resource"
)

// This file holds three string types whose values Gardener's API server rewrites into a canonical
// form: Kubernetes quantities ("2000m" is stored as "2"), RFC 3339 timestamps (stored in UTC with
// second precision) and Go durations ("30m" is stored as "30m0s"). In Terraform they are plain
// strings. Their values implement semantic equality, so that a configuration written as "2000m"
// and a state read back as "2" are not a change and not an "inconsistent result after apply";
// and they validate their format when Terraform validates the configuration.

// canonicalKind tells which canonical string a canonicalStringType holds.
type canonicalKind uint8

const (
	quantityKind canonicalKind = iota + 1
	timestampKind
	durationKind
)

var (
	// quantityType is a Kubernetes quantity such as "2", "500m" or "8Gi".
	quantityType = canonicalStringType{kind: quantityKind}
	// timestampType is an RFC 3339 timestamp such as "2027-03-01T00:00:00Z".
	timestampType = canonicalStringType{kind: timestampKind}
	// durationType is a Go duration such as "20m" or "1h30m".
	durationType = canonicalStringType{kind: durationKind}
)

var (
	_ basetypes.StringTypable                    = canonicalStringType{}
	_ basetypes.StringValuableWithSemanticEquals = canonicalStringValue{}
	_ xattr.ValidateableAttribute                = canonicalStringValue{}
)

// canonicalStringType is the attribute type of quantities, timestamps and durations.
type canonicalStringType struct {
	basetypes.StringType
	kind canonicalKind
}

// String names the type.
func (t canonicalStringType) String() string {
	switch t.kind {
	case quantityKind:
		return "provider.QuantityType"
	case timestampKind:
		return "provider.TimestampType"
	case durationKind:
		return "provider.DurationType"
	}
	return "provider.CanonicalStringType"
}

// Equal reports whether o is the same type of the same kind.
func (t canonicalStringType) Equal(o attr.Type) bool {
	other, ok := o.(canonicalStringType)
	return ok && other.kind == t.kind
}

// ValueType returns the value type of the type.
func (t canonicalStringType) ValueType(context.Context) attr.Value {
	return canonicalStringValue{kind: t.kind}
}

// ValueFromString wraps a string value.
func (t canonicalStringType) ValueFromString(_ context.Context, in basetypes.StringValue) (basetypes.StringValuable, diag.Diagnostics) {
	return canonicalStringValue{StringValue: in, kind: t.kind}, nil
}

// ValueFromTerraform converts a Terraform value.
func (t canonicalStringType) ValueFromTerraform(ctx context.Context, in tftypes.Value) (attr.Value, error) {
	v, err := t.StringType.ValueFromTerraform(ctx, in)
	if err != nil {
		return nil, err
	}
	s, ok := v.(basetypes.StringValue)
	if !ok {
		return nil, fmt.Errorf("unexpected value type %T", v)
	}
	return canonicalStringValue{StringValue: s, kind: t.kind}, nil
}

// canonicalStringValue is a value of a canonicalStringType.
type canonicalStringValue struct {
	basetypes.StringValue
	kind canonicalKind
}

// Type returns the type of the value.
func (v canonicalStringValue) Type(context.Context) attr.Type {
	return canonicalStringType{kind: v.kind}
}

// Equal reports exact (not semantic) equality.
func (v canonicalStringValue) Equal(o attr.Value) bool {
	other, ok := o.(canonicalStringValue)
	return ok && other.kind == v.kind && v.StringValue.Equal(other.StringValue)
}

// StringSemanticEquals reports whether both values denote the same quantity, instant (at second
// precision, as Kubernetes stores it) or duration. Values that do not parse compare as strings.
func (v canonicalStringValue) StringSemanticEquals(_ context.Context, nv basetypes.StringValuable) (bool, diag.Diagnostics) {
	other, ok := nv.(canonicalStringValue)
	if !ok || other.kind != v.kind {
		return false, nil
	}
	return canonicalEqual(v.kind, v.ValueString(), other.ValueString()), nil
}

// ValidateAttribute reports a malformed value when Terraform validates the configuration.
func (v canonicalStringValue) ValidateAttribute(_ context.Context, req xattr.ValidateAttributeRequest, resp *xattr.ValidateAttributeResponse) {
	if v.IsNull() || v.IsUnknown() {
		return
	}
	if err := checkCanonical(v.kind, v.ValueString()); err != nil {
		resp.Diagnostics.Append(canonicalError(req.Path, v.kind, v.ValueString(), err))
	}
}

// canonicalEqual compares two strings of a kind by meaning.
func canonicalEqual(kind canonicalKind, a, b string) bool {
	if a == b {
		return true
	}
	switch kind {
	case quantityKind:
		qa, errA := parseQuantity(a)
		qb, errB := parseQuantity(b)
		return errA == nil && errB == nil && qa.Cmp(qb) == 0
	case timestampKind:
		ta, errA := parseTimestamp(a)
		tb, errB := parseTimestamp(b)
		return errA == nil && errB == nil && ta.Truncate(time.Second).Equal(tb.Truncate(time.Second))
	case durationKind:
		da, errA := time.ParseDuration(a)
		db, errB := time.ParseDuration(b)
		return errA == nil && errB == nil && da == db
	}
	return false
}

// checkCanonical returns why s is not a valid value of the kind, or nil.
func checkCanonical(kind canonicalKind, s string) error {
	var err error
	switch kind {
	case quantityKind:
		_, err = parseQuantity(s)
	case timestampKind:
		_, err = parseTimestamp(s)
	case durationKind:
		_, err = time.ParseDuration(s)
	}
	return err
}

// maxQuantityExponent bounds the decimal exponent of a quantity ("1e-1000"). Kubernetes accepts
// any exponent, but its parser and comparison take time growing with the exponent's size (seconds
// for 1e-9999999); no size, count or duration in a CloudProfile comes near the bound.
const maxQuantityExponent = 1000

// parseQuantity parses a quantity as the API server does, rejecting absurd exponents.
func parseQuantity(s string) (resource.Quantity, error) {
	if i := strings.LastIndexAny(s, "eE"); i >= 0 {
		digits := strings.TrimLeft(strings.TrimLeft(s[i+1:], "+-"), "0")
		if digits != "" && strings.Trim(digits, "0123456789") == "" {
			if n, err := strconv.Atoi(digits); err != nil || n > maxQuantityExponent {
				return resource.Quantity{}, fmt.Errorf("the exponent is beyond ±%d", maxQuantityExponent)
			}
		}
	}
	return resource.ParseQuantity(s)
}

// parseTimestamp parses a timestamp as the API server does (metav1.Time), and rejects instants
// Kubernetes cannot write back: the zero time (after dropping fractional seconds, as Kubernetes
// does) is serialised as null, and years outside 1–9999 in UTC do not render as RFC 3339.
func parseTimestamp(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, err
	}
	u := t.UTC()
	if u.Year() < 1 || u.Year() > 9999 || u.Truncate(time.Second).IsZero() {
		return time.Time{}, fmt.Errorf("the instant must lie after 0001-01-01T00:00:00Z and before the year 10000 in UTC")
	}
	return t, nil
}

// canonicalError is the diagnostic for a malformed quantity, timestamp or duration at p.
func canonicalError(p path.Path, kind canonicalKind, s string, err error) diag.Diagnostic {
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); kind == timestampKind && i >= 0 && strings.HasPrefix(msg, "parsing time") {
		msg = strings.TrimSpace(msg[i+2:])
	}
	switch kind {
	case quantityKind:
		return diag.NewAttributeErrorDiagnostic(p, "Invalid quantity",
			fmt.Sprintf("%q is not a Kubernetes quantity (%s). Gardener stores sizes and counts as quantities: "+
				"write a number with an optional suffix, e.g. \"2\", \"500m\", \"1.5\", \"8Gi\", \"100M\" or \"1e3\".", s, msg))
	case timestampKind:
		return diag.NewAttributeErrorDiagnostic(p, "Invalid timestamp",
			fmt.Sprintf("%q is not a usable RFC 3339 timestamp (%s). Write it like \"2027-03-01T00:00:00Z\" (UTC) "+
				"or with an offset, e.g. \"2027-03-01T01:00:00+01:00\"; Gardener stores it in UTC with second precision.", s, msg))
	case durationKind:
		return diag.NewAttributeErrorDiagnostic(p, "Invalid duration",
			fmt.Sprintf("%q is not a Go duration (%s). Write a number with a unit, e.g. \"90s\", \"20m\" or \"1h30m\".", s, msg))
	}
	return diag.NewAttributeErrorDiagnostic(p, "Invalid value", fmt.Sprintf("%q: %s", s, msg))
}
