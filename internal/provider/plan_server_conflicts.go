package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
	"github.com/gardener-community/terraform-provider-gardener/internal/provider/largevalue"
	"github.com/gardener-community/terraform-provider-gardener/internal/tfvalue"
)

// The conflicts of a plan's dry-run apply with other field managers, and what the apply does with
// each, as the plan says (resource_ownership.go carries it to the apply):
//   - fields of creates and updates (kubectl create, edit, patch, replace, client-side apply) of an
//     object the provider's manager has not applied yet: the apply takes them over first, so they
//     are no conflict; the plan's diff shows the change;
//   - fields another manager took from this resource or holds alone (a colleague's kubectl patch,
//     a bot's forced apply): the plan shows them set back with both values and warns, naming the
//     manager; the apply takes exactly these back (kube.SetBack) and fails on any other conflict;
//   - fields another manager shares with this resource (both applied the same value, as two
//     workspaces may), and any conflict of a create: the apply would fail, so the plan does,
//     unless force_conflicts takes them over.

// conflictsAtPlan reads the object the dry run conflicted with and classifies the conflicts
// (planConflicts); the warnings of conflictWarnings where it cannot be read.
func (c serverCheck) conflictsAtPlan(ctx context.Context, err error, result dryRunResult, manager string, planned, priorValues objectValues) diag.Diagnostics {
	live, ok := result.existing(ctx).(runtime.Object)
	if !ok {
		return conflictWarnings(err, planned, priorValues)
	}
	var prior runtime.Object
	if meta, found := tfvalue.At(c.prior, largevalue.Path{"metadata"}); found && !c.prior.IsNull() {
		prior, _ = c.kind.object(ctx, meta, c.priorSpec) // nil: nothing is set back
	}
	return c.planConflicts(err, live, prior, manager, planned, priorValues)
}

// planConflicts classifies the conflicts of the dry run (err) with live, the object as read, into
// the plan's diagnostics, and records the fields the apply sets back. prior is the object of the
// prior state (nil for none): a field is set back only where the state holds the value live
// holds, the one the plan shows. planned and priorValues are the planned and prior spec and metadata.
func (c serverCheck) planConflicts(err error, live, prior runtime.Object, manager string, planned, priorValues objectValues) diag.Diagnostics {
	m, ok := live.(metav1.Object)
	conflicts, cerr := kube.ConflictsOf(err, live, manager)
	if !ok || cerr != nil || len(conflicts) == 0 {
		return conflictWarnings(err, planned, priorValues)
	}
	takenOver := map[string]bool{}
	for _, name := range kube.ImportTakeover(m, manager) {
		takenOver[name] = true
	}
	imported := !kube.HasApplied(m, manager)
	var setBack, changed, shared []kube.Conflict
	for _, cf := range conflicts {
		inState := ""
		if prior != nil {
			inState = kube.FieldValue(prior, cf.Field)
		}
		switch {
		case cf.Update && takenOver[cf.Manager]:
		case cf.Shared || inState == "":
			shared = append(shared, cf)
		case inState == cf.Value:
			setBack = append(setBack, cf)
		default:
			changed = append(changed, cf)
		}
	}
	diags := setBackWarnings(setBack, planned, priorValues, imported)
	diags.Append(changedSinceRead(changed, planned, priorValues, c.force)...)
	diags.Append(sharedConflicts(shared, planned, priorValues, c.force)...)
	var record []kube.SetBack
	for _, cf := range setBack {
		record = append(record, kube.SetBack{Field: cf.Field, Manager: cf.Manager, Value: cf.Value})
	}
	if c.recordPrivate != nil {
		diags.Append(c.recordPrivate(setBackKey, setBackRecord(record))...)
	}
	return diags
}

// byManager groups conflicts by their manager, in the order of the managers' names, each field
// once: its attribute (the first one's is where the diagnostic points) and its line, with the
// value in the Garden (the prior state's, which the plan shows) and the planned one.
func byManager(conflicts []kube.Conflict, planned, prior objectValues) (managers []string, first map[string][]cloudprofile.Step, lines map[string][]string) {
	return byManagerAs(conflicts, planned, prior, "%[1]s: %[2]s in the Garden, %[4]s planned")
}

// byManagerAs is byManager with lines of the format, whose arguments are the attribute, its value
// in the state, in the Garden (as JSON) and planned.
func byManagerAs(conflicts []kube.Conflict, planned, prior objectValues, format string) (managers []string, first map[string][]cloudprofile.Step, lines map[string][]string) {
	first, lines = map[string][]cloudprofile.Step{}, map[string][]string{}
	plannedSteps, priorSteps := stepsThrough(planned.spec), stepsThrough(prior.spec)
	for _, cf := range conflicts {
		steps := plannedSteps.field(cf.Field)
		if _, seen := lines[cf.Manager]; !seen {
			first[cf.Manager] = steps
		}
		where := orWhole(describeAttribute(steps, planned.spec).path)
		if len(steps) == 0 {
			where = strings.TrimPrefix(cf.Field, ".") // a field outside the spec: the API server's name
		}
		lines[cf.Manager] = append(lines[cf.Manager], "  - "+fmt.Sprintf(format, where,
			describeTerraformValue(valueAtSteps(priorSteps.field(cf.Field), prior)), orNone(cf.Value), describeTerraformValue(valueAtSteps(steps, planned))))
	}
	return slices.Sorted(maps.Keys(lines)), first, lines
}

// setBackWarnings say, per manager, which fields the apply takes from it and sets as planned.
func setBackWarnings(conflicts []kube.Conflict, planned, prior objectValues, imported bool) diag.Diagnostics {
	managers, first, lines := byManager(conflicts, planned, prior)
	var diags diag.Diagnostics
	for _, manager := range managers {
		n := countOf(len(lines[manager]), "field", "fields")
		summary := fmt.Sprintf("Drift: field manager %q changed %s this plan sets back", manager, n)
		if imported {
			summary = fmt.Sprintf("Field manager %q owns %s this plan changes", manager, n)
		}
		detail := fmt.Sprintf("Field manager %q owns these fields with other values than the configuration:\n%s\n\n"+
			"The apply takes exactly these fields over from %q and sets them as planned. It writes nothing and fails instead if "+
			"another field changes hands after this plan, or one of these changes again. To leave them to %q, remove them from "+
			"the configuration, or write their values into it (terraform apply -refresh-only records them in the state first).",
			manager, strings.Join(lines[manager], "\n"), manager, manager)
		addOn(&diags, diag.SeverityWarning, first[manager], summary, detail)
	}
	return diags
}

// changedSinceRead are the errors of fields another manager changed after the state was read
// (between a plan and its apply, which plans again): the apply sets back only what its plan
// showed; force_conflicts makes them warnings.
func changedSinceRead(conflicts []kube.Conflict, planned, prior objectValues, force bool) diag.Diagnostics {
	managers, first, lines := byManagerAs(conflicts, planned, prior, "%[1]s: %[2]s in the state, %[3]s in the Garden now, %[4]s planned")
	var diags diag.Diagnostics
	for _, manager := range managers {
		n := countOf(len(lines[manager]), "field", "fields")
		severity, fix := diag.SeverityError, "Nothing was written. To fix: run terraform plan again, review what it shows, and apply that plan."
		if force {
			severity, fix = diag.SeverityWarning, "With force_conflicts = true the apply takes them over and sets them as planned."
		}
		addOn(&diags, severity, first[manager], fmt.Sprintf("Field manager %q changed %s after the plan read them", manager, n),
			fmt.Sprintf("Field manager %q changed these fields after the state was read, so the plan did not show what the "+
				"apply would set back:\n%s\n\n%s",
				manager, strings.Join(lines[manager], "\n"), fix))
	}
	return diags
}

// sharedConflicts are the errors of fields another manager shares with this resource (and of a
// create's conflicts): the apply does not take them unless force_conflicts, which makes them
// warnings.
func sharedConflicts(conflicts []kube.Conflict, planned, prior objectValues, force bool) diag.Diagnostics {
	// The Garden's value as read: the state may not show it.
	managers, first, lines := byManagerAs(conflicts, planned, prior, "%[1]s: %[3]s in the Garden, %[4]s planned")
	var diags diag.Diagnostics
	for _, manager := range managers {
		n := countOf(len(lines[manager]), "field", "fields")
		if force {
			addOn(&diags, diag.SeverityWarning, first[manager], fmt.Sprintf("force_conflicts takes %s over from field manager %q", n, manager),
				fmt.Sprintf("Field manager %q manages these fields too, with other values than the configuration:\n%s\n\n"+
					"With force_conflicts = true the apply takes them over and sets them as planned.", manager, strings.Join(lines[manager], "\n")))
			continue
		}
		addOn(&diags, diag.SeverityError, first[manager], fmt.Sprintf("Conflict with field manager %q on %s", manager, n),
			fmt.Sprintf("Field manager %[1]q manages these fields too, with other values than the configuration:\n%[2]s\n\n"+
				"The apply would fail with a conflict, writing nothing: this resource shares these fields with %[1]q, or they are "+
				"%[1]q's alone and the state does not show them, and the apply takes such fields over only when told to.\n\n"+
				"To fix: set force_conflicts = true "+
				"to take them over in this apply (an argument of the apply only: removing it again plans no change); or write "+
				"%[1]q's values into the configuration; or have %[1]q stop managing them first.", manager, strings.Join(lines[manager], "\n")))
	}
	return diags
}

// orNone is a value as JSON, or "none" for no value.
func orNone(value string) string {
	if value == "" {
		return "none"
	}
	return value
}

// addOn adds a diagnostic on the attribute of steps, or on the resource when there is none.
func addOn(diags *diag.Diagnostics, severity diag.Severity, steps []cloudprofile.Step, summary, detail string) {
	switch {
	case len(steps) == 0 && severity == diag.SeverityError:
		diags.AddError(summary, detail)
	case len(steps) == 0:
		diags.AddWarning(summary, detail)
	case severity == diag.SeverityError:
		diags.AddAttributeError(attributePath(steps), summary, detail)
	default:
		diags.AddAttributeWarning(attributePath(steps), summary, detail)
	}
}
