package cloudprofile

import (
	"time"

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
	ps = append(ps, validateVersionsStayAvailable("U-2", versionList(newSpec.Kubernetes.Versions), versionList(oldSpec.Kubernetes.Versions),
		fld.Child("kubernetes").Child("versions"), opts)...)

	oldImages := make(map[string]gardencorev1beta1.MachineImage, len(oldSpec.MachineImages))
	for _, image := range oldSpec.MachineImages {
		oldImages[image.Name] = image
	}
	for i, image := range newSpec.MachineImages {
		oldImage, ok := oldImages[image.Name]
		if !ok {
			continue
		}
		ps = append(ps, validateVersionsStayAvailable("U-3", imageVersionList(image.Versions), imageVersionList(oldImage.Versions),
			fld.Child("machineImages").Index(i).Child("versions"), opts)...)
	}
	return ps
}

// expirableList is a list of versions read by index.
type expirableList struct {
	len     int
	version func(i int) gardencorev1beta1.ExpirableVersion
}

func versionList(versions []gardencorev1beta1.ExpirableVersion) expirableList {
	return expirableList{len(versions), func(i int) gardencorev1beta1.ExpirableVersion { return versions[i] }}
}

func imageVersionList(versions []gardencorev1beta1.MachineImageVersion) expirableList {
	return expirableList{len(versions), func(i int) gardencorev1beta1.ExpirableVersion { return versions[i].ExpirableVersion }}
}

// availableAt maps each version string of the list to whether the version is not unavailable at
// now; the last entry of a string counts.
func (l expirableList) availableAt(now time.Time) map[string]bool {
	available := make(map[string]bool, l.len)
	for i := 0; i < l.len; i++ {
		v := l.version(i)
		available[v.Version] = Classify(v, now) != gardencorev1beta1.ClassificationUnavailable
	}
	return available
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
// New versions are not checked. The old list is read only when a version is unavailable now.
func validateVersionsStayAvailable(rule string, versions, oldVersions expirableList, fld Path, opts Options) Problems {
	var (
		ps           Problems
		wasAvailable map[string]bool
	)
	for i := 0; i < versions.len; i++ {
		v := versions.version(i)
		if Classify(v, opts.Now) != gardencorev1beta1.ClassificationUnavailable {
			continue
		}
		if wasAvailable == nil {
			wasAvailable = oldVersions.availableAt(opts.Now)
		}
		if wasAvailable[v.Version] {
			ps = append(ps, forbidden(rule, fld.Index(i), "a version cannot be turned unavailable if it was already moved into a later lifecycle stage"))
		}
	}
	return ps
}
