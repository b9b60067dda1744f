package provider

import (
	"context"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var namespacedCloudProfileStatusType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"observed_generation": types.Int64Type,
	"cloud_profile_spec":  cloudProfileSpecType(),
}}

// namespacedCloudProfileStatusAttribute describes the read-only status Gardener's controller writes.
func namespacedCloudProfileStatusAttribute() schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{
		Computed: true,
		MarkdownDescription: "Status written by Gardener's NamespacedCloudProfile controller, read as-is (never planned, never a source of changes). " +
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

// namespacedCloudProfileStatusValue converts the status as read.
func namespacedCloudProfileStatusValue(ctx context.Context, s gardencorev1beta1.NamespacedCloudProfileStatus) (types.Object, diag.Diagnostics) {
	spec, diags := flattenCloudProfileSpec(ctx, s.CloudProfileSpec)
	obj, d := types.ObjectValue(namespacedCloudProfileStatusType.AttrTypes, map[string]attr.Value{
		"observed_generation": types.Int64Value(s.ObservedGeneration),
		"cloud_profile_spec":  spec,
	})
	diags.Append(d...)
	return obj, diags
}
