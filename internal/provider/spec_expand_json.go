package provider

import (
	"encoding/json"
	"fmt"
	"iter"
	"maps"
	"strconv"
	"unicode/utf8"
)

// appendTreeJSON appends the JSON of an expansion's tree (treeObject, map[string]any, []any,
// string, bool, int32 and json.RawMessage, as the expander builds it) to buf. It writes what
// json.Marshal writes for the same tree, up to escapes that decode to the same strings and the
// order of a map's keys (which decoding into the API type does not see: json.Marshal's sorting
// was a fifth of the expansion), without reflection: for a spec of thousands of entries
// json.Marshal's reflection was a third of the expansion.
func appendTreeJSON(buf []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case map[string]any:
		return appendObjectJSON(buf, maps.All(x))
	case treeObject:
		return appendObjectJSON(buf, x.fields())
	case []any:
		buf = append(buf, '[')
		for i, e := range x {
			if i > 0 {
				buf = append(buf, ',')
			}
			var err error
			if buf, err = appendTreeJSON(buf, e); err != nil {
				return nil, err
			}
		}
		return append(buf, ']'), nil
	case string:
		return appendJSONString(buf, x), nil
	case bool:
		return strconv.AppendBool(buf, x), nil
	case int32:
		return strconv.AppendInt(buf, int64(x), 10), nil
	case json.RawMessage:
		raw, err := json.Marshal(x) // compacted and checked, as json.Marshal embeds it
		return append(buf, raw...), err
	case nil:
		return append(buf, "null"...), nil
	}
	return nil, fmt.Errorf("cannot encode %T in a spec", v)
}

// appendJSONString appends s as a JSON string: quotes, backslashes and control characters
// escaped, invalid UTF-8 as U+FFFD (as json.Marshal writes it).
func appendJSONString(buf []byte, s string) []byte {
	const hex = "0123456789abcdef"
	buf = append(buf, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				buf = append(buf, '\\', c)
			case c < 0x20:
				buf = append(buf, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				buf = append(buf, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf = append(buf, `\ufffd`...)
		} else {
			buf = append(buf, s[i:i+size]...)
		}
		i += size
	}
	return append(buf, '"')
}

// appendObjectJSON appends the JSON object of the members, each an expansion's tree by its name.
func appendObjectJSON(buf []byte, members iter.Seq2[string, any]) ([]byte, error) {
	buf = append(buf, '{')
	first := true
	for name, value := range members {
		if !first {
			buf = append(buf, ',')
		}
		first = false
		buf = appendJSONString(buf, name)
		buf = append(buf, ':')
		var err error
		if buf, err = appendTreeJSON(buf, value); err != nil {
			return nil, err
		}
	}
	return append(buf, '}'), nil
}
