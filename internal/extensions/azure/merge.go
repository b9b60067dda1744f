package azure

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// MergeProviderConfig is what gardener-extension-provider-azure's NamespacedCloudProfile mutator
// writes into status.cloudProfileSpec.providerConfig (extcommon.MergeConfig): per image, the
// parent's version entries (status) followed by every entry of the profile's (spec), and the
// profile's machine types that the parent lacks.
func MergeProviderConfig(spec, status *runtime.RawExtension) (*runtime.RawExtension, error) {
	return extcommon.MergeConfig(spec, status, decodeForMutation, func(spec, status *CloudProfileConfig) (err error) {
		status.MachineImages, err = extcommon.MergeImages(spec.MachineImages, status.MachineImages, true)
		status.MachineTypes = mergeMachineTypes(spec.MachineTypes, status.MachineTypes)
		return err
	})
}

// mergeMachineTypes adds spec's machine types whose name status lacks, as the extension's mutator
// does: one type per name on each side (the later entry wins); status's order is kept and
// additions follow in spec's order (the extension's order is random).
func mergeMachineTypes(spec, status []MachineType) []MachineType {
	byName := func(types []MachineType) ([]string, map[string]MachineType) {
		var names []string
		m := map[string]MachineType{}
		for _, t := range types {
			if _, ok := m[t.Name]; !ok {
				names = append(names, t.Name)
			}
			m[t.Name] = t
		}
		return names, m
	}
	statusNames, statusTypes := byName(status)
	specNames, specTypes := byName(spec)
	var out []MachineType
	for _, n := range statusNames {
		out = append(out, statusTypes[n])
	}
	for _, n := range specNames {
		if _, ok := statusTypes[n]; !ok {
			out = append(out, specTypes[n])
		}
	}
	return out
}
