package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

func init() {
	prepareSpecFields(&cloudProfileStatusRoot)
}

// Go models of the status, converted with terraformValueOf along cloudProfileStatusRoot (tags as
// for the data sources' models).
type (
	versionStatusModel struct {
		Version        string `json:"version" tfsdk:"version"`
		Classification string `json:"classification" tfsdk:"classification"`
	}
	imageStatusModel struct {
		Name     string               `json:"name" tfsdk:"name"`
		Versions []versionStatusModel `json:"versions" tfsdk:"versions"`
	}
	cloudProfileStatusModel struct {
		KubernetesVersions []versionStatusModel `json:"kubernetes_versions" tfsdk:"kubernetes_versions"`
		MachineImages      []imageStatusModel   `json:"machine_images" tfsdk:"machine_images"`
	}
)

// cloudProfileStatusValue converts the status as read; lists without entries are empty, not null.
func cloudProfileStatusValue(s gardencorev1beta1.CloudProfileStatus) (tftypes.Value, diag.Diagnostics) {
	var k8s []gardencorev1beta1.ExpirableVersionStatus
	if s.Kubernetes != nil {
		k8s = s.Kubernetes.Versions
	}
	m := cloudProfileStatusModel{KubernetesVersions: versionStatusModels(k8s), MachineImages: make([]imageStatusModel, 0, len(s.MachineImages))}
	for _, img := range s.MachineImages {
		m.MachineImages = append(m.MachineImages, imageStatusModel{Name: img.Name, Versions: versionStatusModels(img.Versions)})
	}
	return terraformValueOf(cloudProfileStatusRoot, m)
}

func versionStatusModels(versions []gardencorev1beta1.ExpirableVersionStatus) []versionStatusModel {
	out := make([]versionStatusModel, 0, len(versions))
	for _, v := range versions {
		out = append(out, versionStatusModel{Version: v.Version, Classification: string(v.Classification)})
	}
	return out
}
