package aws

import (
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// Type is the provider type the extension serves.
const Type = "aws"

// codec decodes a CloudProfileConfig as the extension's webhooks do: strictly, from the only
// registered version v1alpha1.
var codec = extcommon.Codec{
	Group:    "aws.provider.extensions.gardener.cloud",
	Versions: []string{"v1alpha1"},
	Kind:     "CloudProfileConfig",
	Scheme:   "gardener-extension-provider-aws",
}

// CloudProfileConfig is the providerConfig of an AWS CloudProfile or NamespacedCloudProfile
// (aws.provider.extensions.gardener.cloud/v1alpha1), reduced to what the validation reads. All
// fields of the extension's type are declared so that strict decoding accepts what the extension
// accepts.
type CloudProfileConfig struct {
	APIVersion    string          `json:"apiVersion,omitempty"`
	Kind          string          `json:"kind,omitempty"`
	MachineImages []MachineImages `json:"machineImages"`
}

// MachineImages maps the versions of one machine image to AMIs.
type MachineImages struct {
	Name     string                `json:"name"`
	Versions []MachineImageVersion `json:"versions"`
}

// MachineImageVersion holds the AMIs of one version, either per region (with an architecture) or
// per capability flavor.
type MachineImageVersion struct {
	Version           string               `json:"version"`
	Regions           []RegionAMIMapping   `json:"regions,omitempty"`
	CapabilityFlavors []MachineImageFlavor `json:"capabilityFlavors,omitempty"`
}

// MachineImageFlavor holds the AMIs of one capability flavor.
type MachineImageFlavor struct {
	Regions      []RegionAMIMapping             `json:"regions,omitempty"`
	Capabilities gardencorev1beta1.Capabilities `json:"capabilities,omitempty"`
}

// RegionAMIMapping is the AMI of a version in a region.
type RegionAMIMapping struct {
	Name         string  `json:"name"`
	AMI          string  `json:"ami"`
	Architecture *string `json:"architecture,omitempty"`
}

// decodeConfig decodes raw as the extension does.
func decodeConfig(raw []byte) (*CloudProfileConfig, error) {
	cfg := &CloudProfileConfig{}
	if err := codec.Decode(raw, cfg); err != nil {
		return nil, err
	}
	setDefaults(cfg)
	return cfg, nil
}

// setDefaults is the extension's v1alpha1 defaulting, which its universal decoder runs: a region
// without architecture gets amd64, except in capability flavors, where the architecture stays
// unset; the literal architecture "ignore" is removed in both places.
func setDefaults(cfg *CloudProfileConfig) {
	for i := range cfg.MachineImages {
		for j := range cfg.MachineImages[i].Versions {
			v := &cfg.MachineImages[i].Versions[j]
			for k := range v.Regions {
				defaultRegion(&v.Regions[k])
			}
			for k := range v.CapabilityFlavors {
				f := &v.CapabilityFlavors[k]
				for l := range f.Regions {
					if f.Regions[l].Architecture == nil {
						f.Regions[l].Architecture = ptr("ignore")
					}
					defaultRegion(&f.Regions[l])
				}
			}
		}
	}
}

func defaultRegion(r *RegionAMIMapping) {
	if r.Architecture == nil {
		r.Architecture = ptr(amd64)
	}
	if *r.Architecture == "ignore" {
		r.Architecture = nil
	}
}

const amd64 = "amd64"

func ptr[T any](v T) *T { return &v }

func archOf(r RegionAMIMapping) string {
	if r.Architecture == nil {
		return amd64
	}
	return *r.Architecture
}
