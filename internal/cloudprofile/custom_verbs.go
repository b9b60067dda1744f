package cloudprofile

import (
	apiequality "k8s.io/apimachinery/pkg/api/equality"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Custom RBAC verbs of NamespacedCloudProfiles: gardener-apiserver's CustomVerbAuthorizer
// requires a verb on the namespacedcloudprofiles resource for each of three spec fields a create or
// an update changes.
const (
	// VerbModifyKubernetes allows changing spec.kubernetes.
	VerbModifyKubernetes = "modify-spec-kubernetes"
	// VerbModifyMachineImages allows changing spec.machineImages.
	VerbModifyMachineImages = "modify-spec-machineimages"
	// VerbModifyProviderConfig allows changing spec.providerConfig.
	VerbModifyProviderConfig = "modify-spec-providerconfig"
)

// RequiredCustomVerbs returns the custom verbs a user needs to create newNCP (oldNCP nil) or to
// replace oldNCP with it, in the order Gardener checks them. Fields are compared with Kubernetes'
// semantic equality (nil and empty count as equal); on create the old object is empty, so every
// field that is set counts as changed.
func RequiredCustomVerbs(newNCP, oldNCP *gardencorev1beta1.NamespacedCloudProfile) []string {
	if newNCP == nil {
		return nil
	}
	old := &gardencorev1beta1.NamespacedCloudProfile{}
	if oldNCP != nil {
		old = oldNCP
	}
	var verbs []string
	if !apiequality.Semantic.DeepEqual(old.Spec.Kubernetes, newNCP.Spec.Kubernetes) {
		verbs = append(verbs, VerbModifyKubernetes)
	}
	if !apiequality.Semantic.DeepEqual(old.Spec.MachineImages, newNCP.Spec.MachineImages) {
		verbs = append(verbs, VerbModifyMachineImages)
	}
	if !apiequality.Semantic.DeepEqual(old.Spec.ProviderConfig, newNCP.Spec.ProviderConfig) {
		verbs = append(verbs, VerbModifyProviderConfig)
	}
	return verbs
}
