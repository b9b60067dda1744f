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
//	                 named with the instant it expired; one the update adds is said to be added so.
//	W-expires-soon   a kept version that becomes expired within Options.ExpiryWarningWindow.
//	W-changes-soon   a kept version whose classification changes otherwise (e.g. to deprecated)
//	                 within Options.ExpiryWarningWindow.

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
		added := !create && !hasKubernetesVersion(&old.Spec.Kubernetes, v.Version)
		ps = append(ps, warnVersion("Kubernetes version", v, create, !Classify(v, opts.Now).IsActive(), added, k8s.Index(i), opts)...)
	}
	images := spec.Child("machineImages")
	for i, image := range cp.Spec.MachineImages {
		versions := images.Index(i).Child("versions")
		for j, v := range image.Versions {
			if prior.unchangedImageVersion(image.Name, v) {
				continue
			}
			what := fmt.Sprintf("machine image %q version", image.Name)
			added := !create && !hasImageVersion(old.Spec.MachineImages, image.Name, v.Version)
			ps = append(ps, warnVersion(what, v.ExpirableVersion, create, IsExpired(v.ExpirableVersion, opts.Now), added, versions.Index(j), opts)...)
		}
	}
	return ps
}

// warnVersion warns about one version; dropOnCreate tells whether Gardener drops it on create,
// added whether an update adds it.
func warnVersion(what string, v gardencorev1beta1.ExpirableVersion, create, dropOnCreate, added bool, p Path, opts Options) Problems {
	now := Classify(v, opts.Now)
	if create && dropOnCreate {
		return Problems{warning("W-dropped", p, v.Version,
			fmt.Sprintf("%s %q is %s as of this plan (%s); Gardener drops it from the CloudProfile on create", what, v.Version, now, formatInstant(opts.Now)))}
	}
	if !create && now == gardencorev1beta1.ClassificationExpired {
		return Problems{warning("W-expired", p, v.Version, expiredDetail(what, v, added, opts.Now))}
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
	return Problems{warning("W-changes-soon", p, v.Version, fmt.Sprintf("%s %q changes from %s to %s after %s", what, v.Version, now, next.To, formatInstant(next.At)))}
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
