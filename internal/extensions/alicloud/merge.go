package alicloud

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// MergeProviderConfig is the providerConfig gardener-extension-provider-alicloud's
// NamespacedCloudProfile mutator leaves in status.cloudProfileSpec (extcommon.MergeConfig): the
// parent's image id mappings (status) with those of the profile (spec), which replace a version.
func MergeProviderConfig(spec, status *runtime.RawExtension) (*runtime.RawExtension, error) {
	return extcommon.MergeConfig(spec, status, decodeForMutation, func(spec, status *CloudProfileConfig) (err error) {
		status.MachineImages, err = extcommon.MergeImages(spec.MachineImages, status.MachineImages, false)
		return err
	})
}
