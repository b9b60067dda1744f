package kube

import (
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
)

// MaxStoredBytes is the largest object the Garden stores: etcd's default request limit (1.5 MiB,
// --max-request-bytes) bounds every object with its managed fields; kube-apiserver's limit on
// request bodies (3 MiB) is larger.
const MaxStoredBytes = 3 << 19

// StoredSizeLimit is the largest StoredSize that fits MaxStoredBytes: 8% of it are left for what
// the server adds (metadata, defaults, the operation and time of each managed fields entry).
const StoredSizeLimit = MaxStoredBytes * 92 / 100

// StoredSize estimates the bytes the Garden stores for an apply of obj: its apply body (JSON,
// which is no smaller than the protobuf etcd may hold) and the managed fields entry that records
// the applied fields.
func StoredSize(obj runtime.Object) (int, error) {
	m, err := applyValue(obj)
	if err != nil {
		return 0, err
	}
	body, err := json.Marshal(m)
	if err != nil {
		return 0, fmt.Errorf("encoding the object: %w", err)
	}
	return len(body) + fieldSetSize(m), nil
}

// fieldSetSize is the length of the encoded fieldsV1 set a server-side apply of the decoded JSON
// value v records: a field per map key, an entry per element of a keyed list (see listKeys, with
// its "." member), an empty set for anything else.
func fieldSetSize(v any) int {
	size, members := len("{}"), 0
	member := func(quotedName, child int) {
		size += quotedName + len(":") + child
		members++
	}
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			member(quotedLength(k)+len("f:"), fieldSetSize(e))
		}
	case []any:
		if key := keyOfList(t); key != "" {
			for _, e := range t {
				k, _ := entryKey(e, key)
				member(quotedLength(fmt.Sprintf("k:{%q:%q}", key, k)), fieldSetSize(e)+len(`".":{},`))
			}
		}
	}
	return size + max(members-1, 0) // and the commas between the members
}

// quotedLength is the length of s encoded as a JSON string (as encoding/json escapes it; a
// control character counts as \u00XX).
func quotedLength(s string) int {
	n := len(s) + len(`""`)
	for i := range len(s) {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			n++
		case c < 0x20 || c == '<' || c == '>' || c == '&':
			n += len(`\u00XX`) - 1
		}
	}
	return n
}
