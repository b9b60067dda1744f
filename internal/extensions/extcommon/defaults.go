package extcommon

import (
	"encoding/json"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"
)

// DefaultedSpec returns a deep copy of spec with Gardener's v1beta1 defaults applied, as
// gardener-apiserver applies them before it calls the extensions' webhooks (for example, empty
// image version architectures become ["amd64"] without capability definitions).
func DefaultedSpec(spec gardencorev1beta1.CloudProfileSpec) gardencorev1beta1.CloudProfileSpec {
	cp := &gardencorev1beta1.CloudProfile{Spec: *spec.DeepCopy()}
	gardencorev1beta1.SetObjectDefaults_CloudProfile(cp)
	return cp.Spec
}

// DefaultedNamespacedSpec is DefaultedSpec for a NamespacedCloudProfile spec.
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
