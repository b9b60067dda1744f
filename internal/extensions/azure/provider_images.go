package azure

import (
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// ProviderImages lists the image references (URN, id, community or shared gallery image id) that spec's providerConfig gives each machine image version, per
// region and architecture (an Azure image serves every region: region ""); nil when the providerConfig cannot be decoded.
func ProviderImages(spec gardencorev1beta1.CloudProfileSpec) extcommon.ProviderImages {
	return extcommon.ListImages(spec, decodeForMutation, func(cfg *CloudProfileConfig, out extcommon.ProviderImages) {
		for _, img := range cfg.MachineImages {
			for _, v := range img.Versions {
				if ref := v.value(); ref != "" {
					out.Add(img.Name, v.Version, extcommon.ProviderImage{Architecture: archOf(v), Image: ref})
				}
				for _, f := range v.CapabilityFlavors {
					out.AddPerArchitecture(img.Name, v.Version, "", f.value(), extcommon.FlavorArchitectures(f.Capabilities, spec.MachineCapabilities))
				}
			}
		}
	})
}

// value is the one id the reference sets; "" for none.
func (i ImageRef) value() string {
	for _, s := range []*string{i.URN, i.ID, i.CommunityGalleryImageID, i.SharedGalleryImageID} {
		if s != nil {
			return *s
		}
	}
	return ""
}
