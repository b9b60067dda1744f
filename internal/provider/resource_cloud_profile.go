package provider

import (
	"context"
	"errors"
	"maps"

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

// cloudProfileResource is the resource of a CloudProfile.
type cloudProfileResource struct{ profileResource }

func newCloudProfileResource() resource.Resource { return &cloudProfileResource{} }

// cloudProfileModel is the resource's state and plan without its large attributes (spec and
// status; see largevalue.Get).
type cloudProfileModel struct {
	ID             types.String   `tfsdk:"id"`
	Metadata       types.Object   `tfsdk:"metadata"`
	ForceConflicts types.Bool     `tfsdk:"force_conflicts"`
	AdoptExisting  types.Bool     `tfsdk:"adopt_existing"`
	KeepStatus     types.Bool     `tfsdk:"keep_status"`
	Timeouts       timeouts.Value `tfsdk:"timeouts"`
}

// WithLargeValues is the resource serving a request of the Server with its large values.
func (r *cloudProfileResource) WithLargeValues(v largevalue.Values) resource.Resource {
	return withLargeValues(r, v)
}

// Metadata names the resource.
func (r *cloudProfileResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_cloud_profile"
}

// trees are the attributes built from descriptors: the spec and the controller's status.
func (r *cloudProfileResource) trees() []specField {
	return []specField{cloudProfileSpecRoot, cloudProfileStatusRoot}
}

// LargeAttributes are the large fields of trees, kept from the framework.
func (r *cloudProfileResource) LargeAttributes() []largevalue.Path { return largePaths(r.trees()...) }

// Schema describes the resource.
func (r *cloudProfileResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		Version: cloudProfileSchemaVersion,
		MarkdownDescription: "A Gardener `CloudProfile` (`core.gardener.cloud/v1beta1`, cluster-scoped): the Kubernetes versions, machine images, " +
			"machine types, volume types and regions shoots of one provider type may use.\n\n" +
			"The provider writes the object with server-side apply under its field manager and owns exactly what is configured: " +
			"list entries and labels other managers add are left alone and never show as changes. `terraform validate` and `plan` " +
			"check Gardener's validation rules offline and put each problem on its attribute; plans warn about versions that are " +
			"already expired (Gardener drops them on create) or change classification within the provider's `expiry_warning_window`.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
				MarkdownDescription: "The CloudProfile's name; also the import ID.",
			},
			"metadata": metadataAttribute("CloudProfile", false),
			"force_conflicts": schema.BoolAttribute{
				Optional: true,
				Computed: true,
				Default:  booldefault.StaticBool(false),
				MarkdownDescription: "Take over fields another field manager owns instead of failing with a conflict. " +
					"Off by default, so that a change by a controller or a colleague is never overwritten silently.",
			},
			"adopt_existing": adoptExistingAttribute("CloudProfile"),
			"keep_status": schema.BoolAttribute{
				Optional: true, Computed: true, Default: booldefault.StaticBool(false),
				MarkdownDescription: "Keep the status Gardener's CloudProfile controller writes (the classification of every version) in " +
					"`status` of the state. Off by default: the controller writes it after each apply, so a kept status changes " +
					"outside of Terraform after every apply and on every classification change. The `gardener_cloud_profile` data " +
					"source computes the classifications at any instant.",
			},
			"timeouts": timeoutsAttribute(ctx),
		},
	}
	maps.Copy(resp.Schema.Attributes, resourceTreeAttributes(r.trees(), onCloudProfile))
	resp.Schema.Attributes = withResourceNestedTypes(resp.Schema.Attributes)
}

// Create creates the CloudProfile; it fails when one of the name exists, unless adopt_existing.
func (r *cloudProfileResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	createProfile(ctx, r, req, resp)
}

// Update applies the changed CloudProfile to the object of the UID in state.
func (r *cloudProfileResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	updateProfile(ctx, r, req, resp)
}

// apply writes the planned object (see writeMode) and records what was stored, also when a
// failed create leaves its object in the Garden (kube.ErrCreatedObjectKept).
func (r *cloudProfileResource) apply(ctx context.Context, planned tfsdk.Plan, mode writeMode, state largevalue.StateSetter, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	var plan cloudProfileModel
	diags.Append(largevalue.Get(ctx, planned.Schema, planned.Raw, r.LargeAttributes(), &plan)...)
	// Values still unknown at apply are Computed ones left to Gardener (its defaults); expand
	// leaves them out, which is what applying them means.
	desired, _, d := configuredCloudProfile(ctx, plan, r.large.Planned(planned, specLargePath))
	diags.Append(d...)
	client, ok := clientAfter(r.data, diags)
	if !ok {
		return
	}
	ref := objectRef{"CloudProfile", desired.Name}
	requests := profileRequests[*gardencorev1beta1.CloudProfile]{adopt: client.AdoptCloudProfile, create: client.CreateCloudProfile, apply: client.ApplyCloudProfile}
	stored, err := requests.send(ctx, ref, desired, mode, plan.ForceConflicts.ValueBool(), plan.AdoptExisting.ValueBool(), diags)
	if err != nil {
		existing := func(ctx context.Context) (metav1.Object, error) { return client.GetCloudProfile(ctx, desired.Name) }
		diags.Append(writeFailure(ctx, ref, mode, "Applying CloudProfile "+desired.Name, err, r.large.Planned(planned, specLargePath), existing)...)
		if !errors.Is(err, kube.ErrCreatedObjectKept) {
			return
		}
	}
	diags.Append(r.setState(ctx, state, plan, stored, &desired.Spec, client.FieldManager())...)
	diags.Append(setIdentity(ctx, identity, cloudProfileIdentity{Name: types.StringValue(stored.Name)})...)
}

// Read refreshes the state from the cluster; an object deleted out of band leaves the state.
func (r *cloudProfileResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state cloudProfileModel
	resp.Diagnostics.Append(largevalue.Get(ctx, req.State.Schema, req.State.Raw, r.LargeAttributes(), &state)...)
	client, ok := clientAfter(r.data, &resp.Diagnostics)
	if !ok {
		return
	}
	name := nameOf(state.Metadata, state.ID)
	ref := objectRef{"CloudProfile", name}
	cp, err := client.GetCloudProfile(ctx, name)
	if readEnds(ctx, resp, ref, cloudProfileIdentity{Name: types.StringValue(name)}, uidOf(state.Metadata), cp, err) {
		return
	}
	resp.Diagnostics.Append(recordTermination(ctx, resp.Private, ref, cp.DeletionTimestamp, cloudprofile.RuleCloudProfileInUse)...)
	prior := priorSpec(req.State, r.large, expandCloudProfileSpecTerraform, &resp.Diagnostics)
	resp.Diagnostics.Append(r.setState(ctx, &resp.State, state, cp, prior, client.FieldManager())...)
	resp.Diagnostics.Append(setIdentity(ctx, resp.Identity, cloudProfileIdentity{Name: types.StringValue(cp.Name)})...)
}

// Delete deletes the CloudProfile and waits until Gardener has released it.
func (r *cloudProfileResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state cloudProfileModel
	deleteProfile(ctx, req, resp, r.data, r.LargeAttributes(), &state, &state.Timeouts, func(client *kube.Client) profileDeletion {
		name := nameOf(state.Metadata, state.ID)
		return profileDeletion{
			ref:    objectRef{"CloudProfile", name},
			delete: func(ctx context.Context) error { return client.DeleteCloudProfile(ctx, name, uidOf(state.Metadata)) },
			get:    func(ctx context.Context) error { _, err := client.GetCloudProfile(ctx, name); return err },
			users:  cloudProfileUsers(client, name),
			rule:   cloudprofile.RuleCloudProfileInUse,
		}
	})
}

// ImportState imports a CloudProfile by name.
func (r *cloudProfileResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughWithIdentity(ctx, path.Root("id"), path.Root("name"), req, resp)
}

// setState records the object as the provider sees it: what its field manager owns, the versions
// Gardener dropped from what was desired, server defaults, and the controller's status.
func (r *cloudProfileResource) setState(ctx context.Context, state largevalue.StateSetter, base cloudProfileModel, cp *gardencorev1beta1.CloudProfile, desired *gardencorev1beta1.CloudProfileSpec, manager string) diag.Diagnostics {
	var diags diag.Diagnostics
	view, ok := ownedViewOf(cp, manager, desired, &diags)
	if !ok {
		return diags
	}
	spec := view.Spec
	if desired != nil {
		spec = cloudprofile.WithDroppedVersions(spec, *desired, r.data.now())
	}
	meta, d := stateMetadata(ctx, base.Metadata, view.ObjectMeta)
	diags.Append(d...)
	out := base
	out.ID = types.StringValue(cp.Name)
	out.Metadata, d = types.ObjectValueFrom(ctx, clusterMetadataType().AttrTypes, meta.clusterScoped())
	diags.Append(d...)
	specValue, d := flattenSpecTerraform(cloudProfileSpecRoot, spec)
	diags.Append(d...)
	statusValue := tftypes.NewValue(cloudProfileStatusRoot.tfType, nil)
	if base.KeepStatus.ValueBool() {
		statusValue, d = cloudProfileStatusValue(cp.Status)
		diags.Append(d...)
	}
	out.ForceConflicts = falseUnlessSet(out.ForceConflicts)
	out.AdoptExisting = falseUnlessSet(out.AdoptExisting)
	out.KeepStatus = falseUnlessSet(out.KeepStatus)
	out.Timeouts = timeoutsUnlessSet(out.Timeouts)
	if diags.HasError() {
		return diags
	}
	diags.Append(r.large.SetState(ctx, state, r.LargeAttributes(), &out, largevalue.ValueAtPath{Path: specLargePath, Value: specValue}, largevalue.ValueAtPath{Path: largevalue.Path{cloudProfileStatusRoot.attr}, Value: statusValue})...)
	return diags
}

// configuredCloudProfile builds the object of a configuration or plan, with the paths of the
// values that are still unknown.
func configuredCloudProfile(ctx context.Context, m cloudProfileModel, specValue tftypes.Value) (*gardencorev1beta1.CloudProfile, []path.Path, diag.Diagnostics) {
	var diags diag.Diagnostics
	om, unknown, d := metadataOf(m.Metadata).objectMeta(ctx)
	diags.Append(d...)
	spec, unknownSpec, d := expandCloudProfileSpecTerraform(specValue, path.Root("spec"))
	diags.Append(d...)
	return &gardencorev1beta1.CloudProfile{ObjectMeta: om, Spec: spec}, append(unknown, unknownSpec...), diags
}
