package extcommon

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	kjson "sigs.k8s.io/json"
)

// Codec describes how an extension's webhook decodes its CloudProfileConfig: every extension
// uses serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDecoder(), which
// reads apiVersion and kind, looks the kind up in the extension's scheme, decodes the JSON into
// the versioned type case-sensitively and strictly (unknown and duplicate fields fail), and
// converts the result to the internal type.
type Codec struct {
	// Group is the API group, such as "aws.provider.extensions.gardener.cloud".
	Group string
	// Versions are the registered versions of the group, such as "v1alpha1".
	Versions []string
	// Kind is "CloudProfileConfig".
	Kind string
	// Scheme names the scheme in "no kind is registered" messages. The extension's message names
	// the file that created its scheme, which cannot be known offline.
	Scheme string
}

// internalVersion is apimachinery's runtime.APIVersionInternal.
const internalVersion = "__internal"

// Decode decodes raw into into (a pointer to the versioned config type) as the extension's
// universal decoder does and returns the decoder's error, or nil.
//
// When apiVersion is missing the decoder falls back to the internal version, whose Go types carry
// no JSON names: every top-level field but apiVersion and kind is then an unknown field. A missing
// kind defaults to Kind.
func (c Codec) Decode(raw []byte, into any) error {
	return c.decode(raw, into, internalVersion)
}

// DecodeVersioned decodes raw as the extensions' mutating webhooks do: with the same universal
// decoder, but into the versioned type, so that a missing apiVersion defaults to the first
// registered version instead of the internal one.
func (c Codec) DecodeVersioned(raw []byte, into any) error {
	return c.decode(raw, into, c.Versions[0])
}

func (c Codec) decode(raw []byte, into any, fallback string) error {
	var meta struct {
		APIVersion string `json:"apiVersion,omitempty"`
		Kind       string `json:"kind,omitempty"`
	}
	if err := json.Unmarshal(raw, &meta); err != nil {
		return fmt.Errorf("couldn't get version/kind; json parse error: %v", err)
	}
	gv, err := schema.ParseGroupVersion(meta.APIVersion)
	if err != nil {
		return err
	}
	kind := meta.Kind
	if kind == "" {
		kind = c.Kind
	}
	if gv.Group == "" && gv.Version == "" {
		gv = schema.GroupVersion{Group: c.Group, Version: fallback}
	}
	if gv.Version == "" && gv.Group == c.Group {
		gv.Version = fallback
	}
	registered := gv.Group == c.Group && kind == c.Kind
	if registered && gv.Version != internalVersion {
		registered = false
		for _, v := range c.Versions {
			if v == gv.Version {
				registered = true
			}
		}
	}
	if !registered {
		return fmt.Errorf("no kind %q is registered for version %q in scheme %q", kind, gv.String(), c.Scheme)
	}
	if gv.Version == internalVersion {
		return internalDecode(raw)
	}
	strictErrs, err := kjson.UnmarshalStrict(raw, into)
	if err != nil {
		return err
	}
	if len(strictErrs) > 0 {
		msgs := make([]string, len(strictErrs))
		for i, e := range strictErrs {
			msgs[i] = e.Error()
		}
		return fmt.Errorf("strict decoding error: %s", strings.Join(msgs, ", "))
	}
	return nil
}

// internalDecode decodes into a type without JSON names: apart from apiVersion and kind every
// top-level key is unknown.
func internalDecode(raw []byte) error {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err != nil {
		return err
	}
	var unknown []string
	for k := range top {
		if k != "apiVersion" && k != "kind" {
			unknown = append(unknown, fmt.Sprintf("unknown field %q", k))
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	return fmt.Errorf("strict decoding error: %s", strings.Join(unknown, ", "))
}
