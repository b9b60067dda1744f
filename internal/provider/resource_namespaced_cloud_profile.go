package provider

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
	"github.com/gardener-community/terraform-provider-gardener/internal/provider/largevalue"
)

// namespacedCloudProfileResource is the resource of a NamespacedCloudProfile.
type namespacedCloudProfileResource struct{ profileResource }

func newNamespacedCloudProfileResource() resource.Resource { return &namespacedCloudProfileResource{} }

// namespacedCloudProfileModel is the resource's state and plan without its spec (see
// largevalue.Get); the status's cloud_profile_spec is null in it.
type namespacedCloudProfileModel struct {
	ID               types.String   `tfsdk:"id"`
	Metadata         types.Object   `tfsdk:"metadata"`
	Status           types.Object   `tfsdk:"status"`
	ForceConflicts   types.Bool     `tfsdk:"force_conflicts"`
	AdoptExisting    types.Bool     `tfsdk:"adopt_existing"`
	KeepMergedStatus types.Bool     `tfsdk:"keep_merged_status"`
	Timeouts         timeouts.Value `tfsdk:"timeouts"`
}

// keepsMergedStatus tells whether the state keeps status.cloud_profile_spec (off unless set).
func (m namespacedCloudProfileModel) keepsMergedStatus() bool { return m.KeepMergedStatus.ValueBool() }

// WithLargeValues is the resource serving a request of the Server with its large values.
func (r *namespacedCloudProfileResource) WithLargeValues(v largevalue.Values) resource.Resource {
	return withLargeValues(r, v)
}

// Metadata names the resource.
func (r *namespacedCloudProfileResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_namespaced_cloud_profile"
}

// trees are the attributes built from descriptors: the spec and the status with the merged profile.
func (r *namespacedCloudProfileResource) trees() []specField {
	return []specField{namespacedCloudProfileSpecRoot, namespacedCloudProfileStatusField()}
}

// LargeAttributes are the large fields of trees, kept from the framework: the spec and the merged
// profile. The spec comes first, as the merged profile is planned from the planned spec.
func (r *namespacedCloudProfileResource) LargeAttributes() []largevalue.Path {
	return largePaths(r.trees()...)
}

// Schema describes the resource.
func (r *namespacedCloudProfileResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version: namespacedCloudProfileSchemaVersion,
		MarkdownDescription: "A Gardener `NamespacedCloudProfile` (`core.gardener.cloud/v1beta1`): a project's extension of a parent " +
			"`CloudProfile` — longer expiration dates, extra machine image versions, machine types and volume types. The merged " +
			"profile (the parent with this profile's changes) is in the state only with `keep_merged_status = true`; the " +
			"`gardener_namespaced_cloud_profile` data source computes it on every read (`include_merged_profile = true`).\n\n" +
			"`plan` reads the parent (one request per parent and run, shared by every namespaced profile of that parent) and runs Gardener's " +
			"admission checks against it, including the validation of the merged result. The first line of each problem's detail names " +
			"the attribute path that caused it.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
				MarkdownDescription: "`namespace/name`; also the import ID.",
			},
			"metadata": metadataAttribute("NamespacedCloudProfile", true),
			"force_conflicts": schema.BoolAttribute{
				Optional: true, Computed: true, Default: booldefault.StaticBool(false),
				MarkdownDescription: "Take over fields another field manager owns instead of failing with a conflict. Off by default.",
			},
			"adopt_existing": adoptExistingAttribute("NamespacedCloudProfile"),
			"keep_merged_status": schema.BoolAttribute{
				Optional: true, Computed: true, Default: booldefault.StaticBool(false),
				MarkdownDescription: "Keep `status`, the merged profile, in the state (see `status`). Off by default: it is a copy of the " +
					"whole parent in every namespaced profile's state, and it changes outside of Terraform whenever the parent changes. " +
					"To read the merged profile without keeping it, use the `gardener_namespaced_cloud_profile` data source with `include_merged_profile = true`.",
			},
			"timeouts": timeoutsAttribute(ctx),
		},
	}
	maps.Copy(resp.Schema.Attributes, resourceTreeAttributes(r.trees(), onNamespacedCloudProfile))
	resp.Schema.Attributes = withResourceNestedTypes(resp.Schema.Attributes)
}

// Create applies the NamespacedCloudProfile.
func (r *namespacedCloudProfileResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	createProfile(ctx, r, req, resp)
}

// Update applies the changed NamespacedCloudProfile to the object of the UID in state.
func (r *namespacedCloudProfileResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	updateProfile(ctx, r, req, resp)
}

// apply writes the planned object (see writeMode) and records what was stored, with the merged
// profile of the plan (see readKeptStatus), also when a failed create leaves its object in the Garden
// (kube.ErrCreatedObjectKept).
func (r *namespacedCloudProfileResource) apply(ctx context.Context, planned tfsdk.Plan, mode writeMode, state largevalue.StateSetter, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	var plan namespacedCloudProfileModel
	diags.Append(largevalue.Get(ctx, planned.Schema, planned.Raw, r.LargeAttributes(), &plan)...)
	// Values still unknown at apply are Computed ones left to Gardener; expand leaves them out.
	desired, _, d := configuredNamespacedCloudProfile(ctx, plan, r.large.Planned(planned, specLargePath))
	diags.Append(d...)
	client, ok := clientAfter(r.data, diags)
	if !ok {
		return
	}
	ref := namespacedRefOf(desired.Namespace, desired.Name)
	requests := profileRequests[*gardencorev1beta1.NamespacedCloudProfile]{adopt: client.AdoptNamespacedCloudProfile, create: client.CreateNamespacedCloudProfile, apply: client.ApplyNamespacedCloudProfile}
	stored, err := requests.send(ctx, ref, desired, mode, plan.ForceConflicts.ValueBool(), plan.AdoptExisting.ValueBool(), diags)
	if err != nil {
		if d, missing := parentMissing(desired, err); missing {
			diags.Append(d)
			return
		}
		existing := func(ctx context.Context) (metav1.Object, error) {
			return client.GetNamespacedCloudProfile(ctx, desired.Namespace, desired.Name)
		}
		diags.Append(writeFailure(ctx, ref, mode, fmt.Sprintf("Applying NamespacedCloudProfile %s/%s", desired.Namespace, desired.Name), err, r.large.Planned(planned, specLargePath), existing)...)
		if !errors.Is(err, kube.ErrCreatedObjectKept) {
			return
		}
	}
	status, d := readKeptStatus(ctx, client, stored, plan.keepsMergedStatus(), r.large.Planned(planned, statusSpecLargePath))
	diags.Append(d...)
	diags.Append(r.setState(ctx, state, plan, stored, &desired.Spec, status, client.FieldManager())...)
	diags.Append(setIdentity(ctx, identity, namespacedIdentityOf(stored.Namespace, stored.Name))...)
}

// parentMissing recognises Gardener's answer to a NamespacedCloudProfile whose parent does not
// exist (its admission answers an internal error naming the CloudProfile) and puts it on
// spec.parent.name.
func parentMissing(ncp *gardencorev1beta1.NamespacedCloudProfile, err error) (diag.Diagnostic, bool) {
	notFound := fmt.Sprintf(`cloudprofile.core.gardener.cloud %q not found`, ncp.Spec.Parent.Name)
	if !strings.Contains(err.Error(), notFound) {
		return nil, false
	}
	return diag.NewAttributeErrorDiagnostic(path.Root("spec").AtName("parent").AtName("name"), "Parent CloudProfile not found",
		fmt.Sprintf("Gardener rejected NamespacedCloudProfile %s/%s because its parent CloudProfile %q does not exist (%v). Nothing was created.\n\n"+
			"Create the CloudProfile first, or fix spec.parent.name. When the parent is in this configuration, refer to it "+
			"(name = gardener_cloud_profile.<name>.metadata.name) so that Terraform creates it first.",
			ncp.Namespace, ncp.Name, ncp.Spec.Parent.Name, err)), true
}

// namespacedRefOf names a NamespacedCloudProfile in diagnostics.
func namespacedRefOf(namespace, name string) objectRef {
	return objectRef{"NamespacedCloudProfile", namespace + "/" + name}
}

// Read refreshes the state from the cluster; an object deleted out of band leaves the state.
func (r *namespacedCloudProfileResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state namespacedCloudProfileModel
	resp.Diagnostics.Append(largevalue.Get(ctx, req.State.Schema, req.State.Raw, r.LargeAttributes(), &state)...)
	client, ok := clientAfter(r.data, &resp.Diagnostics)
	if !ok {
		return
	}
	namespace, name := namespacedNameOf(state.Metadata, state.ID)
	if namespace == "" || name == "" {
		resp.Diagnostics.AddError("Invalid import ID", fmt.Sprintf("%q is not of the form namespace/name, e.g. garden-myproject/my-profile.", state.ID.ValueString()))
		return
	}
	ref := namespacedRefOf(namespace, name)
	ncp, err := client.GetNamespacedCloudProfile(ctx, namespace, name)
	if readEnds(ctx, resp, ref, namespacedIdentityOf(namespace, name), uidOf(state.Metadata), ncp, err) {
		return
	}
	resp.Diagnostics.Append(recordTermination(ctx, resp.Private, ref, ncp.DeletionTimestamp, cloudprofile.RuleNamespacedCloudProfileInUse)...)
	prior := priorSpec(req.State, r.large, expandNamespacedCloudProfileSpecTerraform, &resp.Diagnostics)
	status, d := readKeptStatus(ctx, client, ncp, state.keepsMergedStatus(), tftypes.NewValue(cloudProfileSpecRoot.tfType, nil))
	resp.Diagnostics.Append(d...)
	resp.Diagnostics.Append(r.setState(ctx, &resp.State, state, ncp, prior, status, client.FieldManager())...)
	resp.Diagnostics.Append(setIdentity(ctx, resp.Identity, namespacedIdentityOf(ncp.Namespace, ncp.Name))...)
}

func namespacedIdentityOf(namespace, name string) namespacedCloudProfileIdentity {
	return namespacedCloudProfileIdentity{Namespace: types.StringValue(namespace), Name: types.StringValue(name)}
}

// Delete deletes the NamespacedCloudProfile and waits until Gardener has released it.
func (r *namespacedCloudProfileResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state namespacedCloudProfileModel
	deleteProfile(ctx, req, resp, r.data, r.LargeAttributes(), &state, &state.Timeouts, func(client *kube.Client) profileDeletion {
		namespace, name := namespacedNameOf(state.Metadata, state.ID)
		return profileDeletion{
			ref: namespacedRefOf(namespace, name),
			delete: func(ctx context.Context) error {
				return client.DeleteNamespacedCloudProfile(ctx, namespace, name, uidOf(state.Metadata))
			},
			get: func(ctx context.Context) error {
				_, err := client.GetNamespacedCloudProfile(ctx, namespace, name)
				return err
			},
			users: namespacedCloudProfileUsers(client, namespace, name),
			rule:  cloudprofile.RuleNamespacedCloudProfileInUse,
		}
	})
}

// ImportState imports a NamespacedCloudProfile by "namespace/name".
func (r *namespacedCloudProfileResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if req.ID == "" && req.Identity != nil {
		importNamespacedByIdentity(ctx, req, resp)
		return
	}
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}

func (r *namespacedCloudProfileResource) setState(ctx context.Context, state largevalue.StateSetter, base namespacedCloudProfileModel, ncp *gardencorev1beta1.NamespacedCloudProfile, desired *gardencorev1beta1.NamespacedCloudProfileSpec, status keptStatus, manager string) diag.Diagnostics {
	var diags diag.Diagnostics
	// The view is of the object without its status and the status's field managers (the
	// controller's, read below as is): the merged profile is as big as the parent and would be
	// copied several times for nothing.
	withoutStatus := *ncp
	withoutStatus.Status = gardencorev1beta1.NamespacedCloudProfileStatus{}
	withoutStatus.ManagedFields = slices.DeleteFunc(slices.Clone(ncp.ManagedFields), func(e metav1.ManagedFieldsEntry) bool { return e.Subresource == "status" })
	view, ok := ownedViewOf(&withoutStatus, manager, desired, &diags)
	if !ok {
		return diags
	}
	spec := view.Spec
	if desired != nil {
		spec = cloudprofile.WithDroppedNamespacedVersions(spec, *desired, r.data.now())
	}
	meta, d := stateMetadata(ctx, base.Metadata, view.ObjectMeta)
	diags.Append(d...)
	out := base
	out.ID = types.StringValue(ncp.Namespace + "/" + ncp.Name)
	out.Metadata, d = types.ObjectValueFrom(ctx, namespacedMetadataType().AttrTypes, meta)
	diags.Append(d...)
	specValue, d := flattenSpecTerraform(namespacedCloudProfileSpecRoot, spec)
	diags.Append(d...)
	var statusSpec []largevalue.ValueAtPath
	out.Status, statusSpec, d = namespacedCloudProfileStatusValue(status)
	diags.Append(d...)
	out.ForceConflicts = falseUnlessSet(out.ForceConflicts)
	out.KeepMergedStatus = falseUnlessSet(out.KeepMergedStatus)
	out.AdoptExisting = falseUnlessSet(out.AdoptExisting)
	out.Timeouts = timeoutsUnlessSet(out.Timeouts)
	if diags.HasError() {
		return diags
	}
	diags.Append(r.large.SetState(ctx, state, r.LargeAttributes(), &out, append(statusSpec, largevalue.ValueAtPath{Path: specLargePath, Value: specValue})...)...)
	return diags
}

// configuredNamespacedCloudProfile builds the object of a configuration or plan, with the paths
// of the values that are still unknown.
func configuredNamespacedCloudProfile(ctx context.Context, m namespacedCloudProfileModel, specValue tftypes.Value) (*gardencorev1beta1.NamespacedCloudProfile, []path.Path, diag.Diagnostics) {
	var diags diag.Diagnostics
	om, unknown, d := metadataOf(m.Metadata).objectMeta(ctx)
	diags.Append(d...)
	spec, unknownSpec, d := expandNamespacedCloudProfileSpecTerraform(specValue, path.Root("spec"))
	diags.Append(d...)
	return &gardencorev1beta1.NamespacedCloudProfile{ObjectMeta: om, Spec: spec}, append(unknown, unknownSpec...), diags
}
