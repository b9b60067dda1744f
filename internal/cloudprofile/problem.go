package cloudprofile

import (
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

// Errors returns the findings for which Gardener rejects the object.
func (ps Problems) Errors() Problems {
	return ps.withSeverity(SeverityError)
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
