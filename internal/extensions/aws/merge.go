package aws

import (
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// MergeProviderConfig is what gardener-extension-provider-aws's NamespacedCloudProfile mutator
// writes into status.cloudProfileSpec.providerConfig (extcommon.MergeConfig): the parent's AMI
// mappings (status) with the profile's own (spec) merged in, a version replacing the parent's.
func MergeProviderConfig(spec, status *runtime.RawExtension) (*runtime.RawExtension, error) {
	return extcommon.MergeConfig(spec, status, decodeForMutation, func(spec, status *CloudProfileConfig) (err error) {
		status.MachineImages, err = extcommon.MergeImages(spec.MachineImages, status.MachineImages, false)
		return err
	})
}
