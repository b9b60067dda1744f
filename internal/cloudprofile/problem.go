package cloudprofile

import (
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ProblemType is the kind of a finding, named as Kubernetes names the types of field errors.
type ProblemType string

const (
	// Required means a value is missing.
	Required ProblemType = "Required"
	// Invalid means a value is malformed or breaks a rule.
	Invalid ProblemType = "Invalid"
	// Forbidden means a value may not be set, or not set this way.
	Forbidden ProblemType = "Forbidden"
	// Duplicate means a value that must be unique occurs again.
	Duplicate ProblemType = "Duplicate"
	// NotSupported means a value is not one of the allowed values.
	NotSupported ProblemType = "NotSupported"
	// TooLong means a value is too long (reported by Kubernetes' metadata validation).
	TooLong ProblemType = "TooLong"
	// TooMany means a list has too many elements (reported by Kubernetes' metadata validation).
	TooMany ProblemType = "TooMany"
	// Internal means the validation itself failed.
	Internal ProblemType = "Internal"
)

// fieldErrorTypes maps problem types to Kubernetes field error types and back.
var fieldErrorTypes = map[ProblemType]field.ErrorType{
	Required:     field.ErrorTypeRequired,
	Invalid:      field.ErrorTypeInvalid,
	Forbidden:    field.ErrorTypeForbidden,
	Duplicate:    field.ErrorTypeDuplicate,
	NotSupported: field.ErrorTypeNotSupported,
	TooLong:      field.ErrorTypeTooLong,
	TooMany:      field.ErrorTypeTooMany,
	Internal:     field.ErrorTypeInternal,
}

// problemTypeOf returns the problem type of a Kubernetes field error type; unknown types count as
// Invalid.
func problemTypeOf(t field.ErrorType) ProblemType {
	for pt, ft := range fieldErrorTypes {
		if ft == t {
			return pt
		}
	}
	return Invalid
}

// Severity tells whether Gardener rejects the object (error) or accepts it (warning).
type Severity int

const (
	// SeverityError is a finding for which Gardener rejects the object.
	SeverityError Severity = iota
	// SeverityWarning is a finding Gardener accepts but a user should know about.
	SeverityWarning
)

// Problem is one finding of a rule: where, what kind, and why.
type Problem struct {
	// Rule is the identifier of the rule in the catalogue (Rules), e.g. "C-3".
	Rule     string
	Type     ProblemType
	Severity Severity
	Path     Path
	// BadValue is the offending value as Gardener reports it, nil when Gardener reports none.
	BadValue any
	// Detail explains the problem, in Gardener's words where Gardener has words for it.
	Detail string
	// Repeats is how many more times Gardener reports this same finding (same path, type, value
	// and detail), such as one C-8 error per other supported version of a minor: a rule counts
	// them instead of building each, so that its cost stays linear in the entries.
	Repeats int
}

// Error renders the problem as gardener-apiserver renders a field error, e.g.
// `spec.type: Required value: must provide a provider type`.
func (p Problem) Error() string {
	return p.FieldError().Error()
}

// FieldError returns the problem as the Kubernetes field error gardener-apiserver reports.
func (p Problem) FieldError() *field.Error {
	t, ok := fieldErrorTypes[p.Type]
	if !ok {
		t = field.ErrorTypeInvalid
	}
	return &field.Error{Type: t, Field: p.Path.Field(), BadValue: p.BadValue, Detail: p.Detail}
}

// Problems is a list of findings.
type Problems []Problem

// Count is how many findings Gardener reports for ps: each problem once and its Repeats.
func (ps Problems) Count() int {
	n := len(ps)
	for _, p := range ps {
		n += p.Repeats
	}
	return n
}

// Errors returns the findings for which Gardener rejects the object.
func (ps Problems) Errors() Problems {
	return ps.withSeverity(SeverityError)
}

// HasErrors tells whether Gardener rejects the object for one of the findings, without copying
// them as Errors does.
func (ps Problems) HasErrors() bool {
	return slices.ContainsFunc(ps, func(p Problem) bool { return p.Severity == SeverityError })
}

// Warnings returns the findings Gardener accepts.
func (ps Problems) Warnings() Problems {
	return ps.withSeverity(SeverityWarning)
}

func (ps Problems) withSeverity(s Severity) Problems {
	var out Problems
	for _, p := range ps {
		if p.Severity == s {
			out = append(out, p)
		}
	}
	return out
}

// Error joins all findings into one message, one per line.
func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.Error()
	}
	return strings.Join(lines, "\n")
}

// Constructors of problems, mirroring Kubernetes' field.Required, field.Invalid, ... (Required and
// Forbidden carry the bad value "" as Kubernetes' constructors do).

// required is Kubernetes' field.Required.
func required(rule string, p Path, detail string) Problem {
	return Problem{Rule: rule, Type: Required, Path: p, BadValue: "", Detail: detail}
}

// forbidden is Kubernetes' field.Forbidden.
func forbidden(rule string, p Path, detail string) Problem {
	return Problem{Rule: rule, Type: Forbidden, Path: p, BadValue: "", Detail: detail}
}

// invalid is Kubernetes' field.Invalid.
func invalid(rule string, p Path, bad any, detail string) Problem {
	return Problem{Rule: rule, Type: Invalid, Path: p, BadValue: bad, Detail: detail}
}

// duplicate is Kubernetes' field.Duplicate.
func duplicate(rule string, p Path, bad any) Problem {
	return Problem{Rule: rule, Type: Duplicate, Path: p, BadValue: bad}
}

// notSupported is Kubernetes' field.NotSupported (see notSupportedDetail).
func notSupported[T ~string](rule string, p Path, bad any, supported []T) Problem {
	return Problem{Rule: rule, Type: NotSupported, Path: p, BadValue: bad, Detail: notSupportedDetail(supported)}
}

// notSupportedDetail renders the supported values as Kubernetes does: `supported values: "a",
// "b"`, or no detail at all when the list is empty.
func notSupportedDetail[T ~string](supported []T) string {
	if len(supported) == 0 {
		return ""
	}
	quoted := make([]string, len(supported))
	for i, v := range supported {
		quoted[i] = strconv.Quote(string(v))
	}
	return "supported values: " + strings.Join(quoted, ", ")
}

// warning is a finding Gardener accepts; it reports the rule as Invalid.
func warning(rule string, p Path, bad any, detail string) Problem {
	return Problem{Rule: rule, Type: Invalid, Severity: SeverityWarning, Path: p, BadValue: bad, Detail: detail}
}

// withRulePrefix names the context rule in front of the rule of every problem, e.g. "K-4/C-5".
func withRulePrefix(prefix string, ps Problems) Problems {
	for i := range ps {
		ps[i].Rule = prefix + "/" + ps[i].Rule
	}
	return ps
}

// fromFieldErrors turns the field errors of an apimachinery validator that was called with
// base.field into problems. The part of each error's field path below base becomes attribute
// steps: ".name" a snake_case attribute, "[3]" an index, "[key]" a map key.
func fromFieldErrors(rule string, base Path, errs field.ErrorList) Problems {
	ps := make(Problems, 0, len(errs))
	prefix := base.Field()
	for _, e := range errs {
		p := base
		if suffix, ok := strings.CutPrefix(e.Field, prefix); ok {
			p = appendFieldSuffix(base, suffix)
		}
		ps = append(ps, Problem{Rule: rule, Type: problemTypeOf(e.Type), Path: p, BadValue: e.BadValue, Detail: e.Detail})
	}
	return ps
}

// appendFieldSuffix appends a rendered field path suffix such as ".matchExpressions[0].key".
func appendFieldSuffix(p Path, suffix string) Path {
	for suffix != "" {
		switch suffix[0] {
		case '.':
			end := strings.IndexAny(suffix[1:], ".[")
			if end < 0 {
				end = len(suffix) - 1
			}
			p = p.Child(suffix[1 : end+1])
			suffix = suffix[end+1:]
		case '[':
			end := strings.IndexByte(suffix, ']')
			if end < 0 {
				return p.FieldOnly(suffix)
			}
			sub := suffix[1:end]
			if n, err := strconv.Atoi(sub); err == nil && n >= 0 && strconv.Itoa(n) == sub {
				p = p.Index(n)
			} else {
				p = p.Key(sub)
			}
			suffix = suffix[end+1:]
		default:
			return p.FieldOnly(suffix)
		}
	}
	return p
}
