package kube

import (
	"encoding/json"
	"fmt"
	"slices"
)

// setScan measures field sets on JSON as encoding/json writes it (no space between tokens) in
// one pass over the bytes, without decoding it: a profile's JSON is a few MB, and decoding it
// into maps only to measure it cost more than validating it.
type setScan struct {
	b []byte
	i int
}

// omissions are members a field set leaves out, by their JSON key: nil leaves the member out, a
// non-nil value leaves out its own members.
type omissions map[string]omissions

// appliedOmissions are what an apply's field set leaves out of the object's JSON: the status and
// the metadata the server sets (applyValue drops the same).
var appliedOmissions = omissions{"status": nil, "metadata": omissionsOf(serverSetMetadata)}

// omissionsOf leaves out each of keys.
func omissionsOf(keys []string) omissions {
	o := omissions{}
	for _, k := range keys {
		o[k] = nil
	}
	return o
}

// appliedSetSize is the length of the encoded fieldsV1 set a server-side apply of the object
// encoded as raw records: a field per member that is not null, an entry per element of a keyed
// list (see listKeys, with its "." member), an empty set for anything else.
func appliedSetSize(raw []byte) (int, error) {
	return scanSet(raw, func(s *setScan) int { return s.object(false, appliedOmissions, nil) })
}

// atomicSetSize is the field set of a value whose lists are atomic (written whole, as Gardener's
// controllers write a status): a list is one field, and null members are fields too.
func atomicSetSize(raw []byte) (int, error) {
	return scanSet(raw, func(s *setScan) int { return s.value(true) })
}

// scanSet runs measure over raw and turns JSON it cannot walk into an error.
func scanSet(raw []byte, measure func(*setScan) int) (size int, err error) {
	defer func() {
		if recover() != nil { // an index past the end: not JSON as encoding/json writes it
			size, err = 0, fmt.Errorf("encoding the object: the JSON ends early")
		}
	}()
	s := &setScan{b: raw}
	return measure(s), nil
}

// value is the field set of the value at the cursor; it moves the cursor past the value.
func (s *setScan) value(atomic bool) int {
	switch s.b[s.i] {
	case '{':
		return s.object(atomic, nil, nil)
	case '[':
		if atomic {
			s.skipList()
			return len("{}")
		}
		return s.list()
	case '"':
		s.str()
	default:
		s.literal()
	}
	return len("{}")
}

// object is the field set of the object at the cursor: a field per member (but members that are
// null unless atomic, and those omit leaves out). keyValues, when not nil, receives the string
// values of the members named as listKeys, as written (quoted), at their index in listKeys.
func (s *setScan) object(atomic bool, omit omissions, keyValues *[len(listKeys)][]byte) int {
	size, members := len("{}"), 0
	s.i++ // {
	for s.b[s.i] != '}' {
		key := s.str()
		s.i++ // :
		inner, omitted := omit[string(key[1:len(key)-1])]
		switch {
		case omitted && inner == nil, !atomic && s.null():
			s.skipValue()
		default:
			if keyValues != nil && s.b[s.i] == '"' {
				recordKeyValue(keyValues, key, s.b[s.i:s.i+s.strLength()])
			}
			child := 0
			if inner != nil && s.b[s.i] == '{' {
				child = s.object(atomic, inner, nil)
			} else {
				child = s.value(atomic)
			}
			size += quotedKeyLength(key) + len("f:") + len(":") + child
			members++
		}
		if s.b[s.i] == ',' {
			s.i++
		}
	}
	s.i++ // }
	// and the commas between the members
	return size + max(members-1, 0)
}

// recordKeyValue keeps value when key (quoted) is one of listKeys.
func recordKeyValue(keyValues *[len(listKeys)][]byte, key, value []byte) {
	for j, k := range listKeys {
		if len(key) == len(k)+2 && string(key[1:len(key)-1]) == k {
			keyValues[j] = value
		}
	}
}

// listEntry is what list keeps of each element: its field set and its keys' values.
type listEntry struct {
	size      int
	keyValues [len(listKeys)][]byte
}

// list is the field set of the list at the cursor: an entry per element when every element is an
// object with the same key (see listKeys), else one field.
func (s *setScan) list() int {
	s.i++ // [
	var entries []listEntry
	for s.b[s.i] != ']' {
		var e listEntry
		if s.b[s.i] == '{' {
			e.size = s.object(false, nil, &e.keyValues)
		} else {
			e.size = s.value(false)
		}
		entries = append(entries, e)
		if s.b[s.i] == ',' {
			s.i++
		}
	}
	s.i++ // ]
	key := entriesKey(entries)
	if key < 0 {
		return len("{}")
	}
	size := len("{}") + len(entries) - 1
	for _, e := range entries {
		size += entryFieldLength(listKeys[key], e.keyValues[key]) + len(":") + e.size + len(`".":{},`)
	}
	return size
}

// entriesKey is the index in listKeys of the first key that every entry has a value of, or -1
// (also for no entries).
func entriesKey(entries []listEntry) int {
	for j := range listKeys {
		if len(entries) > 0 && !slices.ContainsFunc(entries, func(e listEntry) bool { return e.keyValues[j] == nil }) {
			return j
		}
	}
	return -1
}

// entryFieldLength is the length of the quoted field `k:{"key":"value"}` that names a keyed
// list's element whose key has the value written (quoted) as value.
func entryFieldLength(key string, value []byte) int {
	if plain(value[1 : len(value)-1]) {
		// k:{"key":"value"}: its four quotes escaped, within quotes
		return len(`"k:{\"`) + len(key) + len(`\":\"`) + len(value) - 2 + len(`\"}"`)
	}
	return quotedLength(fmt.Sprintf("k:{%q:%q}", key, unquote(value)))
}

// plain tells whether b holds only printable ASCII that no quoting changes (no quote, backslash,
// nor a character encoding/json escapes for HTML).
func plain(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return false
		}
	}
	return true
}

// quotedKeyLength is quotedLength of the key written (quoted) as key.
func quotedKeyLength(key []byte) int {
	if plain(key[1 : len(key)-1]) {
		return len(key)
	}
	return quotedLength(unquote(key))
}

// unquote is the string written (quoted) as quoted.
func unquote(quoted []byte) string {
	if !slices.Contains(quoted, '\\') {
		return string(quoted[1 : len(quoted)-1])
	}
	var s string
	if err := json.Unmarshal(quoted, &s); err != nil {
		return string(quoted[1 : len(quoted)-1])
	}
	return s
}

// null tells whether the value at the cursor is null.
func (s *setScan) null() bool { return s.b[s.i] == 'n' }

// str returns the string at the cursor, with its quotes, and moves past it.
func (s *setScan) str() []byte {
	n := s.strLength()
	str := s.b[s.i : s.i+n]
	s.i += n
	return str
}

// strLength is the length of the string at the cursor, with its quotes.
func (s *setScan) strLength() int {
	for j := s.i + 1; ; j++ {
		switch s.b[j] {
		case '\\':
			j++
		case '"':
			return j + 1 - s.i
		}
	}
}

// literal moves past the number, true, false or null at the cursor.
func (s *setScan) literal() {
	for s.i < len(s.b) && s.b[s.i] != ',' && s.b[s.i] != '}' && s.b[s.i] != ']' {
		s.i++
	}
}

// skipList moves past the list at the cursor.
func (s *setScan) skipList() {
	s.i++ // [
	for s.b[s.i] != ']' {
		s.skipValue()
		if s.b[s.i] == ',' {
			s.i++
		}
	}
	s.i++ // ]
}

// skipValue moves past the value at the cursor.
func (s *setScan) skipValue() { s.value(true) }

// eachMember calls f with the key and the value, as written, of each member of the object encoded as raw; nothing when raw is no object.
func eachMember(raw []byte, f func(key string, value []byte)) error {
	_, err := scanSet(raw, func(s *setScan) int {
		if s.b[0] != '{' {
			return 0
		}
		s.i++
		for s.b[s.i] != '}' {
			key := s.str()
			s.i++ // :
			start := s.i
			s.skipValue()
			f(unquote(key), s.b[start:s.i])
			if s.b[s.i] == ',' {
				s.i++
			}
		}
		return 0
	})
	return err
}
