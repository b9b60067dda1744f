package provider

import (
	"context"
	"slices"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
	"github.com/gardener-community/terraform-provider-gardener/internal/provider/largevalue"
)

// ValidateConfig checks the timeouts, the keys of provider_config, and the configuration against
// Gardener's validation of a create, offline. Parts that are unknown until apply are left out of
// the check.
func (r *cloudProfileResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	resp.Diagnostics.Append(timeoutsDiagnostics(ctx, req.Config)...)
	var cfg cloudProfileModel
	// Only metadata goes through the framework's conversion; the spec is read as Terraform sent it.
	metaDiags := req.Config.GetAttribute(ctx, path.Root("metadata"), &cfg.Metadata)
	resp.Diagnostics.Append(metaDiags...)
	spec := largevalue.Input(ctx, largevalue.Config, specLargePath, req.Config.Raw)
	if metaDiags.HasError() || !spec.IsKnown() || cfg.Metadata.IsUnknown() {
		return
	}
	resp.Diagnostics.Append(duplicateKeyDiagnostics(cloudProfileSpecRoot, spec)...)
	cp, unknown, diags := configuredCloudProfile(ctx, cfg, spec)
	resp.Diagnostics.Append(diags...)
	if diags.HasError() {
		return
	}
	cp.Spec = mutatedByExtension(cp.Spec)
	resp.Diagnostics.Append(objectSizeDiagnostics("CloudProfile", cp, cp.Spec.ProviderConfig)...)
	opts := validationOptions(r.data, r.validated)
	problems := cloudprofile.ValidateCloudProfileRequest(cp, nil, opts)
	problems = append(problems, cloudprofile.ExtensionLabelProblems(cp.Labels)...)
	problems = append(problems, cloudProfileExtensionProblems(cp, nil, problems, opts)...)
	resp.Diagnostics.Append(problemDiagnostics(knownOnly(problems, unknown, spec), spec)...)
}

// ModifyPlan adds what needs the prior state: Gardener's update rules, its cross-object admission
// checks (NamespacedCloudProfiles and Shoots still using what the update removes), warnings
// about versions Gardener drops or that change classification soon, and about removed entries
// other field managers keep in the cluster.
func (r *cloudProfileResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	planReplacementOfTerminating(ctx, req, resp)
	resp.Diagnostics.Append(planResourceVersionOfUpdate(ctx, req, resp)...)
	opts := r.data.options(r.data.now())
	changing := changingPlan(req)
	metadata := func(m cloudProfileModel) types.Object { return m.Metadata }
	cp, spec, unknown := configuredForPlan(ctx, req, r.LargeAttributes(), metadata, configuredCloudProfile, &resp.Diagnostics)
	if cp == nil {
		if changing {
			predictCloudProfilePlan(ctx, req, resp, nil, nil, opts, serverCheckFor(ctx, r.data, cloudProfileServerCheck, req, resp))
		}
		return
	}
	cp.Spec = mutatedByExtension(cp.Spec)
	var old *gardencorev1beta1.CloudProfile
	if !req.State.Raw.IsNull() {
		var state cloudProfileModel
		resp.Diagnostics.Append(largevalue.Get(ctx, req.State.Schema, req.State.Raw, r.LargeAttributes(), &state)...)
		// A new name replaces the object: the plan is a create, not an update.
		if o, _, d := configuredCloudProfile(ctx, state, largevalue.Input(ctx, largevalue.Prior, specLargePath, req.State.Raw)); !d.HasError() && o.Name == cp.Name {
			old = o
		}
	}
	if changing && r.data != nil {
		r.data.cloudProfiles.plan(cp.Name, storedForPlan(cp, old, unknown, opts)) // see namespacedCloudProfileResource.parent
	}
	if changing {
		predictCloudProfilePlan(ctx, req, resp, knownSpec(cp, unknown), old, opts, serverCheckFor(ctx, r.data, cloudProfileServerCheck, req, resp))
	}
	var problems cloudprofile.Problems
	if old != nil {
		ofUpdate, ofCreate := cloudprofile.ValidateCloudProfileRequest(cp, old, opts), cloudprofile.ValidateCloudProfileRequest(cp, nil, opts)
		problems = onlyNew(ofUpdate, ofCreate)
		if changing {
			// Only a write reaches the extension's webhook.
			problems = append(problems, cloudProfileUpdateExtensionProblems(cp, old, ofUpdate, ofCreate, opts)...)
		}
	}
	problems = knownOnly(append(problems, cloudprofile.WarnCloudProfile(cp, old, opts)...), unknown, spec)
	// Cross-object admission (N-1 … N-5): on update only, and only when it can find something.
	refs := cloudProfileReferenceProblems(ctx, r.data, cp, old, &resp.Diagnostics)
	problems = append(problems, knownReferencesOnly(refs, unknown, spec)...)
	problems = append(problems, knownOnly(cloudProfileForceUpdates(ctx, r.data, cp, old, opts, &resp.Diagnostics), unknown, spec)...)
	// One call, so that the plan's diagnostics of the rules are capped as one (see problemDiagnostics).
	resp.Diagnostics.Append(problemDiagnostics(problems, spec)...)
	// A plan equal to the prior state (large values are stand-ins here that differ only when the
	// value changed) drops nothing.
	if old != nil && len(unknown) == 0 && !req.Plan.Raw.Equal(req.State.Raw) {
		// Compared with the plan, not the configuration: the plan keeps the server's defaults.
		var plan cloudProfileModel
		resp.Diagnostics.Append(largevalue.Get(ctx, req.Plan.Schema, req.Plan.Raw, r.LargeAttributes(), &plan)...)
		planned, _, d := configuredCloudProfile(ctx, plan, largevalue.Input(ctx, largevalue.Planned, specLargePath, req.Plan.Raw))
		if !d.HasError() {
			get := func(ctx context.Context, c *kube.Client) (metav1.Object, error) {
				return c.GetCloudProfile(ctx, cp.Name)
			}
			resp.Diagnostics.Append(retainedEntriesWarning(ctx, r.data, objectRef{"CloudProfile", cp.Name}, old, planned, get)...)
		}
	}
}

// storedForPlan is the CloudProfile Gardener would store for a changing plan of cp, nil when the
// planned spec is not fully known.
func storedForPlan(cp, old *gardencorev1beta1.CloudProfile, unknown []path.Path, opts cloudprofile.Options) *gardencorev1beta1.CloudProfile {
	if knownSpec(cp, unknown) == nil {
		return nil
	}
	stored, _ := cloudprofile.StoredCloudProfile(cp, old, opts)
	return stored
}

// configuredCloudProfile builds the object of a configuration or plan, with the paths of the
// values that are still unknown.
func configuredCloudProfile(ctx context.Context, m cloudProfileModel, specValue tftypes.Value) (*gardencorev1beta1.CloudProfile, []path.Path, diag.Diagnostics) {
	var diags diag.Diagnostics
	var meta clusterMetadataModel
	diags.Append(m.Metadata.As(ctx, &meta, objectAsOptions)...)
	om, unknown, d := meta.namespaced().objectMeta(ctx)
	diags.Append(d...)
	spec, unknownSpec, d := expandCloudProfileSpecTerraform(specValue, path.Root("spec"))
	diags.Append(d...)
	return &gardencorev1beta1.CloudProfile{ObjectMeta: om, Spec: spec}, append(unknown, unknownSpec...), diags
}

// knownOnly drops the problems that a value not known yet may decide, and keeps the others, so
// that everything known is still checked. A value unknown at path U may decide a problem at or
// below U, on the entry that holds U (a version that is not MAJOR.MINOR.PATCH), on a list above U
// (the highest version cannot be determined), a problem of a rule that compares the entries of
// the list holding U (the highest version, duplicates, the order of lifecycle stages), and, when U
// is an entry's key, a problem of a rule that looks entries up by key. Rules that only ask whether
// a field is set (feature gates) are decided by the unknown value's presence.
//
// The problems come back with their attribute paths through the keys of spec, the configured spec
// value the paths of unknown are in (see specSteps).
func knownOnly(problems cloudprofile.Problems, unknown []path.Path, spec tftypes.Value) cloudprofile.Problems {
	problems = stepsThrough(spec).problems(problems)
	if len(unknown) == 0 {
		return problems
	}
	lists := innermostLists(unknown)
	keyUnknown := slices.ContainsFunc(unknown, isKeyPath)
	var out cloudprofile.Problems
	for _, p := range problems {
		at := attributePath(p.Path.Steps())
		undecided := underAny(at, unknown) || holdsAny(at, unknown) ||
			(comparesEntries[p.Rule] && underAny(at, lists)) || (keyUnknown && referencesByKey[p.Rule])
		if !undecided || decidedByPresence[p.Rule] {
			out = append(out, p)
		}
	}
	return out
}

// comparesEntries are the rules that compare the entries of a list with each other.
var comparesEntries = setOf("C-2", "C-3", "C-4", "C-6", "C-8", "D-6", "D-7", "D-9", "E-2", "E-3", "F-1", "F-8",
	"G-3", "H-2", "I-2", "J-2", "J-3", "U-2", "U-3", "W-dropped", "W-changes-soon")

// referencesByKey are the rules that look entries up by their key elsewhere in the spec.
var referencesByKey = setOf("J-5", "F-6", "G-5")

// decidedByPresence are the rules that only ask whether a field is set.
var decidedByPresence = setOf("D-1", "I-1")

// setOf is a set of rule ids.
func setOf(ids ...string) map[string]bool {
	out := make(map[string]bool, len(ids))
	for _, id := range ids {
		out[id] = true
	}
	return out
}

// holdsAny tells whether p is an attribute above one of the paths (a list or an object that holds
// it), or the entry that holds one of them as its own attribute.
func holdsAny(p path.Path, paths []path.Path) bool {
	for _, q := range paths {
		if len(q.Steps()) <= len(p.Steps()) || !underAny(q, []path.Path{p}) {
			continue
		}
		if last, _ := p.Steps().LastStep(); len(q.Steps()) == len(p.Steps())+1 || isAttribute(last) {
			return true
		}
	}
	return false
}

// isAttribute tells whether a path step names an attribute (rather than an entry of a list).
func isAttribute(step path.PathStep) bool {
	_, ok := step.(path.PathStepAttributeName)
	return ok
}

// innermostLists are, for each path, the list that holds its innermost entry.
func innermostLists(paths []path.Path) []path.Path {
	var out []path.Path
	for _, u := range paths {
		for q := u; len(q.Steps()) > 1; q = q.ParentPath() {
			if last, _ := q.Steps().LastStep(); !isAttribute(last) {
				out = append(out, q.ParentPath())
				break
			}
		}
	}
	return out
}

// isKeyPath tells whether a path ends at the key of a list entry (its name or version).
func isKeyPath(p path.Path) bool {
	steps := p.Steps()
	if len(steps) < 2 {
		return false
	}
	name, isName := steps[len(steps)-1].(path.PathStepAttributeName)
	_, inEntry := steps[len(steps)-2].(path.PathStepElementKeyInt)
	return isName && inEntry && slices.Contains(entryKeyAttributeNames, string(name))
}

func underAny(p path.Path, roots []path.Path) bool {
	for q := p; len(q.Steps()) > 0; q = q.ParentPath() {
		for _, r := range roots {
			if q.Equal(r) {
				return true
			}
		}
	}
	return false
}

// onlyNew returns the problems of got that are not in reported.
func onlyNew(got, reported cloudprofile.Problems) cloudprofile.Problems {
	seen := make(map[string]bool, len(reported))
	for _, p := range reported {
		seen[p.Error()+"@"+p.Path.Attribute()] = true
	}
	var out cloudprofile.Problems
	for _, p := range got {
		if !seen[p.Error()+"@"+p.Path.Attribute()] {
			out = append(out, p)
		}
	}
	return out
}
