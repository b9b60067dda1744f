package extcommon

import (
	"encoding/json"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// DefaultedSpec returns a deep copy of spec as gardener-apiserver stores a CloudProfile that no
// mutating webhook changed: defaulted and canonicalized (see Defaulted and Canonicalized). The
// NamespacedCloudProfile webhooks read the parent in this form.
func DefaultedSpec(spec gardencorev1beta1.CloudProfileSpec) gardencorev1beta1.CloudProfileSpec {
	return Canonicalized(Defaulted(spec))
}

// Defaulted returns a deep copy of spec with Gardener's v1beta1 defaults applied, as
// gardener-apiserver applies them on decoding, before any admission webhook sees the object (for
// example, empty image version architectures become ["amd64"] without capability definitions).
func Defaulted(spec gardencorev1beta1.CloudProfileSpec) gardencorev1beta1.CloudProfileSpec {
	cp := &gardencorev1beta1.CloudProfile{Spec: *spec.DeepCopy()}
	gardencorev1beta1.SetObjectDefaults_CloudProfile(cp)
	return cp.Spec
}

// Canonicalized returns a deep copy of spec canonicalized as the CloudProfile strategy's
// Canonicalize does after the mutating webhooks and before the validating ones: architectures and
// capabilities are synchronised with an empty old spec (see cloudprofile.SyncArchitectureCapabilities:
// under more than one defined architecture a version without capability flavors gets one flavor
// per architecture). Versions that gardener-apiserver drops because they are expired are not
// dropped here; callers that want that prepare the object with
// cloudprofile.PrepareCloudProfileForCreate first.
func Canonicalized(spec gardencorev1beta1.CloudProfileSpec) gardencorev1beta1.CloudProfileSpec {
	out := *spec.DeepCopy()
	cloudprofile.SyncArchitectureCapabilities(&out, nil)
	return out
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
