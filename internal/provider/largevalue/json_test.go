package largevalue

import (
	"math/big"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestEncodeJSON_DecodesToTheSameValue: a value of every kind of type, null and empty collections
// and a dynamic attribute among them, encoded as JSON decodes (as Terraform decodes a state file)
// to the value it was; numbers are written in decimal, as a state file holds them.
func TestEncodeJSON_DecodesToTheSameValue(t *testing.T) {
	entry := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"cpu": tftypes.String, "usable": tftypes.Bool}}
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"generation": tftypes.Number,
		"ratio":      tftypes.Number,
		"labels":     tftypes.Map{ElementType: tftypes.String},
		"entries":    tftypes.Map{ElementType: entry},
		"zones":      tftypes.List{ElementType: tftypes.String},
		"arch":       tftypes.Set{ElementType: tftypes.String},
		"pair":       tftypes.Tuple{ElementTypes: []tftypes.Type{tftypes.String, tftypes.Number}},
		"anything":   tftypes.DynamicPseudoType,
		"nothing":    tftypes.DynamicPseudoType,
		"empty":      tftypes.Map{ElementType: tftypes.String},
		"none":       tftypes.List{ElementType: tftypes.String},
	}}
	v := tftypes.NewValue(typ, map[string]tftypes.Value{
		"generation": tftypes.NewValue(tftypes.Number, big.NewFloat(0)),
		"ratio":      tftypes.NewValue(tftypes.Number, big.NewFloat(1.5)),
		"labels":     tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, map[string]tftypes.Value{"a\"b": tftypes.NewValue(tftypes.String, "<x>")}),
		"entries": tftypes.NewValue(tftypes.Map{ElementType: entry}, map[string]tftypes.Value{
			"m5.large": tftypes.NewValue(entry, map[string]tftypes.Value{"cpu": tftypes.NewValue(tftypes.String, "2"), "usable": tftypes.NewValue(tftypes.Bool, nil)}),
		}),
		"zones":    tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{tftypes.NewValue(tftypes.String, "b"), tftypes.NewValue(tftypes.String, "a")}),
		"arch":     tftypes.NewValue(tftypes.Set{ElementType: tftypes.String}, []tftypes.Value{tftypes.NewValue(tftypes.String, "amd64")}),
		"pair":     tftypes.NewValue(tftypes.Tuple{ElementTypes: []tftypes.Type{tftypes.String, tftypes.Number}}, []tftypes.Value{tftypes.NewValue(tftypes.String, "x"), tftypes.NewValue(tftypes.Number, big.NewFloat(12345678901234))}),
		"anything": tftypes.NewValue(tftypes.List{ElementType: tftypes.Bool}, []tftypes.Value{tftypes.NewValue(tftypes.Bool, true)}),
		"nothing":  tftypes.NewValue(tftypes.DynamicPseudoType, nil),
		"empty":    tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, map[string]tftypes.Value{}),
		"none":     tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, nil),
	})
	dv, err := encodeJSON(typ, v)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"anything":{"value":[true],"type":["list","bool"]},"arch":["amd64"],"empty":{},"entries":{"m5.large":{"cpu":"2","usable":null}},` +
		`"generation":0,"labels":{"a\"b":"\u003cx\u003e"},"none":null,"nothing":null,"pair":["x",12345678901234],"ratio":1.5,"zones":["b","a"]}`
	if string(dv.JSON) != want {
		t.Errorf("JSON\n got %s\nwant %s", dv.JSON, want)
	}
	decoded, err := dv.Unmarshal(typ)
	if err != nil {
		t.Fatal(err)
	}
	if !decoded.Equal(v) {
		t.Errorf("decoded %s, want %s", decoded, v)
	}
}

// TestEncodeJSON_RefusesUnknownValues: a state holds no unknown value, so none is encoded.
func TestEncodeJSON_RefusesUnknownValues(t *testing.T) {
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"a": tftypes.String}}
	v := tftypes.NewValue(typ, map[string]tftypes.Value{"a": tftypes.NewValue(tftypes.String, tftypes.UnknownValue)})
	if _, err := encodeJSON(typ, v); err == nil {
		t.Fatal("an unknown value was encoded")
	}
}
