package kube

import (
	"cmp"
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
)

// What bounds an object's size in the Garden, as found by writing ever larger CloudProfiles to the
// local Garden (scripts/garden.sh):
//
//   - etcd refuses a write larger than its --max-request-bytes, 1.5 MiB by default. The local
//     Garden's etcd runs with the default (envtest passes no such flag), and so does a real
//     Garden's etcd (etcd-druid leaves it; Gardener's own design of machine capabilities names 1.5
//     MiB as a CloudProfile's hard limit). gardener-apiserver stores its objects in etcd as JSON
//     with their managed fields: the JSON of the object as stored is what counts (a profile of
//     7,234 machine types, stored as 1,569,924 bytes of JSON, is created; one of 7,271 is not).
//     The answer is a server error "etcdserver: request is too large".
//   - A create, update or patch other than a server-side apply whose object is too large only
//     with its managed fields is stored without any: the API server drops them and tries again.
//     A create then loses the entry the provider's ownership patch needs, and a status write by
//     Gardener's controller drops every manager's entry (seen with 2,300 Kubernetes versions,
//     image versions and machine types each).
//   - Gardener's controllers write the status into the same object after every write of the spec:
//     a CloudProfile's status lists every version with its classification, a
//     NamespacedCloudProfile's holds the whole merged profile. A spec that fits without the status
//     is stored, but the controller fails to write the status ("failed to patch CloudProfile
//     status versions: etcdserver: request is too large") and retries for ever.
//   - kube-apiserver and gardener-apiserver refuse a request body larger than 3 MiB ("Request
//     entity too large: limit is 3145728"), which etcd's limit makes unreachable for an object
//     that could be stored.

// MaxStoredBytes is the largest object the Garden stores: etcd's default request limit (1.5 MiB,
// --max-request-bytes), which bounds the JSON of every object with its managed fields and status.
const MaxStoredBytes = 3 << 19

// StoredSizeLimit is the largest StoredSize that this provider lets an object take. On the local
// Garden StoredSize is 489 bytes more than the JSON of the profile as stored with its status and
// the entries of its three managers (the provider, and Gardener's controllers for the finalizer
// and the status), for 6,000 and 6,500 Kubernetes versions and 6,900 and 7,200 machine types
// alike; the largest profile etcd took was 1,569,924 bytes, 2,940 less than MaxStoredBytes (the
// write carries the key and the revision too). The margin of 8 KiB (0.5%) covers that overhead,
// a longer field manager and small entries of other writers (a label set with kubectl): the
// profile of 7,200 machine types, which the Garden stores, passes.
const StoredSizeLimit = MaxStoredBytes - 8<<10

// managedFieldsEntryBytes is what a managed-fields entry takes besides its field set: manager
// (the provider's at most 128 characters), operation, apiVersion, time, fieldsType, subresource.
const managedFieldsEntryBytes = 300

// serverMetadataBytes is what the API server and Gardener add to the metadata of every profile:
// uid, resourceVersion, generation, creationTimestamp, the finalizer "gardener" and the label
// provider.extensions.gardener.cloud/<type>.
const serverMetadataBytes = 400

// StoredSize estimates the bytes the Garden stores for an apply of applied whose object Gardener
// stores as stored: the JSON of stored, which holds what Gardener defaults and the status its
// controller writes (stored's status), the managed-fields entry that records the applied fields,
// the entry of the status's writer, and the metadata the server adds.
func StoredSize(applied, stored runtime.Object) (Size, error) {
	appliedRaw, err := json.Marshal(applied)
	if err != nil {
		return Size{}, fmt.Errorf("encoding the object: %w", err)
	}
	appliedSet, err := appliedSetSize(appliedRaw)
	if err != nil {
		return Size{}, err
	}
	raw, err := json.Marshal(stored)
	if err != nil {
		return Size{}, fmt.Errorf("encoding the object: %w", err)
	}
	size := Size{Spec: map[string]int{}, ManagedFields: managedFieldsEntryBytes + appliedSet,
		Other: len(raw) + serverMetadataBytes}
	var partErr error
	err = eachMember(raw, func(key string, value []byte) {
		switch key {
		case "spec":
			partErr = cmp.Or(partErr, eachMember(value, func(field string, value []byte) {
				size.Spec[field] = len(value)
				size.Other -= len(value)
			}))
		case "status":
			// Gardener's controllers write the status's lists whole (they are atomic): their entry
			// owns the lists, not their elements.
			statusSet, err := atomicSetSize(value)
			partErr = cmp.Or(partErr, err)
			size.Status = len(value)
			size.Other -= len(value)
			size.ManagedFields += managedFieldsEntryBytes + len(`{"f:status":}`) + statusSet
		}
	})
	if err = cmp.Or(err, partErr); err != nil {
		return Size{}, err
	}
	return size, nil
}

// Size is StoredSize's estimate in parts.
type Size struct {
	// Spec is what each field of the stored spec takes, by its JSON name.
	Spec map[string]int
	// Status is what the status takes, ManagedFields the managed-fields entries, Other the rest
	// (the metadata, with what the server adds, and the JSON around the parts).
	Status, ManagedFields, Other int
}

// Total is the whole estimate.
func (s Size) Total() int {
	total := s.Status + s.ManagedFields + s.Other
	for _, n := range s.Spec {
		total += n
	}
	return total
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
