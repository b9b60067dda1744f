package provider

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// problemDiagnostics turns the rules package's findings into diagnostics on the attributes that
// caused them. Errors are what Gardener would reject; warnings what it accepts.
func problemDiagnostics(problems cloudprofile.Problems) diag.Diagnostics {
	var diags diag.Diagnostics
	for _, p := range problems {
		at := attributePath(p.Path.Steps())
		summary := problemSummary(p)
		detail := problemDetail(p)
		if p.Severity == cloudprofile.SeverityWarning {
			diags.AddAttributeWarning(at, summary, detail)
		} else {
			diags.AddAttributeError(at, summary, detail)
		}
	}
	return diags
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

// problemSummary is the headline of a diagnostic. A warning's headline is the first clause of its
// detail, which names the entry (`Kubernetes version "1.30.5" expires after …`): Terraform folds
// warnings that share a headline into one, which would hide all but the first.
func problemSummary(p cloudprofile.Problem) string {
	if p.Severity == cloudprofile.SeverityWarning {
		return warningHeadline(p.Detail)
	}
	return fmt.Sprintf("Gardener will reject this: %s", p.Type)
}

// warningHeadline returns the first clause of a warning's detail, starting with a capital letter.
func warningHeadline(detail string) string {
	headline, _, _ := strings.Cut(detail, "; ")
	r, size := utf8.DecodeRuneInString(headline)
	return string(unicode.ToUpper(r)) + headline[size:]
}

// maxBadValueRunes bounds how much of a bad value a diagnostic repeats.
const maxBadValueRunes = 100

// problemDetail says what Gardener says, where it says it, and which rule it is. A long bad value
// (a 1 MB label, a whole version object) is shortened: the attribute already says where it is.
func problemDetail(p cloudprofile.Problem) string {
	p.BadValue = shortBadValue(p.BadValue)
	d := p.Error()
	if p.Rule != "" {
		d += fmt.Sprintf("\n\n(Gardener rule %s; see the Troubleshooting guide.)", p.Rule)
	}
	return d
}

// shortBadValue returns v, or for a value longer than maxBadValueRunes when rendered, its start
// with its length.
func shortBadValue(v any) any {
	s, isString := v.(string)
	if !isString {
		raw, err := json.Marshal(v)
		if err != nil || utf8.RuneCount(raw) <= maxBadValueRunes {
			return v
		}
		s = string(raw)
	}
	if utf8.RuneCountInString(s) <= maxBadValueRunes {
		return v
	}
	return fmt.Sprintf("%s… (%d characters)", string([]rune(s)[:maxBadValueRunes*3/5]), utf8.RuneCountInString(s))
}
