package azure

import (
	"slices"
	"sort"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// Type is the provider type the extension serves.
const Type = "azure"

// codec decodes a CloudProfileConfig as the extension's webhooks do: strictly, from the only
// registered version v1alpha1.
var codec = extcommon.Codec{
	Group:    "azure.provider.extensions.gardener.cloud",
	Versions: []string{"v1alpha1"},
	Kind:     "CloudProfileConfig",
	Scheme:   "gardener-extension-provider-azure",
}

// CloudProfileConfig is the providerConfig of an Azure CloudProfile or NamespacedCloudProfile
// (azure.provider.extensions.gardener.cloud/v1alpha1). All fields of the extension's type are
// declared so that strict decoding accepts what the extension accepts.
type CloudProfileConfig struct {
	APIVersion         string              `json:"apiVersion,omitempty"`
	Kind               string              `json:"kind,omitempty"`
	CountUpdateDomains []DomainCount       `json:"countUpdateDomains"`
	CountFaultDomains  []DomainCount       `json:"countFaultDomains"`
	MachineImages      []MachineImages     `json:"machineImages"`
	MachineTypes       []MachineType       `json:"machineTypes,omitempty"`
	CloudConfiguration *CloudConfiguration `json:"cloudConfiguration,omitempty"`
}

// CloudConfiguration names the Azure cloud.
type CloudConfiguration struct {
	Name string `json:"name,omitempty"`
}

// DomainCount is the number of fault or update domains of a region.
type DomainCount struct {
	Region string `json:"region"`
	Count  int32  `json:"count"`
}

// MachineImages maps the versions of one machine image to Azure images.
type MachineImages struct {
	Name     string                `json:"name"`
	Versions []MachineImageVersion `json:"versions"`
}

// MachineImageVersion is the Azure image of a version for one architecture (old format; a version
// may occur once per architecture) or its images per capability flavor.
type MachineImageVersion struct {
	Version                  string               `json:"version"`
	SkipMarketplaceAgreement *bool                `json:"skipMarketplaceAgreement,omitempty"`
	AcceleratedNetworking    *bool                `json:"acceleratedNetworking,omitempty"`
	Architecture             *string              `json:"architecture,omitempty"`
	CapabilityFlavors        []MachineImageFlavor `json:"capabilityFlavors,omitempty"`
	ImageRef
}

// MachineImageFlavor is the Azure image of one capability flavor.
type MachineImageFlavor struct {
	SkipMarketplaceAgreement *bool                          `json:"skipMarketplaceAgreement,omitempty"`
	Capabilities             gardencorev1beta1.Capabilities `json:"capabilities,omitempty"`
	ImageRef
}

// ImageRef (the extension's Image) references an Azure image by exactly one of its four kinds of id.
type ImageRef struct {
	URN                     *string `json:"urn,omitempty"`
	ID                      *string `json:"id,omitempty"`
	CommunityGalleryImageID *string `json:"communityGalleryImageID,omitempty"`
	SharedGalleryImageID    *string `json:"sharedGalleryImageID,omitempty"`
}

func (i ImageRef) empty() bool {
	return i.URN == nil && i.ID == nil && i.CommunityGalleryImageID == nil && i.SharedGalleryImageID == nil
}

// MachineType holds Azure settings of a machine type.
type MachineType struct {
	Name                  string `json:"name"`
	AcceleratedNetworking *bool  `json:"acceleratedNetworking,omitempty"`
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

// versionsNamed returns the entries of an image for one version string.
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
		if a := archOf(v); !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	sort.Strings(out)
	return out
}

// missingFlavors returns the indices of the defaulted spec flavors that no provider flavor equals.
func missingFlavors(flavors []gardencorev1beta1.MachineImageFlavor, provider []MachineImageFlavor, defs []gardencorev1beta1.CapabilityDefinition) []int {
	var out []int
	for k, f := range flavors {
		if !anyEqual(provider, f.Capabilities, defs) {
			out = append(out, k)
		}
	}
	return out
}

func anyEqual(provider []MachineImageFlavor, caps gardencorev1beta1.Capabilities, defs []gardencorev1beta1.CapabilityDefinition) bool {
	for _, pf := range provider {
		if extcommon.CapabilitiesEqual(caps, gardencorev1beta1.GetCapabilitiesWithAppliedDefaults(pf.Capabilities, defs)) {
			return true
		}
	}
	return false
}

// missingArchitectures returns the index of a spec flavor once for each of its architectures that
// is not available.
func missingArchitectures(flavors []gardencorev1beta1.MachineImageFlavor, available []string) []int {
	var out []int
	for k, f := range flavors {
		for _, arch := range f.Capabilities[extcommon.ArchitectureName] {
			if !slices.Contains(available, arch) {
				out = append(out, k)
			}
		}
	}
	return out
}
