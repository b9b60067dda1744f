package alicloud

import (
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// ProviderImages lists the image ids that spec's providerConfig gives each machine image version, per
// region and architecture (alicloud's region mappings have no architecture: amd64); nil when the providerConfig cannot be decoded.
func ProviderImages(spec gardencorev1beta1.CloudProfileSpec) extcommon.ProviderImages {
	return extcommon.ListImages(spec, decodeForMutation, func(cfg *CloudProfileConfig, out extcommon.ProviderImages) {
		for _, img := range cfg.MachineImages {
			for _, v := range img.Versions {
				for _, r := range v.Regions {
					out.Add(img.Name, v.Version, extcommon.ProviderImage{Region: r.Name, Architecture: "amd64", Image: r.ID})
				}
				for _, f := range v.CapabilityFlavors {
					for _, r := range f.Regions {
						out.AddPerArchitecture(img.Name, v.Version, r.Name, r.ID, extcommon.FlavorArchitectures(f.Capabilities, spec.MachineCapabilities))
					}
				}
			}
		}
	})
}
