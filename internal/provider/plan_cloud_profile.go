package provider

import (
	"context"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	k8stypes "k8s.io/apimachinery/pkg/types"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
	"github.com/gardener-community/terraform-provider-gardener/internal/provider/largevalue"
)

// validated checks a configured CloudProfile against Gardener's validation of a create, as the
// extension's mutating webhook leaves it, and the extension's validation.
func (r *cloudProfileResource) validated(cp *gardencorev1beta1.CloudProfile, opts cloudprofile.Options) (*gardencorev1beta1.CloudProfile, *runtime.RawExtension, cloudprofile.Problems) {
	cp.Spec = mutatedByExtension(cp.Spec)
	problems := cloudprofile.ValidateCloudProfileRequest(cp, nil, opts)
	problems = append(problems, cloudprofile.ExtensionLabelProblems(cp.Labels)...)
	problems = append(problems, cloudProfileExtensionProblems(cp, nil, problems, opts)...)
	return cp, cp.Spec.ProviderConfig, problems
}

// stored is cp as Gardener stores it on create, with its status.
func (r *cloudProfileResource) stored(cp *gardencorev1beta1.CloudProfile, opts cloudprofile.Options) runtime.Object {
	return storedCloudProfile(cp, nil, opts)
}

// modifyPlan adds what needs the prior state: Gardener's update rules, its cross-object admission
// checks (NamespacedCloudProfiles and Shoots still using what the update removes), warnings
// about versions Gardener drops or that change classification soon, and about removed entries
// other field managers keep in the cluster.
func (r *cloudProfileResource) modifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, plan profilePlan[*gardencorev1beta1.CloudProfile]) {
	cp, spec, unknown, opts, changing := plan.configured, plan.spec, plan.unknown, plan.opts, plan.changing
	if !plan.known {
		if changing {
			predictCloudProfilePlan(ctx, req, resp, plan.large, nil, nil, opts, serverCheckFor(ctx, r.data, cloudProfileServerCheck, req, plan.large, resp))
		}
		return
	}
	cp.Spec = mutatedByExtension(cp.Spec)
	var old *gardencorev1beta1.CloudProfile
	var uid k8stypes.UID // the UID of old, the object in state
	if !req.State.Raw.IsNull() {
		var state cloudProfileModel
		resp.Diagnostics.Append(largevalue.Get(ctx, req.State.Schema, req.State.Raw, plan.largeAttributes, &state)...)
		// A new name replaces the object: the plan is a create, not an update.
		if o, _, d := plan.configure(ctx, state.Metadata, plan.large.Prior(req.State, specLargePath)); !d.HasError() && o.Name == cp.Name {
			old, uid = o, uidOf(state.Metadata)
		}
	}
	if changing && r.data != nil {
		r.data.cloudProfiles.plan(cp.Name, storedForPlan(cp, old, unknown, opts)) // see namespacedCloudProfileResource.parent
	}
	if changing && old != nil && len(unknown) == 0 && !objectSizeDiagnostics("CloudProfile", cp, storedCloudProfile(cp, nil, opts), cp.Spec.ProviderConfig).HasError() {
		// An update keeps the versions a create drops; ValidateConfig reported a create's size.
		resp.Diagnostics.Append(objectSizeDiagnostics("CloudProfile", cp, storedCloudProfile(cp, old, opts), cp.Spec.ProviderConfig)...)
	}
	if changing {
		predictCloudProfilePlan(ctx, req, resp, plan.large, knownSpec(cp, unknown), old, opts, serverCheckFor(ctx, r.data, cloudProfileServerCheck, req, plan.large, resp))
		r.data.noteExtensionRelease(ctx, cp.Spec.Type, &resp.Diagnostics)
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
	refs, retired := cloudProfileReferenceProblems(ctx, r.data, cp, old, &resp.Diagnostics)
	problems = append(problems, knownReferencesOnly(refs, unknown, spec)...)
	// Recorded also when other references fail the plan: the dry run at plan then says nothing
	// more than the offline errors, which leave out what the apply would retire.
	resp.Diagnostics.Append(recordRetiredEntries(ctx, resp.Private, retired)...)
	if len(retired) > 0 && !refs.HasErrors() {
		resp.Diagnostics.Append(retiredEntriesWarning(retired))
	}
	problems = append(problems, knownOnly(cloudProfileForceUpdates(ctx, r.data, cp, old, opts, &resp.Diagnostics), unknown, spec)...)
	// One call, so that the plan's diagnostics of the rules are capped as one (see problemDiagnostics).
	resp.Diagnostics.Append(problemDiagnostics(problems, spec)...)
	// A plan equal to the prior state drops nothing.
	if old != nil && len(unknown) == 0 && changing {
		// Compared with the plan, not the configuration: the plan keeps the server's defaults.
		var planModel cloudProfileModel
		resp.Diagnostics.Append(largevalue.Get(ctx, req.Plan.Schema, req.Plan.Raw, plan.largeAttributes, &planModel)...)
		planned, _, d := plan.configure(ctx, planModel.Metadata, plan.large.Planned(req.Plan, specLargePath))
		if !d.HasError() {
			get := func(ctx context.Context, c *kube.Client) (metav1.Object, error) {
				return c.GetCloudProfile(ctx, cp.Name)
			}
			resp.Diagnostics.Append(retainedEntriesError(ctx, r.data, objectRef{"CloudProfile", cp.Name}, uid, old, planned, plan.large.Prior(req.State, specLargePath), get)...)
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
