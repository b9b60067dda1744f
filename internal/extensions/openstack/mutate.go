package openstack

import (
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// MutateCloudProfile returns a deep copy of spec as the extension's CloudProfile mutating webhook
// (pkg/admission/mutator/cloudprofile.go) leaves it: under capability definitions, every version of
// spec.machineImages that the providerConfig maps gets the capability flavors the providerConfig
// gives for it (its capabilityFlavors, or one flavor per architecture of its regions, or none at
// all when it has neither). Gardener stores the result, so a plan should expect these flavors.
// Without capability definitions, or when the providerConfig cannot be decoded, spec is returned
// unchanged.
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

// decodeForMutation decodes raw as the mutating webhooks do (into the versioned type).
func decodeForMutation(raw []byte) (*CloudProfileConfig, error) {
	cfg := &CloudProfileConfig{}
	if err := codec.DecodeVersioned(raw, cfg); err != nil {
		return nil, err
	}
	return cfg, nil
}

// mutateFlavors is the extension's mutateMachineImageCapabilityFlavors.
func mutateFlavors(images []gardencorev1beta1.MachineImage, cfg *CloudProfileConfig) {
	for _, img := range cfg.MachineImages {
		for _, pv := range img.Versions {
			v := extcommon.SpecVersion(images, img.Name, pv.Version)
			switch {
			case v == nil:
			case len(pv.CapabilityFlavors) > 0:
				sets := make([]gardencorev1beta1.Capabilities, len(pv.CapabilityFlavors))
				for i, f := range pv.CapabilityFlavors {
					sets[i] = f.Capabilities
				}
				v.CapabilityFlavors = extcommon.Flavors(sets)
			case len(pv.Regions) > 0:
				archs := make([]string, len(pv.Regions))
				for i, r := range pv.Regions {
					archs[i] = archOf(r)
				}
				v.CapabilityFlavors = extcommon.ArchitectureFlavors(archs)
			default:
				v.CapabilityFlavors = nil
			}
		}
	}
}
