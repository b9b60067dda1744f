package extcommon

import (
	"encoding/json"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// DefaultedSpec returns a deep copy of spec as gardener-apiserver hands a CloudProfile to the
// validating admission webhooks (and stores it, where the NamespacedCloudProfile webhooks read the
// parent): with Gardener's v1beta1 defaults applied (for example, empty image version architectures
// become ["amd64"] without capability definitions) and canonicalized as the CloudProfile strategy's
// Canonicalize does, which synchronises architectures and capabilities with an empty old spec (see
// cloudprofile.SyncArchitectureCapabilities: under more than one defined architecture a version
// without capability flavors gets one flavor per architecture). Versions that gardener-apiserver
// drops because they are expired are not dropped here; callers that want that prepare the object
// with cloudprofile.PrepareCloudProfileForCreate first.
func DefaultedSpec(spec gardencorev1beta1.CloudProfileSpec) gardencorev1beta1.CloudProfileSpec {
	cp := &gardencorev1beta1.CloudProfile{Spec: *spec.DeepCopy()}
	gardencorev1beta1.SetObjectDefaults_CloudProfile(cp)
	cloudprofile.SyncArchitectureCapabilities(&cp.Spec, nil)
	return cp.Spec
}

// DefaultedNamespacedSpec returns a deep copy of spec with Gardener's v1beta1 defaults applied.
// The NamespacedCloudProfile strategy canonicalizes nothing.
func DefaultedNamespacedSpec(spec gardencorev1beta1.NamespacedCloudProfileSpec) gardencorev1beta1.NamespacedCloudProfileSpec {
	ncp := &gardencorev1beta1.NamespacedCloudProfile{Spec: *spec.DeepCopy()}
	gardencorev1beta1.SetObjectDefaults_NamespacedCloudProfile(ncp)
	return ncp.Spec
}

// ConfigBytes returns the bytes of a providerConfig as the webhook receives them: the raw JSON,
// or the encoded object when only the object is set.
func ConfigBytes(ext *runtime.RawExtension) []byte {
	if ext == nil {
		return nil
	}
	if len(ext.Raw) == 0 && ext.Object != nil {
		if b, err := json.Marshal(ext.Object); err == nil {
			return b
		}
	}
	return ext.Raw
}
