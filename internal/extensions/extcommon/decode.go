package extcommon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/runtime/schema"
	kjson "sigs.k8s.io/json"
)

// Codec describes how an extension's webhooks decode its CloudProfileConfig. Every extension
// decodes with serializer.NewCodecFactory(scheme, serializer.EnableStrict).UniversalDecoder(),
// which reads apiVersion and kind, looks the kind up in the extension's scheme, decodes the JSON
// into that type case-sensitively and strictly (unknown and duplicate fields fail) and converts the
// result. The webhooks call it in two ways, which differ only in how they treat a missing apiVersion
// or kind:
//
//   - the validating webhooks through Gardener's util.Decode (extensions/pkg/util), without a
//     target type: both must be given (Decode);
//   - the mutating webhooks with the versioned type as target, whose kind and version fill in what
//     is missing (DecodeVersioned).
type Codec struct {
	// Group is the API group, such as "aws.provider.extensions.gardener.cloud".
	Group string
	// Versions are the registered versions of the group, such as "v1alpha1"; the first is the
	// version of the type the mutating webhooks decode into.
	Versions []string
	// Kind is "CloudProfileConfig".
	Kind string
	// Scheme names the scheme in "no kind is registered" messages. The extension's message names
	// the file that created its scheme, which cannot be known offline.
	Scheme string
}

// internalVersion is apimachinery's runtime.APIVersionInternal. The internal types are registered
// in the extensions' schemes under it, so an apiVersion that names it explicitly decodes into them.
const internalVersion = "__internal"

// Decode decodes raw into into (a pointer to the versioned config type) as the extension's
// validating webhooks do and returns the decoder's error, or nil. A missing kind fails first,
// then a missing version, with the decoder's words: "Object 'Kind' is missing in '<raw>'",
// "Object 'apiVersion' is missing in '<raw>'" (an apiVersion that names a group but no version,
// "group/", counts as missing).
func (c Codec) Decode(raw []byte, into any) error {
	return c.decode(raw, into, false)
}

// DecodeVersioned decodes raw as the extensions' mutating webhooks do: into the versioned type,
// whose kind stands in for a missing kind and whose version for a missing version when apiVersion
// names no group or the extension's group. into's apiVersion and kind stay as raw gives them: the
// decoder fills nothing into the object it decodes.
func (c Codec) DecodeVersioned(raw []byte, into any) error {
	return c.decode(raw, into, true)
}

// decode is the universal decoder's JSON path; withTarget tells whether the webhook passes the
// versioned type as the target, which fills in a missing kind and version.
func (c Codec) decode(raw []byte, into any, withTarget bool) error {
	gvk, err := typeOf(raw)
	if err != nil {
		return err
	}
	if withTarget {
		gvk = defaultedBy(gvk, schema.GroupVersionKind{Group: c.Group, Version: c.Versions[0], Kind: c.Kind})
	}
	if gvk.Kind == "" {
		return missingError("Kind", raw)
	}
	if gvk.Version == "" {
		return missingError("apiVersion", raw)
	}
	if !c.registered(gvk) {
		return fmt.Errorf("no kind %q is registered for version %q in scheme %q", gvk.Kind, gvk.GroupVersion().String(), c.Scheme)
	}
	if gvk.Version == internalVersion {
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

// typeOf reads apiVersion and kind as the decoder's SimpleMetaFactory does.
func typeOf(raw []byte) (schema.GroupVersionKind, error) {
	var meta struct {
		APIVersion string `json:"apiVersion,omitempty"`
		Kind       string `json:"kind,omitempty"`
	}
	if err := json.Unmarshal(raw, &meta); err != nil {
		return schema.GroupVersionKind{}, fmt.Errorf("couldn't get version/kind; json parse error: %v", err)
	}
	gv, err := schema.ParseGroupVersion(meta.APIVersion)
	if err != nil {
		return schema.GroupVersionKind{}, err
	}
	return gv.WithKind(meta.Kind), nil
}

// defaultedBy fills what gvk lacks from the target's kind, as the JSON serializer does when it is
// given a target: a missing kind takes the target's; a missing version takes the target's when the
// group is missing too or is the target's.
func defaultedBy(gvk, target schema.GroupVersionKind) schema.GroupVersionKind {
	if gvk.Kind == "" {
		gvk.Kind = target.Kind
	}
	if gvk.Version == "" && (gvk.Group == "" || gvk.Group == target.Group) {
		gvk.Group, gvk.Version = target.Group, target.Version
	}
	return gvk
}

// registered tells whether the extension's scheme knows gvk as its config kind.
func (c Codec) registered(gvk schema.GroupVersionKind) bool {
	if gvk.Group != c.Group || gvk.Kind != c.Kind {
		return false
	}
	if gvk.Version == internalVersion {
		return true
	}
	for _, v := range c.Versions {
		if v == gvk.Version {
			return true
		}
	}
	return false
}

// internalDecode decodes into the internal type, whose Go fields carry no JSON names: apart from
// apiVersion and kind every top-level key is unknown.
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

// missingError is the decoder's error for a missing field of apiVersion and kind, "Object 'Kind'
// is missing in '<raw>'", with raw as the webhook receives it (asReceived). A configuration longer
// than maxQuotedConfig characters is quoted by its start, followed by its length, so that a
// diagnostic never repeats a whole image catalogue.
func missingError(field string, raw []byte) error {
	quoted := asReceived(raw)
	if n := utf8.RuneCountInString(quoted); n > maxQuotedConfig {
		return missingFieldError{field: field, quoted: string([]rune(quoted)[:maxQuotedConfig]) + "…", after: fmt.Sprintf(" (the providerConfig has %d characters)", n)}
	}
	return missingFieldError{field: field, quoted: quoted}
}

// missingFieldError words a missing apiVersion or kind as apimachinery's decoder does.
type missingFieldError struct {
	field, quoted, after string
}

func (e missingFieldError) Error() string {
	return "Object '" + e.field + "' is missing in '" + e.quoted + "'" + e.after
}

// maxQuotedConfig bounds how much of a providerConfig a decoding error quotes.
const maxQuotedConfig = 500

// asReceived is raw as a webhook receives it when the provider writes the profile: the provider
// leaves out null object fields (at every depth) and writes by server-side apply, after which
// gardener-apiserver holds the configuration re-encoded from its unstructured form: compact, the
// keys of every object sorted, a number an int64 when it is one and else a float64, and <, > and &
// escaped. raw itself when it is no JSON.
func asReceived(raw []byte) string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return string(raw)
	}
	b, err := json.Marshal(asApplied(v))
	if err != nil {
		return string(raw)
	}
	return string(b)
}

// asApplied converts a JSON value decoded with UseNumber as asReceived describes: without null
// object fields, a number an int64 when it is one and else a float64.
func asApplied(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			if e == nil {
				delete(v, k)
				continue
			}
			v[k] = asApplied(e)
		}
	case []any:
		for i, e := range v {
			v[i] = asApplied(e)
		}
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i
		}
		if f, err := v.Float64(); err == nil {
			return f
		}
	}
	return v
}

// RuleMeaning is the catalogue's explanation of how an extension's validating webhooks decode.
// prefixes says how they introduce the decoder's message, such as " (prefixed with …)", or is
// empty when they return it as it is.
func (c Codec) RuleMeaning(prefixes string) string {
	return fmt.Sprintf("The providerConfig is decoded strictly: apiVersion `%s/%s`, kind `%s`, no unknown or duplicate fields, field names case-sensitive. "+
		"The validating webhook decodes through Gardener's util.Decode, which requires both apiVersion and kind and names the one missing (kind first): "+
		"`Object 'Kind' is missing in '<providerConfig>'` or `Object 'apiVersion' is missing in '<providerConfig>'`, quoting the providerConfig as "+
		"the webhook received it (compact, keys sorted; this check quotes at most %d characters of it). "+
		"The webhook denies the request with the decoder's message%s, which is no field error; it is reported as an internal error at `spec.providerConfig`.",
		c.Group, c.Versions[0], c.Kind, maxQuotedConfig, prefixes)
}

// MutatorDecodeMeaning is the catalogue's explanation of how the public extensions' mutating
// webhooks decode, which their decoding rules add to Codec.RuleMeaning.
const MutatorDecodeMeaning = "A message that no kind is registered names the extension's scheme, which this check cannot know. " +
	"The mutating webhook decodes first (for a CloudProfile only under capability definitions), into the versioned type, which fills in a missing " +
	"apiVersion and kind, so that its predictions and the merge of a NamespacedCloudProfile's status do not need them; its failure message starts with " +
	"`could not decode providerConfig of cloudProfile` or `… of namespacedCloudProfile spec`."
