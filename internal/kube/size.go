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
	body, err := applyBody(obj)
	if err != nil {
		return 0, err
	}
	var m map[string]any
	if err := decodeJSON(body, &m); err != nil {
		return 0, err
	}
	fields, err := json.Marshal(fieldSet(m))
	if err != nil {
		return 0, fmt.Errorf("encoding the managed fields: %w", err)
	}
	return len(body) + len(fields), nil
}

// fieldSet is the fieldsV1 set a server-side apply of the decoded JSON value v records: a field
// per map key, an entry per element of a keyed list (see listKeys), a leaf for anything else.
func fieldSet(v any) map[string]any {
	out := map[string]any{}
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			out["f:"+k] = fieldSet(e)
		}
	case []any:
		key := keyOfList(t)
		if key == "" {
			return out
		}
		for _, e := range t {
			k, _ := entryKey(e, key)
			entry := fieldSet(e)
			entry["."] = map[string]any{}
			out[fmt.Sprintf("k:{%q:%q}", key, k)] = entry
		}
	}
	return out
}
