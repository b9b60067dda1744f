package provider

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/tfvalue"
)

// Gardener names an entry of a list by its position ("spec.machineTypes[3]"); the resources name
// the entries of a keyed list by their key (spec.machine_types["m5.large"]). This file is the one
// place where a position becomes a key. Positions count in the array the provider writes, so the
// spec's value, read in wire order (spec_order.go), finds the key at each position. Every path of
// a spec attribute that the provider reports (the rules' problems, the API server's field errors
// in a plan's server check and in an apply) goes through specSteps.

// specSteps maps attribute steps through one spec value; it remembers the wire order of the keyed
// lists it met.
type specSteps struct {
	root   specField
	spec   tftypes.Value
	sorted map[string][]string
}

// stepsThrough returns a specSteps for spec, the value of the root attribute "spec" of either
// kind (the kind is told by the value's type); spec may be null or unknown.
func stepsThrough(spec tftypes.Value) *specSteps {
	root := cloudProfileSpecRoot
	if spec.Type() != nil && spec.Type().Equal(namespacedCloudProfileSpecRoot.tfType) {
		root = namespacedCloudProfileSpecRoot
	}
	return &specSteps{root: root, spec: spec, sorted: map[string][]string{}}
}

// inOrders makes s count the positions of the keyed lists of orders in their order (a write that
// kept the Garden's order, see spec_order.go) rather than in the wire order.
func (s *specSteps) inOrders(orders keyOrders) *specSteps {
	for at, keys := range orders {
		s.sorted[at] = keys
	}
	return s
}

// keyed returns steps with the position of each entry of a keyed list replaced by its key. Steps
// the spec's attributes do not lead to (below a string holding JSON, or below an entry that is not
// known) are kept as they are when keepRest, else dropped: the path then ends at the last
// attribute it can name.
func (s *specSteps) keyed(steps []cloudprofile.Step, keepRest bool) []cloudprofile.Step {
	if len(steps) == 0 || steps[0].Kind != cloudprofile.StepAttribute || steps[0].Name != "spec" {
		return steps
	}
	out := make([]cloudprofile.Step, 1, len(steps))
	out[0] = steps[0]
	f, v, selecting := s.root, s.spec, false
	for i, step := range steps[1:] {
		next, ok := s.step(f, v, selecting, step, out)
		if !ok {
			if keepRest && !isKeyedList(f, selecting) && !isEntryKey(f, selecting, step) {
				out = append(out, steps[1+i:]...)
			}
			return out
		}
		out = append(out, next.step)
		f, v, selecting = next.field, next.value, next.selecting
	}
	return out
}

// isKeyedList tells whether the walk stands at a keyed list, where a position that cannot become
// a key must not go on as a position.
func isKeyedList(f specField, selecting bool) bool {
	return selecting && f.kind == kindKeyedObjects
}

// isEntryKey tells whether step names the key of the keyed entry the walk stands at, which the
// resources hold as the entry's key rather than as an attribute: the path ends at the entry.
func isEntryKey(f specField, selecting bool, step cloudprofile.Step) bool {
	return !selecting && f.kind == kindKeyedObjects && step.Kind == cloudprofile.StepAttribute && step.Name == f.key
}

// stepResult is where one step leads.
type stepResult struct {
	step      cloudprofile.Step
	field     specField
	value     tftypes.Value
	selecting bool
}

// step follows one step from the field f with value v, which the steps before lead to;
// selecting tells that f is a list or map whose element the step selects. A StepKey with a Name selects the entry whose attribute Name
// has the value Key (an apply conflict's `[name="x"]`).
func (s *specSteps) step(f specField, v tftypes.Value, selecting bool, step cloudprofile.Step, before []cloudprofile.Step) (stepResult, bool) {
	if !selecting {
		if step.Kind != cloudprofile.StepAttribute || (f.kind != kindObject && !holdsEntries(f)) {
			return stepResult{}, false
		}
		c, ok := f.child(step.Name)
		if !ok {
			return stepResult{}, false
		}
		return stepResult{step: step, field: c, value: tfvalue.Attribute(v, step.Name), selecting: holdsEntries(c)}, true
	}
	switch {
	case f.kind == kindKeyedObjects && step.Kind == cloudprofile.StepIndex:
		key, ok := s.keyAt(f, v, step.Index, before)
		if !ok {
			return stepResult{}, false
		}
		return s.entry(f, v, key), true
	case f.kind == kindKeyedObjects && step.Kind == cloudprofile.StepKey && (step.Name == "" || step.Name == f.key):
		return s.entry(f, v, step.Key), true
	case f.kind == kindObjectList && step.Kind == cloudprofile.StepIndex:
		return stepResult{step: step, field: f, value: tfvalue.Element(v, step.Index)}, true
	case f.kind == kindObjectList && step.Kind == cloudprofile.StepKey && step.Name != "":
		i, ok := indexOfEntry(v, step.Name, step.Key)
		if !ok {
			return stepResult{}, false
		}
		return stepResult{step: cloudprofile.Step{Kind: cloudprofile.StepIndex, Index: i}, field: f, value: tfvalue.Element(v, i)}, true
	case f.kind == kindObjectMap && step.Kind == cloudprofile.StepKey:
		return stepResult{step: cloudprofile.Step{Kind: cloudprofile.StepKey, Key: step.Key}, field: f, value: elementOfMap(v, step.Key)}, true
	}
	return stepResult{}, false
}

// entry is the step to the entry of a keyed list with the given key.
func (s *specSteps) entry(f specField, v tftypes.Value, key string) stepResult {
	return stepResult{step: cloudprofile.Step{Kind: cloudprofile.StepKey, Key: key}, field: f, value: elementOfMap(v, key)}
}

// keyAt is the key of the entry at position i of the keyed list f with value v, which the steps
// at lead to; false when the value is not known or has no such position.
func (s *specSteps) keyAt(f specField, v tftypes.Value, i int, steps []cloudprofile.Step) (string, bool) {
	at := steps[0].Name + renderSteps(steps[1:])
	keys, ok := s.sorted[at]
	if !ok {
		var elems map[string]tftypes.Value
		if v.Type() == nil || !v.IsKnown() || v.IsNull() || v.As(&elems) != nil {
			return "", false
		}
		keys = sortedEntryKeys(f.order, slices.Collect(maps.Keys(elems)))
		s.sorted[at] = keys
	}
	if i < 0 || i >= len(keys) {
		return "", false
	}
	return keys[i], true
}

// holdsEntries tells whether a field is a list or map of objects.
func holdsEntries(f specField) bool {
	return f.kind == kindObjectList || f.kind == kindKeyedObjects || f.kind == kindObjectMap
}

// indexOfEntry finds the position of the entry of a list value whose string attribute name is key.
func indexOfEntry(list tftypes.Value, name, key string) (int, bool) {
	var elements []tftypes.Value
	if list.Type() == nil || !list.IsKnown() || list.IsNull() || list.As(&elements) != nil {
		return 0, false
	}
	for i, e := range elements {
		var got string
		if a := tfvalue.Attribute(e, name); a.IsKnown() && !a.IsNull() && a.As(&got) == nil && got == key {
			return i, true
		}
	}
	return 0, false
}

// elementOfMap returns the element of a known map value at key, or the zero value.
func elementOfMap(v tftypes.Value, key string) tftypes.Value {
	var elems map[string]tftypes.Value
	if v.Type() == nil || !v.IsKnown() || v.IsNull() || v.As(&elems) != nil {
		return tftypes.Value{}
	}
	return elems[key]
}

// renderStep renders a step as it continues an attribute path.
func renderStep(s cloudprofile.Step) string {
	switch s.Kind {
	case cloudprofile.StepIndex:
		return "[" + strconv.Itoa(s.Index) + "]"
	case cloudprofile.StepKey:
		return "[" + strconv.Quote(s.Key) + "]"
	}
	return "." + s.Name
}

// renderSteps renders attribute steps as renderStep does, one after the other.
func renderSteps(steps []cloudprofile.Step) string {
	var b strings.Builder
	for _, s := range steps {
		b.WriteString(renderStep(s))
	}
	return b.String()
}

// problems returns the problems with their attribute paths through the spec's keys.
func (s *specSteps) problems(ps cloudprofile.Problems) cloudprofile.Problems {
	if len(ps) == 0 {
		return ps
	}
	out := make(cloudprofile.Problems, len(ps))
	for i, p := range ps {
		out[i] = p
		out[i].Path = p.Path.WithAttributeSteps(s.keyed(p.Path.Steps(), true))
	}
	return out
}

// field returns the attribute steps of a field path the API server reports, as far as the spec's
// attributes lead; nil when the path is not in metadata or spec.
func (s *specSteps) field(field string) []cloudprofile.Step {
	segments := fieldSegments(field)
	if len(segments) == 0 || segments[0].selects {
		return nil
	}
	switch segments[0].name {
	case "metadata":
		steps := []cloudprofile.Step{{Kind: cloudprofile.StepAttribute, Name: "metadata"}}
		if len(segments) > 1 && !segments[1].selects {
			steps = append(steps, cloudprofile.Step{Kind: cloudprofile.StepAttribute, Name: cloudprofile.SnakeCase(segments[1].name)})
			if key, ok := metadataMapKey(field, segments[1].name); ok {
				steps = append(steps, cloudprofile.Step{Kind: cloudprofile.StepKey, Key: key})
			}
		}
		return steps
	case "spec":
		return s.keyed(stepsOfSegments(segments), false)
	}
	return nil
}

// metadataMapKey is the key of a label or annotation a field path names: everything after
// `.metadata.labels.`, as the API server writes a key with dots and slashes as it is
// (.metadata.labels.team.example.com/owner).
func metadataMapKey(field, name string) (string, bool) {
	if name != "labels" && name != "annotations" {
		return "", false
	}
	key, ok := strings.CutPrefix(strings.TrimPrefix(field, "."), "metadata."+name+".")
	return key, ok && key != ""
}

// stepsOfSegments turns field path segments into attribute steps: a name into its attribute, a
// position into an index, a selector `[name="x"]` into a StepKey with that Name and Key.
func stepsOfSegments(segments []fieldSegment) []cloudprofile.Step {
	out := make([]cloudprofile.Step, 0, len(segments))
	for _, seg := range segments {
		if !seg.selects {
			out = append(out, cloudprofile.Step{Kind: cloudprofile.StepAttribute, Name: cloudprofile.SnakeCase(seg.name)})
			continue
		}
		if i, err := strconv.Atoi(seg.selector); err == nil && i >= 0 {
			out = append(out, cloudprofile.Step{Kind: cloudprofile.StepIndex, Index: i})
			continue
		}
		name, raw, ok := strings.Cut(seg.selector, "=")
		value, valueOK := firstSelectorValue(raw)
		if !ok || !valueOK {
			break
		}
		out = append(out, cloudprofile.Step{Kind: cloudprofile.StepKey, Name: cloudprofile.SnakeCase(name), Key: value})
	}
	return out
}

// attributePath converts the rules package's attribute steps into a framework path.
func attributePath(steps []cloudprofile.Step) path.Path {
	var p path.Path
	for i, s := range steps {
		switch {
		case s.Kind == cloudprofile.StepAttribute && i == 0:
			p = path.Root(s.Name)
		case s.Kind == cloudprofile.StepAttribute:
			p = p.AtName(s.Name)
		case s.Kind == cloudprofile.StepIndex:
			p = p.AtListIndex(s.Index)
		case s.Kind == cloudprofile.StepKey:
			p = p.AtMapKey(s.Key)
		}
	}
	return p
}
