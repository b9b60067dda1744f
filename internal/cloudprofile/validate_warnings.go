package cloudprofile

import (
	"fmt"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Warnings are findings Gardener accepts silently but a Terraform user should hear about. They are
// kept apart from validation so that ValidateCloudProfile stays exactly Gardener's result.
//
//	W-dropped        on create: a Kubernetes version that is not active (expired or unavailable),
//	                 or a machine image version that is expired, at Options.Now; gardener-apiserver
//	                 removes it before storing the profile.
//	W-expired        on update: a version that is already expired at Options.Now (kept by Gardener),
//	                 named with the instant it expired; one the update adds is said to be added so,
//	                 and one the update expires with a past date gets the likely meant future date.
//	W-expires-soon   a kept version that becomes expired within Options.ExpiryWarningWindow.
//	W-changes-soon   a kept version whose classification changes otherwise (e.g. to deprecated)
//	                 within Options.ExpiryWarningWindow.
//	W-promoted-soon  a kept version that becomes preview or supported within the window: a notice,
//	                 nothing to fix (see IsNotice).

// WarnCloudProfile returns the warnings for creating cp (old == nil) or replacing old with cp. An
// update warns only about the versions it adds or changes, unless Options.RemindUnchanged is set.
// Paths refer to cp as given.
func WarnCloudProfile(cp, old *gardencorev1beta1.CloudProfile, opts Options) Problems {
	if cp == nil {
		return nil
	}
	create := old == nil
	var prior *priorVersions
	if !create {
		prior = newPriorVersions(&old.Spec.Kubernetes, old.Spec.MachineImages, opts)
	}
	var ps Problems
	spec := NewPath("spec")

	k8s := spec.Child("kubernetes").Child("versions")
	for i, v := range cp.Spec.Kubernetes.Versions {
		if prior.unchangedKubernetesVersion(v) {
			continue
		}
		var before *gardencorev1beta1.ExpirableVersion
		if !create {
			before = kubernetesVersionBefore(&old.Spec.Kubernetes, v.Version)
		}
		ps = append(ps, warnVersion("Kubernetes version", v, create, !Classify(v, opts.Now).IsActive(), before, k8s.Index(i), opts)...)
	}
	images := spec.Child("machineImages")
	for i, image := range cp.Spec.MachineImages {
		versions := images.Index(i).Child("versions")
		for j, v := range image.Versions {
			if prior.unchangedImageVersion(image.Name, v) {
				continue
			}
			what := fmt.Sprintf("machine image %q version", image.Name)
			var before *gardencorev1beta1.ExpirableVersion
			if !create {
				before = imageVersionBefore(old.Spec.MachineImages, image.Name, v.Version)
			}
			ps = append(ps, warnVersion(what, v.ExpirableVersion, create, IsExpired(v.ExpirableVersion, opts.Now), before, versions.Index(j), opts)...)
		}
	}
	return ps
}

// warnVersion warns about one version; dropOnCreate tells whether Gardener drops it on create,
// before is the version as the object an update replaces has it (nil: the update adds it).
func warnVersion(what string, v gardencorev1beta1.ExpirableVersion, create, dropOnCreate bool, before *gardencorev1beta1.ExpirableVersion, p Path, opts Options) Problems {
	now := Classify(v, opts.Now)
	if create && dropOnCreate {
		return Problems{warning("W-dropped", p, v.Version,
			fmt.Sprintf("%s %q is %s as of this plan (%s); Gardener drops it from the CloudProfile on create", what, v.Version, now, formatInstant(opts.Now)))}
	}
	if !create && now == gardencorev1beta1.ClassificationExpired {
		detail := expiredDetail(what, v, before == nil, opts.Now)
		if meant, ok := likelyMeantExpiration(v, before, opts.Now); ok {
			detail += fmt.Sprintf("; the update expires it with a date in the past although it was %s: if the date was to be in the future, "+
				"correct the year, such as to %s", Classify(*before, opts.Now), formatInstant(meant))
		}
		return Problems{warning("W-expired", p, v.Version, detail)}
	}
	if opts.ExpiryWarningWindow <= 0 {
		return nil
	}
	next, ok := NextTransition(v, opts.Now)
	if !ok || next.At.Sub(opts.Now) > opts.ExpiryWarningWindow {
		return nil
	}
	if next.To == gardencorev1beta1.ClassificationExpired {
		return Problems{warning("W-expires-soon", p, v.Version, fmt.Sprintf("%s %q expires after %s", what, v.Version, formatInstant(next.At)))}
	}
	rule := "W-changes-soon"
	if next.To == gardencorev1beta1.ClassificationPreview || next.To == gardencorev1beta1.ClassificationSupported {
		rule = "W-promoted-soon"
	}
	return Problems{warning(rule, p, v.Version, fmt.Sprintf("%s %q changes from %s to %s after %s", what, v.Version, now, next.To, formatInstant(next.At)))}
}

// noticeRules are the warnings that report a change for the better, which needs no fix.
var noticeRules = map[string]bool{"W-promoted-soon": true}

// IsNotice tells whether a rule's problems are notices: warnings about a change for the better
// (a version becoming preview or supported), not problems to fix.
func IsNotice(rule string) bool { return noticeRules[rule] }

// likelyMeantExpiration is the date an update probably meant when it gives a version that was not
// expired before (before) an expiration date in the past (v's, at now): the same day and time in
// the first year that puts it after now. False when the update adds the version, when it was
// expired already, or when v is not expired by a date the update changed.
func likelyMeantExpiration(v gardencorev1beta1.ExpirableVersion, before *gardencorev1beta1.ExpirableVersion, now time.Time) (time.Time, bool) {
	if before == nil || IsExpired(*before, now) || v.ExpirationDate == nil || len(v.Lifecycle) > 0 || !v.ExpirationDate.Time.Before(now) {
		return time.Time{}, false
	}
	if before.ExpirationDate != nil && before.ExpirationDate.Equal(v.ExpirationDate) {
		return time.Time{}, false
	}
	past := v.ExpirationDate.UTC()
	meant := past.AddDate(now.UTC().Year()-past.Year(), 0, 0)
	for !meant.After(now) {
		meant = meant.AddDate(1, 0, 0)
	}
	return meant, true
}

// kubernetesVersionBefore is the Kubernetes version of k, nil when k lacks it.
func kubernetesVersionBefore(k *gardencorev1beta1.KubernetesSettings, version string) *gardencorev1beta1.ExpirableVersion {
	if k == nil {
		return nil
	}
	if v, ok := findKubernetesVersion(k.Versions, version); ok {
		return &v
	}
	return nil
}

// imageVersionBefore is the version of the image among images, nil when they lack it.
func imageVersionBefore(images []gardencorev1beta1.MachineImage, name, version string) *gardencorev1beta1.ExpirableVersion {
	if img, ok := findImage(images, name); ok {
		if v, ok := findImageVersion(img.Versions, version); ok {
			return &v.ExpirableVersion
		}
	}
	return nil
}

// expiredDetail says since when a version expired at now is expired: its expiration date or the
// start of its expired lifecycle stage, not the instant of the plan; a version an update adds is
// said to be added expired.
func expiredDetail(what string, v gardencorev1beta1.ExpirableVersion, added bool, now time.Time) string {
	legacy := len(v.Lifecycle) == 0
	detail := fmt.Sprintf("%s %q is expired: its lifecycle starts expired", what, v.Version)
	if legacy {
		detail = fmt.Sprintf("%s %q is expired: its classification is expired", what, v.Version)
	}
	if since, ok := expiredSince(v, now); ok {
		source := "the start of its expired lifecycle stage"
		if legacy {
			source = "its expiration date"
		}
		detail = fmt.Sprintf("%s %q expired at %s, %s", what, v.Version, formatInstant(since), source)
	}
	if added {
		detail += "; the update adds it already expired"
	}
	return detail
}

// expiredSince returns the start of the stage that makes v expired at now; false when that stage
// has no start time (the version is expired from the beginning).
func expiredSince(v gardencorev1beta1.ExpirableVersion, now time.Time) (time.Time, bool) {
	var since time.Time
	for _, s := range effectiveStages(v) {
		if s.start.Before(now) {
			since = s.start
		}
	}
	return since, !since.IsZero()
}

// formatInstant renders an instant in UTC as RFC 3339.
func formatInstant(t time.Time) string {
	return t.UTC().Format(time.RFC3339)
}
