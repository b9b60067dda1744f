package azure

import (
	"sort"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// Capability of Azure's accelerated networking (the extension's CapabilityNetworkName and
// CapabilityNetworkBasic).
const (
	capabilityNetworkName  = "azure-networking"
	capabilityNetworkBasic = "basic"
)

// MutateCloudProfile returns a deep copy of spec as the extension's CloudProfile mutating webhook
// (pkg/admission/mutator/cloudprofile.go) leaves it: under capability definitions, every version of
// spec.machineImages that the providerConfig maps gets the capability flavors the providerConfig
// gives for it (the capabilityFlavors of its first entry that has some, else one flavor per
// architecture and accelerated networking of its entries with an image id, with
// azure-networking: [basic] where networking is not accelerated). The extension builds the latter
// in random order; they are sorted here by architecture, basic networking first. Gardener stores
// the result, so a plan should expect these flavors. Without capability definitions, or when the
// providerConfig cannot be decoded, spec is returned unchanged.
func MutateCloudProfile(spec gardencorev1beta1.CloudProfileSpec) gardencorev1beta1.CloudProfileSpec {
	out := *spec.DeepCopy()
	if out.ProviderConfig == nil || len(out.MachineCapabilities) == 0 {
		return out
	}
	if cfg, err := decodeForMutation(extcommon.ConfigBytes(out.ProviderConfig)); err == nil {
		mutateFlavors(out.MachineImages, cfg)
	}
	return out
}

// MutateNamespacedCloudProfile is MutateCloudProfile for a NamespacedCloudProfile
// (pkg/admission/mutator/namespacedcloudprofile.go): the capability definitions are the parent's.
func MutateNamespacedCloudProfile(spec gardencorev1beta1.NamespacedCloudProfileSpec, parent gardencorev1beta1.CloudProfileSpec) gardencorev1beta1.NamespacedCloudProfileSpec {
	out := *spec.DeepCopy()
	if out.ProviderConfig == nil || out.Parent.Name == "" || len(out.MachineImages) == 0 || len(parent.MachineCapabilities) == 0 {
		return out
	}
	if cfg, err := decodeForMutation(extcommon.ConfigBytes(out.ProviderConfig)); err == nil {
		mutateFlavors(out.MachineImages, cfg)
	}
	return out
}

// decodeForMutation decodes raw as the mutating webhooks do (into the versioned type, defaults
// applied).
func decodeForMutation(raw []byte) (*CloudProfileConfig, error) {
	cfg := &CloudProfileConfig{}
	if err := codec.DecodeVersioned(raw, cfg); err != nil {
		return nil, err
	}
	applyDefaults(cfg)
	return cfg, nil
}

// mutateFlavors is the extension's mutateMachineImageCapabilityFlavors.
func mutateFlavors(images []gardencorev1beta1.MachineImage, cfg *CloudProfileConfig) {
	for _, img := range cfg.MachineImages {
		seen := map[string]bool{}
		for _, pv := range img.Versions {
			if seen[pv.Version] {
				continue
			}
			seen[pv.Version] = true
			v := extcommon.SpecVersion(images, img.Name, pv.Version)
			if v == nil {
				continue
			}
			entries := versionsNamed(img, pv.Version)
			if fv := firstFlavored(entries); fv != nil {
				sets := make([]gardencorev1beta1.Capabilities, len(fv.CapabilityFlavors))
				for i, f := range fv.CapabilityFlavors {
					sets[i] = f.Capabilities
				}
				v.CapabilityFlavors = extcommon.Flavors(sets)
				continue
			}
			v.CapabilityFlavors = entryFlavors(entries)
		}
	}
}

// entryFlavors is the extension's convertVersionsToCapabilityFlavors.
func entryFlavors(entries []MachineImageVersion) []gardencorev1beta1.MachineImageFlavor {
	type key struct {
		arch        string
		accelerated bool
	}
	var keys []key
	for _, e := range entries {
		if e.empty() {
			continue
		}
		k := key{arch: archOf(e), accelerated: e.AcceleratedNetworking != nil && *e.AcceleratedNetworking}
		found := false
		for _, have := range keys {
			found = found || have == k
		}
		if !found {
			keys = append(keys, k)
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].arch != keys[j].arch {
			return keys[i].arch < keys[j].arch
		}
		return !keys[i].accelerated && keys[j].accelerated
	})
	out := make([]gardencorev1beta1.MachineImageFlavor, 0, len(keys))
	for _, k := range keys {
		caps := gardencorev1beta1.Capabilities{extcommon.ArchitectureName: {k.arch}}
		if !k.accelerated {
			caps[capabilityNetworkName] = []string{capabilityNetworkBasic}
		}
		out = append(out, gardencorev1beta1.MachineImageFlavor{Capabilities: caps})
	}
	return out
}
