package cloudprofile

import (
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// ValidateCloudProfileUpdate returns what gardener-apiserver's static validation reports for an
// update of a CloudProfile: the metadata update rule a user can run into (A-3, the name is
// immutable), the full create validation of newCP, and the update-only rules U-1 (maxNodesTotal
// may not decrease), U-2 and U-3 (a version that was not unavailable may not become unavailable).
// Removing versions is allowed; capabilities are validated as on create, after
// PrepareForUpdate synchronised them.
//
// Like ValidateCloudProfile it validates the objects as given: Gardener validates newCP after
// defaulting and PrepareCloudProfileForUpdate, and oldCP as read from storage (defaulted).
func ValidateCloudProfileUpdate(newCP, oldCP *gardencorev1beta1.CloudProfile, opts Options) Problems {
	if newCP == nil || oldCP == nil {
		return ValidateCloudProfile(newCP, opts)
	}
	var ps Problems
	ps = append(ps, validateCloudProfileMetadataUpdate(newCP, oldCP, NewPath("metadata"))...)
	ps = append(ps, ValidateCloudProfile(newCP, opts)...)
	ps = append(ps, validateCloudProfileSpecUpdate(&newCP.Spec, &oldCP.Spec, NewPath("spec"), opts)...)
	return ps
}

func validateCloudProfileSpecUpdate(newSpec, oldSpec *gardencorev1beta1.CloudProfileSpec, fld Path, opts Options) Problems {
	var ps Problems
	ps = append(ps, validateLimitsUpdate(newSpec.Limits, oldSpec.Limits, fld.Child("limits"))...)
	ps = append(ps, validateVersionsStayAvailable("U-2", len(newSpec.Kubernetes.Versions),
		func(i int) gardencorev1beta1.ExpirableVersion { return newSpec.Kubernetes.Versions[i] },
		oldKubernetesVersions(oldSpec), fld.Child("kubernetes").Child("versions"), opts)...)

	oldImages := make(map[string]gardencorev1beta1.MachineImage, len(oldSpec.MachineImages))
	for _, image := range oldSpec.MachineImages {
		oldImages[image.Name] = image
	}
	for i, image := range newSpec.MachineImages {
		oldImage, ok := oldImages[image.Name]
		if !ok {
			continue
		}
		old := make(map[string]gardencorev1beta1.ExpirableVersion, len(oldImage.Versions))
		for _, v := range oldImage.Versions {
			old[v.Version] = v.ExpirableVersion
		}
		ps = append(ps, validateVersionsStayAvailable("U-3", len(image.Versions),
			func(j int) gardencorev1beta1.ExpirableVersion { return image.Versions[j].ExpirableVersion },
			old, fld.Child("machineImages").Index(i).Child("versions"), opts)...)
	}
	return ps
}

func oldKubernetesVersions(spec *gardencorev1beta1.CloudProfileSpec) map[string]gardencorev1beta1.ExpirableVersion {
	old := make(map[string]gardencorev1beta1.ExpirableVersion, len(spec.Kubernetes.Versions))
	for _, v := range spec.Kubernetes.Versions {
		old[v.Version] = v
	}
	return old
}

// validateLimitsUpdate is U-1: when both old and new limits set maxNodesTotal, it may not decrease.
// Adding or removing limits or maxNodesTotal is allowed.
func validateLimitsUpdate(newLimits, oldLimits *gardencorev1beta1.Limits, fld Path) Problems {
	if newLimits == nil || oldLimits == nil || newLimits.MaxNodesTotal == nil || oldLimits.MaxNodesTotal == nil {
		return nil
	}
	if *newLimits.MaxNodesTotal < *oldLimits.MaxNodesTotal {
		return Problems{invalid("U-1", fld.Child("maxNodesTotal"), *newLimits.MaxNodesTotal, "maxNodesTotal cannot be decreased")}
	}
	return nil
}

// validateVersionsStayAvailable is U-2 (Kubernetes versions) and U-3 (versions of a machine image
// matched by name): a version that exists in the old list (matched by version string; the last
// old entry of that string counts) and was not unavailable at opts.Now may not be unavailable now.
// New versions are not checked.
func validateVersionsStayAvailable(rule string, n int, version func(i int) gardencorev1beta1.ExpirableVersion, old map[string]gardencorev1beta1.ExpirableVersion, fld Path, opts Options) Problems {
	var ps Problems
	for i := 0; i < n; i++ {
		v := version(i)
		oldVersion, ok := old[v.Version]
		if !ok {
			continue
		}
		if Classify(oldVersion, opts.Now) != gardencorev1beta1.ClassificationUnavailable && Classify(v, opts.Now) == gardencorev1beta1.ClassificationUnavailable {
			ps = append(ps, forbidden(rule, fld.Index(i), "a version cannot be turned unavailable if it was already moved into a later lifecycle stage"))
		}
	}
	return ps
}
