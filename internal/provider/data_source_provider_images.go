package provider

import (
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// providerImageModel is an image the provider extension's configuration gives an image version.
type providerImageModel struct {
	Region       *string `json:"region" tfsdk:"region"`
	Architecture string  `json:"architecture" tfsdk:"architecture"`
	Image        string  `json:"image" tfsdk:"image"`
}

// machineImageRegionDescription documents the machine_image_region input.
const machineImageRegionDescription = "Region of the worker pools a module plans. Only machine image versions for which the provider " +
	"extension's `provider_config` has an image in this region (of `machine_image_architecture` when set; see " +
	"`machine_images[*].versions[*].provider_images`) count for `latest_machine_image_versions` and " +
	"`machine_images[*].latest_supported_version`. For a type whose extension the provider does not know no version counts. Unset means any region."

// providerImages are the images the provider extension of a profile's type lists for its machine
// image versions; known is false for a type the provider knows no extension of.
type providerImages struct {
	images extcommon.ProviderImages
	known  bool
}

// newProviderImages lists the images of spec's versions from its provider config.
func newProviderImages(spec gardencorev1beta1.CloudProfileSpec) providerImages {
	ext, ok := extensions.For(spec.Type)
	if !ok {
		return providerImages{}
	}
	return providerImages{images: ext.ProviderImages(spec), known: true}
}

// of returns the images of a version of the named image; nil (null) when the type is unknown.
func (p providerImages) of(image, version string) []providerImageModel {
	if !p.known {
		return nil
	}
	out := []providerImageModel{}
	for _, i := range p.images[image][version] {
		m := providerImageModel{Architecture: i.Architecture, Image: i.Image}
		if i.Region != "" {
			m.Region = &i.Region
		}
		out = append(out, m)
	}
	return out
}

// filter adds machine_image_region to f: a version counts when it has an image in region (for f's
// architecture when set). Without region f is returned as it is.
func (p providerImages) filter(f cloudprofile.ImageFilter, region string) cloudprofile.ImageFilter {
	if region == "" {
		return f
	}
	arch := f.Architecture
	f.HasImage = func(image, version string) bool {
		for _, i := range p.images[image][version] {
			if (i.Region == "" || i.Region == region) && (arch == "" || i.Architecture == arch) {
				return true
			}
		}
		return false
	}
	return f
}
