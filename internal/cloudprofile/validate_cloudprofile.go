package cloudprofile

import (
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// ValidateCloudProfile returns what gardener-apiserver's static validation reports for a
// CloudProfile on create (rules A to J): every rule with Gardener's field path, type, bad
// value and message.
//
// It validates cp as it is given. Gardener validates the object after v1beta1 defaulting and after
// PrepareForCreate dropped inactive versions; use PrepareCloudProfileForCreate to obtain that
// object, or ValidateCloudProfileRequest to run the whole pipeline on a user's object.
func ValidateCloudProfile(cp *gardencorev1beta1.CloudProfile, opts Options) Problems {
	if cp == nil {
		return nil
	}
	var ps Problems
	ps = append(ps, validateObjectMetadata(&cp.ObjectMeta, false, NewPath("metadata"))...)
	ps = append(ps, validateCloudProfileSpec(&cp.Spec, NewPath("spec"), opts)...)
	return ps
}

// validateCloudProfileSpec validates a CloudProfile spec in the order Gardener does.
func validateCloudProfileSpec(spec *gardencorev1beta1.CloudProfileSpec, fld Path, opts Options) Problems {
	var ps Problems
	ps = append(ps, validateProviderType(spec.Type, fld.Child("type"))...)
	ps = append(ps, validateCapabilityDefinitions(spec.MachineCapabilities, fld.Child("machineCapabilities"), opts)...)
	ps = append(ps, validateKubernetesVersions(spec.Kubernetes.Versions, fld.Child("kubernetes").Child("versions"), opts)...)
	ps = append(ps, validateMachineImages(spec.MachineImages, spec.MachineCapabilities, fld.Child("machineImages"), opts)...)
	ps = append(ps, validateMachineTypesPresent(spec.MachineTypes, fld.Child("machineTypes"))...)
	ps = append(ps, validateMachineTypes(spec.MachineTypes, spec.MachineCapabilities, fld.Child("machineTypes"), true)...)
	ps = append(ps, validateVolumeTypes(spec.VolumeTypes, fld.Child("volumeTypes"))...)
	ps = append(ps, validateRegions(spec.Regions, fld.Child("regions"))...)
	ps = append(ps, validateBastion(spec, fld.Child("bastion"), opts)...)
	ps = append(ps, validateLimits(spec.Limits, fld.Child("limits"))...)
	ps = append(ps, validateSeedSelector(spec.SeedSelector, fld.Child("seedSelector"))...)
	ps = append(ps, validateCABundle(spec.CABundle, fld.Child("caBundle"))...)
	return ps
}
