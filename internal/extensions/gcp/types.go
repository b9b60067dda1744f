package gcp

import (
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// Type is the provider type the extension serves.
const Type = "gcp"

// codec decodes a CloudProfileConfig as the extension's webhooks do: strictly, from the only
// registered version v1alpha1.
var codec = extcommon.Codec{
	Group:    "gcp.provider.extensions.gardener.cloud",
	Versions: []string{"v1alpha1"},
	Kind:     "CloudProfileConfig",
	Scheme:   "gardener-extension-provider-gcp",
}

// CloudProfileConfig is the providerConfig of a GCP CloudProfile or NamespacedCloudProfile
// (gcp.provider.extensions.gardener.cloud/v1alpha1). All fields of the extension's type are
// declared so that strict decoding accepts what the extension accepts.
type CloudProfileConfig struct {
	APIVersion    string          `json:"apiVersion,omitempty"`
	Kind          string          `json:"kind,omitempty"`
	MachineImages []MachineImages `json:"machineImages"`
}

// MachineImages maps the versions of one machine image to GCP images.
type MachineImages struct {
	Name     string                `json:"name"`
	Versions []MachineImageVersion `json:"versions"`
}

// MachineImageVersion is the GCP image of a version for one architecture (old format; a version
// may occur once per architecture) or its images per capability flavor.
type MachineImageVersion struct {
	Version           string               `json:"version"`
	Image             string               `json:"image"`
	Architecture      *string              `json:"architecture,omitempty"`
	CapabilityFlavors []MachineImageFlavor `json:"capabilityFlavors,omitempty"`
}

// MachineImageFlavor is the GCP image of one capability flavor.
type MachineImageFlavor struct {
	Capabilities gardencorev1beta1.Capabilities `json:"capabilities,omitempty"`
	Image        string                         `json:"image"`
}

// decodeConfig decodes raw as the extension does and applies its v1alpha1 defaults: a version
// without capability flavors and without architecture maps amd64.
func decodeConfig(raw []byte) (*CloudProfileConfig, error) {
	cfg := &CloudProfileConfig{}
	if err := codec.Decode(raw, cfg); err != nil {
		return nil, err
	}
	applyDefaults(cfg)
	return cfg, nil
}

// applyDefaults is the extension's v1alpha1 defaulting.
func applyDefaults(cfg *CloudProfileConfig) {
	for i := range cfg.MachineImages {
		for j := range cfg.MachineImages[i].Versions {
			v := &cfg.MachineImages[i].Versions[j]
			if len(v.CapabilityFlavors) == 0 && v.Architecture == nil {
				a := amd64
				v.Architecture = &a
			}
		}
	}
}

const amd64 = "amd64"

func archOf(v MachineImageVersion) string {
	if v.Architecture == nil {
		return amd64
	}
	return *v.Architecture
}

// providerImages indexes the providerConfig images by name and their versions by version string.
func providerImages(cfg *CloudProfileConfig) extcommon.Images[MachineImages, MachineImageVersion] {
	return extcommon.NewImages(cfg.MachineImages,
		func(i MachineImages) string { return i.Name },
		func(i MachineImages) []MachineImageVersion { return i.Versions },
		func(v MachineImageVersion) string { return v.Version })
}

// providerImagesByArchitecture indexes the versions by "<version>-<architecture>", as the
// extension's NewProviderImagesContextLegacy does.
func providerImagesByArchitecture(cfg *CloudProfileConfig) extcommon.Images[MachineImages, MachineImageVersion] {
	return extcommon.NewImages(cfg.MachineImages,
		func(i MachineImages) string { return i.Name },
		func(i MachineImages) []MachineImageVersion { return i.Versions },
		func(v MachineImageVersion) string { return v.Version + "-" + archOf(v) })
}

// versionsNamed returns the entries of an image for one version string (several in the old
// format, one per architecture).
func versionsNamed(img MachineImages, version string) []MachineImageVersion {
	var out []MachineImageVersion
	for _, v := range img.Versions {
		if v.Version == version {
			out = append(out, v)
		}
	}
	return out
}

// firstFlavored is the extension's FindCapabilityFlavorsVersion.
func firstFlavored(vs []MachineImageVersion) *MachineImageVersion {
	for i := range vs {
		if len(vs[i].CapabilityFlavors) > 0 {
			return &vs[i]
		}
	}
	return nil
}

// architectures is the extension's CollectAvailableArchitectures, sorted.
func architectures(vs []MachineImageVersion) []string {
	var out []string
	for _, v := range vs {
		if a := archOf(v); !contains(out, a) {
			out = append(out, a)
		}
	}
	sortStrings(out)
	return out
}
