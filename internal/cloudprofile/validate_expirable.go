package cloudprofile

import (
	"fmt"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// ExpirableVersion rules D-1 … D-9, for Kubernetes versions, machine image versions
// and the versions of a NamespacedCloudProfile (K-4, M-1, M-2):
//
//	validateExpirableVersion(v gardencorev1beta1.ExpirableVersion, fld Path, opts Options) Problems
//
// fld is the version's own path, e.g. spec.kubernetes.versions[i] or
// spec.machineImages[i].versions[j]. There is no rule against dates in the past.

// supportedClassifications are the classifications a user may write, sorted as Gardener lists
// them in NotSupported messages.
var supportedClassifications = []gardencorev1beta1.VersionClassification{
	gardencorev1beta1.ClassificationDeprecated,
	gardencorev1beta1.ClassificationExpired,
	gardencorev1beta1.ClassificationPreview,
	gardencorev1beta1.ClassificationSupported,
}

func isSupportedClassification(c gardencorev1beta1.VersionClassification) bool {
	switch c {
	case gardencorev1beta1.ClassificationPreview, gardencorev1beta1.ClassificationSupported,
		gardencorev1beta1.ClassificationDeprecated, gardencorev1beta1.ClassificationExpired:
		return true
	}
	return false
}

// validateExpirableVersion applies D-1 … D-9 to one version. With the lifecycle feature gate off a
// non-empty lifecycle is forbidden and nothing else is checked (D-1).
func validateExpirableVersion(v gardencorev1beta1.ExpirableVersion, fld Path, opts Options) Problems {
	return validateExpirableVersionAt(v, func() Path { return fld }, opts)
}

// validateExpirableVersionAt is validateExpirableVersion with a path that is only built when a
// problem needs it, which keeps large valid profiles cheap.
func validateExpirableVersionAt(v gardencorev1beta1.ExpirableVersion, fld func() Path, opts Options) Problems {
	if len(v.Lifecycle) > 0 && !opts.Gates.VersionClassificationLifecycle {
		return Problems{forbidden("D-1", fld().Child("lifecycle"), "lifecycles are not allowed with disabled VersionClassificationLifecycle feature gate")}
	}

	var ps Problems
	ps = append(ps, validateLegacyClassification(v, fld)...)
	ps = append(ps, validateLegacyWithLifecycle(v, fld)...)
	if len(v.Lifecycle) > 0 {
		ps = append(ps, validateLifecycleClassifications(v.Lifecycle, fld)...)
		ps = append(ps, validateLifecycleNoDuplicates(v.Lifecycle, fld)...)
		ps = append(ps, validateLifecycleOrder(v.Lifecycle, fld)...)
		ps = append(ps, validateLifecycleStartTimes(v.Lifecycle, fld)...)
	}
	return ps
}

// stagePath is the path of lifecycle stage k of the version at fld (built only for a problem).
func stagePath(fld func() Path, k int) Path {
	return fld().Child("lifecycle").Index(k)
}

// validateLegacyClassification is D-2 (a set classification must be preview, supported, deprecated
// or expired) and D-3 (expired is forbidden unless a lifecycle is present; an empty but non-nil
// lifecycle counts as present).
func validateLegacyClassification(v gardencorev1beta1.ExpirableVersion, fld func() Path) Problems {
	if v.Classification == nil {
		return nil
	}
	var ps Problems
	if !isSupportedClassification(*v.Classification) {
		ps = append(ps, notSupported("D-2", fld().Child("classification"), *v.Classification, supportedClassifications))
	}
	if v.Lifecycle == nil && *v.Classification == gardencorev1beta1.ClassificationExpired {
		ps = append(ps, forbidden("D-3", fld().Child("classification"), "cannot specify `classification` expired"))
	}
	return ps
}

// validateLegacyWithLifecycle is D-4: classification and expirationDate cannot be combined with a
// non-empty lifecycle.
func validateLegacyWithLifecycle(v gardencorev1beta1.ExpirableVersion, fld func() Path) Problems {
	if (v.Classification != nil || v.ExpirationDate != nil) && len(v.Lifecycle) > 0 {
		return Problems{forbidden("D-4", fld(), "cannot specify `classification` or `expirationDate` in combination with `lifecycle`")}
	}
	return nil
}

// validateLifecycleClassifications is D-5: every stage has one of the four writable
// classifications.
func validateLifecycleClassifications(lifecycle []gardencorev1beta1.LifecycleStage, fld func() Path) Problems {
	var ps Problems
	for k, s := range lifecycle {
		if !isSupportedClassification(s.Classification) {
			ps = append(ps, notSupported("D-5", stagePath(fld, k).Child("classification"), s.Classification, supportedClassifications))
		}
	}
	return ps
}

// validateLifecycleNoDuplicates is D-6: a classification occurs at most once (the second and later
// occurrences are reported).
func validateLifecycleNoDuplicates(lifecycle []gardencorev1beta1.LifecycleStage, fld func() Path) Problems {
	var ps Problems
	for k, s := range lifecycle {
		for _, earlier := range lifecycle[:k] {
			if earlier.Classification == s.Classification {
				ps = append(ps, duplicate("D-6", stagePath(fld, k).Child("classification"), s.Classification))
				break
			}
		}
	}
	return ps
}

// validateLifecycleOrder is D-7: adjacent stages are in the order preview, supported, deprecated,
// expired (unknown classifications rank like unavailable).
func validateLifecycleOrder(lifecycle []gardencorev1beta1.LifecycleStage, fld func() Path) Problems {
	var ps Problems
	for k := 1; k < len(lifecycle); k++ {
		previous, current := lifecycle[k-1].Classification, lifecycle[k].Classification
		if compareClassification(previous, current) > 0 {
			ps = append(ps, invalid("D-7", stagePath(fld, k).Child("classification"), current,
				fmt.Sprintf("lifecycle classifications not in expected order (preview, supported, deprecated, expired): %s must be before %s", current, previous)))
		}
	}
	return ps
}

// validateLifecycleStartTimes is D-8 (only the first stage may omit its start time) and D-9 (start
// times never decrease; equal times are fine). A missing first start time counts as the zero time;
// a stage without start time does not move the previous start time.
func validateLifecycleStartTimes(lifecycle []gardencorev1beta1.LifecycleStage, fld func() Path) Problems {
	var ps Problems
	var previous time.Time
	for k, s := range lifecycle {
		if k == 0 {
			if s.StartTime != nil {
				previous = s.StartTime.Time
			}
			continue
		}
		if s.StartTime == nil {
			ps = append(ps, required("D-8", stagePath(fld, k), "only the leading lifecycle elements can have the start time optional"))
			continue
		}
		if s.StartTime.Time.Before(previous) {
			ps = append(ps, invalid("D-9", stagePath(fld, k), s.StartTime.String(), "lifecycle start times must be monotonically increasing"))
		}
		previous = s.StartTime.Time
	}
	return ps
}
