package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr/xattr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func TestCanonicalStringSemanticEquality(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		typ  canonicalStringType
		a, b string
		want bool
	}{
		{quantityType, "2", "2000m", true},
		{quantityType, "1Gi", "1024Mi", true},
		{quantityType, "0.5", "500m", true},
		{quantityType, "1e3", "1k", true},
		{quantityType, "1G", "1Gi", false},
		{quantityType, "2", "3", false},
		{quantityType, "bad", "bad", true},
		{quantityType, "bad", "2", false},
		{timestampType, "2027-03-01T00:00:00Z", "2027-03-01T01:00:00+01:00", true},
		{timestampType, "2027-03-01T00:00:00.900Z", "2027-03-01T00:00:00Z", true},
		{timestampType, "2027-03-01T00:00:01Z", "2027-03-01T00:00:00Z", false},
		{timestampType, "2027-03-01", "2027-03-01T00:00:00Z", false},
		{durationType, "30m", "30m0s", true},
		{durationType, "1h30m", "90m", true},
		{durationType, "1h", "1m", false},
		{durationType, "soon", "30m", false},
	}
	for _, c := range cases {
		a, b := newCanonicalValue(c.typ, c.a), newCanonicalValue(c.typ, c.b)
		got, diags := a.StringSemanticEquals(ctx, b)
		requireNoDiags(t, diags)
		if got != c.want {
			t.Errorf("%s: %q ~ %q = %v, want %v", c.typ, c.a, c.b, got, c.want)
		}
	}
	// Different kinds and other string types are never equal.
	if eq, _ := newCanonicalValue(quantityType, "1").StringSemanticEquals(ctx, newCanonicalValue(durationType, "1")); eq {
		t.Errorf("a quantity equals a duration")
	}
	if eq, _ := newCanonicalValue(quantityType, "1").StringSemanticEquals(ctx, types.StringValue("1")); eq {
		t.Errorf("a quantity equals a plain string")
	}
}

func TestCanonicalStringTypes(t *testing.T) {
	ctx := context.Background()
	if quantityType.Equal(timestampType) || !quantityType.Equal(canonicalStringType{kind: quantityKind}) || quantityType.Equal(types.StringType) {
		t.Errorf("type equality is by kind")
	}
	for _, typ := range []canonicalStringType{quantityType, timestampType, durationType} {
		v, err := typ.ValueFromTerraform(ctx, tftypes.NewValue(tftypes.String, "x"))
		if err != nil {
			t.Fatal(err)
		}
		if !v.Type(ctx).Equal(typ) || !v.Equal(newCanonicalValue(typ, "x")) {
			t.Errorf("%s: ValueFromTerraform gave %#v", typ, v)
		}
		if !typ.ValueType(ctx).Type(ctx).Equal(typ) {
			t.Errorf("%s: ValueType has another type", typ)
		}
		if typ.String() == "" {
			t.Errorf("type without a name")
		}
		null, err := typ.ValueFromTerraform(ctx, tftypes.NewValue(tftypes.String, nil))
		if err != nil || !null.IsNull() {
			t.Errorf("%s: null value: %v %v", typ, null, err)
		}
	}
}

func TestCanonicalStringValidateAttribute(t *testing.T) {
	ctx := context.Background()
	p := path.Root("spec").AtName("machine_types").AtListIndex(0).AtName("cpu")
	cases := []struct {
		v       canonicalStringValue
		wantErr bool
	}{
		{newCanonicalValue(quantityType, "2"), false},
		{newCanonicalValue(quantityType, "2 cores"), true},
		{newCanonicalValue(quantityType, "1e1000"), false},
		{newCanonicalValue(quantityType, "1e-1000"), false},
		{newCanonicalValue(quantityType, "1e1001"), true},     // beyond the exponent bound
		{newCanonicalValue(quantityType, "1e-9999999"), true}, // would take Kubernetes seconds
		{newCanonicalValue(quantityType, "1e+00000000003"), false},
		{newCanonicalValue(quantityType, "1Ei"), false},
		{newCanonicalValue(timestampType, "2027-03-01T00:00:00Z"), false},
		{newCanonicalValue(timestampType, "2027-03-01"), true},
		{newCanonicalValue(timestampType, "9999-12-31T23:59:59-01:00"), true},   // year 10000 in UTC
		{newCanonicalValue(timestampType, "0001-01-01T01:00:00.1+01:00"), true}, // the zero time once seconds are truncated
		{newCanonicalValue(timestampType, "0001-01-01T00:00:01Z"), false},
		{newCanonicalValue(durationType, "20m"), false},
		{newCanonicalValue(durationType, "20"), true},
		{canonicalStringValue{StringValue: types.StringUnknown(), kind: quantityKind}, false},
		{canonicalStringValue{StringValue: types.StringNull(), kind: timestampKind}, false},
	}
	for _, c := range cases {
		var resp xattr.ValidateAttributeResponse
		c.v.ValidateAttribute(ctx, xattr.ValidateAttributeRequest{Path: p}, &resp)
		if resp.Diagnostics.HasError() != c.wantErr {
			t.Errorf("%s: error = %v, want %v", c.v, resp.Diagnostics.HasError(), c.wantErr)
		}
		if c.wantErr {
			if got := errorPaths(resp.Diagnostics); len(got) != 1 || got[0] != p.String() {
				t.Errorf("%s: error paths %v", c.v, got)
			}
		}
	}
}
