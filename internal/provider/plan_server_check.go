package provider

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8stypes "k8s.io/apimachinery/pkg/types"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
	"github.com/gardener-community/terraform-provider-gardener/internal/provider/largevalue"
)

// Server checks at plan: a plan that changes a profile, with a configuration that is fully known,
// asks the Garden itself with one server-side dry-run apply of the planned object (the provider's
// field manager, force only with force_conflicts). The Garden runs everything the offline rules
// cannot know: admission webhooks of provider extensions, its feature gates, its Gardener version.
// Its answer is used in three ways:
//   - accepted: the values the configuration leaves to the Garden (still unknown in the plan) are
//     planned from the object it would store, read as the apply will read it (the owned view);
//   - rejected or in conflict with another field manager: an error at plan on the attribute named,
//     saying plainly that the offline rules accepted it;
//   - accepted although the offline rules rejected it: a warning that the two disagree.
//
// Without permission to write (read-only credentials: a dry run needs the same RBAC verbs as the
// write) or without a reachable Garden, the plan relies on the offline rules and says so once per
// provider configuration and run. server_checks = false turns the checks off. A plan that changes
// nothing makes no request.

const serverChecksSkipped = "Server checks skipped"

// serverCheckKind is what the server check needs of one resource type.
type serverCheckKind struct {
	kind string
	// root is the spec's descriptor (a pointer: the descriptors are prepared in init, after the
	// package's variables are set).
	root *specField
	// dryRun builds the object of the planned metadata and spec (unknown values left out) and
	// dry-run applies it; it returns the spec the state would hold afterwards.
	dryRun func(ctx context.Context, data *providerData, client *kube.Client, meta tftypes.Value, spec tftypes.Value, opts kube.ApplyOptions) (dryRunResult, error)
}

// dryRunResult is the Garden's answer to a dry-run apply.
type dryRunResult struct {
	ref objectRef
	// existed tells that the object was there before (the server answered 200, not 201).
	existed bool
	object  metav1.Object
	// stateSpec is the spec the state would hold after the apply (see setState of the resources).
	stateSpec any
}

// The two resource types' server checks.
var (
	cloudProfileServerCheck           = serverCheckKind{kind: "CloudProfile", root: &cloudProfileSpecRoot, dryRun: dryRunCloudProfile}
	namespacedCloudProfileServerCheck = serverCheckKind{kind: "NamespacedCloudProfile", root: &namespacedCloudProfileSpecRoot, dryRun: dryRunNamespacedCloudProfile}
)

// specCheck checks a changing plan's spec, as the spec planner has it, on the server and returns
// it with the values the Garden fills in.
type specCheck func(a rschema.Attribute, spec tftypes.Value) (tftypes.Value, diag.Diagnostics)

// serverCheckFor is the server check of a changing plan of kind for the spec planner; nil when
// server checks are off. It checks nothing when the configuration is not fully known or the plan
// replaces the object (the plan of the create that follows is checked).
func serverCheckFor(ctx context.Context, data *providerData, kind serverCheckKind, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) specCheck {
	if data == nil || !data.serverChecks {
		return nil
	}
	configSpec := largevalue.Input(ctx, largevalue.Config, specLargePath, req.Config.Raw)
	known := req.Config.Raw.IsFullyKnown() && configSpec.IsFullyKnown()
	return func(a rschema.Attribute, spec tftypes.Value) (tftypes.Value, diag.Diagnostics) {
		// Read when the planner runs, after ModifyPlan: the plan and its diagnostics are complete.
		if !known || len(resp.RequiresReplace) > 0 {
			return spec, nil
		}
		return checkOnServer(ctx, serverCheck{
			data: data, kind: kind, specAttr: a, prior: req.State.Raw, planned: resp.Plan.Raw,
			offlineRejected: resp.Diagnostics.HasError(),
		}, spec)
	}
}

// serverCheck is one plan's check: its inputs as Terraform sent them and the plan so far.
type serverCheck struct {
	data     *providerData
	kind     serverCheckKind
	specAttr rschema.Attribute
	prior    tftypes.Value
	// planned is the framework's plan: its metadata, force_conflicts and adopt_existing.
	planned tftypes.Value
	// offlineRejected tells that the offline checks already reported an error.
	offlineRejected bool
}

// checkOnServer runs the server check of a changing plan (see above) and returns the planned spec
// with the values the Garden fills in, and the diagnostics to add.
func checkOnServer(ctx context.Context, c serverCheck, spec tftypes.Value) (tftypes.Value, diag.Diagnostics) {
	client, err := c.data.Client()
	if err != nil {
		return spec, c.data.serverChecksSkippedOnce(err)
	}
	meta, _ := largevalue.At(c.planned, largevalue.Path{"metadata"})
	result, err := c.kind.dryRun(ctx, c.data, client, meta, spec, c.applyOptions())
	createOnly := c.prior.IsNull() && !boolAttribute(c.planned, "adopt_existing")
	switch {
	case createOnly && kube.KindOf(err) == kube.KindConflict:
		// Only an existing object has owners to conflict with (as in the create itself).
		return spec, diag.Diagnostics{existsAtPlanWarning(result.ref, nil)}
	case err != nil:
		return spec, c.rejection(ctx, err, spec)
	case createOnly && result.existed:
		return spec, diag.Diagnostics{existsAtPlanWarning(result.ref, result.object)}
	}
	var diags diag.Diagnostics
	if c.offlineRejected {
		diags.AddWarning("Offline rules and the Garden disagree", fmt.Sprintf("Gardener v1.149's rules, which the provider checks "+
			"offline, reject this %s (the errors of this plan), but the Garden accepted it in a dry-run apply. The Garden may run "+
			"another Gardener version or other feature gates.\n\nTo fix: follow the errors, or check the Garden's Gardener version "+
			"and feature gates.", result.ref))
	}
	return c.withServerValues(result, spec), diags
}

// applyOptions are those of the apply: force with force_conflicts, and on an update the UID of
// the object in state.
func (c serverCheck) applyOptions() kube.ApplyOptions {
	opts := kube.ApplyOptions{DryRun: true, Force: boolAttribute(c.planned, "force_conflicts")}
	if !c.prior.IsNull() {
		var uid string
		if v, ok := largevalue.At(c.prior, largevalue.Path{"metadata", "uid"}); ok && v.IsKnown() && !v.IsNull() && v.As(&uid) == nil {
			opts.UID = k8stypes.UID(uid)
		}
	}
	return opts
}

// withServerValues fills the values of the planned spec that are unknown with the Garden's.
func (c serverCheck) withServerValues(result dryRunResult, spec tftypes.Value) tftypes.Value {
	stored, diags := flattenSpecTerraform(*c.kind.root, result.stateSpec)
	if diags.HasError() {
		return spec
	}
	filled, _ := fillUnknowns(c.specAttr, spec, stored)
	return filled
}

// rejection turns a failed dry run into diagnostics: the fallback when the Garden cannot check,
// nothing when a NamespacedCloudProfile's parent is created by the same apply, else errors.
func (c serverCheck) rejection(ctx context.Context, err error, spec tftypes.Value) diag.Diagnostics {
	if c.kind.kind == "NamespacedCloudProfile" && parentNotFound(err) {
		tflog.Info(ctx, "parent CloudProfile not found at the server check; Gardener checks against it at apply", map[string]any{"error": err.Error()})
		return nil
	}
	switch kube.KindOf(err) {
	case kube.KindForbidden, kube.KindUnauthorized, kube.KindUnreachable, kube.KindAPIUnavailable:
		return c.data.serverChecksSkippedOnce(err)
	case kube.KindConflict:
		return diag.Diagnostics{conflictAtPlan(err, c.specAttr, spec)}
	case kube.KindInvalid:
		return rejectedAtPlan(err, c.specAttr, spec, c.offlineRejected)
	}
	return diag.Diagnostics{diag.NewWarningDiagnostic("Server check failed",
		fmt.Sprintf("The dry-run apply that checks this plan with the Garden failed, so the plan relies on the provider's offline rules: %v", err))}
}

// parentNotFound recognises Gardener's answer to a NamespacedCloudProfile whose parent does not
// exist (yet: usually the same apply creates it).
func parentNotFound(err error) bool { return parentNotFoundPattern.MatchString(err.Error()) }

// parentNotFoundPattern matches the message of a missing parent CloudProfile.
var parentNotFoundPattern = regexp.MustCompile(`cloudprofile\.core\.gardener\.cloud "[^"]*" not found`)

// serverChecksSkippedOnce is the warning that server checks were skipped, the first time it is
// asked for (once per provider configuration and run); nil afterwards.
func (d *providerData) serverChecksSkippedOnce(err error) diag.Diagnostics {
	var diags diag.Diagnostics
	d.serverChecksNotice.Do(func() {
		diags.AddWarning(serverChecksSkipped, fmt.Sprintf("This plan could not ask the Garden to check the planned objects with a "+
			"dry-run apply, so it relies on the provider's offline rules (Gardener v1.149): admission webhooks of provider extensions, "+
			"the Garden's feature gates and Gardener version are checked only at apply. Said once per run.\n\n%s\n\nTo fix: a dry run "+
			"needs the RBAC verbs of the write (patch, and create for new objects) although it writes nothing; grant them, or set "+
			"server_checks = false in the provider block to plan offline without this warning.", skipReason(err)))
	})
	return diags
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

// existsAtPlanWarning says that a create finds its name taken (existing, when the answer showed
// it). A plan that replaces the object (destroys it first) creates it anew, so this is not an
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
// or one for the object when it names none.
func rejectedAtPlan(err error, specAttr rschema.Attribute, spec tftypes.Value, offlineRejected bool) diag.Diagnostics {
	verdict := "The provider's offline rules (Gardener v1.149) accept this value, but the Garden rejects it: it may run another " +
		"Gardener version, other feature gates, or admission webhooks of provider extensions. Nothing was written (dry run)."
	if offlineRejected {
		verdict = "The offline rules reject this object too (see the other errors). Nothing was written (dry run)."
	}
	fix := "To fix: change the value so that the Garden accepts it (see the message above), or ask the owner of the webhook or " +
		"the Garden's administrators what it expects."
	var diags diag.Diagnostics
	reported := map[string]bool{}
	for _, f := range rejectedFields(err) {
		steps := serverFieldSteps(f.field, specAttr, spec)
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

// rejectedField is one field the server named with its message.
type rejectedField struct{ field, message string }

// rejectedFields lists the fields of a rejection: the server's causes, else the field paths its
// message names (admission webhooks usually answer with a message only), else the object.
func rejectedFields(err error) []rejectedField {
	var kerr *kube.Error
	if errors.As(err, &kerr) {
		var out []rejectedField
		for _, c := range kerr.Causes {
			if c.Field != "" {
				out = append(out, rejectedField{c.Field, c.Message})
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	message := err.Error()
	if kerr != nil {
		message = kerr.Err.Error()
	}
	var out []rejectedField
	for _, field := range fieldPathsIn(message) {
		out = append(out, rejectedField{field, message})
	}
	if len(out) == 0 {
		out = append(out, rejectedField{"", message})
	}
	return out
}

// conflictAtPlan is the one error of an apply that conflicts with other field managers: on the
// first field, naming every field and its manager, suggesting force_conflicts.
func conflictAtPlan(err error, specAttr rschema.Attribute, spec tftypes.Value) diag.Diagnostic {
	var kerr *kube.Error
	errors.As(err, &kerr)
	var lines []string
	var first []cloudprofile.Step
	managers := map[string]bool{}
	if kerr != nil {
		for _, c := range kerr.Causes {
			steps := serverFieldSteps(c.Field, specAttr, spec)
			if first == nil {
				first = steps
			}
			lines = append(lines, fmt.Sprintf("  - %s (%s): %s", orWhole(describeAttribute(steps, spec).path), c.Field, c.Message))
			if m, ok := conflictManager(c.Message); ok {
				managers[m] = true
			}
		}
	}
	names := slices.Sorted(func(yield func(string) bool) {
		for m := range managers {
			if !yield(m) {
				return
			}
		}
	})
	summary := "Conflict with another field manager"
	if len(names) > 0 {
		summary = "Conflict with field manager " + strings.Join(names, ", ")
	}
	detail := fmt.Sprintf("%s\n\nGarden (dry-run apply at plan): %v\n%s\n\nThe apply would fail: other field managers own these "+
		"fields with other values. Nothing was written (dry run).\n\nTo fix: review the other manager's change and configure its "+
		"value, or set force_conflicts = true to take the fields over.",
		orWhole(describeAttribute(first, spec).path), err, strings.Join(lines, "\n"))
	if len(first) == 0 {
		return diag.NewErrorDiagnostic(summary, detail)
	}
	return diag.NewAttributeErrorDiagnostic(attributePath(first), summary, detail)
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

// boolAttribute is a top-level bool attribute of a value; false when null or unknown.
func boolAttribute(v tftypes.Value, name string) bool {
	var b bool
	a := attributeOf(v, name)
	if !a.IsKnown() || a.IsNull() || a.As(&b) != nil {
		return false
	}
	return b
}

// dryRunCloudProfile dry-run applies the planned CloudProfile.
func dryRunCloudProfile(ctx context.Context, data *providerData, client *kube.Client, meta, spec tftypes.Value, opts kube.ApplyOptions) (dryRunResult, error) {
	metadata, err := metadataObject(ctx, clusterMetadataType(), meta)
	if err != nil {
		return dryRunResult{}, err
	}
	desired, _, diags := configuredCloudProfile(ctx, cloudProfileModel{Metadata: metadata}, spec)
	if diags.HasError() {
		return dryRunResult{}, diagnosticsError(diags)
	}
	ref := objectRef{"CloudProfile", desired.Name}
	stored, existed, err := client.AdoptCloudProfile(ctx, desired, opts)
	if err != nil {
		return dryRunResult{ref: ref}, err
	}
	view, err := kube.OwnedViewKeeping(stored, client.FieldManager(), &desired.Spec)
	if err != nil {
		return dryRunResult{}, err
	}
	return dryRunResult{
		ref: ref, existed: existed, object: stored,
		stateSpec: cloudprofile.WithDroppedVersions(view.Spec, desired.Spec, data.now()),
	}, nil
}

// dryRunNamespacedCloudProfile dry-run applies the planned NamespacedCloudProfile.
func dryRunNamespacedCloudProfile(ctx context.Context, data *providerData, client *kube.Client, meta, spec tftypes.Value, opts kube.ApplyOptions) (dryRunResult, error) {
	metadata, err := metadataObject(ctx, namespacedMetadataType(), meta)
	if err != nil {
		return dryRunResult{}, err
	}
	desired, _, diags := configuredNamespacedCloudProfile(ctx, namespacedCloudProfileModel{Metadata: metadata}, spec)
	if diags.HasError() {
		return dryRunResult{}, diagnosticsError(diags)
	}
	ref := namespacedRefOf(desired.Namespace, desired.Name)
	stored, existed, err := client.AdoptNamespacedCloudProfile(ctx, desired, opts)
	if err != nil {
		return dryRunResult{ref: ref}, err
	}
	withoutStatus := *stored
	withoutStatus.Status = gardencorev1beta1.NamespacedCloudProfileStatus{}
	withoutStatus.ManagedFields = slices.DeleteFunc(slices.Clone(stored.ManagedFields), func(e metav1.ManagedFieldsEntry) bool { return e.Subresource == "status" })
	view, err := kube.OwnedViewKeeping(&withoutStatus, client.FieldManager(), &desired.Spec)
	if err != nil {
		return dryRunResult{}, err
	}
	return dryRunResult{
		ref: ref, existed: existed, object: stored,
		stateSpec: cloudprofile.WithDroppedNamespacedVersions(view.Spec, desired.Spec, data.now()),
	}, nil
}

// metadataObject converts the planned metadata into the framework's object value.
func metadataObject(ctx context.Context, typ types.ObjectType, v tftypes.Value) (types.Object, error) {
	value, err := typ.ValueFromTerraform(ctx, v)
	if err != nil {
		return types.Object{}, err
	}
	object, ok := value.(types.Object)
	if !ok {
		return types.Object{}, fmt.Errorf("metadata is a %T, not an object", value)
	}
	return object, nil
}

// diagnosticsError joins the errors of diagnostics into one error.
func diagnosticsError(diags diag.Diagnostics) error {
	var errs []error
	for _, d := range diags.Errors() {
		errs = append(errs, fmt.Errorf("%s: %s", d.Summary(), d.Detail()))
	}
	return errors.Join(errs...)
}
