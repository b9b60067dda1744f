package largevalue

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"sort"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// A refreshed state goes back to Terraform as JSON, the form of its state files, not as msgpack.
// Terraform up to 1.11 decides whether a refresh changed a resource with reflect.DeepEqual on
// the decoded values, and a number decoded from msgpack (an integer: a big.Float of 64 bits'
// precision) is unequal there to the same number decoded from the state file's JSON (512 bits):
// every refresh of an unchanged profile, whose metadata.generation is a number, counted as a
// change, and `plan -refresh-only -detailed-exitcode` exited 2. Decoded from JSON, the refreshed
// value is the one the state file gives, number for number.

// encodeJSON encodes v, of type typ, as a JSON DynamicValue, as Terraform writes values of the
// type into a state (a value of a dynamic attribute with its type beside it). v is wholly known.
func encodeJSON(typ tftypes.Type, v tftypes.Value) (*tfprotov6.DynamicValue, error) {
	var b bytes.Buffer
	if err := writeJSON(&b, typ, v); err != nil {
		return nil, err
	}
	return &tfprotov6.DynamicValue{JSON: b.Bytes()}, nil
}

// writeJSON writes v as a value of typ.
func writeJSON(b *bytes.Buffer, typ tftypes.Type, v tftypes.Value) error {
	if typ.Is(tftypes.DynamicPseudoType) && !v.Type().Is(tftypes.DynamicPseudoType) {
		return writeDynamicJSON(b, v)
	}
	if !v.IsKnown() {
		return fmt.Errorf("encoding an unknown %s as JSON", typ)
	}
	if v.IsNull() {
		b.WriteString("null")
		return nil
	}
	switch t := typ.(type) {
	case tftypes.Object:
		var attrs map[string]tftypes.Value
		if err := v.As(&attrs); err != nil {
			return err
		}
		return writeJSONMembers(b, attrs, func(name string) tftypes.Type { return t.AttributeTypes[name] })
	case tftypes.Map:
		var elems map[string]tftypes.Value
		if err := v.As(&elems); err != nil {
			return err
		}
		return writeJSONMembers(b, elems, func(string) tftypes.Type { return t.ElementType })
	case tftypes.List:
		return writeJSONElements(b, v, func(int) tftypes.Type { return t.ElementType })
	case tftypes.Set:
		return writeJSONElements(b, v, func(int) tftypes.Type { return t.ElementType })
	case tftypes.Tuple:
		return writeJSONElements(b, v, func(i int) tftypes.Type { return t.ElementTypes[i] })
	}
	return writeJSONPrimitive(b, typ, v)
}

// writeJSONMembers writes an object or map, its members in the order of their names.
func writeJSONMembers(b *bytes.Buffer, members map[string]tftypes.Value, typeOf func(string) tftypes.Type) error {
	names := make([]string, 0, len(members))
	for name := range members {
		names = append(names, name)
	}
	sort.Strings(names)
	b.WriteByte('{')
	for i, name := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		key, err := json.Marshal(name)
		if err != nil {
			return err
		}
		b.Write(key)
		b.WriteByte(':')
		if err := writeJSON(b, typeOf(name), members[name]); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}

// writeJSONElements writes a list, set or tuple.
func writeJSONElements(b *bytes.Buffer, v tftypes.Value, typeOf func(int) tftypes.Type) error {
	var elems []tftypes.Value
	if err := v.As(&elems); err != nil {
		return err
	}
	b.WriteByte('[')
	for i, e := range elems {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := writeJSON(b, typeOf(i), e); err != nil {
			return err
		}
	}
	b.WriteByte(']')
	return nil
}

// writeJSONPrimitive writes a string, number or bool; a number in decimal, as Terraform does.
func writeJSONPrimitive(b *bytes.Buffer, typ tftypes.Type, v tftypes.Value) error {
	switch {
	case typ.Is(tftypes.String):
		var s string
		if err := v.As(&s); err != nil {
			return err
		}
		raw, err := json.Marshal(s)
		b.Write(raw)
		return err
	case typ.Is(tftypes.Number):
		n := new(big.Float)
		if err := v.As(&n); err != nil {
			return err
		}
		b.WriteString(n.Text('f', -1))
		return nil
	case typ.Is(tftypes.Bool):
		var t bool
		if err := v.As(&t); err != nil {
			return err
		}
		fmt.Fprint(b, t)
		return nil
	}
	return fmt.Errorf("encoding a value of type %s as JSON", typ)
}

// writeDynamicJSON writes the value of a dynamic attribute with its type:
// {"value": …, "type": …}.
func writeDynamicJSON(b *bytes.Buffer, v tftypes.Value) error {
	typ, err := json.Marshal(v.Type())
	if err != nil {
		return err
	}
	b.WriteString(`{"value":`)
	if err := writeJSON(b, v.Type(), v); err != nil {
		return err
	}
	b.WriteString(`,"type":`)
	b.Write(typ)
	b.WriteByte('}')
	return nil
}
