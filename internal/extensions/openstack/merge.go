package openstack

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// MergeProviderConfig returns the providerConfig of a NamespacedCloudProfile's
// status.cloudProfileSpec once the extension's NamespacedCloudProfile mutator
// (pkg/admission/mutator/namespacedcloudprofile.go) has merged the profile's own providerConfig
// (spec) into the parent's, which Gardener's controller wrote there (status): see
// extcommon.MergeConfig and extcommon.MergeImages.
func MergeProviderConfig(spec, status *runtime.RawExtension) (*runtime.RawExtension, error) {
	return extcommon.MergeConfig(spec, status, decodeForMutation, func(spec, status *CloudProfileConfig) {
		status.MachineImages = extcommon.MergeImages(spec.MachineImages, status.MachineImages, imageKeys)
	})
}

// imageKeys read the images of the providerConfig for extcommon.MergeImages.
var imageKeys = extcommon.ImageKeys[MachineImages, MachineImageVersion]{
	Name:     func(mi MachineImages) string { return mi.Name },
	Version:  func(v MachineImageVersion) string { return v.Version },
	Versions: func(mi MachineImages) []MachineImageVersion { return mi.Versions },
	New: func(name string, vs []MachineImageVersion) MachineImages {
		return MachineImages{Name: name, Versions: vs}
	},
}
