package extcommon

import (
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// ProviderImage is an image that a profile's providerConfig gives a machine image version: the
// image for machines of an architecture in a region.
type ProviderImage struct {
	// Region is the region of the image; "" when the image serves every region.
	Region string
	// Architecture is the CPU architecture of the machines the image is for.
	Architecture string
	// Image is the image as the extension names it (an AMI, an image name or URN, an ID).
	Image string
}

// ProviderImages are the images of a profile's machine image versions, by image name and version.
type ProviderImages map[string]map[string][]ProviderImage

// Add records images of a version of the named machine image.
func (p ProviderImages) Add(name, version string, images ...ProviderImage) {
	if p[name] == nil {
		p[name] = map[string][]ProviderImage{}
	}
	p[name][version] = append(p[name][version], images...)
}

// AddPerArchitecture records the image of a version in a region once per architecture.
func (p ProviderImages) AddPerArchitecture(name, version, region, image string, archs []string) {
	for _, a := range archs {
		p.Add(name, version, ProviderImage{Region: region, Architecture: a, Image: image})
	}
}

// FlavorArchitectures returns the architectures of a capability flavor of a providerConfig: its
// architecture capability, with the definitions' defaults applied when there are definitions
// (every defined architecture when it names none), else amd64.
func FlavorArchitectures(caps gardencorev1beta1.Capabilities, defs []gardencorev1beta1.CapabilityDefinition) []string {
	if len(defs) > 0 {
		caps = gardencorev1beta1.GetCapabilitiesWithAppliedDefaults(caps, defs)
	}
	if archs := caps[ArchitectureName]; len(archs) > 0 {
		return archs
	}
	return []string{"amd64"}
}

// ListImages decodes spec's providerConfig with decode and returns what list records of it; nil
// when the providerConfig cannot be decoded.
func ListImages[C any](spec gardencorev1beta1.CloudProfileSpec, decode func([]byte) (*C, error), list func(cfg *C, out ProviderImages)) ProviderImages {
	cfg, err := decode(ConfigBytes(spec.ProviderConfig))
	if err != nil {
		return nil
	}
	out := ProviderImages{}
	list(cfg, out)
	return out
}
