package provider

import (
	"context"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// shootUsage is the data sources' opt-in count of the Shoots per version: with count_shoots, one
// list of Shoots per scope and run (kube.Client.RunShoots), all namespaces for a CloudProfile, the
// namespace for a NamespacedCloudProfile.
type shootUsage struct {
	CountShoots     types.Bool   `tfsdk:"count_shoots"`
	ShootsByVersion types.Object `tfsdk:"shoots_by_version"`
}

// shootsByVersionType is the type of shoots_by_version.
var shootsByVersionType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"kubernetes":     types.MapType{ElemType: types.Int64Type},
	"machine_images": types.MapType{ElemType: types.MapType{ElemType: types.Int64Type}},
}}

// shootUsageAttributes describes count_shoots and shoots_by_version; which names the Shoots counted.
func shootUsageAttributes(which string) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"count_shoots": schema.BoolAttribute{Optional: true, MarkdownDescription: "Whether to count the Shoots per version into " +
			"`shoots_by_version`. Default `false`. Counting lists the Shoots (" + which + "), one request per run however many data sources " +
			"count; the credentials need `list` on `shoots.core.gardener.cloud` there, else the run warns once and `shoots_by_version` stays null."},
		"shoots_by_version": schema.SingleNestedAttribute{Computed: true, MarkdownDescription: "With `count_shoots`, how many Shoots (" +
			which + ", not being deleted) run each version: `kubernetes` by Kubernetes version of the control plane, `machine_images` by image " +
			"name and version (a Shoot counts once per image version, whatever number of its worker pools run it). Every version of the profile " +
			"has an entry (0 when unused), as has every version a Shoot runs that the profile lacks. Null without `count_shoots`.",
			Attributes: map[string]schema.Attribute{
				"kubernetes":     schema.MapAttribute{Computed: true, ElementType: types.Int64Type, MarkdownDescription: "Shoots by Kubernetes version."},
				"machine_images": schema.MapAttribute{Computed: true, ElementType: types.MapType{ElemType: types.Int64Type}, MarkdownDescription: "Shoots by image name, then version."},
			}},
	}
}

// readShootUsage sets shoots_by_version when count_shoots is true: the Shoots of namespace ("" for all
// namespaces) counted by count, with an entry for every version of spec (nil for none).
func (u *shootUsage) readShootUsage(ctx context.Context, data *providerData, namespace string, spec *gardencorev1beta1.CloudProfileSpec,
	count func([]gardencorev1beta1.Shoot) cloudprofile.VersionUsage, diags *diag.Diagnostics) {
	u.ShootsByVersion = types.ObjectNull(shootsByVersionType.AttrTypes)
	if !u.CountShoots.ValueBool() {
		return
	}
	shoots, ok := data.runShoots(ctx, namespace, diags)
	if !ok {
		return
	}
	value, d := types.ObjectValueFrom(ctx, shootsByVersionType.AttrTypes, newShootsByVersion(withProfileVersions(count(shoots), spec)))
	diags.Append(d...)
	u.ShootsByVersion = value
}

// shootsByVersionModel is the value of shoots_by_version.
type shootsByVersionModel struct {
	Kubernetes    map[string]int64            `tfsdk:"kubernetes"`
	MachineImages map[string]map[string]int64 `tfsdk:"machine_images"`
}

// newShootsByVersion converts the counts.
func newShootsByVersion(u cloudprofile.VersionUsage) shootsByVersionModel {
	m := shootsByVersionModel{Kubernetes: map[string]int64{}, MachineImages: map[string]map[string]int64{}}
	for v, n := range u.Kubernetes {
		m.Kubernetes[v] = int64(n)
	}
	for image, versions := range u.MachineImages {
		m.MachineImages[image] = map[string]int64{}
		for v, n := range versions {
			m.MachineImages[image][v] = int64(n)
		}
	}
	return m
}

// withProfileVersions adds an entry of 0 for every version of spec no Shoot runs.
func withProfileVersions(u cloudprofile.VersionUsage, spec *gardencorev1beta1.CloudProfileSpec) cloudprofile.VersionUsage {
	if spec == nil {
		return u
	}
	for _, v := range spec.Kubernetes.Versions {
		u.Kubernetes[v.Version] += 0
	}
	for _, img := range spec.MachineImages {
		if u.MachineImages[img.Name] == nil {
			u.MachineImages[img.Name] = map[string]int{}
		}
		for _, v := range img.Versions {
			u.MachineImages[img.Name][v.Version] += 0
		}
	}
	return u
}
