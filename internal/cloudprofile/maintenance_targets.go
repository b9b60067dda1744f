package cloudprofile

import (
	"errors"
	"slices"
	"time"

	"github.com/Masterminds/semver/v3"
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// The version Gardener's shoot maintenance moves a Shoot to when the Kubernetes or machine image
// version it runs is expired (rule W-force-update). Gardener first tries the auto-update path (a
// higher version within what the update strategy allows, non-deprecated first, never preview or
// expired); when that finds nothing, the force-update path: for Kubernetes the consecutive minor,
// for machine images the next higher minor (strategy patch) or major (strategy minor), preferring
// versions that are not expired. Strategy major has no force-update path. Classifications are
// taken at the instant the maintenance runs.

// errNoForceUpdateTarget says that Gardener's maintenance finds no version to move to.
var errNoForceUpdateTarget = errors.New("no version to move to, so the maintenance fails: " +
	"the profile needs a higher version that is neither preview nor, preferably, expired")

// errMajorStrategyEndOfLife is Gardener's verdict for an expired latest version of an image with
// update strategy major.
var errMajorStrategyEndOfLife = errors.New("the image's update strategy major cannot force-update past its " +
	"latest version, so the maintenance fails (end of life of the image, or a missing newer version)")

// versionFilter tells whether a candidate version is left out, as Gardener's VersionPredicate does.
type versionFilter func(v gardencorev1beta1.ExpirableVersion, sv *semver.Version) bool

// KubernetesForceUpdateTarget returns the Kubernetes version Gardener's maintenance moves a Shoot
// on the expired (or removed) version current to, with the versions classified at `at`.
func KubernetesForceUpdateTarget(versions []gardencorev1beta1.ExpirableVersion, current string, at time.Time) (string, error) {
	cur, err := semver.NewVersion(current)
	if err != nil {
		return "", err
	}
	if v, ok := autoUpdateCandidate(versions, cur, at, sameMinorAtLeast(cur)); ok {
		return v, nil
	}
	consecutive := []versionFilter{otherMajor(cur), notConsecutiveMinor(cur)}
	if v, ok := latestQualifying(versions, at, append(consecutive, expiredAt(at))...); ok {
		return v, nil
	}
	if v, ok := latestQualifying(versions, at, consecutive...); ok {
		return v, nil
	}
	return "", errNoForceUpdateTarget
}

// MachineImageForceUpdateTarget returns the image version Gardener's maintenance moves a worker
// pool on the expired (or removed) version current to, following the image's update strategy,
// among versions (the image's versions the pool can run) classified at `at`.
func MachineImageForceUpdateTarget(image gardencorev1beta1.MachineImage, versions []gardencorev1beta1.ExpirableVersion, current string, at time.Time) (string, error) {
	cur, err := semver.NewVersion(current)
	if err != nil {
		return "", err
	}
	strategy := gardencorev1beta1.UpdateStrategyMajor
	if image.UpdateStrategy != nil {
		strategy = *image.UpdateStrategy
	}
	if v, ok := autoUpdateCandidate(versions, cur, at, sameMinorAtLeast(cur)); ok {
		return v, nil
	}
	switch strategy {
	case gardencorev1beta1.UpdateStrategyPatch:
		return nextHigherForceTarget(versions, cur, at, minorOf, otherMajor(cur), minorAtMost(cur))
	case gardencorev1beta1.UpdateStrategyMinor:
		if v, ok := autoUpdateCandidate(versions, cur, at, otherMajor(cur)); ok {
			return v, nil
		}
		return nextHigherForceTarget(versions, cur, at, majorOf, majorAtMost(cur))
	default:
		if v, ok := autoUpdateCandidate(versions, cur, at); ok {
			return v, nil
		}
		return "", errMajorStrategyEndOfLife
	}
}

// autoUpdateCandidate is the highest version above cur that is neither preview nor expired nor
// left out by filters, preferring one that is not deprecated.
func autoUpdateCandidate(versions []gardencorev1beta1.ExpirableVersion, cur *semver.Version, at time.Time, filters ...versionFilter) (string, bool) {
	filters = append([]versionFilter{expiredAt(at), notAbove(cur)}, filters...)
	if v, ok := latestQualifying(versions, at, append(filters, deprecatedAt(at))...); ok {
		return v, true
	}
	return latestQualifying(versions, at, filters...)
}

// latestQualifying is the highest version that is not preview at `at` and that no filter leaves out.
func latestQualifying(versions []gardencorev1beta1.ExpirableVersion, at time.Time, filters ...versionFilter) (string, bool) {
	var best *semver.Version
	latest := ""
	for _, v := range versions {
		sv, ok := qualifies(v, at, filters)
		if ok && (best == nil || sv.GreaterThan(best)) {
			best, latest = sv, v.Version
		}
	}
	return latest, best != nil
}

// qualifies parses v and tells whether it is a candidate: not preview and kept by every filter.
func qualifies(v gardencorev1beta1.ExpirableVersion, at time.Time, filters []versionFilter) (*semver.Version, bool) {
	if Classify(v, at) == gardencorev1beta1.ClassificationPreview {
		return nil, false
	}
	sv, err := semver.NewVersion(v.Version)
	if err != nil {
		return nil, false
	}
	for _, f := range filters {
		if f(v, sv) {
			return nil, false
		}
	}
	return sv, true
}

// nextHigherForceTarget is the force-update path of machine images: the highest qualifying version
// of the lowest higher minor (or major, as part selects) that has one, preferring versions that
// are not expired unless that skips the next higher minor (or major) altogether.
func nextHigherForceTarget(versions []gardencorev1beta1.ExpirableVersion, cur *semver.Version, at time.Time, part func(*semver.Version) uint64, filters ...versionFilter) (string, error) {
	next, hasNext := nextHigherPart(versions, cur, part)
	found, ok := lowestGroupLatest(versions, at, part, append(slices.Clone(filters), expiredAt(at)))
	if ok && (!hasNext || part(found) <= next) {
		return found.Original(), nil
	}
	if found, ok = lowestGroupLatest(versions, at, part, filters); ok {
		return found.Original(), nil
	}
	return "", errNoForceUpdateTarget
}

// nextHigherPart is the lowest minor (or major) above cur's among all versions, qualifying or not.
func nextHigherPart(versions []gardencorev1beta1.ExpirableVersion, cur *semver.Version, part func(*semver.Version) uint64) (uint64, bool) {
	var next uint64
	found := false
	for _, v := range versions {
		sv, err := semver.NewVersion(v.Version)
		if err == nil && part(sv) > part(cur) && (!found || part(sv) < next) {
			next, found = part(sv), true
		}
	}
	return next, found
}

// lowestGroupLatest is the highest qualifying version among those of the lowest minor (or major)
// that has a qualifying version.
func lowestGroupLatest(versions []gardencorev1beta1.ExpirableVersion, at time.Time, part func(*semver.Version) uint64, filters []versionFilter) (*semver.Version, bool) {
	var best *semver.Version
	for _, v := range versions {
		sv, ok := qualifies(v, at, filters)
		switch {
		case !ok:
		case best == nil, part(sv) < part(best), part(sv) == part(best) && sv.GreaterThan(best):
			best = sv
		}
	}
	return best, best != nil
}

func minorOf(v *semver.Version) uint64 { return v.Minor() }

func majorOf(v *semver.Version) uint64 { return v.Major() }

// expiredAt leaves out versions expired at `at`.
func expiredAt(at time.Time) versionFilter {
	return func(v gardencorev1beta1.ExpirableVersion, _ *semver.Version) bool { return IsExpired(v, at) }
}

// deprecatedAt leaves out versions deprecated at `at`.
func deprecatedAt(at time.Time) versionFilter {
	return func(v gardencorev1beta1.ExpirableVersion, _ *semver.Version) bool { return IsDeprecated(v, at) }
}

// notAbove leaves out cur and lower versions.
func notAbove(cur *semver.Version) versionFilter {
	return func(_ gardencorev1beta1.ExpirableVersion, sv *semver.Version) bool { return !sv.GreaterThan(cur) }
}

// sameMinorAtLeast keeps the versions of cur's major and minor (the tilde range of cur).
func sameMinorAtLeast(cur *semver.Version) versionFilter {
	return func(_ gardencorev1beta1.ExpirableVersion, sv *semver.Version) bool {
		return sv.Major() != cur.Major() || sv.Minor() != cur.Minor()
	}
}

// otherMajor leaves out versions of another major than cur's.
func otherMajor(cur *semver.Version) versionFilter {
	return func(_ gardencorev1beta1.ExpirableVersion, sv *semver.Version) bool { return sv.Major() != cur.Major() }
}

// notConsecutiveMinor leaves out versions whose minor is not cur's plus one.
func notConsecutiveMinor(cur *semver.Version) versionFilter {
	return func(_ gardencorev1beta1.ExpirableVersion, sv *semver.Version) bool {
		return sv.Minor() != cur.Minor()+1
	}
}

// minorAtMost leaves out versions whose minor is not above cur's.
func minorAtMost(cur *semver.Version) versionFilter {
	return func(_ gardencorev1beta1.ExpirableVersion, sv *semver.Version) bool { return sv.Minor() <= cur.Minor() }
}

// majorAtMost leaves out versions whose major is not above cur's.
func majorAtMost(cur *semver.Version) versionFilter {
	return func(_ gardencorev1beta1.ExpirableVersion, sv *semver.Version) bool { return sv.Major() <= cur.Major() }
}
