package provider

import (
	"context"
	"fmt"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
	"github.com/gardener-community/terraform-provider-gardener/internal/provider/largevalue"
)

// namespacedCloudProfileDataSource reads a NamespacedCloudProfile and its parent (two requests),
// merges them locally as Gardener does and evaluates the result at an instant.
type namespacedCloudProfileDataSource struct{ profileDataSource }

type namespacedCloudProfileDataSourceModel struct {
	Namespace          types.String `tfsdk:"namespace"`
	LifecycleOverrides types.Bool   `tfsdk:"lifecycle_overrides"`
	KeepMergedStatus   types.Bool   `tfsdk:"keep_merged_status"`
	// IncludeMergedProfile returns merged_spec and the lists derived from it.
	IncludeMergedProfile types.Bool   `tfsdk:"include_merged_profile"`
	Status               types.Object `tfsdk:"status"`
	ParentFound          types.Bool   `tfsdk:"parent_found"`
	profileReadModel
	objectModel
	shootUsage
}

// trees are the attributes built from descriptors: the object's own spec, the merged spec, the
// controller's status with its merged profile, and the lists derived from the merged spec.
func (d *namespacedCloudProfileDataSource) trees() []specField {
	return append([]specField{
		namespacedCloudProfileSpecRoot,
		cloudProfileSpecRoot.named("merged_spec", "The effective profile, computed locally exactly as Gardener's NamespacedCloudProfile "+
			"controller renders `status.cloudProfileSpec`: the parent CloudProfile's spec with this profile's `spec` merged in (Gardener "+
			"v1.149's merge, or the GEP-32 lifecycle merge with `lifecycle_overrides`). For a parent of a type whose provider extension the provider "+
			"knows (`local`, `aws`, `azure`, `gcp`, `openstack`, `alicloud`), `provider_config` is the parent's with this profile's "+
			"`provider_config` merged in as the extension's mutator merges it (images, versions and machine types it writes in random "+
			"order are listed here in the parent's order, additions last), and this profile's versions carry the capability flavors that "+
			"mutator fills in; for other types `provider_config` is the parent's. All classifications, lookups and conditions of this "+
			"data source are computed from it. Null when the parent does not exist, and unless `include_merged_profile` is true."),
		namespacedStatusField("Status written by Gardener's NamespacedCloudProfile controller, as read; null while it has rendered nothing. "+
			"Compare `status_in_sync`.",
			"The `generation` the controller last rendered.",
			"The merged profile as Gardener's controller last rendered it; null unless `keep_merged_status` is true."),
	}, profileOutputFields(true)...)
}

// LargeAttributes are the large fields of trees, kept from the framework: the object's spec, the
// merged spec, the controller's merged profile and the derived lists.
func (d *namespacedCloudProfileDataSource) LargeAttributes() []largevalue.Path {
	return largePaths(d.trees()...)
}

// Schema describes the data source.
func (d *namespacedCloudProfileDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = profileDataSourceSchema(
		"Reads one Gardener `NamespacedCloudProfile` and its parent `CloudProfile` (two API requests), merges them "+
			"locally exactly as Gardener's controller does, and evaluates the merged profile at an instant `at`: the newest supported versions "+
			"shoot modules pick and conditions with a summarising `Ready`; `status_in_sync` tells whether the controller's rendered status "+
			"matches. With `include_merged_profile = true` it also returns the merged profile, the classification and next transition of every "+
			"version, and the types usable per region and zone.",
		d.trees(), "of the namespace that refer to the NamespacedCloudProfile",
		objectAttributes("Generation of the object's spec (`metadata.generation`)."),
		profileAttributes("Name of the NamespacedCloudProfile.", "Whether Gardener's controller has rendered the object's "+
			"current generation (`status.observed_generation` equals `generation`) and its `status.cloud_profile_spec` equals the local merge "+
			"(`merged_spec`, also when that is not returned), "+
			"compared as JSON with `architectures` lists treated as sets. When this profile sets a `provider_config`, the provider extension "+
			"merges it into the status: for the types whose extension the provider knows it is compared with its lists of named or versioned "+
			"entries treated as sets (the extension writes them in random order); for other types it is not compared. False when the parent changed since the controller last rendered, e.g. while "+
			"the controller is down; shoots see the status, not the local merge."),
		namespacedDataSourceAttributes())
}

// namespacedDataSourceAttributes describe the attributes only this data source has.
func namespacedDataSourceAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"namespace": schema.StringAttribute{Required: true, MarkdownDescription: "Namespace of the NamespacedCloudProfile, i.e. of the project (`garden-<project>`)."},
		"lifecycle_overrides": schema.BoolAttribute{Optional: true, MarkdownDescription: "Merge with GEP-32 lifecycle overrides: the " +
			"namespaced profile's Kubernetes and machine image version overrides may move the start times of the parent's lifecycle stages. " +
			"Gardener v1.149 does not implement this (it takes only the `expiration_date` of an override); set it only for a Gardener that does. " +
			"`status_in_sync` compares the status with the merge chosen here. Defaults to false."},
		"keep_merged_status": schema.BoolAttribute{Optional: true, MarkdownDescription: "Return the merged profile Gardener's controller " +
			"rendered in `status.cloud_profile_spec`. Off by default: it is another copy of the whole parent in every lookup, and whenever " +
			"`status_in_sync` is true it equals `merged_spec` (`provider_config` up to the order of the lists a provider extension writes in random " +
			"order). `status_in_sync` compares the status either way. Defaults to false."},
		"include_merged_profile": schema.BoolAttribute{Optional: true, MarkdownDescription: "Return the merged profile: `merged_spec`, and " +
			"what is listed from it: every version with its classification (`kubernetes_versions`, `machine_images`), the usable types " +
			"(`machine_types`, `volume_types`) and `regions`. Off by default: they are a copy of the whole parent in every lookup, which a " +
			"workspace that reads the profiles of hundreds of projects pays hundreds of times. The object, the lookups " +
			"(`latest_kubernetes_version`, `latest_kubernetes_versions_by_minor`, `latest_machine_image_versions`), the conditions and " +
			"`status_in_sync` are computed from the merged profile either way. Modules that pick versions and types for a shoot can read " +
			"the merged profile with the `gardener_effective_cloud_profile` data source too. Defaults to false."},
		"parent_found": schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the parent CloudProfile (`spec.parent.name`) exists. " +
			"Without it nothing can be merged: `merged_spec` is null, the version lists are empty (with `include_merged_profile`) and the " +
			"`ParentExists` condition is an Error."},
	}
}

// Read fetches the NamespacedCloudProfile (one request) and its parent (one per parent and run,
// shared by every lookup of the run) and evaluates the merge.
func (d *namespacedCloudProfileDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m namespacedCloudProfileDataSourceModel
	ev, client, ok := d.readConfig(ctx, req.Config, d.LargeAttributes(), &m, &resp.Diagnostics)
	if !ok {
		return
	}
	r, diags := readNamespacedProfile(ctx, client, m.Namespace.ValueString(), m.Name.ValueString(),
		cloudprofile.MergeOptions{LifecycleOverrides: m.LifecycleOverrides.ValueBool(), Now: ev.at})
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	ncp := r.ncp

	m.read(ctx, ncp, &resp.Diagnostics)
	specValue, diags := flattenSpecTerraform(namespacedCloudProfileSpecRoot, ncp.Spec)
	resp.Diagnostics.Append(diags...)
	large := []largevalue.ValueAtPath{{Path: specLargePath, Value: specValue}}
	var statusSpec []largevalue.ValueAtPath
	m.Status, statusSpec, diags = namespacedStatusDataSourceValue(ncp.Status, m.KeepMergedStatus.ValueBool())
	resp.Diagnostics.Append(diags...)
	large = append(large, statusSpec...)
	m.ParentFound = types.BoolValue(r.merged != nil)
	detail := summaryOnly
	if m.IncludeMergedProfile.ValueBool() {
		detail = wholeProfile
	}
	if r.merged != nil && detail == wholeProfile {
		mergedValue, diags := flattenSpecTerraform(cloudProfileSpecRoot, *r.merged)
		resp.Diagnostics.Append(diags...)
		large = append(large, largevalue.ValueAtPath{Path: largevalue.Path{"merged_spec"}, Value: mergedValue})
	}
	m.StatusInSync = types.BoolValue(r.sync != nil && r.sync.InSync)
	m.profileOutputs, diags = computeProfileOutputs(ctx, r.merged, nil, ev, detail, r.conditions(ev.at)...)
	resp.Diagnostics.Append(diags...)
	m.readShootUsage(ctx, d.data, ncp.Namespace, r.merged, func(s []gardencorev1beta1.Shoot) cloudprofile.VersionUsage {
		return cloudprofile.VersionUsageOfNamespacedCloudProfile(ncp.Namespace, ncp.Name, s)
	}, &resp.Diagnostics)
	d.writeState(ctx, &resp.State, d.LargeAttributes(), &m, append(large, m.lists...), &resp.Diagnostics)
}

// namespacedProfileRead is a NamespacedCloudProfile as read, with the local merge with its parent.
type namespacedProfileRead struct {
	ncp *gardencorev1beta1.NamespacedCloudProfile
	// merged is the local merge; nil when the parent does not exist.
	merged *gardencorev1beta1.CloudProfileSpec
	// sync compares the status with merged; nil when the parent does not exist.
	sync *cloudprofile.NamespacedStatusSync
}

// readNamespacedProfile reads a NamespacedCloudProfile (one request) and its parent (one per run,
// shared through the client's parent cache) and merges them locally as Gardener's controller does.
// A missing parent is a warning: nothing is merged.
func readNamespacedProfile(ctx context.Context, client *kube.Client, namespace, name string, opts cloudprofile.MergeOptions) (namespacedProfileRead, diag.Diagnostics) {
	var diags diag.Diagnostics
	reqCtx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	ncp, err := client.GetNamespacedCloudProfile(reqCtx, namespace, name)
	if err != nil {
		diags.Append(lookupError("Reading the NamespacedCloudProfile", namespacedRefOf(namespace, name), err))
		return namespacedProfileRead{}, diags
	}
	r := namespacedProfileRead{ncp: ncp}
	parentName := ncp.Spec.Parent.Name
	parent, err := client.ParentCloudProfile(reqCtx, parentName)
	switch {
	case kube.IsNotFound(err):
		diags.AddWarning("Parent CloudProfile not found",
			fmt.Sprintf("The parent CloudProfile %q of NamespacedCloudProfile %s/%s does not exist, so the profile cannot be merged: "+
				"the merged spec is null and the ParentExists condition is False.", parentName, ncp.Namespace, ncp.Name))
		return r, diags
	case err != nil:
		diags.Append(requestError("Reading the parent CloudProfile", err))
		return r, diags
	}
	spec, extensionMerged := mergedNamespacedProfile(ncp.Name, parent.Spec, ncp.Spec, opts)
	sync := cloudprofile.CompareNamespacedStatus(ncp.Generation, ncp.Spec, ncp.Status, spec, extensionMerged)
	r.merged, r.sync = &spec, &sync
	return r, diags
}

// conditions are the conditions only a namespaced profile has: ParentExists and StatusInSync.
func (r namespacedProfileRead) conditions(at time.Time) []cloudprofile.Condition {
	return []cloudprofile.Condition{
		cloudprofile.ParentExistsCondition(r.ncp.Spec.Parent.Name, r.merged != nil, at),
		cloudprofile.StatusInSyncCondition(r.sync, at),
	}
}

// namespacedStatusDataSourceValue converts the status as read; null when nothing was rendered.
// With keepSpec its cloud_profile_spec is returned as a ready Terraform value (see
// largevalue.Values.SetState), else it stays null.
func namespacedStatusDataSourceValue(s gardencorev1beta1.NamespacedCloudProfileStatus, keepSpec bool) (types.Object, []largevalue.ValueAtPath, diag.Diagnostics) {
	if s.ObservedGeneration == 0 {
		return types.ObjectNull(namespacedCloudProfileStatusType.AttrTypes), nil, nil
	}
	obj, diags := types.ObjectValue(namespacedCloudProfileStatusType.AttrTypes, map[string]attr.Value{
		"observed_generation": types.Int64Value(s.ObservedGeneration),
	})
	if !keepSpec {
		return obj, nil, diags
	}
	spec, d := flattenSpecTerraform(cloudProfileSpecRoot, s.CloudProfileSpec)
	diags.Append(d...)
	return obj, []largevalue.ValueAtPath{{Path: statusSpecLargePath, Value: spec}}, diags
}
