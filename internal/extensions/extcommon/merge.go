package extcommon

import (
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
)

// The extensions' NamespacedCloudProfile mutators merge the profile's providerConfig image mappings
// into status.cloudProfileSpec.providerConfig when Gardener's controller writes the status of the
// current generation (the status then holds the parent's providerConfig). Both configurations are
// decoded as the mutating webhooks decode (defaults applied), the status's image list is replaced by
// the merge, and the status's configuration is encoded anew. These helpers are the parts they share.

// MergeConfig decodes the NamespacedCloudProfile's providerConfig (spec) and its status's (status)
// with decode, lets merge move spec's mappings into status's configuration and returns that,
// encoded. When either is missing the mutator does nothing and status is returned as it is.
func MergeConfig[C any](spec, status *runtime.RawExtension, decode func([]byte) (*C, error), merge func(spec, status *C)) (*runtime.RawExtension, error) {
	if spec == nil || status == nil {
		return status, nil
	}
	specConfig, err := decode(ConfigBytes(spec))
	if err != nil {
		return nil, fmt.Errorf("could not decode providerConfig of namespacedCloudProfile spec: %w", err)
	}
	statusConfig, err := decode(ConfigBytes(status))
	if err != nil {
		return nil, fmt.Errorf("could not decode providerConfig of namespacedCloudProfile status: %w", err)
	}
	merge(specConfig, statusConfig)
	raw, err := json.Marshal(statusConfig)
	if err != nil {
		return nil, err
	}
	return &runtime.RawExtension{Raw: raw}, nil
}

// ImageKeys tells MergeImages how to read and build the image entries of one extension's
// providerConfig (I an image, V one of its versions).
type ImageKeys[I any, V any] struct {
	Name     func(I) string
	Version  func(V) string
	Versions func(I) []V
	// New builds an image from its name and versions.
	New func(name string, versions []V) I
	// Append is true for extensions whose mutator keeps every version entry of both sides (the
	// status's first, then the spec's) instead of replacing the status's entries of a version
	// with the spec's.
	Append bool
}

// MergeImages merges spec's images into status's as the mutators do: one image per name on each
// side (the later entry of a name wins); an image only spec has is added as it is; for an image
// both have, spec's versions replace status's versions of the same version string and add the
// others (or, with Append, follow status's versions).
//
// The mutators collect images and versions in Go maps, so their order in a real Garden varies from
// write to write. Here status's order is kept and additions follow in spec's order; compare the
// results with a Garden's as sets.
func MergeImages[I any, V any](spec, status []I, k ImageKeys[I, V]) []I {
	merged := newOrdered[I]()
	for _, img := range status {
		merged.set(k.Name(img), img)
	}
	specImages := newOrdered[I]()
	for _, img := range spec {
		specImages.set(k.Name(img), img)
	}
	for _, name := range specImages.keys {
		add := specImages.values[name]
		cur, ok := merged.values[name]
		if !ok {
			merged.set(name, add)
			continue
		}
		merged.set(name, k.New(name, k.mergeVersions(k.Versions(cur), k.Versions(add))))
	}
	return merged.list()
}

// mergeVersions merges the versions of one image (see MergeImages).
func (k ImageKeys[I, V]) mergeVersions(status, spec []V) []V {
	if k.Append {
		return append(append(make([]V, 0, len(status)+len(spec)), status...), spec...)
	}
	versions := newOrdered[V]()
	for _, v := range status {
		versions.set(k.Version(v), v)
	}
	for _, v := range spec {
		versions.set(k.Version(v), v)
	}
	return versions.list()
}

// ordered is a map that remembers the order in which keys were first set.
type ordered[V any] struct {
	keys   []string
	values map[string]V
}

func newOrdered[V any]() *ordered[V] { return &ordered[V]{values: map[string]V{}} }

func (o *ordered[V]) set(k string, v V) {
	if _, ok := o.values[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.values[k] = v
}

// list returns the values in key order; nil when empty, as the mutators' slices.Collect of an
// empty map.
func (o *ordered[V]) list() []V {
	if len(o.keys) == 0 {
		return nil
	}
	out := make([]V, 0, len(o.keys))
	for _, k := range o.keys {
		out = append(out, o.values[k])
	}
	return out
}
