package provider

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
	"github.com/gardener-community/terraform-provider-gardener/internal/tfvalue"
)

// The diagnostics of the server checks at plan (plan_server_check.go), in the form of
// diagnostics_problems.go: a summary in words, a detail that starts with the attribute, quotes the Garden and
// ends with what to do.

// serverChecksSkippedOnce is the warning that server checks were skipped, the first time it is
// asked for (once per provider configuration and run); nil afterwards.
func (d *providerData) serverChecksSkippedOnce(err error) diag.Diagnostics {
	var diags diag.Diagnostics
	d.serverChecksNotice.Do(func() {
		diags.AddWarning(serverChecksSkipped, fmt.Sprintf("This plan could not ask the Garden to check the planned objects with a "+
			"dry-run apply, so it relies on the provider's offline rules (Gardener %s): admission webhooks of provider extensions, "+
			"the Garden's feature gates and Gardener version are checked only at apply. Said once per run.\n\n%s\n\nTo fix: %s, or set "+
			"server_checks = false in the provider block to plan offline without this warning.", d.followedRelease(), skipReason(err), skipFix(err)))
	})
	return diags
}

// skipFix says what lets the Garden check the next plan.
func skipFix(err error) string {
	if errors.Is(err, errNotKnownYet) {
		return "nothing needs fixing: the apply knows the settings and the Garden checks each write then"
	}
	switch kube.KindOf(err) {
	case kube.KindForbidden:
		return "a dry run needs the RBAC verbs of the write (patch, and create for new objects) although it writes nothing; grant them"
	case kube.KindUnauthorized:
		return "refresh the credentials of the Garden cluster (token, client certificate or exec plugin)"
	case kube.KindUnreachable:
		return "check that the Garden's API server can be reached from here (host or the kubeconfig's server, proxy_url, the network)"
	case kube.KindAPIUnavailable:
		return "check that the Garden's gardener-apiserver is running and serves core.gardener.cloud/v1beta1"
	}
	return "make the Garden reachable with the provider's settings (the reason above)"
}

// skipReason says why the Garden could not check the plan.
func skipReason(err error) string {
	switch kube.KindOf(err) {
	case kube.KindForbidden:
		return "The credentials may not write the object (read-only credentials): " + err.Error()
	case kube.KindUnreachable, kube.KindAPIUnavailable:
		return "The Garden cannot be reached: " + err.Error()
	}
	return err.Error()
}

// existsAtPlanWarning says that a create finds its name taken (existing, as read from the Garden,
// when it could be read). A plan that replaces the object (destroys it first) creates it anew, so this is not an
// error at plan; any other create fails.
func existsAtPlanWarning(ref objectRef, existing metav1.Object) diag.Diagnostic {
	about := ""
	if existing != nil {
		about = fmt.Sprintf(" (created %s, uid %s; field managers: %s)", existing.GetCreationTimestamp().UTC().Format(time.RFC3339),
			existing.GetUID(), managersOf(existing))
	}
	return diag.NewWarningDiagnostic(ref.kind+" already exists",
		fmt.Sprintf("%s already exists in the Garden cluster%s. This resource creates new objects only: unless this plan destroys "+
			"the object first (a replacement), the apply fails with \"already exists\" and changes nothing.\n\nTo fix: import the "+
			"object (an import block with id = %q), or set adopt_existing = true when this configuration is meant to take it over.",
			ref, about, ref.importID))
}

// rejectedAtPlan puts the Garden's rejection on the attributes it names: one error per field,
// or one for the object when it names none. release is the one the offline rules followed.
func rejectedAtPlan(err error, spec tftypes.Value, offline offlineErrors, release cloudprofile.Release) diag.Diagnostics {
	verdict := fmt.Sprintf("The provider's offline rules (Gardener %s) accept this value, but the Garden rejects it: it may run another "+
		"Gardener version, other feature gates, or admission webhooks of provider extensions. Nothing was written (dry run).", release)
	if offline.rejected() {
		verdict = "The offline rules reject this object too (see the other errors). Nothing was written (dry run)."
	}
	fix := "To fix: change the value so that the Garden accepts it (see the message above), or ask the owner of the webhook or " +
		"the Garden's administrators what it expects."
	var diags diag.Diagnostics
	reported := map[string]bool{}
	for _, f := range rejectedFields(err) {
		if offline.repeat(f.quoted()) {
			continue // an offline error says it already, on the attribute and with the rule
		}
		steps := stepsThrough(spec).field(f.field)
		where := describeAttribute(steps, spec)
		if reported[where.path+"\x00"+f.message] {
			continue // a message that names a field twice
		}
		reported[where.path+"\x00"+f.message] = true
		detail := fmt.Sprintf("%s\n\nGarden (dry-run apply at plan): %s\n\n%s\n\n%s", orWhole(where.path), f.message, verdict, fix)
		summary := "The Garden rejects this value"
		if where.entry != "" {
			summary += " (" + where.entry + ")"
		}
		if len(steps) == 0 {
			diags.AddError(summary, detail)
			continue
		}
		diags.AddAttributeError(attributePath(steps), summary, detail)
	}
	return diags
}

// orWhole is the attribute path of a diagnostic, or what stands for the whole object.
func orWhole(attribute string) string {
	if attribute == "" {
		return "(the whole object)"
	}
	return attribute
}

// rejectedField is one field the server named with its message; fromCause tells that the field
// came from a cause of the Status (whose message leaves the field out), not from the message.
type rejectedField struct {
	field, message string
	fromCause      bool
}

// quoted is the rejection as Gardener words a field error, as the offline errors quote it.
func (f rejectedField) quoted() string {
	if f.fromCause {
		return f.field + ": " + f.message
	}
	return f.message
}

// rejectedFields lists the fields of a rejection: the server's causes, else the field paths its
// message names (admission webhooks usually answer with a message only), else the object.
func rejectedFields(err error) []rejectedField {
	var kerr *kube.Error
	if errors.As(err, &kerr) {
		var out []rejectedField
		for _, c := range kerr.Causes {
			if c.Field != "" {
				out = append(out, rejectedField{field: c.Field, message: c.Message, fromCause: true})
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	message := failureMessage(err)
	var out []rejectedField
	for _, field := range fieldPathsIn(message) {
		out = append(out, rejectedField{field: field, message: message})
	}
	if len(out) == 0 {
		out = append(out, rejectedField{message: message})
	}
	return out
}

// objectValues are the parts of one side of a plan that its diagnostics quote.
type objectValues struct{ spec, metadata tftypes.Value }

// conflictWarnings are the warnings of an update whose apply would conflict with other field
// managers: one per manager, on its first field, naming each field with the value the Garden holds
// (the refreshed prior state) and the one the plan sets back, and how to go on.
func conflictWarnings(err error, planned, prior objectValues) diag.Diagnostics {
	var kerr *kube.Error
	if !errors.As(err, &kerr) || len(kerr.Causes) == 0 {
		return diag.Diagnostics{diag.NewWarningDiagnostic("Conflict with another field manager", fmt.Sprintf(
			"The apply would conflict with another field manager: %v\n\n%s", err, conflictChoices))}
	}
	type managerFields struct {
		first []cloudprofile.Step
		lines []string
	}
	byManager := map[string]*managerFields{}
	plannedSteps, priorSteps := stepsThrough(planned.spec), stepsThrough(prior.spec)
	for _, c := range kerr.Causes {
		manager, ok := conflictManager(c.Message)
		if !ok {
			manager = "another field manager"
		}
		m := byManager[manager]
		if m == nil {
			m = &managerFields{}
			byManager[manager] = m
		}
		steps := plannedSteps.field(c.Field)
		if m.first == nil {
			m.first = steps
		}
		m.lines = append(m.lines, fmt.Sprintf("  - %s: %s in the Garden, %s planned", orWhole(describeAttribute(steps, planned.spec).path),
			describeTerraformValue(valueAtSteps(priorSteps.field(c.Field), prior)), describeTerraformValue(valueAtSteps(steps, planned))))
	}
	var diags diag.Diagnostics
	for _, manager := range slices.Sorted(maps.Keys(byManager)) {
		m := byManager[manager]
		summary := fmt.Sprintf("Drift: field manager %q changed %s this plan sets back", manager, countOf(len(m.lines), "field", "fields"))
		detail := fmt.Sprintf("Field manager %q owns these fields with other values than the configuration:\n%s\n\n%s",
			manager, strings.Join(m.lines, "\n"), conflictChoices)
		if len(m.first) == 0 {
			diags.AddWarning(summary, detail)
			continue
		}
		diags.AddAttributeWarning(attributePath(m.first), summary, detail)
	}
	return diags
}

// conflictChoices says how to go on with a plan whose apply would conflict.
const conflictChoices = "The apply will fail with a conflict (nothing is written) unless you choose: set force_conflicts = true to " +
	"take the fields over and set them back; leave them to the other manager by removing them from the configuration; or keep " +
	"their values by writing them into the configuration (terraform apply -refresh-only records them in the state first)."

// valueAtSteps is the value of the object at the steps of an attribute of its spec or metadata,
// null where the steps lead nowhere.
func valueAtSteps(steps []cloudprofile.Step, object objectValues) tftypes.Value {
	if len(steps) == 0 || steps[0].Kind != cloudprofile.StepAttribute {
		return tftypes.NewValue(tftypes.DynamicPseudoType, nil)
	}
	var value tftypes.Value
	switch steps[0].Name {
	case "spec":
		value = object.spec
	case "metadata":
		value = object.metadata
	default:
		return tftypes.NewValue(tftypes.DynamicPseudoType, nil)
	}
	for _, s := range steps[1:] {
		switch s.Kind {
		case cloudprofile.StepAttribute:
			value = tfvalue.Attribute(value, s.Name)
		case cloudprofile.StepIndex:
			value = tfvalue.Element(value, s.Index)
		case cloudprofile.StepKey:
			value = elementOfMap(value, s.Key)
		default:
			return tftypes.NewValue(tftypes.DynamicPseudoType, nil)
		}
	}
	return value
}

// conflictManager reads the manager of a conflict cause: `conflict with "team-a" using ...`.
func conflictManager(message string) (string, bool) {
	_, rest, ok := strings.Cut(message, `conflict with "`)
	if !ok {
		return "", false
	}
	name, _, ok := strings.Cut(rest, `"`)
	return name, ok && name != ""
}

const serverChecksSkipped = "Server checks skipped"
