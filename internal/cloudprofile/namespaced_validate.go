package cloudprofile

import (
	apivalidation "k8s.io/apimachinery/pkg/api/validation"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Static validation of a NamespacedCloudProfile (K rules), which gardener-apiserver runs after the
// strategy prepared the object (StoredNamespacedCloudProfile) and before the parent-aware admission
// (ValidateNamespacedCloudProfileAgainstParent).
//
// Rule identifiers: K-1, K-2, K-3 and K-9 are reported as such; where a K rule applies a rule of
// the CloudProfile, the identifier names both, e.g. "K-4/C-5" or "K-8/B-2". Metadata findings are
// A-1 (A-2 for metadata.namespace, A-3 on update).

// parentKind is the only kind a NamespacedCloudProfile may reference as parent.
const parentKind = "CloudProfile"

// ValidateNamespacedCloudProfile returns what gardener-apiserver's static validation reports for a
// NamespacedCloudProfile on create: metadata, parent (K-1, K-2), Kubernetes versions
// (K-3, K-4), machine images (K-5), volume types (K-6), machine types (K-7), caBundle and limits
// (K-8). A NamespacedCloudProfile with only a name, a namespace and a parent is valid.
//
// Capability definitions are not known here: images and machine types are validated as if the
// parent had none.
func ValidateNamespacedCloudProfile(ncp *gardencorev1beta1.NamespacedCloudProfile, opts Options) Problems {
	if ncp == nil {
		return nil
	}
	var ps Problems
	ps = append(ps, validateObjectMetadata(&ncp.ObjectMeta, true, NewPath("metadata"))...)

	spec := NewPath("spec")
	ps = append(ps, validateParentReference(ncp.Spec.Parent, spec.Child("parent"))...)
	ps = append(ps, validateNamespacedKubernetesVersions(ncp.Spec.Kubernetes, spec.Child("kubernetes"), opts)...)
	ps = append(ps, validateNamespacedMachineImages(ncp.Spec.MachineImages, spec.Child("machineImages"))...)
	ps = append(ps, withRulePrefix("K-6", validateVolumeTypes(ncp.Spec.VolumeTypes, spec.Child("volumeTypes")))...)
	ps = append(ps, withRulePrefix("K-7", validateMachineTypes(ncp.Spec.MachineTypes, nil, spec.Child("machineTypes"), false))...)
	ps = append(ps, withRulePrefix("K-8", validateCABundle(ncp.Spec.CABundle, spec.Child("caBundle")))...)
	ps = append(ps, withRulePrefix("K-8", validateLimits(ncp.Spec.Limits, spec.Child("limits")))...)
	return ps
}

// ValidateNamespacedCloudProfileUpdate returns what gardener-apiserver's static validation reports
// when newNCP replaces oldNCP: the name and namespace are immutable, spec.parent is
// immutable (K-9), maxNodesTotal is checked (K-10; a decrease is allowed, but an invalid value is
// therefore reported twice, as by Gardener), followed by everything ValidateNamespacedCloudProfile
// reports for newNCP.
func ValidateNamespacedCloudProfileUpdate(newNCP, oldNCP *gardencorev1beta1.NamespacedCloudProfile, opts Options) Problems {
	if newNCP == nil {
		return nil
	}
	if oldNCP == nil {
		return ValidateNamespacedCloudProfile(newNCP, opts)
	}
	var ps Problems
	meta := NewPath("metadata")
	if newNCP.Name != oldNCP.Name {
		ps = append(ps, invalid("A-3", meta.Child("name"), newNCP.Name, apivalidation.FieldImmutableErrorMsg))
	}
	if newNCP.Namespace != oldNCP.Namespace {
		ps = append(ps, invalid("A-3", meta.Child("namespace"), newNCP.Namespace, apivalidation.FieldImmutableErrorMsg))
	}

	spec := NewPath("spec")
	if newNCP.Spec.Parent != oldNCP.Spec.Parent {
		ps = append(ps, invalid("K-9", spec.Child("parent"), newNCP.Spec.Parent, apivalidation.FieldImmutableErrorMsg))
	}
	ps = append(ps, withRulePrefix("K-10", validateLimits(newNCP.Spec.Limits, spec.Child("limits")))...)
	ps = append(ps, ValidateNamespacedCloudProfile(newNCP, opts)...)
	return ps
}

// validateParentReference is K-1 (the kind must be CloudProfile) and K-2 (a name is required).
func validateParentReference(parent gardencorev1beta1.CloudProfileReference, fld Path) Problems {
	var ps Problems
	if parent.Kind != parentKind {
		ps = append(ps, notSupported("K-1", fld.Child("kind"), parent.Kind, []string{parentKind}))
	}
	if parent.Name == "" {
		ps = append(ps, required("K-2", fld.Child("name"), "must provide a parent name"))
	}
	return ps
}

// validateNamespacedKubernetesVersions is K-3 (no classification) and K-4 (C-5, C-6 and the D
// rules; no latest-version or per-minor checks, and the list may be empty).
func validateNamespacedKubernetesVersions(kubernetes *gardencorev1beta1.KubernetesSettings, fld Path, opts Options) Problems {
	if kubernetes == nil {
		return nil
	}
	var ps Problems
	versions := fld.Child("versions")
	for i, v := range kubernetes.Versions {
		if v.Classification != nil {
			ps = append(ps, forbidden("K-3", versions.Index(i).Child("classification"), "must not provide a classification to a Kubernetes version in NamespacedCloudProfile"))
		}
	}
	ps = append(ps, withRulePrefix("K-4", validateKubernetesVersionEntries(kubernetes.Versions, versions, opts))...)
	return ps
}

// validateNamespacedMachineImages is K-5: E-2, E-3, E-4, E-6 (NotSupported only) and the base
// version rules F-1 … F-6 without capability definitions; empty version lists are allowed and
// CRI, architectures-required, per-minor and lifecycle checks do not run.
func validateNamespacedMachineImages(images []gardencorev1beta1.MachineImage, fld Path) Problems {
	if len(images) == 0 {
		return nil
	}
	var ps Problems
	ps = append(ps, validateLatestMachineImageVersions(images, fld)...)
	seenNames := make(map[string]bool, len(images))
	seenVersionKeys := make(map[string]bool, imageVersionCount(images))
	for i, image := range images {
		ps = append(ps, validateMachineImageBase(image, capabilities{}, seenNames, seenVersionKeys, true, fld.Index(i))...)
	}
	return withRulePrefix("K-5", ps)
}
