package cloudprofile

import (
	"fmt"
	"strings"
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
)

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
	// Rule is the identifier of the rule in the semantics document, e.g. "C-3".
	Rule     string
	Type     ProblemType
	Severity Severity
	Path     Path
	// BadValue is the offending value as Gardener reports it, nil when Gardener reports none.
	BadValue any
	// Detail explains the problem, in Gardener's words where Gardener has words for it.
	Detail string
}

// Error renders the problem as gardener-apiserver renders a field error.
func (p Problem) Error() string {
	var msg string
	switch p.Type {
	case Required, Forbidden:
		msg = string(p.Type)
	case Duplicate:
		msg = fmt.Sprintf("Duplicate value: %s", renderValue(p.BadValue))
	case NotSupported:
		msg = fmt.Sprintf("Unsupported value: %s", renderValue(p.BadValue))
	default:
		msg = fmt.Sprintf("Invalid value: %s", renderValue(p.BadValue))
	}
	if p.Detail != "" {
		msg += ": " + p.Detail
	}
	return p.Path.Field() + ": " + msg
}

func renderValue(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%v", v)
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
