package provider

import (
	"context"
	"reflect"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
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
		MarkdownDescription: "Status written by Gardener's CloudProfile controller, read as-is; null unless `keep_status = true`. " +
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

// Go models of the status, converted with terraformValueOf.
type (
	versionStatusModel struct {
		Version        string `tfsdk:"version"`
		Classification string `tfsdk:"classification"`
	}
	imageStatusModel struct {
		Name     string               `tfsdk:"name"`
		Versions []versionStatusModel `tfsdk:"versions"`
	}
	cloudProfileStatusModel struct {
		KubernetesVersions []versionStatusModel `tfsdk:"kubernetes_versions"`
		MachineImages      []imageStatusModel   `tfsdk:"machine_images"`
	}
)

// cloudProfileStatusValue converts the status as read; lists without entries are empty, not null.
func cloudProfileStatusValue(ctx context.Context, s gardencorev1beta1.CloudProfileStatus) (tftypes.Value, error) {
	var k8s []gardencorev1beta1.ExpirableVersionStatus
	if s.Kubernetes != nil {
		k8s = s.Kubernetes.Versions
	}
	m := cloudProfileStatusModel{KubernetesVersions: versionStatusModels(k8s), MachineImages: make([]imageStatusModel, 0, len(s.MachineImages))}
	for _, img := range s.MachineImages {
		m.MachineImages = append(m.MachineImages, imageStatusModel{Name: img.Name, Versions: versionStatusModels(img.Versions)})
	}
	return terraformValueOf(reflect.ValueOf(m), cloudProfileStatusType.TerraformType(ctx))
}

func versionStatusModels(versions []gardencorev1beta1.ExpirableVersionStatus) []versionStatusModel {
	out := make([]versionStatusModel, 0, len(versions))
	for _, v := range versions {
		out = append(out, versionStatusModel{Version: v.Version, Classification: string(v.Classification)})
	}
	return out
}
