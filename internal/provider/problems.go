package provider

import (
	"fmt"

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

func problemSummary(p cloudprofile.Problem) string {
	if p.Severity == cloudprofile.SeverityWarning {
		return "Gardener accepts this, but: " + string(p.Type)
	}
	return fmt.Sprintf("Gardener will reject this: %s", p.Type)
}

// problemDetail says what Gardener says, where it says it, and which rule it is.
func problemDetail(p cloudprofile.Problem) string {
	d := p.Error()
	if p.Rule != "" {
		d += fmt.Sprintf("\n\n(Gardener rule %s; see the Troubleshooting guide.)", p.Rule)
	}
	return d
}
