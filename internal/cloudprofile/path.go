package cloudprofile

import (
	"strconv"
	"strings"
	"unicode"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// StepKind tells what a Step of an attribute path selects.
type StepKind int

const (
	// StepAttribute selects a named attribute.
	StepAttribute StepKind = iota
	// StepIndex selects an element of a list by position.
	StepIndex
	// StepKey selects an element of a map by key.
	StepKey
)

// Step is one step of a Terraform attribute path: an attribute name, a list index or a map key.
type Step struct {
	Kind  StepKind
	Name  string
	Index int
	Key   string
}

// Path is where a Problem lies, kept twice: as Gardener's field path (rendered exactly as
// gardener-apiserver reports it) and as the steps of the Terraform attribute that holds the value.
// The two usually correspond step by step; where Gardener reports a literal path that names no real
// field (for example "spec.kubernetes.versions[].expirationDate"), the attribute steps still point
// at the attribute a user has to change.
type Path struct {
	field *field.Path
	steps []Step
}

// NewPath starts a path at a top-level field; the attribute name is the field name in snake_case.
func NewPath(name string) Path {
	return Path{field: field.NewPath(name), steps: []Step{{Kind: StepAttribute, Name: SnakeCase(name)}}}
}

// Child appends a field whose attribute name is the field name in snake_case.
func (p Path) Child(name string) Path {
	return p.ChildAs(name, SnakeCase(name))
}

// ChildAs appends a field whose attribute has another name than SnakeCase(name).
func (p Path) ChildAs(name, attribute string) Path {
	return Path{field: p.field.Child(name), steps: p.with(Step{Kind: StepAttribute, Name: attribute})}
}

// Index appends a list index.
func (p Path) Index(i int) Path {
	return Path{field: p.field.Index(i), steps: p.with(Step{Kind: StepIndex, Index: i})}
}

// Key appends a map key.
func (p Path) Key(k string) Path {
	return Path{field: p.field.Key(k), steps: p.with(Step{Kind: StepKey, Key: k})}
}

// ChildKey appends a name that Gardener renders as a field but that is a map key in Terraform, as
// the capability names inside "capabilityFlavors[0].architecture" or "capabilities.architecture".
func (p Path) ChildKey(name string) Path {
	return Path{field: p.field.Child(name), steps: p.with(Step{Kind: StepKey, Key: name})}
}

// FieldOnly appends to Gardener's field path only, for literal names that Gardener reports but that
// are no attribute of their own (such as "versions[]" or "capabilities.architecture").
func (p Path) FieldOnly(name string) Path {
	return Path{field: p.field.Child(name), steps: p.steps}
}

// AttributeOnly appends attribute steps without changing Gardener's field path.
func (p Path) AttributeOnly(steps ...Step) Path {
	return Path{field: p.field, steps: append(p.cloneSteps(), steps...)}
}

// WithAttributeSteps returns the path with other Terraform attribute steps and the same field path,
// for an adapter whose attributes address an entry otherwise than by position.
func (p Path) WithAttributeSteps(steps []Step) Path {
	return Path{field: p.field, steps: steps}
}

// Field renders Gardener's field path, e.g. "spec.machineImages[0].versions[1].cri".
func (p Path) Field() string {
	if p.field == nil {
		return ""
	}
	return p.field.String()
}

// Steps returns a copy of the Terraform attribute steps.
func (p Path) Steps() []Step {
	return p.cloneSteps()
}

// Attribute renders the Terraform attribute path, e.g. "spec.machine_images[0].versions[1].cri".
func (p Path) Attribute() string {
	var b strings.Builder
	for i, s := range p.steps {
		switch s.Kind {
		case StepAttribute:
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.Name)
		case StepIndex:
			b.WriteString("[" + strconv.Itoa(s.Index) + "]")
		case StepKey:
			b.WriteString("[" + strconv.Quote(s.Key) + "]")
		}
	}
	return b.String()
}

func (p Path) with(s Step) []Step {
	return append(p.cloneSteps(), s)
}

func (p Path) cloneSteps() []Step {
	out := make([]Step, len(p.steps), len(p.steps)+1)
	copy(out, p.steps)
	return out
}

// SnakeCase turns a JSON field name such as "kubeletVersionConstraint" into the attribute name
// "kubelet_version_constraint".
func SnakeCase(name string) string {
	if strings.IndexFunc(name, unicode.IsUpper) < 0 {
		return name
	}
	var b strings.Builder
	for i, r := range name {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
