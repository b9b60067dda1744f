package gcp

import (
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// MutateCloudProfile returns a deep copy of spec as the extension's CloudProfile mutating webhook
// (pkg/admission/mutator/cloudprofile.go) leaves it: under capability definitions, every version of
// spec.machineImages that the providerConfig maps gets the capability flavors the providerConfig
// gives for it (the capabilityFlavors of its first entry that has some, else one flavor per
// architecture of its entries with an image). Gardener stores the result, so a plan should expect
// these flavors. Without capability definitions, or when the providerConfig cannot be decoded,
// spec is returned unchanged.
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
			var archs []string
			for _, e := range entries {
				if e.Image != "" {
					archs = append(archs, archOf(e))
				}
			}
			v.CapabilityFlavors = extcommon.ArchitectureFlavors(archs)
		}
	}
}
