package local

import (
	"encoding/json"
	"fmt"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"
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
	spec, err := DecodeCloudProfileConfig(specConfig.Raw)
	if err != nil {
		return nil, fmt.Errorf("could not decode providerConfig of namespacedCloudProfile spec for '%s': %w", name, err)
	}
	status, err := DecodeCloudProfileConfig(statusConfig.Raw)
	if err != nil {
		return nil, fmt.Errorf("could not decode providerConfig of namespacedCloudProfile status for '%s': %w", name, err)
	}
	status.MachineImages = mergeImages(toParentFormat(spec.MachineImages, len(defs) > 0), status.MachineImages)
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

// mergeImages merges spec's mappings into status's by image name and version; a name or version
// listed twice on one side counts once, with its last entry.
func mergeImages(spec, status []MachineImage) []MachineImage {
	merged := newOrdered[MachineImage]()
	for _, mi := range status {
		merged.set(mi.Name, mi)
	}
	specByName := newOrdered[MachineImage]()
	for _, mi := range spec {
		specByName.set(mi.Name, mi)
	}
	for _, name := range specByName.keys {
		sm := specByName.values[name]
		cur, ok := merged.values[name]
		if !ok {
			merged.set(name, sm)
			continue
		}
		versions := newOrdered[MachineImageVersion]()
		for _, v := range cur.Versions {
			versions.set(v.Version, v)
		}
		for _, v := range sm.Versions {
			versions.set(v.Version, v)
		}
		merged.set(name, MachineImage{Name: name, Versions: versions.list()})
	}
	return merged.list()
}

// ordered is a map that remembers the order in which keys were first set.
type ordered[V any] struct {
	keys   []string
	values map[string]V
}

func newOrdered[V any]() *ordered[V] { return &ordered[V]{values: map[string]V{}} }

func (o *ordered[V]) set(k string, v V) {
	if _, ok := o.values[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.values[k] = v
}

func (o *ordered[V]) list() []V {
	if len(o.keys) == 0 {
		return nil // as slices.Collect of nothing
	}
	out := make([]V, 0, len(o.keys))
	for _, k := range o.keys {
		out = append(out, o.values[k])
	}
	return out
}
