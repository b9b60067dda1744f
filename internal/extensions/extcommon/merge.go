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

// MergeConfig returns the providerConfig of a NamespacedCloudProfile's status.cloudProfileSpec
// once an extension's NamespacedCloudProfile mutator (pkg/admission/mutator/namespacedcloudprofile.go)
// has run: it decodes the profile's providerConfig (spec) and the status's (status, the parent's
// that Gardener's controller wrote there) with decode, lets merge move spec's mappings into
// status's configuration and returns that, encoded. When either is missing the mutator does
// nothing and status is returned as it is.
func MergeConfig[C any](spec, status *runtime.RawExtension, decode func([]byte) (*C, error), merge func(spec, status *C) error) (*runtime.RawExtension, error) {
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
	if err := merge(specConfig, statusConfig); err != nil {
		return nil, err
	}
	raw, err := json.Marshal(statusConfig)
	if err != nil {
		return nil, err
	}
	return &runtime.RawExtension{Raw: raw}, nil
}

// MergeImages merges spec's images into status's as the mutators do; I is an extension's image
// type, whose JSON has a "name" and "versions", each with a "version". On each side one image per
// name counts (the later entry of a name wins); an image only spec has is added as it is; for an
// image both have, spec's versions replace status's versions of the same version string (one per
// version on each side, the later wins) and add the others, or, with appendVersions, follow
// status's versions, all of them kept.
//
// The mutators collect images and versions in Go maps, so their order in a real Garden varies from
// write to write. Here status's order is kept and additions follow in spec's order; compare the
// results with a Garden's as sets.
func MergeImages[I any](spec, status []I, appendVersions bool) ([]I, error) {
	var specImages, statusImages []map[string]json.RawMessage
	if err := convert(spec, &specImages); err != nil {
		return nil, err
	}
	if err := convert(status, &statusImages); err != nil {
		return nil, err
	}
	merged := byKey(statusImages, "name")
	added := byKey(specImages, "name")
	for _, name := range added.keys {
		img := added.values[name]
		if cur, ok := merged.values[name]; ok {
			versions, err := mergeVersions(cur["versions"], img["versions"], appendVersions)
			if err != nil {
				return nil, err
			}
			img = map[string]json.RawMessage{"name": img["name"], "versions": versions}
		}
		merged.set(name, img)
	}
	var out []I
	return out, convert(merged.list(), &out)
}

// mergeVersions merges the versions of one image (see MergeImages).
func mergeVersions(status, spec json.RawMessage, appendVersions bool) (json.RawMessage, error) {
	var statusVersions, specVersions []map[string]json.RawMessage
	if err := unmarshalList(status, &statusVersions); err != nil {
		return nil, err
	}
	if err := unmarshalList(spec, &specVersions); err != nil {
		return nil, err
	}
	if appendVersions {
		return json.Marshal(append(append(make([]map[string]json.RawMessage, 0, len(statusVersions)+len(specVersions)), statusVersions...), specVersions...))
	}
	versions := byKey(statusVersions, "version")
	for _, v := range specVersions {
		versions.set(string(v["version"]), v)
	}
	return json.Marshal(versions.list())
}

// unmarshalList decodes a JSON list; a missing one is empty.
func unmarshalList(raw json.RawMessage, into *[]map[string]json.RawMessage) error {
	if len(raw) == 0 {
		return nil
	}
	return json.Unmarshal(raw, into)
}

// convert moves a value into another type through its JSON encoding.
func convert(from, to any) error {
	raw, err := json.Marshal(from)
	if err != nil {
		return err
	}
	return json.Unmarshal(raw, to)
}

// byKey indexes entries by the JSON text of their value at key, in order of first occurrence.
func byKey(entries []map[string]json.RawMessage, key string) *ordered {
	o := &ordered{values: map[string]map[string]json.RawMessage{}}
	for _, e := range entries {
		o.set(string(e[key]), e)
	}
	return o
}

// ordered is a map of JSON objects that remembers the order in which keys were first set.
type ordered struct {
	keys   []string
	values map[string]map[string]json.RawMessage
}

func (o *ordered) set(k string, v map[string]json.RawMessage) {
	if _, ok := o.values[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.values[k] = v
}

// list returns the values in key order; nil when empty, as the mutators' slices.Collect of an
// empty map.
func (o *ordered) list() []map[string]json.RawMessage {
	if len(o.keys) == 0 {
		return nil
	}
	out := make([]map[string]json.RawMessage, 0, len(o.keys))
	for _, k := range o.keys {
		out = append(out, o.values[k])
	}
	return out
}
