package alicloud

import (
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// Type is the provider type the extension serves.
const Type = "alicloud"

// codec decodes a CloudProfileConfig as the extension's webhooks do: strictly, from the only
// registered version v1alpha1. The extension registers no defaults for it.
var codec = extcommon.Codec{
	Group:    "alicloud.provider.extensions.gardener.cloud",
	Versions: []string{"v1alpha1"},
	Kind:     "CloudProfileConfig",
	Scheme:   "gardener-extension-provider-alicloud",
}

// CloudProfileConfig is the providerConfig of an Alicloud CloudProfile or NamespacedCloudProfile
// (alicloud.provider.extensions.gardener.cloud/v1alpha1). All fields of the extension's type are
// declared so that strict decoding accepts what the extension accepts.
type CloudProfileConfig struct {
	APIVersion    string          `json:"apiVersion,omitempty"`
	Kind          string          `json:"kind,omitempty"`
	MachineImages []MachineImages `json:"machineImages"`
}

// MachineImages maps the versions of one machine image to Alicloud image ids.
type MachineImages struct {
	Name     string                `json:"name"`
	Versions []MachineImageVersion `json:"versions"`
}

// MachineImageVersion holds the image ids of one version, per region (amd64 only) or per
// capability flavor.
type MachineImageVersion struct {
	Version           string               `json:"version"`
	Regions           []RegionIDMapping    `json:"regions,omitempty"`
	CapabilityFlavors []MachineImageFlavor `json:"capabilityFlavors,omitempty"`
}

// MachineImageFlavor holds the image ids of one capability flavor.
type MachineImageFlavor struct {
	Regions      []RegionIDMapping              `json:"regions,omitempty"`
	Capabilities gardencorev1beta1.Capabilities `json:"capabilities,omitempty"`
}

// RegionIDMapping is the image id of a version in a region.
type RegionIDMapping struct {
	Name string `json:"name"`
	ID   string `json:"id"`
}

func decodeConfig(raw []byte) (*CloudProfileConfig, error) {
	cfg := &CloudProfileConfig{}
	if err := codec.Decode(raw, cfg); err != nil {
		return nil, err
	}
	return cfg, nil
}

// amd64 is the only architecture of the regions format.
const amd64 = "amd64"

func providerImages(cfg *CloudProfileConfig) extcommon.Images[MachineImages, MachineImageVersion] {
	return extcommon.NewImages(cfg.MachineImages,
		func(i MachineImages) string { return i.Name },
		func(i MachineImages) []MachineImageVersion { return i.Versions },
		func(v MachineImageVersion) string { return v.Version })
}
