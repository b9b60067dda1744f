package gcp

import (
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// ProviderImages lists the images that spec's providerConfig gives each machine image version, per
// region and architecture (a GCP image serves every region: region ""); nil when the providerConfig cannot be decoded.
func ProviderImages(spec gardencorev1beta1.CloudProfileSpec) extcommon.ProviderImages {
	return extcommon.ListImages(spec, decodeForMutation, func(cfg *CloudProfileConfig, out extcommon.ProviderImages) {
		for _, img := range cfg.MachineImages {
			for _, v := range img.Versions {
				if v.Image != "" {
					out.Add(img.Name, v.Version, extcommon.ProviderImage{Architecture: archOf(v), Image: v.Image})
				}
				for _, f := range v.CapabilityFlavors {
					out.AddPerArchitecture(img.Name, v.Version, "", f.Image, extcommon.FlavorArchitectures(f.Capabilities, spec.MachineCapabilities))
				}
			}
		}
	})
}
