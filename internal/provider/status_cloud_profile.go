package provider

import (
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	versionStatusType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"version":        types.StringType,
		"classification": types.StringType,
	}}
	imageStatusType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"name":     types.StringType,
		"versions": types.ListType{ElemType: versionStatusType},
	}}
	cloudProfileStatusType = types.ObjectType{AttrTypes: map[string]attr.Type{
		"kubernetes_versions": types.ListType{ElemType: versionStatusType},
		"machine_images":      types.ListType{ElemType: imageStatusType},
	}}
)

func versionStatusAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"version":        schema.StringAttribute{Computed: true, MarkdownDescription: "The version."},
		"classification": schema.StringAttribute{Computed: true, MarkdownDescription: "Its classification when the controller last reconciled: `unavailable`, `preview`, `supported`, `deprecated` or `expired`."},
	}
}

// cloudProfileStatusAttribute describes the read-only status Gardener's controller writes.
func cloudProfileStatusAttribute() schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{
		Computed: true,
		MarkdownDescription: "Status written by Gardener's CloudProfile controller, read as-is (never planned, never a source of changes). " +
			"It lags behind the spec until the controller has reconciled; the `gardener_cloud_profile` data source computes classifications at any instant instead.",
		Attributes: map[string]schema.Attribute{
			"kubernetes_versions": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "Classification of each Kubernetes version, in spec order.",
				NestedObject:        schema.NestedAttributeObject{Attributes: versionStatusAttributes()},
			},
			"machine_images": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "Classification of each machine image version, per image in spec order.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name": schema.StringAttribute{Computed: true, MarkdownDescription: "Name of the machine image."},
					"versions": schema.ListNestedAttribute{
						Computed:            true,
						MarkdownDescription: "Classification of each version of the image.",
						NestedObject:        schema.NestedAttributeObject{Attributes: versionStatusAttributes()},
					},
				}},
			},
		},
	}
}

// cloudProfileStatusValue converts the status as read.
func cloudProfileStatusValue(s gardencorev1beta1.CloudProfileStatus) (types.Object, diag.Diagnostics) {
	var diags diag.Diagnostics
	var k8s []gardencorev1beta1.ExpirableVersionStatus
	if s.Kubernetes != nil {
		k8s = s.Kubernetes.Versions
	}
	kubernetes, d := versionStatusList(k8s)
	diags.Append(d...)
	images := make([]attr.Value, 0, len(s.MachineImages))
	for _, img := range s.MachineImages {
		versions, d := versionStatusList(img.Versions)
		diags.Append(d...)
		obj, d := types.ObjectValue(imageStatusType.AttrTypes, map[string]attr.Value{"name": types.StringValue(img.Name), "versions": versions})
		diags.Append(d...)
		images = append(images, obj)
	}
	imageList, d := types.ListValue(imageStatusType, images)
	diags.Append(d...)
	obj, d := types.ObjectValue(cloudProfileStatusType.AttrTypes, map[string]attr.Value{"kubernetes_versions": kubernetes, "machine_images": imageList})
	diags.Append(d...)
	return obj, diags
}

func versionStatusList(versions []gardencorev1beta1.ExpirableVersionStatus) (types.List, diag.Diagnostics) {
	var diags diag.Diagnostics
	elems := make([]attr.Value, 0, len(versions))
	for _, v := range versions {
		obj, d := types.ObjectValue(versionStatusType.AttrTypes, map[string]attr.Value{
			"version": types.StringValue(v.Version), "classification": types.StringValue(string(v.Classification)),
		})
		diags.Append(d...)
		elems = append(elems, obj)
	}
	l, d := types.ListValue(versionStatusType, elems)
	diags.Append(d...)
	return l, diags
}
