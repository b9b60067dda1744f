package gcp

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// MergeProviderConfig is what gardener-extension-provider-gcp's NamespacedCloudProfile mutator
// writes into status.cloudProfileSpec.providerConfig (extcommon.MergeConfig): the parent's image
// mappings (status) followed, per image, by every version entry of the profile's (spec).
func MergeProviderConfig(spec, status *runtime.RawExtension) (*runtime.RawExtension, error) {
	return extcommon.MergeConfig(spec, status, decodeForMutation, func(spec, status *CloudProfileConfig) (err error) {
		status.MachineImages, err = extcommon.MergeImages(spec.MachineImages, status.MachineImages, true)
		return err
	})
}
