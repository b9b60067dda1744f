package azure

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// MergeProviderConfig returns the providerConfig of a NamespacedCloudProfile's
// status.cloudProfileSpec once the extension's NamespacedCloudProfile mutator
// (pkg/admission/mutator/namespacedcloudprofile.go) has merged the profile's own providerConfig
// (spec) into the parent's, which Gardener's controller wrote there (status): see
// extcommon.MergeConfig and extcommon.MergeImages. The versions of an image both have are
// concatenated (the status's, then the spec's), as this extension's mutator keeps every entry;
// machine types only the spec has are added.
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
