package cloudprofile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Comparisons of what Gardener's controllers wrote to status with what this package computes.

// StatusInSync tells whether a CloudProfile status is exactly what Gardener's CloudProfile controller
// of DefaultRelease writes for spec at the instant at (StatusAt), compared as JSON.
func StatusInSync(spec gardencorev1beta1.CloudProfileSpec, status gardencorev1beta1.CloudProfileStatus, at time.Time) bool {
	return StatusInSyncFor(spec, status, Options{Now: at})
}

// StatusInSyncFor is StatusInSync for the release under opts (Options.Release) at opts.Now: the
// status must be StatusFor, so the empty status before v1.149.0.
func StatusInSyncFor(spec gardencorev1beta1.CloudProfileSpec, status gardencorev1beta1.CloudProfileStatus, opts Options) bool {
	want, err1 := json.Marshal(StatusFor(spec, opts))
	got, err2 := json.Marshal(status)
	return err1 == nil && err2 == nil && bytes.Equal(want, got)
}

// Reasons of a NamespacedStatusSync result (also the reasons of the StatusInSync condition).
const (
	ReasonStatusMatchesMerge    = "StatusMatchesMerge"
	ReasonGenerationNotObserved = "GenerationNotObserved"
	ReasonStatusDiffers         = "StatusDiffers"
)

// NamespacedStatusSync is the result of comparing a NamespacedCloudProfile's status with the
// local merge.
type NamespacedStatusSync struct {
	InSync bool
	// Reason is ReasonStatusMatchesMerge, ReasonGenerationNotObserved or ReasonStatusDiffers.
	Reason  string
	Message string
}

// CompareNamespacedStatus tells whether Gardener's NamespacedCloudProfile controller has rendered
// the object's current generation and its status.cloudProfileSpec equals merged, the local merge
// of the parent's spec and ncpSpec:
//
//   - status.observedGeneration must equal metadata.generation (generation);
//   - the two specs are compared as JSON, with every `architectures` list treated as a set (Gardener
//     derives some from sets, in random order);
//   - providerConfig: when the NamespacedCloudProfile sets one, the provider extension's mutator
//     merges it into the status (MergeOptions documents this), which core's merge does not model.
//     configMerged tells that merged's providerConfig holds that merge (the caller knows the
//     extension): then it is compared with ProviderConfigDifference, as the mutators write lists
//     in random order. Else a providerConfig of the NamespacedCloudProfile leaves providerConfig
//     out of the comparison.
func CompareNamespacedStatus(generation int64, ncpSpec gardencorev1beta1.NamespacedCloudProfileSpec, status gardencorev1beta1.NamespacedCloudProfileStatus, merged gardencorev1beta1.CloudProfileSpec, configMerged bool) NamespacedStatusSync {
	if status.ObservedGeneration != generation {
		return NamespacedStatusSync{Reason: ReasonGenerationNotObserved,
			Message: fmt.Sprintf("status.observedGeneration is %d but metadata.generation is %d: Gardener's controller has not rendered the current spec yet", status.ObservedGeneration, generation)}
	}
	diff := SpecDifference(merged, status.CloudProfileSpec, ncpSpec.ProviderConfig != nil || configMerged)
	if diff == "" && configMerged {
		diff = ProviderConfigDifference(merged.ProviderConfig, status.CloudProfileSpec.ProviderConfig)
	}
	if diff != "" {
		return NamespacedStatusSync{Reason: ReasonStatusDiffers,
			Message: "status.cloudProfileSpec differs from the local merge of the parent and the namespaced profile at " + diff}
	}
	return NamespacedStatusSync{InSync: true, Reason: ReasonStatusMatchesMerge,
		Message: fmt.Sprintf("status.cloudProfileSpec of generation %d equals the local merge", generation)}
}

// ProviderConfigDifference compares two providerConfigs as JSON, with every list whose entries
// are all objects with a string `name` (or else all with a string `version`) sorted by it (stable
// sort): the provider extensions' mutators write images, versions and machine types in random
// order. It returns "" when they are equal, else the JSON path of the first difference.
func ProviderConfigDifference(a, b *runtime.RawExtension) string {
	va, errA := decodedConfig(a)
	vb, errB := decodedConfig(b)
	if errA != nil || errB != nil {
		return "providerConfig (not JSON)"
	}
	return firstDifference(sortKeyedLists(va), sortKeyedLists(vb), "providerConfig")
}

// decodedConfig decodes a providerConfig's JSON; nil for none.
func decodedConfig(c *runtime.RawExtension) (any, error) {
	if c == nil {
		return nil, nil
	}
	raw := c.Raw
	if len(raw) == 0 && c.Object != nil {
		var err error
		if raw, err = json.Marshal(c.Object); err != nil {
			return nil, err
		}
	}
	var v any
	return v, json.Unmarshal(raw, &v)
}

// sortKeyedLists sorts, in place, every list of objects that all have a string "name", or else all
// a string "version", by that key.
func sortKeyedLists(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = sortKeyedLists(e)
		}
	case []any:
		for i, e := range t {
			t[i] = sortKeyedLists(e)
		}
		for _, key := range []string{"name", "version"} {
			if allHaveString(t, key) {
				sort.SliceStable(t, func(i, j int) bool { return t[i].(map[string]any)[key].(string) < t[j].(map[string]any)[key].(string) })
				break
			}
		}
	}
	return v
}

// allHaveString tells whether every entry of list is an object with a string value at key.
func allHaveString(list []any, key string) bool {
	for _, e := range list {
		m, ok := e.(map[string]any)
		if !ok {
			return false
		}
		if _, ok := m[key].(string); !ok {
			return false
		}
	}
	return true
}

// SpecDifference compares two CloudProfile specs as JSON, treating `architectures` lists as sets
// and, when ignoreProviderConfig, leaving providerConfig out. It returns "" when they are equal,
// else the JSON path of the first difference (such as `machineTypes[1].cpu`).
func SpecDifference(a, b gardencorev1beta1.CloudProfileSpec, ignoreProviderConfig bool) string {
	if sameJSON(a, b) {
		return "" // equal as written, so equal once normalized too
	}
	ja, errA := normalizedSpecJSON(a, ignoreProviderConfig)
	jb, errB := normalizedSpecJSON(b, ignoreProviderConfig)
	if errA != nil || errB != nil {
		return "spec (not encodable)"
	}
	return firstDifference(ja, jb, "")
}

// sameJSON tells whether two specs encode to the same JSON bytes: the common case of a status in
// sync, decided without decoding and normalizing both, and without encoding them when they are
// equal values.
func sameJSON(a, b gardencorev1beta1.CloudProfileSpec) bool {
	if reflect.DeepEqual(a, b) {
		return true // equal values encode to equal bytes
	}
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}

func normalizedSpecJSON(spec gardencorev1beta1.CloudProfileSpec, ignoreProviderConfig bool) (any, error) {
	raw, err := json.Marshal(spec)
	if err != nil {
		return nil, err
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	if m, ok := v.(map[string]any); ok && ignoreProviderConfig {
		delete(m, "providerConfig")
	}
	return sortArchitectureLists(v), nil
}

// sortArchitectureLists sorts every list of strings found under the key "architectures".
func sortArchitectureLists(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if list, ok := e.([]any); ok && k == "architectures" {
				sort.SliceStable(list, func(i, j int) bool { return fmt.Sprint(list[i]) < fmt.Sprint(list[j]) })
				continue
			}
			t[k] = sortArchitectureLists(e)
		}
	case []any:
		for i, e := range t {
			t[i] = sortArchitectureLists(e)
		}
	}
	return v
}

// firstDifference returns the path of the first difference between two decoded JSON values, or "".
func firstDifference(a, b any, p string) string {
	switch ta := a.(type) {
	case map[string]any:
		tb, ok := b.(map[string]any)
		if !ok {
			return pathOrRoot(p)
		}
		keys := make([]string, 0, len(ta)+len(tb))
		for k := range ta {
			keys = append(keys, k)
		}
		for k := range tb {
			if _, ok := ta[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			child := k
			if p != "" {
				child = p + "." + k
			}
			if d := firstDifference(ta[k], tb[k], child); d != "" {
				return d
			}
		}
		return ""
	case []any:
		tb, ok := b.([]any)
		if !ok {
			return pathOrRoot(p)
		}
		for i := 0; i < len(ta) && i < len(tb); i++ {
			if d := firstDifference(ta[i], tb[i], p+"["+strconv.Itoa(i)+"]"); d != "" {
				return d
			}
		}
		if len(ta) != len(tb) {
			return fmt.Sprintf("%s (%d entries instead of %d)", pathOrRoot(p), len(tb), len(ta))
		}
		return ""
	}
	if !reflect.DeepEqual(a, b) {
		return pathOrRoot(p)
	}
	return ""
}

func pathOrRoot(p string) string {
	if p == "" {
		return "spec"
	}
	return strings.TrimPrefix(p, ".")
}
