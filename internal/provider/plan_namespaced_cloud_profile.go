package provider

import (
	"context"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-log/tflog"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	k8stypes "k8s.io/apimachinery/pkg/types"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
	"github.com/gardener-community/terraform-provider-gardener/internal/provider/largevalue"
)

// validated checks a configured NamespacedCloudProfile against Gardener's static validation (the
// checks against the parent run in the plan).
func (r *namespacedCloudProfileResource) validated(ncp *gardencorev1beta1.NamespacedCloudProfile, opts cloudprofile.Options) (*gardencorev1beta1.NamespacedCloudProfile, *runtime.RawExtension, cloudprofile.Problems) {
	problems := cloudprofile.ValidateNamespacedCloudProfileRequest(ncp, nil, opts)
	return ncp, ncp.Spec.ProviderConfig, append(problems, cloudprofile.ExtensionLabelProblems(ncp.Labels)...)
}

// stored is ncp as Gardener stores it on create; its status, the merged profile, needs the parent.
func (r *namespacedCloudProfileResource) stored(ncp *gardencorev1beta1.NamespacedCloudProfile, opts cloudprofile.Options) runtime.Object {
	return storedNamespacedCloudProfile(ncp, nil, nil, opts)
}

// modifyPlan runs what needs the prior state or the parent: Gardener's update rules and its
// admission checks against the parent CloudProfile, including the validation of the merge.
func (r *namespacedCloudProfileResource) modifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, plan profilePlan[*gardencorev1beta1.NamespacedCloudProfile]) {
	ncp, spec, unknown, opts, changing := plan.configured, plan.spec, plan.unknown, plan.opts, plan.changing
	if !plan.known {
		if changing {
			predictNamespacedCloudProfilePlan(ctx, req, resp, plan.large, nil, nil, nil, opts, serverCheckFor(ctx, r.data, namespacedCloudProfileServerCheck, req, plan.large, resp))
		}
		return
	}
	var old *gardencorev1beta1.NamespacedCloudProfile
	var uid k8stypes.UID // the UID of old, the object in state
	var problems cloudprofile.Problems
	localStatus := false // the old object's merged status is computed (see admit)
	if !req.State.Raw.IsNull() {
		var state namespacedCloudProfileModel
		resp.Diagnostics.Append(largevalue.Get(ctx, req.State.Schema, req.State.Raw, plan.largeAttributes, &state)...)
		// A new name or namespace replaces the object: the plan is a create, not an update.
		if o, _, d := plan.configure(ctx, state.Metadata, plan.large.Prior(req.State, specLargePath)); !d.HasError() && o.Name == ncp.Name && o.Namespace == ncp.Namespace {
			old, uid = o, uidOf(state.Metadata)
			old.Status = statusOf(state.Status, plan.large.Prior(req.State, statusSpecLargePath))
			localStatus = !state.keepsMergedStatus()
			problems = onlyNew(cloudprofile.ValidateNamespacedCloudProfileRequest(ncp, old, opts),
				cloudprofile.ValidateNamespacedCloudProfileRequest(ncp, nil, opts))
		}
	}
	var parent *gardencorev1beta1.CloudProfile
	parentPlanned := false // a plan of this run changes the parent
	if len(unknown) == 0 {
		var p *gardencorev1beta1.CloudProfile
		p, parentPlanned = r.parent(ctx, ncp, resp)
		if p != nil {
			// Gardener's admission and the extension's validator see the spec as the extension's
			// mutating webhook leaves it.
			ncp.Spec, _ = namespacedMutatedByExtension(ncp.Spec, p)
			var admitted cloudprofile.Problems
			parent, admitted = r.admit(ctx, ncp, old, p, opts, localStatus, !parentPlanned)
			problems = append(problems, admitted...)
			problems = append(problems, namespacedExtensionProblems(ncp, parent, problems)...)
			// Cross-object admission (N-6 … N-8): on update only, and only when it can find
			// something. (On an update the parent exists: Gardener keeps it while NCPs refer to it.)
			problems = append(problems, namespacedReferenceProblems(ctx, r.data, ncp, old, parent, &resp.Diagnostics)...)
			problems = append(problems, namespacedForceUpdates(ctx, r.data, ncp, old, parent, opts, &resp.Diagnostics)...)
			if changing && !objectSizeDiagnostics("NamespacedCloudProfile", ncp, storedNamespacedCloudProfile(ncp, nil, nil, opts), ncp.Spec.ProviderConfig).HasError() {
				// ValidateConfig reported a spec too large on its own; with the parent, the
				// status's merged profile counts too.
				resp.Diagnostics.Append(objectSizeDiagnostics("NamespacedCloudProfile", ncp, storedNamespacedCloudProfile(ncp, old, parent, opts), ncp.Spec.ProviderConfig)...)
			}
		}
	}
	if changing {
		check := serverCheckFor(ctx, r.data, namespacedCloudProfileServerCheck, req, plan.large, resp)
		if parentPlanned {
			// The Garden would check against the parent as it is, not as this apply changes it
			// before it gets to this object.
			check = nil
		}
		predictNamespacedCloudProfilePlan(ctx, req, resp, plan.large, knownSpec(ncp, unknown), old, parent, opts, check)
		if parent != nil {
			r.data.noteExtensionRelease(ctx, parent.Spec.Type, &resp.Diagnostics)
		}
	}
	problems = append(problems, cloudprofile.WarnNamespacedCloudProfile(ncp, old, parent, opts)...)
	resp.Diagnostics.Append(problemDiagnostics(knownOnly(problems, unknown, spec), spec)...)
	// A plan equal to the prior state drops nothing.
	if old != nil && len(unknown) == 0 && changing {
		get := func(ctx context.Context, c *kube.Client) (metav1.Object, error) {
			return c.GetNamespacedCloudProfile(ctx, ncp.Namespace, ncp.Name)
		}
		before := &gardencorev1beta1.NamespacedCloudProfile{ObjectMeta: old.ObjectMeta, Spec: old.Spec} // without the status
		// Compared with the plan, not the configuration: the plan keeps the server's defaults.
		var planModel namespacedCloudProfileModel
		resp.Diagnostics.Append(largevalue.Get(ctx, req.Plan.Schema, req.Plan.Raw, plan.largeAttributes, &planModel)...)
		planned, _, d := plan.configure(ctx, planModel.Metadata, plan.large.Planned(req.Plan, specLargePath))
		if !d.HasError() {
			resp.Diagnostics.Append(retainedEntriesError(ctx, r.data, namespacedRefOf(ncp.Namespace, ncp.Name), uid, before, planned, plan.large.Prior(req.State, specLargePath), get)...)
		}
	}
}

// admit runs Gardener's admission checks against the parent. The parent comes from the run's
// cache: when it rejects the object, the checks run again against the parent as it is now (one
// request), so that a parent changed during the run (e.g. by another apply) is never held against the
// object, unless refresh is false (the parent as a plan of this run changes it); the parent
// checked against last is returned. Without the merged status in the state,
// the old object's status is the local merge of the parent and the old spec, which is what
// Gardener's controller renders (with keep_merged_status, the status as read).
func (r *namespacedCloudProfileResource) admit(ctx context.Context, ncp, old *gardencorev1beta1.NamespacedCloudProfile, parent *gardencorev1beta1.CloudProfile, opts cloudprofile.Options, localStatus, refresh bool) (*gardencorev1beta1.CloudProfile, cloudprofile.Problems) {
	check := func(parent *gardencorev1beta1.CloudProfile) cloudprofile.Problems {
		if localStatus {
			return cloudprofile.AdmitNamespacedCloudProfileRequest(ncp, withMergedStatus(old, parent, opts), parent, opts)
		}
		return cloudprofile.AdmitNamespacedCloudProfileRequest(ncp, old, parent, opts)
	}
	problems := check(parent)
	if !problems.HasErrors() || !refresh {
		return parent, problems
	}
	client, err := r.data.Client()
	if err != nil {
		return parent, problems
	}
	current, err := client.RefreshedParentCloudProfile(ctx, parent.Name)
	if err != nil || current.ResourceVersion == parent.ResourceVersion {
		return parent, problems
	}
	return current, check(current)
}

// withMergedStatus is the old object with the merged status Gardener's controller renders from
// parent; nil on create.
func withMergedStatus(old *gardencorev1beta1.NamespacedCloudProfile, parent *gardencorev1beta1.CloudProfile, opts cloudprofile.Options) *gardencorev1beta1.NamespacedCloudProfile {
	if old == nil {
		return nil
	}
	out := old.DeepCopy()
	out.Status.CloudProfileSpec = cloudprofile.MergeNamespacedCloudProfile(parent.Spec, old.Spec, cloudprofile.MergeOptions{Now: opts.Now})
	return out
}

// parent returns the parent CloudProfile the admission checks run against, nil when they cannot
// run, and whether a plan of this run changes it. A parent that a gardener_cloud_profile of this
// provider configuration plans to create or update is checked as planned (nil when its plan is not
// fully known): Terraform applies it before this object, which refers to it. Any other parent is
// read from the Garden (once per run and parent, see kube.Client.ParentCloudProfile). When the
// cluster cannot be asked (settings unknown until apply) the checks are skipped with a warning; a
// missing parent is a warning on spec.parent.name, once per run and name.
func (r *namespacedCloudProfileResource) parent(ctx context.Context, ncp *gardencorev1beta1.NamespacedCloudProfile, resp *resource.ModifyPlanResponse) (*gardencorev1beta1.CloudProfile, bool) {
	name := ncp.Spec.Parent.Name
	if planned, ok := r.data.cloudProfiles.lookup(name); ok {
		if planned == nil {
			tflog.Info(ctx, "parent CloudProfile planned with values unknown until apply; Gardener checks against it at apply", map[string]any{"parent": name})
		}
		return planned, true
	}
	at := path.Root("spec").AtName("parent").AtName("name")
	client, err := r.data.Client()
	if err != nil {
		resp.Diagnostics.AddAttributeWarning(at, "Parent checks skipped", "The checks against the parent CloudProfile need the Garden cluster, which cannot be reached at plan time: "+err.Error())
		return nil, false
	}
	parent, err := client.ParentCloudProfile(ctx, name)
	switch {
	case kube.IsNotFound(err):
		// At apply Gardener rejects the object and the provider reports "Parent CloudProfile not
		// found" on spec.parent.name; nothing is written.
		tflog.Info(ctx, "parent CloudProfile not found at plan; Gardener checks against it at apply", map[string]any{"parent": name})
		if r.data.cloudProfiles.firstReport(name) {
			resp.Diagnostics.Append(missingParentWarning(name))
		}
		return nil, false
	case err != nil:
		resp.Diagnostics.Append(requestError("Reading the parent CloudProfile "+name, err))
		return nil, false
	}
	return parent, false
}

// statusOf reads the status recorded in state back into the API type (Gardener's admission rules
// L-3 and L-8 compare with the old object's merged status).
func statusOf(status types.Object, spec tftypes.Value) gardencorev1beta1.NamespacedCloudProfileStatus {
	var out gardencorev1beta1.NamespacedCloudProfileStatus
	if status.IsNull() || status.IsUnknown() {
		return out
	}
	attrs := status.Attributes()
	if g, ok := attrs["observed_generation"].(types.Int64); ok {
		out.ObservedGeneration = g.ValueInt64()
	}
	if spec.IsKnown() && !spec.IsNull() {
		out.CloudProfileSpec, _, _ = expandCloudProfileSpecTerraform(spec, path.Root("status").AtName("cloud_profile_spec"))
	}
	return out
}
