package openstack

import (
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// ProviderImages lists the image ids (or the image name that serves every region, region "") that spec's providerConfig gives each machine image version, per
// region and architecture (a version's image name without regions is for amd64, as the extension reads it); nil when the providerConfig cannot be decoded.
func ProviderImages(spec gardencorev1beta1.CloudProfileSpec) extcommon.ProviderImages {
	return extcommon.ListImages(spec, decodeForMutation, func(cfg *CloudProfileConfig, out extcommon.ProviderImages) {
		for _, img := range cfg.MachineImages {
			for _, v := range img.Versions {
				if v.Image != "" && len(v.Regions) == 0 {
					out.Add(img.Name, v.Version, extcommon.ProviderImage{Architecture: amd64, Image: v.Image})
				}
				for _, r := range v.Regions {
					out.Add(img.Name, v.Version, extcommon.ProviderImage{Region: r.Name, Architecture: archOf(r), Image: r.ID})
				}
				for _, f := range v.CapabilityFlavors {
					archs := extcommon.FlavorArchitectures(f.Capabilities, spec.MachineCapabilities)
					if f.Image != "" && len(f.Regions) == 0 {
						out.AddPerArchitecture(img.Name, v.Version, "", f.Image, archs)
					}
					for _, r := range f.Regions {
						out.AddPerArchitecture(img.Name, v.Version, r.Name, r.ID, archs)
					}
				}
			}
		}
	})
}
