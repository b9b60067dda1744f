package local

import (
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// Type is the provider type whose profiles provider-local's admission judges. Gardener labels a
// profile `provider.extensions.gardener.cloud/<spec.type>: "true"`, and the extension's webhooks
// select on that label.
const Type = "local"

// APIVersion and Kind identify provider-local's profile configuration; the extension's validating
// webhooks decode nothing else from spec.providerConfig.
const (
	APIVersion = "local.provider.extensions.gardener.cloud/v1alpha1"
	Kind       = "CloudProfileConfig"
)

// AppliesTo reports whether provider-local's admission judges profiles of providerType.
func AppliesTo(providerType string) bool { return providerType == Type }

// CloudProfileConfig is what provider-local reads from spec.providerConfig of a CloudProfile or
// NamespacedCloudProfile: for every machine image version, the image a machine boots (one image, or
// one per capability flavor when the profile defines machine capabilities).
//
// Encoded with encoding/json it is written the way the extension writes it into a
// NamespacedCloudProfile's status: loadBalancer always, capabilityFlavors as null when empty.
type CloudProfileConfig struct {
	APIVersion    string         `json:"apiVersion,omitempty"`
	Kind          string         `json:"kind,omitempty"`
	MachineImages []MachineImage `json:"machineImages"`
	LoadBalancer  LoadBalancer   `json:"loadBalancer"`
}

// MachineImage maps the versions of one machine image (by its name in spec.machineImages).
type MachineImage struct {
	Name     string                `json:"name"`
	Versions []MachineImageVersion `json:"versions"`
}

// MachineImageVersion maps one version to an image, or to one image per capability flavor.
type MachineImageVersion struct {
	Version           string        `json:"version"`
	Image             string        `json:"image,omitempty"`
	CapabilityFlavors []ImageFlavor `json:"capabilityFlavors"`
}

// ImageFlavor is the image of a version for machines with the given capabilities.
type ImageFlavor struct {
	Image        string                         `json:"image"`
	Capabilities gardencorev1beta1.Capabilities `json:"capabilities,omitempty"`
}

// LoadBalancer is the load balancer image of the local provider; admission does not check it.
type LoadBalancer struct {
	Image string `json:"image"`
}

// codec decodes a CloudProfileConfig as the extension's webhooks do. The scheme name is the one
// provider-local's messages give in the local Garden: apimachinery names a scheme after the place
// that created it, which for a module build is apimachinery's own NewScheme.
var codec = extcommon.Codec{
	Group:    "local.provider.extensions.gardener.cloud",
	Versions: []string{"v1alpha1"},
	Kind:     Kind,
	Scheme:   "pkg/runtime/scheme.go:111",
}

// DecodeCloudProfileConfig decodes raw as the extension's validating webhooks do
// (extcommon.Codec.Decode): apiVersion APIVersion and kind Kind must both be given; a field that is
// unknown, written in another case, or given twice is an error, as is a value of the wrong JSON
// type. The messages are the decoder's.
func DecodeCloudProfileConfig(raw []byte) (*CloudProfileConfig, error) {
	cfg := &CloudProfileConfig{}
	if err := codec.Decode(raw, cfg); err != nil {
		return nil, err
	}
	return cfg, nil
}

// decodeForMutation decodes raw as the extension's NamespacedCloudProfile mutator does
// (extcommon.Codec.DecodeVersioned): as DecodeCloudProfileConfig, except that a missing apiVersion
// or kind is filled in for the decoding (the result keeps them as raw gives them).
func decodeForMutation(raw []byte) (*CloudProfileConfig, error) {
	cfg := &CloudProfileConfig{}
	if err := codec.DecodeVersioned(raw, cfg); err != nil {
		return nil, err
	}
	return cfg, nil
}

// imageIndex maps image names to versions to mappings; a name or version given twice keeps its
// last entry, as the extension's lookups do.
type imageIndex map[string]map[string]MachineImageVersion

func indexImages(images []MachineImage) imageIndex {
	idx := imageIndex{}
	for _, mi := range images {
		versions := map[string]MachineImageVersion{}
		for _, v := range mi.Versions {
			versions[v.Version] = v
		}
		idx[mi.Name] = versions
	}
	return idx
}

func (idx imageIndex) hasImage(name string) bool { _, ok := idx[name]; return ok }

func (idx imageIndex) version(name, version string) (MachineImageVersion, bool) {
	v, ok := idx[name][version]
	return v, ok
}

// specImageIndex is imageIndex for the machine images of a profile's spec.
func specImageIndex(images []gardencorev1beta1.MachineImage) map[string]map[string]bool {
	idx := map[string]map[string]bool{}
	for _, mi := range images {
		versions := map[string]bool{}
		for _, v := range mi.Versions {
			versions[v.Version] = true
		}
		idx[mi.Name] = versions
	}
	return idx
}
