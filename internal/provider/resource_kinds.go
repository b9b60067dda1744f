package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
	"github.com/gardener-community/terraform-provider-gardener/internal/provider/largevalue"
)

// The two kinds of profile resource (profileResourceOf): their traits, their models, and what
// each records in the state of its own.

// kindTraits describe a kind of profile, with objects O and their spec S: its resource type's
// name (after the provider's), its object kind, its schema's own parts, the descriptors of its
// spec and status, and how it handles the spec.
type kindTraits[O, S any] struct {
	typeName, kind string
	namespaced     bool
	schema         profileSchema
	root, status   specField
	on             profileKinds
	expand         func(tftypes.Value, path.Path) (S, []path.Path, diag.Diagnostics)
	// dropped is a spec with the versions Gardener dropped from desired put back.
	dropped func(spec, desired S, now time.Time) S
	of      func(O) S
	object  func(metav1.ObjectMeta, S) O
	// owned is the part of an object the state records through its field manager's owned view;
	// nil: all of it.
	owned func(O) O
	// identity is the resource identity of the object of the namespace and name.
	identity func(namespace, name string) any
}

// cloudProfileResource is the CloudProfile kind of profile resource (profileResourceOf).
type cloudProfileResource struct{ profileResource }

// cloudProfileModel is the resource's state and plan without its large attributes (spec and
// status; see largevalue.Get).
type cloudProfileModel struct {
	profileResourceModel
	KeepStatus types.Bool `tfsdk:"keep_status"`
}

// cloudProfileTraits are the traits of CloudProfiles (a function: the descriptors are ready only
// after the package's init).
func cloudProfileTraits() kindTraits[*gardencorev1beta1.CloudProfile, gardencorev1beta1.CloudProfileSpec] {
	return kindTraits[*gardencorev1beta1.CloudProfile, gardencorev1beta1.CloudProfileSpec]{
		typeName: "_cloud_profile", kind: "CloudProfile", root: cloudProfileSpecRoot, status: cloudProfileStatusRoot, on: onCloudProfile,
		identity: func(_, name string) any { return cloudProfileIdentity{Name: types.StringValue(name)} },
		expand:   expandCloudProfileSpecTerraform, dropped: cloudprofile.WithDroppedVersions,
		of: func(cp *gardencorev1beta1.CloudProfile) gardencorev1beta1.CloudProfileSpec { return cp.Spec },
		object: func(om metav1.ObjectMeta, spec gardencorev1beta1.CloudProfileSpec) *gardencorev1beta1.CloudProfile {
			return &gardencorev1beta1.CloudProfile{ObjectMeta: om, Spec: spec}
		},
		schema: profileSchema{version: cloudProfileSchemaVersion, description: cloudProfileDescription, keep: "keep_status", keepDescription: keepStatusDescription},
	}
}

// cloudProfileDescription describes the CloudProfile resource.
const cloudProfileDescription = "A Gardener `CloudProfile` (`core.gardener.cloud/v1beta1`, cluster-scoped): the Kubernetes versions, machine images, " +
	"machine types, volume types and regions shoots of one provider type may use.\n\n" +
	"The provider writes the object with server-side apply under its field manager and owns exactly what is configured: " +
	"list entries and labels other managers add are left alone and never show as changes. `terraform validate` and `plan` " +
	"check Gardener's validation rules offline and put each problem on its attribute; plans warn about versions that are " +
	"already expired (Gardener drops them on create) or change classification within the provider's `expiry_warning_window`."

// keepStatusDescription describes keep_status.
const keepStatusDescription = "Keep the status Gardener's CloudProfile controller writes (the classification of every version) in " +
	"`status` of the state. Off by default: the controller writes it after each apply, so a kept status changes " +
	"outside of Terraform after every apply and on every classification change. The `gardener_cloud_profile` data " +
	"source computes the classifications at any instant."

// ownState records keep_status and, where it is set, the status the controller wrote.
func (r *cloudProfileResource) ownState(_ context.Context, base cloudProfileModel, common profileResourceModel, cp *gardencorev1beta1.CloudProfile, _ *kube.Client, _ tftypes.Value) (cloudProfileModel, []largevalue.ValueAtPath, diag.Diagnostics) {
	out := cloudProfileModel{profileResourceModel: common, KeepStatus: falseUnlessSet(base.KeepStatus)}
	status := tftypes.NewValue(cloudProfileStatusRoot.tfType, nil)
	var diags diag.Diagnostics
	if base.KeepStatus.ValueBool() {
		status, diags = cloudProfileStatusValue(cp.Status)
	}
	return out, []largevalue.ValueAtPath{{Path: largevalue.Path{cloudProfileStatusRoot.attr}, Value: status}}, diags
}

// namespacedCloudProfileResource is the NamespacedCloudProfile kind of profile resource
// (profileResourceOf).
type namespacedCloudProfileResource struct{ profileResource }

// namespacedCloudProfileModel is the resource's state and plan without its spec (see
// largevalue.Get); the status's cloud_profile_spec is null in it.
type namespacedCloudProfileModel struct {
	profileResourceModel
	Status           types.Object `tfsdk:"status"`
	KeepMergedStatus types.Bool   `tfsdk:"keep_merged_status"`
}

// keepsMergedStatus tells whether the state keeps status.cloud_profile_spec (off unless set).
func (m namespacedCloudProfileModel) keepsMergedStatus() bool { return m.KeepMergedStatus.ValueBool() }

// namespacedCloudProfileTraits are the traits of NamespacedCloudProfiles.
func namespacedCloudProfileTraits() kindTraits[*gardencorev1beta1.NamespacedCloudProfile, gardencorev1beta1.NamespacedCloudProfileSpec] {
	return kindTraits[*gardencorev1beta1.NamespacedCloudProfile, gardencorev1beta1.NamespacedCloudProfileSpec]{
		typeName: "_namespaced_cloud_profile", kind: "NamespacedCloudProfile", namespaced: true,
		identity: func(namespace, name string) any { return namespacedIdentityOf(namespace, name) },
		root:     namespacedCloudProfileSpecRoot, status: namespacedCloudProfileStatusField(), on: onNamespacedCloudProfile,
		expand: expandNamespacedCloudProfileSpecTerraform, dropped: cloudprofile.WithDroppedNamespacedVersions, owned: withoutStatus,
		of: func(ncp *gardencorev1beta1.NamespacedCloudProfile) gardencorev1beta1.NamespacedCloudProfileSpec {
			return ncp.Spec
		},
		object: func(om metav1.ObjectMeta, spec gardencorev1beta1.NamespacedCloudProfileSpec) *gardencorev1beta1.NamespacedCloudProfile {
			return &gardencorev1beta1.NamespacedCloudProfile{ObjectMeta: om, Spec: spec}
		},
		schema: profileSchema{
			version: namespacedCloudProfileSchemaVersion, description: namespacedCloudProfileDescription,
			keep: "keep_merged_status", keepDescription: keepMergedStatusDescription,
		},
	}
}

// namespacedCloudProfileDescription describes the NamespacedCloudProfile resource.
const namespacedCloudProfileDescription = "A Gardener `NamespacedCloudProfile` (`core.gardener.cloud/v1beta1`): a project's extension of a parent " +
	"`CloudProfile` — longer expiration dates, extra machine image versions, machine types and volume types. The merged " +
	"profile (the parent with this profile's changes) is in the state only with `keep_merged_status = true`; the " +
	"`gardener_namespaced_cloud_profile` data source computes it on every read (`include_merged_profile = true`).\n\n" +
	"`plan` reads the parent (one request per parent and run, shared by every namespaced profile of that parent) and runs Gardener's " +
	"admission checks against it, including the validation of the merged result. The first line of each problem's detail names " +
	"the attribute path that caused it."

// keepMergedStatusDescription describes keep_merged_status.
const keepMergedStatusDescription = "Keep `status`, the merged profile, in the state (see `status`). Off by default: it is a copy of the " +
	"whole parent in every namespaced profile's state, and it changes outside of Terraform whenever the parent changes. " +
	"To read the merged profile without keeping it, use the `gardener_namespaced_cloud_profile` data source with `include_merged_profile = true`."

// ownState records keep_merged_status and, where it is set, the merged status (readKeptStatus,
// against the plan's merged profile plannedStatus).
func (r *namespacedCloudProfileResource) ownState(ctx context.Context, base namespacedCloudProfileModel, common profileResourceModel, ncp *gardencorev1beta1.NamespacedCloudProfile, client *kube.Client, plannedStatus tftypes.Value) (namespacedCloudProfileModel, []largevalue.ValueAtPath, diag.Diagnostics) {
	out := namespacedCloudProfileModel{profileResourceModel: common, KeepMergedStatus: falseUnlessSet(base.KeepMergedStatus)}
	status, diags := readKeptStatus(ctx, client, ncp, base.keepsMergedStatus(), plannedStatus)
	var large []largevalue.ValueAtPath
	var d diag.Diagnostics
	out.Status, large, d = namespacedCloudProfileStatusValue(status)
	return out, large, append(diags, d...)
}

// withoutStatus is the object without its status and the status's field managers (the controller's, read
// as is by the kind's ownState): the merged profile is as big as the parent and would be copied several
// times for nothing.
func withoutStatus(ncp *gardencorev1beta1.NamespacedCloudProfile) *gardencorev1beta1.NamespacedCloudProfile {
	withoutStatus := *ncp
	withoutStatus.Status = gardencorev1beta1.NamespacedCloudProfileStatus{}
	withoutStatus.ManagedFields = slices.DeleteFunc(slices.Clone(ncp.ManagedFields), func(e metav1.ManagedFieldsEntry) bool { return e.Subresource == "status" })
	return &withoutStatus
}

// trees are the attributes built from descriptors: the spec and the status.
func (k kindTraits[O, S]) trees() []specField { return []specField{k.root, k.status} }

// largeAttributes are the large fields of the trees, kept from the framework (LargeAttributes).
// The spec comes first, as the merged profile of a NamespacedCloudProfile is planned from the
// planned spec.
func (k kindTraits[O, S]) largeAttributes() []largevalue.Path { return largePaths(k.trees()...) }

// configured builds the object of a configuration or plan from its metadata and spec, with the
// paths of the values that are still unknown.
func (k kindTraits[O, S]) configured(ctx context.Context, metadata types.Object, specValue tftypes.Value) (O, []path.Path, diag.Diagnostics) {
	var diags diag.Diagnostics
	om, unknown, d := metadataOf(metadata).objectMeta(ctx)
	diags.Append(d...)
	spec, unknownSpec, d := k.expand(specValue, path.Root("spec"))
	diags.Append(d...)
	return k.object(om, spec), append(unknown, unknownSpec...), diags
}

// inGardenOrder is desired with its keyed lists in the orders private records (see spec_order.go),
// and the orders they then have where these are not the wire order.
func (k kindTraits[O, S]) inGardenOrder(ctx context.Context, desired O, private privateState, diags *diag.Diagnostics) (O, keyOrders) {
	orders, d := recordedKeyOrders(ctx, private)
	diags.Append(d...)
	spec, sent, err := inOrder(k.root, k.of(desired), orders)
	if err != nil {
		diags.AddError("Cannot order the spec", fmt.Sprintf("The spec could not be put in the order the Garden holds it: %v. This is a bug in the provider.", err))
		return desired, nil
	}
	if len(orders) == 0 {
		return desired, nil
	}
	return k.object(objectMetaOf(desired), spec), sent
}

// profileSchema is what the schemas of the two kinds have of their own.
type profileSchema struct {
	version     int64
	description string
	// keep names the kind's flag that keeps its status in the state; keepDescription describes it.
	keep, keepDescription string
}

// resourceSchema is the schema of the kind's resource: the attributes both kinds have, the kind's
// own (its schema), and its trees.
func (k kindTraits[O, S]) resourceSchema(ctx context.Context) schema.Schema {
	idDescription := "The " + k.kind + "'s name; also the import ID."
	if k.namespaced {
		idDescription = "`namespace/name`; also the import ID."
	}
	attrs := map[string]schema.Attribute{
		"id": schema.StringAttribute{
			Computed:            true,
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			MarkdownDescription: idDescription,
		},
		"metadata":        metadataAttribute(k.kind, k.namespaced),
		"force_conflicts": forceConflictsAttribute(),
		"adopt_existing":  adoptExistingAttribute(k.kind),
		"timeouts":        timeoutsAttribute(ctx),
		k.schema.keep:     flagAttribute(k.schema.keepDescription),
	}
	maps.Copy(attrs, resourceTreeAttributes(k.trees(), k.on))
	return schema.Schema{Version: k.schema.version, MarkdownDescription: k.schema.description, Attributes: withResourceNestedTypes(attrs)}
}

// forceConflictsAttribute is the write-only argument that lets an apply take over fields other
// field managers share with the resource: an argument of the apply only, so that setting it and
// removing it again plans no update.
func forceConflictsAttribute() schema.BoolAttribute {
	return schema.BoolAttribute{Optional: true, WriteOnly: true, MarkdownDescription: "Let the apply take over the fields " +
		"the plan changes that another field manager shares with this resource (it applied the same value, as a second " +
		"workspace may) or that only another manager set and the state does not show, instead of failing at plan with a " +
		"conflict. Not needed to set back another manager's change, nor to change what an import read: the plan shows " +
		"those with both values and the apply takes exactly those over. Write-only (Terraform 1.11+, OpenTofu 1.11+): it " +
		"is not stored in the state, and setting it or removing it again plans no update."}
}

// flagAttribute is an argument of the provider's own that is false unless set.
func flagAttribute(description string) schema.BoolAttribute {
	return schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(false), MarkdownDescription: description}
}
