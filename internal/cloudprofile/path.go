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
	steps *stepNode
}

// stepNode is the last attribute step of a path and the node of the steps before it: paths that
// grow from one prefix share its nodes, so that thousands of findings under one list hold one step
// each, not a copy of the whole path.
type stepNode struct {
	parent *stepNode
	step   Step
	depth  int
}

// then is the node of the steps of n followed by s.
func (n *stepNode) then(s Step) *stepNode {
	return &stepNode{parent: n, step: s, depth: n.length() + 1}
}

// length is how many steps end at n (none for nil).
func (n *stepNode) length() int {
	if n == nil {
		return 0
	}
	return n.depth
}

// slice returns the steps ending at n, first step first, in a new slice.
func (n *stepNode) slice() []Step {
	out := make([]Step, n.length())
	for i := len(out) - 1; n != nil; i, n = i-1, n.parent {
		out[i] = n.step
	}
	return out
}

// withIndexAt is the steps of n with step k (counted from 0, an index step) selecting index: the
// steps before k stay shared, and so do all of them when step k selects index already.
func (n *stepNode) withIndexAt(k, index int) *stepNode {
	switch {
	case n.length() <= k:
		return n
	case n.depth == k+1 && n.step.Index == index:
		return n
	case n.depth == k+1:
		s := n.step
		s.Index = index
		return n.parent.then(s)
	}
	parent := n.parent.withIndexAt(k, index)
	if parent == n.parent {
		return n
	}
	return parent.then(n.step)
}

// thenAll is the node of the steps of n followed by steps.
func (n *stepNode) thenAll(steps []Step) *stepNode {
	for _, s := range steps {
		n = n.then(s)
	}
	return n
}

// stepsFrom is the node of the steps, nil for none.
func stepsFrom(steps []Step) *stepNode {
	return (*stepNode)(nil).thenAll(steps)
}

// NewPath starts a path at a top-level field; the attribute name is the field name in snake_case.
func NewPath(name string) Path {
	return Path{field: field.NewPath(name), steps: (*stepNode)(nil).then(Step{Kind: StepAttribute, Name: SnakeCase(name)})}
}

// Child appends a field whose attribute name is the field name in snake_case.
func (p Path) Child(name string) Path {
	return p.ChildAs(name, SnakeCase(name))
}

// ChildAs appends a field whose attribute has another name than SnakeCase(name).
func (p Path) ChildAs(name, attribute string) Path {
	return Path{field: p.field.Child(name), steps: p.steps.then(Step{Kind: StepAttribute, Name: attribute})}
}

// Index appends a list index.
func (p Path) Index(i int) Path {
	return Path{field: p.field.Index(i), steps: p.steps.then(Step{Kind: StepIndex, Index: i})}
}

// Key appends a map key.
func (p Path) Key(k string) Path {
	return Path{field: p.field.Key(k), steps: p.steps.then(Step{Kind: StepKey, Key: k})}
}

// ChildKey appends a name that Gardener renders as a field but that is a map key in Terraform, as
// the capability names inside "capabilityFlavors[0].architecture" or "capabilities.architecture".
func (p Path) ChildKey(name string) Path {
	return Path{field: p.field.Child(name), steps: p.steps.then(Step{Kind: StepKey, Key: name})}
}

// FieldOnly appends to Gardener's field path only, for literal names that Gardener reports but that
// are no attribute of their own (such as "versions[]" or "capabilities.architecture").
func (p Path) FieldOnly(name string) Path {
	return Path{field: p.field.Child(name), steps: p.steps}
}

// AttributeOnly appends attribute steps without changing Gardener's field path.
func (p Path) AttributeOnly(steps ...Step) Path {
	return Path{field: p.field, steps: p.steps.thenAll(steps)}
}

// WithAttributeSteps returns the path with other Terraform attribute steps and the same field path,
// for an adapter whose attributes address an entry otherwise than by position.
func (p Path) WithAttributeSteps(steps []Step) Path {
	return Path{field: p.field, steps: stepsFrom(steps)}
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
	return p.steps.slice()
}

// Attribute renders the Terraform attribute path, e.g. "spec.machine_images[0].versions[1].cri".
func (p Path) Attribute() string {
	var b strings.Builder
	for i, s := range p.Steps() {
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
