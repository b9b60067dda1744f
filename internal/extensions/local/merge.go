package local

import (
	"encoding/json"
	"fmt"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// MergeProviderConfig returns the providerConfig that ends up in a NamespacedCloudProfile's
// status.cloudProfileSpec once provider-local's mutator has run: Gardener's NamespacedCloudProfile
// controller writes the parent's providerConfig there (statusConfig), and the mutator, called for that
// status write, merges the NamespacedCloudProfile's own mappings (specConfig) into it.
//
// The mutator acts only when both configurations are present (otherwise statusConfig is returned as
// it is) and only on the status write that records the current generation. It first converts the
// NamespacedCloudProfile's versions to the format of the parent (defs are the parent's machine
// capabilities, status.cloudProfileSpec.machineCapabilities): with capabilities, a version given by
// image becomes one flavor with that image and no capabilities; without, a version given by flavors
// takes the first flavor's image. Then, per image name, the NamespacedCloudProfile's versions replace
// the parent's versions of the same number and add the others; images the parent lacks are added
// whole.
//
// Gardener collects images and versions in Go maps, so their order in the status varies from write to
// write; here the parent's order is kept and additions follow in the NamespacedCloudProfile's order.
// Compare results as sets. The result is encoded as the extension encodes it (apiVersion and kind of
// the parent's configuration, loadBalancer always, capabilityFlavors null when empty).
func MergeProviderConfig(name string, specConfig, statusConfig *runtime.RawExtension, defs []gardencorev1beta1.CapabilityDefinition) (*runtime.RawExtension, error) {
	if specConfig == nil || statusConfig == nil {
		return statusConfig, nil
	}
	spec, err := decodeForMutation(specConfig.Raw)
	if err != nil {
		return nil, fmt.Errorf("could not decode providerConfig of namespacedCloudProfile spec for '%s': %w", name, err)
	}
	status, err := decodeForMutation(statusConfig.Raw)
	if err != nil {
		return nil, fmt.Errorf("could not decode providerConfig of namespacedCloudProfile status for '%s': %w", name, err)
	}
	if status.MachineImages, err = extcommon.MergeImages(toParentFormat(spec.MachineImages, len(defs) > 0), status.MachineImages, false); err != nil {
		return nil, err
	}
	raw, err := json.Marshal(status)
	if err != nil {
		return nil, err
	}
	return &runtime.RawExtension{Raw: raw}, nil
}

// toParentFormat converts every version to the parent's format (see MergeProviderConfig).
func toParentFormat(images []MachineImage, capabilities bool) []MachineImage {
	out := make([]MachineImage, len(images))
	for i, mi := range images {
		out[i] = MachineImage{Name: mi.Name, Versions: make([]MachineImageVersion, 0, len(mi.Versions))}
		for _, v := range mi.Versions {
			hasFlavors := len(v.CapabilityFlavors) > 0
			switch {
			case capabilities && !hasFlavors:
				v = MachineImageVersion{Version: v.Version, CapabilityFlavors: []ImageFlavor{{Image: v.Image}}}
			case !capabilities && hasFlavors:
				v = MachineImageVersion{Version: v.Version, Image: v.CapabilityFlavors[0].Image}
			}
			out[i].Versions = append(out[i].Versions, v)
		}
	}
	return out
}
