package provider

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	k8stypes "k8s.io/apimachinery/pkg/types"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
	"github.com/gardener-community/terraform-provider-gardener/internal/provider/largevalue"
	"github.com/gardener-community/terraform-provider-gardener/internal/tfvalue"
)

// Server checks at plan: a plan that changes a profile, with a configuration that is fully known,
// asks the Garden itself with one server-side dry-run apply of the planned object (the provider's
// field manager, force only with force_conflicts). The Garden runs everything the offline rules
// cannot know: admission webhooks of provider extensions, its feature gates, its Gardener version.
// Its answer is used in three ways:
//   - accepted: the values the configuration leaves to the Garden (still unknown in the plan) are
//     planned from the object it would store, read as the apply will read it (the owned view);
//     a configured value it would store differently is an error (plan_server_changes.go);
//   - rejected: an error at plan on the attribute named, saying plainly that the offline rules
//     accepted it;
//   - in conflict with another field manager (drift): a warning per manager naming each field with
//     both values, as the plan sets them back; the check goes on as if forced, and only the apply
//     fails on the conflict (unless force_conflicts);
//   - accepted although the offline rules rejected it: a warning that the two disagree.
//
// Without permission to write (read-only credentials: a dry run needs the same RBAC verbs as the
// write) or without a reachable Garden, the plan relies on the offline rules and says so once per
// provider configuration and run. server_checks = false turns the checks off. A plan that changes
// nothing makes no request.

// serverCheckKind is what the server check needs of one resource type.
type serverCheckKind struct {
	kind string
	// root is the spec's descriptor (a pointer: the descriptors are prepared in init, after the
	// package's variables are set).
	root *specField
	// dryRun builds the object of the planned metadata and spec (unknown values left out) and
	// dry-run applies it; it returns the spec the state would hold afterwards.
	dryRun func(ctx context.Context, data *providerData, client *kube.Client, meta tftypes.Value, spec tftypes.Value, opts kube.ApplyOptions) (dryRunResult, error)
	// object is the object of a state's metadata and spec.
	object func(ctx context.Context, meta, spec tftypes.Value) (runtime.Object, error)
}

// dryRunResult is the Garden's answer to a dry-run apply.
type dryRunResult struct {
	ref objectRef
	// existed tells that the object was there before (the server answered 200, not 201).
	existed bool
	// read reads the object as it is in the Garden.
	read func(context.Context) (metav1.Object, error)
	// stateSpec computes the spec the state would hold after the apply (see
	// profileResourceOf.record).
	stateSpec func() (any, error)
}

// existing is the object in the Garden, as read (the dry run's answer lists the managers the
// apply would leave, the provider's own among them); nil when it cannot be read.
func (r dryRunResult) existing(ctx context.Context) metav1.Object {
	if r.read == nil {
		return nil
	}
	m, err := r.read(ctx)
	if err != nil {
		return nil
	}
	return m
}

// The two resource types' server checks.
var (
	cloudProfileServerCheck = serverCheckKind{kind: "CloudProfile", root: &cloudProfileSpecRoot, dryRun: dryRunCloudProfile,
		object: func(ctx context.Context, meta, spec tftypes.Value) (runtime.Object, error) {
			return cloudProfileOf(ctx, meta, spec)
		}}
	namespacedCloudProfileServerCheck = serverCheckKind{kind: "NamespacedCloudProfile", root: &namespacedCloudProfileSpecRoot, dryRun: dryRunNamespacedCloudProfile,
		object: func(ctx context.Context, meta, spec tftypes.Value) (runtime.Object, error) {
			return namespacedCloudProfileOf(ctx, meta, spec)
		}}
)

// serverCheckFor is the server check of a changing plan of kind for the spec planner; nil when
// server checks are off. It checks nothing when the configuration is not fully known or the plan
// replaces the object (the plan of the create that follows is checked).
func serverCheckFor(ctx context.Context, data *providerData, kind serverCheckKind, req resource.ModifyPlanRequest, large largevalue.Values, resp *resource.ModifyPlanResponse) specCheck {
	if data == nil || !data.serverChecks {
		return nil
	}
	configSpec := large.Config(req.Config, specLargePath)
	priorSpec := large.Prior(req.State, specLargePath)
	known := req.Config.Raw.IsFullyKnown() && configSpec.IsFullyKnown()
	force := boolAttribute(req.Config.Raw, "force_conflicts")
	recordPrivate := large.PlannedPrivate(ctx, resp.Private)
	return func(a rschema.Attribute, spec tftypes.Value) (tftypes.Value, diag.Diagnostics) {
		// Read when the planner runs, after ModifyPlan: the plan and its diagnostics are complete.
		// A plan that retires entries of NamespacedCloudProfiles first is refused by the Garden
		// until the apply has removed them (plan_retired_entries.go): the offline rules plan it.
		if !known || len(resp.RequiresReplace) > 0 || retiresEntries(ctx, resp.Private) {
			return spec, nil
		}
		return checkOnServer(ctx, serverCheck{
			data: data, kind: kind, specAttr: a, prior: req.State.Raw, priorSpec: priorSpec, planned: resp.Plan.Raw,
			offline: offlineErrorsOf(resp.Diagnostics), force: force, recordPrivate: recordPrivate,
		}, spec)
	}
}

// serverCheck is one plan's check: its inputs as Terraform sent them and the plan so far.
type serverCheck struct {
	data     *providerData
	kind     serverCheckKind
	specAttr rschema.Attribute
	prior    tftypes.Value
	// priorSpec is the spec of the prior state, as refreshed: the values other managers set.
	priorSpec tftypes.Value
	// planned is the framework's plan: its metadata and adopt_existing.
	planned tftypes.Value
	// offline are the errors the offline checks already reported.
	offline offlineErrors
	// force is the configured force_conflicts.
	force bool
	// recordPrivate records a key of the plan's private state (nil: none is recorded).
	recordPrivate func(key string, value []byte) diag.Diagnostics
}

// checkOnServer runs the server check of a changing plan (see above) and returns the planned spec
// with the values the Garden fills in, and the diagnostics to add.
func checkOnServer(ctx context.Context, c serverCheck, spec tftypes.Value) (tftypes.Value, diag.Diagnostics) {
	client, err := c.data.Client()
	if err != nil {
		return spec, c.data.serverChecksSkippedOnce(err)
	}
	meta, _ := tfvalue.At(c.planned, largevalue.Path{"metadata"})
	opts := c.applyOptions()
	result, err := c.kind.dryRun(ctx, c.data, client, meta, spec, opts)
	createOnly := c.prior.IsNull() && !boolAttribute(c.planned, "adopt_existing")
	var diags diag.Diagnostics
	if !createOnly && kube.KindOf(err) == kube.KindConflict {
		// Drift is a diff: the plan shows the fields set back and says what the apply does with
		// each conflict (plan_server_conflicts.go); the check goes on with the fields taken over.
		priorMeta, _ := tfvalue.At(c.prior, largevalue.Path{"metadata"})
		diags = c.conflictsAtPlan(ctx, err, result, client.FieldManager(), objectValues{spec: spec, metadata: meta}, objectValues{spec: c.priorSpec, metadata: priorMeta})
		if diags.HasError() {
			return spec, diags
		}
		opts.Force = true
		if result, err = c.kind.dryRun(ctx, c.data, client, meta, spec, opts); kube.KindOf(err) == kube.KindConflict {
			return spec, diags // the object changed in between: the apply reads it anew
		}
	}
	switch {
	case createOnly && kube.KindOf(err) == kube.KindConflict:
		// Only an existing object has owners to conflict with (as in the create itself).
		return spec, diag.Diagnostics{existsAtPlanWarning(result.ref, result.existing(ctx))}
	case err != nil:
		return spec, append(diags, c.rejection(ctx, err, spec)...)
	case createOnly && result.existed:
		return spec, diag.Diagnostics{existsAtPlanWarning(result.ref, result.existing(ctx))}
	}
	if c.offline.rejected() {
		diags.AddWarning("Offline rules and the Garden disagree", fmt.Sprintf("Gardener %s's rules, which the provider checks "+
			"offline, reject this %s (the errors of this plan), but the Garden accepted it in a dry-run apply. The Garden may run "+
			"another Gardener version or other feature gates.\n\nTo fix: follow the errors, or check the Garden's Gardener version "+
			"(%s) and feature gates.", c.data.followedRelease(), result.ref, gardenerVersionAttribute))
	}
	stored, ok := c.storedSpec(result)
	if !ok {
		return spec, diags
	}
	diags.Append(changedValuesAtPlan(changedPlannedValues(ctx, c.specAttr, spec, stored), spec)...)
	filled, _ := fillUnknowns(c.specAttr, spec, stored)
	return filled, diags
}

// applyOptions are those of the apply: force with force_conflicts, and on an update the UID of
// the object in state.
func (c serverCheck) applyOptions() kube.ApplyOptions {
	opts := kube.ApplyOptions{DryRun: true, Force: c.force}
	if !c.prior.IsNull() {
		var uid string
		if v, ok := tfvalue.At(c.prior, largevalue.Path{"metadata", "uid"}); ok && v.IsKnown() && !v.IsNull() && v.As(&uid) == nil {
			opts.UID = k8stypes.UID(uid)
		}
	}
	return opts
}

// storedSpec is the spec the state would hold after the apply, as the Garden answered the dry
// run; false when it cannot be built (the apply then reports what it finds).
func (c serverCheck) storedSpec(result dryRunResult) (tftypes.Value, bool) {
	stateSpec, err := result.stateSpec()
	if err != nil {
		return tftypes.Value{}, false
	}
	stored, diags := flattenSpecTerraform(*c.kind.root, stateSpec)
	return stored, !diags.HasError()
}

// rejection turns a failed dry run into diagnostics: the fallback when the Garden cannot check,
// nothing when a NamespacedCloudProfile's parent is created by the same apply, else errors.
func (c serverCheck) rejection(ctx context.Context, err error, spec tftypes.Value) diag.Diagnostics {
	if c.kind.kind == "NamespacedCloudProfile" && parentNotFound(err) {
		tflog.Info(ctx, "parent CloudProfile not found at the server check; Gardener checks against it at apply", map[string]any{"error": err.Error()})
		return nil
	}
	switch kind := kube.KindOf(err); {
	case kind == kube.KindForbidden, kind == kube.KindUnauthorized, kind == kube.KindUnreachable, kind == kube.KindAPIUnavailable:
		return c.data.serverChecksSkippedOnce(err)
	case !c.prior.IsNull() && (kind == kube.KindNotFound || kind == kube.KindReplaced):
		// The object of the state's UID is gone (deleted, or its name taken by another, after the
		// refresh or the saved plan): the apply's own error says so and what to do.
		tflog.Info(ctx, "the object of the state's UID is gone at the server check; the apply reports it", map[string]any{"error": err.Error()})
		return nil
	case kind == kube.KindInvalid:
		return rejectedAtPlan(err, spec, c.offline, c.data.followedRelease())
	}
	if c.offline.repeat(failureMessage(err)) {
		return nil // e.g. an admission plugin's 500 with the message of an offline error
	}
	return diag.Diagnostics{diag.NewWarningDiagnostic("Server check failed",
		fmt.Sprintf("The dry-run apply that checks this plan with the Garden failed, so the plan relies on the provider's offline rules: %v", err))}
}

// parentNotFound recognises Gardener's answer to a NamespacedCloudProfile whose parent does not
// exist (yet: usually the same apply creates it).
func parentNotFound(err error) bool { return parentNotFoundPattern.MatchString(err.Error()) }

// parentNotFoundPattern matches the message of a missing parent CloudProfile.
var parentNotFoundPattern = regexp.MustCompile(`cloudprofile\.core\.gardener\.cloud "[^"]*" not found`)

// boolAttribute is a top-level bool attribute of a value; false when null or unknown.
func boolAttribute(v tftypes.Value, name string) bool {
	var b bool
	a := tfvalue.Attribute(v, name)
	if !a.IsKnown() || a.IsNull() || a.As(&b) != nil {
		return false
	}
	return b
}

// cloudProfileOf is the CloudProfile of a plan's or state's metadata and spec.
func cloudProfileOf(ctx context.Context, meta, spec tftypes.Value) (*gardencorev1beta1.CloudProfile, error) {
	metadata, err := metadataObject(ctx, clusterMetadataType(), meta)
	if err != nil {
		return nil, err
	}
	cp, _, diags := cloudProfileTraits().configured(ctx, metadata, spec)
	if diags.HasError() {
		return nil, diagnosticsError(diags)
	}
	return cp, nil
}

// namespacedCloudProfileOf is the NamespacedCloudProfile of a plan's or state's metadata and spec.
func namespacedCloudProfileOf(ctx context.Context, meta, spec tftypes.Value) (*gardencorev1beta1.NamespacedCloudProfile, error) {
	metadata, err := metadataObject(ctx, namespacedMetadataType(), meta)
	if err != nil {
		return nil, err
	}
	ncp, _, diags := namespacedCloudProfileTraits().configured(ctx, metadata, spec)
	if diags.HasError() {
		return nil, diagnosticsError(diags)
	}
	return ncp, nil
}

// dryRunCloudProfile dry-run applies the planned CloudProfile.
func dryRunCloudProfile(ctx context.Context, data *providerData, client *kube.Client, meta, spec tftypes.Value, opts kube.ApplyOptions) (dryRunResult, error) {
	desired, err := cloudProfileOf(ctx, meta, spec)
	if err != nil {
		return dryRunResult{}, err
	}
	ref := objectRef{"CloudProfile", desired.Name}
	read := func(ctx context.Context) (metav1.Object, error) { return client.GetCloudProfile(ctx, desired.Name) }
	stored, existed, err := client.AdoptCloudProfile(ctx, desired, opts)
	if err != nil {
		return dryRunResult{ref: ref, read: read}, err
	}
	stateSpec := func() (any, error) {
		view := stored
		if !onlyManagedBy(stored.ManagedFields, client.FieldManager()) {
			if view, err = kube.OwnedViewKeeping(stored, client.FieldManager(), &desired.Spec); err != nil {
				return nil, err
			}
		}
		return cloudprofile.WithDroppedVersions(view.Spec, desired.Spec, data.now()), nil
	}
	return dryRunResult{ref: ref, existed: existed, read: read, stateSpec: stateSpec}, nil
}

// dryRunNamespacedCloudProfile dry-run applies the planned NamespacedCloudProfile.
func dryRunNamespacedCloudProfile(ctx context.Context, data *providerData, client *kube.Client, meta, spec tftypes.Value, opts kube.ApplyOptions) (dryRunResult, error) {
	desired, err := namespacedCloudProfileOf(ctx, meta, spec)
	if err != nil {
		return dryRunResult{}, err
	}
	ref := namespacedRefOf(desired.Namespace, desired.Name)
	read := func(ctx context.Context) (metav1.Object, error) {
		return client.GetNamespacedCloudProfile(ctx, desired.Namespace, desired.Name)
	}
	stored, existed, err := client.AdoptNamespacedCloudProfile(ctx, desired, opts)
	if err != nil {
		return dryRunResult{ref: ref, read: read}, err
	}
	stateSpec := func() (any, error) {
		withoutStatus := *stored
		withoutStatus.Status = gardencorev1beta1.NamespacedCloudProfileStatus{}
		withoutStatus.ManagedFields = slices.DeleteFunc(slices.Clone(stored.ManagedFields), func(e metav1.ManagedFieldsEntry) bool { return e.Subresource == "status" })
		view := &withoutStatus
		if !onlyManagedBy(withoutStatus.ManagedFields, client.FieldManager()) {
			if view, err = kube.OwnedViewKeeping(&withoutStatus, client.FieldManager(), &desired.Spec); err != nil {
				return nil, err
			}
		}
		return cloudprofile.WithDroppedNamespacedVersions(view.Spec, desired.Spec, data.now()), nil
	}
	return dryRunResult{ref: ref, existed: existed, read: read, stateSpec: stateSpec}, nil
}

// onlyManagedBy tells that no other field manager than manager has an entry for the object itself
// (as after a create): its owned view is then the whole object, and building it, which copies a
// large profile several times, can be left out.
func onlyManagedBy(entries []metav1.ManagedFieldsEntry, manager string) bool {
	for _, e := range entries {
		if e.Subresource == "" && e.Manager != manager {
			return false
		}
	}
	return true
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
