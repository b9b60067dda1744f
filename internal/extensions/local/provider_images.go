package local

import (
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// ProviderImages lists the images that spec's providerConfig gives each machine image version:
// provider-local's images serve every region (region ""); a version's image is for every
// architecture of the version in spec.machineImages (amd64 when spec lacks the version), a
// flavor's for the flavor's. Nil when the providerConfig cannot be decoded.
func ProviderImages(spec gardencorev1beta1.CloudProfileSpec) extcommon.ProviderImages {
	return extcommon.ListImages(spec, DecodeCloudProfileConfig, func(cfg *CloudProfileConfig, out extcommon.ProviderImages) {
		for _, img := range cfg.MachineImages {
			for _, v := range img.Versions {
				if v.Image != "" {
					archs := []string{"amd64"}
					if sv := extcommon.SpecVersion(spec.MachineImages, img.Name, v.Version); sv != nil {
						archs = cloudprofile.ImageVersionArchitectures(*sv, spec.MachineCapabilities)
					}
					out.AddPerArchitecture(img.Name, v.Version, "", v.Image, archs)
				}
				for _, f := range v.CapabilityFlavors {
					out.AddPerArchitecture(img.Name, v.Version, "", f.Image, extcommon.FlavorArchitectures(f.Capabilities, spec.MachineCapabilities))
				}
			}
		}
	})
}
