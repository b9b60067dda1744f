package cloudprofile

import (
	"fmt"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Kubernetes version rules of a CloudProfile (C rules), also used on the merged status of a
// NamespacedCloudProfile (M-1) and, without C-1 … C-4 and C-8, on its spec (K-4):
//
//	validateKubernetesVersions(versions []gardencorev1beta1.ExpirableVersion, fld Path, opts Options) Problems
//	    C-1 … C-8 and D-1 … D-9; fld is the ".kubernetes.versions" path.
//	validateKubernetesVersionEntries(versions []gardencorev1beta1.ExpirableVersion, fld Path, opts Options) Problems
//	    C-5, C-6 and D-1 … D-9 only; fld is the ".kubernetes.versions" path.

// validateKubernetesVersions applies C-1 … C-9 and the D rules.
func validateKubernetesVersions(versions []gardencorev1beta1.ExpirableVersion, fld Path, opts Options) Problems {
	var ps Problems
	if len(versions) == 0 {
		ps = append(ps, required("C-1", fld, "must provide at least one Kubernetes version"))
	}
	parsed := parseVersionStrings(len(versions), func(i int) string { return versions[i].Version })
	ps = append(ps, validateLatestKubernetesVersion(versions, parsed, fld)...)
	ps = append(ps, validateKubernetesVersionEntries(versions, fld, opts)...)
	ps = append(ps, validateOneSupportedPerMinor(perMinorRules{"C-8", "C-9"}, len(versions), func(i int) gardencorev1beta1.ExpirableVersion { return versions[i] }, parsed, fld, opts)...)
	return ps
}

// validateLatestKubernetesVersion is C-2 (the latest version must be determinable: the list is
// non-empty and every version is semver), C-3 (the latest version has no expiration date) and C-4
// (the last lifecycle stage of the latest version is not expired). "Latest" is the highest semver
// across all versions, the first one on a tie. C-3 and C-4 are reported at Gardener's literal
// paths "<fld>[].expirationDate" and "<fld>[].lifecycle", with attribute steps pointing at the
// latest version.
func validateLatestKubernetesVersion(versions []gardencorev1beta1.ExpirableVersion, parsed parsedVersions, fld Path) Problems {
	latest := parsed.latest()
	if latest < 0 {
		return Problems{invalid("C-2", fld, "", "failed to determine the latest kubernetes version from the cloud profile")}
	}

	var ps Problems
	v := versions[latest]
	latestPath := fld.FieldOnly("").AttributeOnly(Step{Kind: StepIndex, Index: latest})
	if v.ExpirationDate != nil {
		ps = append(ps, invalid("C-3", latestPath.Child("expirationDate"), v.ExpirationDate,
			fmt.Sprintf("expiration date of latest kubernetes version ('%s') must not be set", v.Version)))
	}
	if n := len(v.Lifecycle); n > 0 && v.Lifecycle[n-1].Classification == gardencorev1beta1.ClassificationExpired {
		ps = append(ps, invalid("C-4", latestPath.Child("lifecycle"), v.ExpirationDate,
			fmt.Sprintf("classification %s of latest kubernetes version ('%s') must not be set", gardencorev1beta1.ClassificationExpired, v.Version)))
	}
	return ps
}

// validateKubernetesVersionEntries is C-5 (every version matches KubernetesVersionPattern; the bad
// value is the whole version), C-6 (no version string occurs twice; a version failing C-5 is not
// recorded) and the D rules for each version.
func validateKubernetesVersionEntries(versions []gardencorev1beta1.ExpirableVersion, fld Path, opts Options) Problems {
	var ps Problems
	seen := make(map[string]bool, len(versions))
	for i, v := range versions {
		vp := func() Path { return fld.Index(i) }
		switch {
		case !IsKubernetesVersion(v.Version):
			ps = append(ps, invalid("C-5", vp(), v, fmt.Sprintf("all Kubernetes versions must match the regex %s", KubernetesVersionPattern)))
		case seen[v.Version]:
			ps = append(ps, duplicate("C-6", vp().Child("version"), v.Version))
		default:
			seen[v.Version] = true
		}
		ps = append(ps, validateExpirableVersionAt(v, vp, opts)...)
	}
	return ps
}
