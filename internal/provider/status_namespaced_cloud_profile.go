package provider

import (
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

var namespacedCloudProfileStatusType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"observed_generation": types.Int64Type,
	"cloud_profile_spec":  cloudProfileSpecType(),
}}

// namespacedCloudProfileStatusAttribute describes the read-only status Gardener's controller writes.
func namespacedCloudProfileStatusAttribute() schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{
		Computed: true,
		MarkdownDescription: "Status written by Gardener's NamespacedCloudProfile controller, read as-is; null unless `keep_merged_status = true`. " +
			"It lags behind until the controller has reconciled; the `gardener_namespaced_cloud_profile` data source computes the merge locally.",
		Attributes: map[string]schema.Attribute{
			"observed_generation": schema.Int64Attribute{
				Computed:            true,
				MarkdownDescription: "The `metadata.generation` the controller last rendered `cloud_profile_spec` for.",
			},
			"cloud_profile_spec": computedResourceSpecAttribute(cloudProfileSpecRoot,
				"The merged profile: the parent CloudProfile's spec with this profile's overrides applied, as Gardener rendered it."),
		},
	}
}

// computedResourceSpecAttribute derives a read-only resource attribute from a spec descriptor.
func computedResourceSpecAttribute(root specField, description string) schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{Computed: true, MarkdownDescription: description, Attributes: computedResourceAttributes(root.children)}
}

// namespacedCloudProfileStatusValue converts the status as read, or null unless the status is
// kept. Its cloud_profile_spec is null in the object and returned as a ready Terraform value
// instead (see setStateWithValues).
func namespacedCloudProfileStatusValue(s gardencorev1beta1.NamespacedCloudProfileStatus, keep bool) (types.Object, terraformValueAt, diag.Diagnostics) {
	at := path.Root("status").AtName("cloud_profile_spec")
	if !keep {
		return types.ObjectNull(namespacedCloudProfileStatusType.AttrTypes), terraformValueAt{at, tftypes.NewValue(cloudProfileSpecRoot.tfType, nil)}, nil
	}
	spec, diags := flattenSpecTerraform(cloudProfileSpecRoot, s.CloudProfileSpec)
	obj, d := types.ObjectValue(namespacedCloudProfileStatusType.AttrTypes, map[string]attr.Value{
		"observed_generation": types.Int64Value(s.ObservedGeneration),
		"cloud_profile_spec":  types.ObjectNull(cloudProfileSpecType().AttrTypes),
	})
	diags.Append(d...)
	return obj, terraformValueAt{at, spec}, diags
}
