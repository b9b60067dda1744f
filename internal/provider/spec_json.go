package provider

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// jsonReader reads a JSON document as encoding/json writes it (valid UTF-8, compact) value by
// value, in one pass: flatten consumes each value where its descriptor says what it is, without
// decoding any part twice. It checks the structure it walks; leaves that are not strings are
// decoded (and checked) by encoding/json.
type jsonReader struct {
	data []byte
	pos  int
	// names holds the values of the string lists' elements read so far: the derived lists repeat
	// a few hundred machine type names tens of thousands of times, which are then one value each.
	names map[string]tftypes.Value
	// strings is scratch space for the elements of one string list.
	strings []tftypes.Value
}

var errJSONEnd = errors.New("unexpected end of JSON")

// next is the first byte of the next value, after white space; 0 at the end.
func (r *jsonReader) next() byte {
	for r.pos < len(r.data) {
		switch c := r.data[r.pos]; c {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return c
		}
	}
	return 0
}

// null consumes the next value if it is null (or the document is empty) and tells whether it was.
func (r *jsonReader) null() bool {
	switch r.next() {
	case 0:
		return true
	case 'n':
		if bytes.HasPrefix(r.data[r.pos:], []byte("null")) {
			r.pos += len("null")
			return true
		}
	}
	return false
}

// expect consumes the byte c, which must come next.
func (r *jsonReader) expect(c byte) error {
	if got := r.next(); got != c {
		return r.unexpected(got)
	}
	r.pos++
	return nil
}

func (r *jsonReader) unexpected(got byte) error {
	if got == 0 {
		return errJSONEnd
	}
	return fmt.Errorf("unexpected %q at offset %d", got, r.pos)
}

// raw consumes the next value and returns its bytes.
func (r *jsonReader) raw() (json.RawMessage, error) {
	r.next()
	start := r.pos
	if err := r.skip(); err != nil {
		return nil, err
	}
	return r.data[start:r.pos], nil
}

// skip consumes the next value.
func (r *jsonReader) skip() error {
	depth := 0
	for {
		switch c := r.next(); c {
		case 0:
			return errJSONEnd
		case '{', '[':
			depth++
			r.pos++
			continue
		case '}', ']':
			depth--
			r.pos++
		case ',', ':':
			r.pos++
			continue
		case '"':
			if _, err := r.stringBytes(); err != nil {
				return err
			}
		default:
			for r.pos < len(r.data) && !endsLiteral(r.data[r.pos]) {
				r.pos++
			}
		}
		if depth <= 0 {
			return nil
		}
	}
}

// endsLiteral tells whether c ends a number, true, false or null.
func endsLiteral(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', ',', ':', ']', '}':
		return true
	}
	return false
}

// stringBytes consumes a string and returns its bytes between the quotes, still escaped.
func (r *jsonReader) stringBytes() ([]byte, error) {
	if err := r.expect('"'); err != nil {
		return nil, err
	}
	start := r.pos
	for r.pos < len(r.data) {
		switch r.data[r.pos] {
		case '"':
			r.pos++
			return r.data[start : r.pos-1], nil
		case '\\':
			r.pos++
		}
		r.pos++
	}
	return nil, errJSONEnd
}

// string consumes a string and returns its value.
func (r *jsonReader) string() (string, error) {
	b, err := r.stringBytes()
	if err != nil {
		return "", err
	}
	return unescape(b)
}

// name consumes an element of a string list and returns its value, shared with equal ones.
func (r *jsonReader) name() (tftypes.Value, error) {
	b, err := r.stringBytes()
	if err != nil {
		return tftypes.Value{}, err
	}
	if v, ok := r.names[string(b)]; ok {
		return v, nil
	}
	s, err := unescape(b)
	v := tftypes.NewValue(tftypes.String, s)
	if r.names == nil {
		r.names = map[string]tftypes.Value{}
	}
	r.names[string(b)] = v
	return v, err
}

// unescape is the value of a string's bytes between the quotes.
func unescape(b []byte) (string, error) {
	if bytes.IndexByte(b, '\\') < 0 {
		return string(b), nil // encoding/json writes valid UTF-8 and escapes control characters
	}
	var s string
	err := json.Unmarshal(append(append([]byte{'"'}, b...), '"'), &s)
	return s, err
}

// object consumes an object, calling field with each key (still escaped: see unescape); field
// must consume the key's value.
func (r *jsonReader) object(field func(key []byte) error) error {
	if err := r.expect('{'); err != nil {
		return err
	}
	if r.next() == '}' {
		r.pos++
		return nil
	}
	for {
		key, err := r.stringBytes()
		if err != nil {
			return err
		}
		if err := r.expect(':'); err != nil {
			return err
		}
		if err := field(key); err != nil {
			return err
		}
		switch c := r.next(); c {
		case ',':
			r.pos++
		case '}':
			r.pos++
			return nil
		default:
			return r.unexpected(c)
		}
	}
}

// array consumes an array, calling element for each index; element must consume the element.
func (r *jsonReader) array(element func(i int) error) error {
	if err := r.expect('['); err != nil {
		return err
	}
	if r.next() == ']' {
		r.pos++
		return nil
	}
	for i := 0; ; i++ {
		if err := element(i); err != nil {
			return err
		}
		switch c := r.next(); c {
		case ',':
			r.pos++
		case ']':
			r.pos++
			return nil
		default:
			return r.unexpected(c)
		}
	}
}
