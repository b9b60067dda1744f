package largevalue

import (
	"bytes"
	"context"
	"encoding/json"
	"io"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// UpgradeResourceState answers a state of the current schema version with the state as Terraform
// sent it, as JSON (which Terraform and OpenTofu decode like msgpack), when every attribute in it
// is one the schema has and its write-only attributes are null. The framework would decode the
// whole state only to encode it again, which for a big profile was a third of the provider's CPU
// in a plan. Older schema versions, states with attributes the schema no longer has (the framework
// drops those), and states with a value for a write-only attribute (a state written before the
// attribute became write-only; the framework makes it null) go to the framework.
func (s *server) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	ls, ok := s.resources[req.TypeName]
	if !ok || req.RawState == nil || len(req.RawState.JSON) == 0 || req.Version != ls.version || !conformsTo(req.RawState.JSON, ls.typ, ls.writeOnly) {
		return s.ProviderServer.UpgradeResourceState(ctx, req)
	}
	return &tfprotov6.UpgradeResourceStateResponse{UpgradedState: &tfprotov6.DynamicValue{JSON: req.RawState.JSON}}, nil
}

// conformsTo tells whether the JSON is one value of the type as Terraform writes it into a state:
// objects hold only attributes of their type (missing ones are null), and every value has its
// type's JSON kind; the top-level attributes writeOnly names are null. A value of a dynamic
// attribute is accepted as it is.
func conformsTo(raw []byte, typ tftypes.Type, writeOnly map[string]bool) bool {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if !conformsAtTop(dec, typ, writeOnly) {
		return false
	}
	_, err := dec.Token()
	return err == io.EOF // nothing after the value
}

// conformsAtTop is conforms for the whole state, whose write-only attributes must be null.
func conformsAtTop(dec *json.Decoder, typ tftypes.Type, writeOnly map[string]bool) bool {
	object, isObject := typ.(tftypes.Object)
	if !isObject || len(writeOnly) == 0 {
		return conforms(dec, typ)
	}
	tok, err := dec.Token()
	if err != nil || tok == nil {
		return err == nil
	}
	return tok == json.Delim('{') && members(dec, func(name string) (tftypes.Type, bool) {
		if writeOnly[name] {
			return nil, true // null only
		}
		at, ok := object.AttributeTypes[name]
		return at, ok
	})
}

// conforms reads one JSON value from dec and tells whether it conforms to typ (see conformsTo);
// a nil typ admits null only.
func conforms(dec *json.Decoder, typ tftypes.Type) bool {
	if typ == nil {
		tok, err := dec.Token()
		return err == nil && tok == nil
	}
	if typ.Is(tftypes.DynamicPseudoType) {
		var skipped json.RawMessage
		return dec.Decode(&skipped) == nil
	}
	tok, err := dec.Token()
	if err != nil {
		return false
	}
	if tok == nil {
		return true // null
	}
	switch t := typ.(type) {
	case tftypes.Object:
		return tok == json.Delim('{') && members(dec, func(name string) (tftypes.Type, bool) {
			at, ok := t.AttributeTypes[name]
			return at, ok
		})
	case tftypes.Map:
		return tok == json.Delim('{') && members(dec, func(string) (tftypes.Type, bool) { return t.ElementType, true })
	case tftypes.List:
		return tok == json.Delim('[') && elements(dec, t.ElementType)
	case tftypes.Set:
		return tok == json.Delim('[') && elements(dec, t.ElementType)
	}
	switch tok.(type) {
	case string:
		return typ.Is(tftypes.String)
	case json.Number:
		return typ.Is(tftypes.Number)
	case bool:
		return typ.Is(tftypes.Bool)
	}
	return false
}

// members reads the members of a JSON object up to its closing brace; typeOf gives the type of a
// member's value, or false for a member the type does not have.
func members(dec *json.Decoder, typeOf func(name string) (tftypes.Type, bool)) bool {
	for dec.More() {
		tok, err := dec.Token()
		name, isName := tok.(string)
		if err != nil || !isName {
			return false
		}
		typ, ok := typeOf(name)
		if !ok || !conforms(dec, typ) {
			return false
		}
	}
	tok, err := dec.Token()
	return err == nil && tok == json.Delim('}')
}

// elements reads the elements of a JSON array up to its closing bracket.
func elements(dec *json.Decoder, typ tftypes.Type) bool {
	for dec.More() {
		if !conforms(dec, typ) {
			return false
		}
	}
	tok, err := dec.Token()
	return err == nil && tok == json.Delim(']')
}
