package alicloud

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
	return extcommon.MergeConfig(spec, status, decodeForMutation, func(spec, status *CloudProfileConfig) (err error) {
		status.MachineImages, err = extcommon.MergeImages(spec.MachineImages, status.MachineImages, false)
		return err
	})
}
