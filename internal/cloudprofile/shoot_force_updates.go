package cloudprofile

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// The blast radius of an update (rule W-force-update): the Shoots that run a Kubernetes or machine
// image version whose expiration the update brings forward (a version that never expired gets an
// expiration, or its expiration moves earlier), and what Gardener's shoot maintenance does to them:
// in each Shoot's first maintenance window after the expiration it force-updates the Shoot, even
// with auto-update off, to the version MachineImageForceUpdateTarget or KubernetesForceUpdateTarget
// names. A removed version in use is rejected by the N rules, so it is not reported here. Shoots
// being deleted are left out, as Gardener leaves them out.

// RuleForceUpdate is the rule id of the blast-radius warning.
const RuleForceUpdate = "W-force-update"

// MaxListedShoots bounds how many Shoots a warning names; it says how many more there are.
const MaxListedShoots = 10

// expiringVersion is a version whose expiration an update brings forward.
type expiringVersion struct {
	image   string // "" for a Kubernetes version
	version string
	// at is the instant after which the version is expired, opts.Now when it is expired already.
	at time.Time
	// since is the instant from which a version that is expired already is expired (its expiration
	// date or the start of its expired stage); zero when it has no such instant.
	since time.Time
}

// affectedShoot is a Shoot on an expiring version with the version Gardener moves it to.
type affectedShoot struct {
	shoot  *gardencorev1beta1.Shoot
	target string
	err    error
}

// ForceUpdatesOfCloudProfile returns a warning for each version whose expiration the update of old
// to cp brings forward while Shoots that refer to cp directly run it. Create plans (old nil)
// report nothing: no Shoot can refer to a profile that does not exist yet.
func ForceUpdatesOfCloudProfile(cp, old *gardencorev1beta1.CloudProfile, shoots []gardencorev1beta1.Shoot, opts Options) Problems {
	if old == nil {
		return nil
	}
	users := shootsReferring(shoots, func(s *gardencorev1beta1.Shoot) bool {
		kind, name, ok := shootCloudProfile(s)
		return ok && kind == kindCloudProfile && name == cp.Name
	})
	locate := func(image, version string) Path { return specVersionPath(&cp.Spec, image, version) }
	return forceUpdateWarnings(&cp.Spec, &old.Spec, users, locate, opts)
}

// NeedsCloudProfileShoots tells whether ForceUpdatesOfCloudProfile can find anything, so that the
// Shoots are listed only then.
func NeedsCloudProfileShoots(cp, old *gardencorev1beta1.CloudProfile, opts Options) bool {
	return old != nil && len(expiringVersions(&cp.Spec, &old.Spec, opts.Now)) > 0
}

// specVersionPath is the attribute path of a version in spec, else of its list or image.
func specVersionPath(spec *gardencorev1beta1.CloudProfileSpec, image, version string) Path {
	if image == "" {
		versions := NewPath("spec").Child("kubernetes").Child("versions")
		for i, v := range spec.Kubernetes.Versions {
			if v.Version == version {
				return versions.Index(i)
			}
		}
		return versions
	}
	images := NewPath("spec").Child("machineImages")
	for i, img := range spec.MachineImages {
		if img.Name != image {
			continue
		}
		for j, v := range img.Versions {
			if v.Version == version {
				return images.Index(i).Child("versions").Index(j)
			}
		}
		return images.Index(i)
	}
	return images
}

// forceUpdateWarnings warns about each expiring version of newSpec that users run.
func forceUpdateWarnings(newSpec, oldSpec *gardencorev1beta1.CloudProfileSpec, users []*gardencorev1beta1.Shoot, locate func(image, version string) Path, opts Options) Problems {
	if len(users) == 0 {
		return nil
	}
	var ps Problems
	for _, e := range expiringVersions(newSpec, oldSpec, opts.Now) {
		affected := affectedShoots(newSpec, e, users)
		if len(affected) == 0 {
			continue
		}
		ps = append(ps, warning(RuleForceUpdate, locate(e.image, e.version), e.version, forceUpdateDetail(e, affected, opts.Now)))
	}
	return ps
}

// expiringVersions lists the versions of newSpec whose expiration comes earlier than in oldSpec,
// Kubernetes versions first, in spec order. Versions already expired in oldSpec are left out.
func expiringVersions(newSpec, oldSpec *gardencorev1beta1.CloudProfileSpec, now time.Time) []expiringVersion {
	var out []expiringVersion
	oldKubernetes := map[string]gardencorev1beta1.ExpirableVersion{}
	for _, v := range oldSpec.Kubernetes.Versions {
		oldKubernetes[v.Version] = v
	}
	for _, v := range newSpec.Kubernetes.Versions {
		if o, ok := oldKubernetes[v.Version]; ok {
			if at, earlier := expiresEarlier(v, o, now); earlier {
				out = append(out, expiringVersion{version: v.Version, at: at, since: expiredAlreadySince(v, now)})
			}
		}
	}
	oldImages := map[imageVersionKey]gardencorev1beta1.ExpirableVersion{}
	for _, img := range oldSpec.MachineImages {
		for _, v := range img.Versions {
			oldImages[imageVersionKey{img.Name, v.Version}] = v.ExpirableVersion
		}
	}
	for _, img := range newSpec.MachineImages {
		for _, v := range img.Versions {
			if o, ok := oldImages[imageVersionKey{img.Name, v.Version}]; ok {
				if at, earlier := expiresEarlier(v.ExpirableVersion, o, now); earlier {
					out = append(out, expiringVersion{image: img.Name, version: v.Version, at: at, since: expiredAlreadySince(v.ExpirableVersion, now)})
				}
			}
		}
	}
	return out
}

// expiresEarlier returns the instant after which v is expired (now when it is already) and whether
// that comes before old's expiration; old expired already at now counts as no change.
func expiresEarlier(v, old gardencorev1beta1.ExpirableVersion, now time.Time) (time.Time, bool) {
	if IsExpired(old, now) {
		return time.Time{}, false
	}
	at, expires := expirationAfter(v, now)
	if !expires {
		return time.Time{}, false
	}
	oldAt, oldExpires := expirationAfter(old, now)
	return at, !oldExpires || at.Before(oldAt)
}

// expiredAlreadySince is the instant from which v, expired at now, is expired; zero when v is not
// expired or has been since the beginning of time.
func expiredAlreadySince(v gardencorev1beta1.ExpirableVersion, now time.Time) time.Time {
	if !IsExpired(v, now) {
		return time.Time{}
	}
	since, _ := expiredSince(v, now)
	return since
}

// expirationAfter is the instant after which v is expired: now when it is expired already.
func expirationAfter(v gardencorev1beta1.ExpirableVersion, now time.Time) (time.Time, bool) {
	if IsExpired(v, now) {
		return now, true
	}
	return ExpirationOf(v, now)
}

// affectedShoots returns the users that run the expiring version, with the version Gardener's
// maintenance moves each to, sorted by namespace and name.
func affectedShoots(spec *gardencorev1beta1.CloudProfileSpec, e expiringVersion, users []*gardencorev1beta1.Shoot) []affectedShoot {
	maintenance := e.at.Add(time.Nanosecond) // a stage starting at an instant is active right after it
	var out []affectedShoot
	for _, s := range users {
		if e.image == "" {
			if s.Spec.Kubernetes.Version == e.version {
				target, err := KubernetesForceUpdateTarget(spec.Kubernetes.Versions, e.version, maintenance)
				out = append(out, affectedShoot{shoot: s, target: target, err: err})
			}
			continue
		}
		if w, ok := workerOn(s, e.image, e.version); ok {
			target, err := imageTargetFor(spec, s, w, e, maintenance)
			out = append(out, affectedShoot{shoot: s, target: target, err: err})
		}
	}
	return out
}

// workerOn returns the first worker pool of s that runs image@version.
func workerOn(s *gardencorev1beta1.Shoot, image, version string) (gardencorev1beta1.Worker, bool) {
	for _, w := range s.Spec.Provider.Workers {
		if img := w.Machine.Image; img != nil && img.Name == image && img.Version != nil && *img.Version == version {
			return w, true
		}
	}
	return gardencorev1beta1.Worker{}, false
}

// imageTargetFor is the force-update target of a worker pool, among the versions of its image
// that match the pool's architecture, container runtime and kubelet version.
func imageTargetFor(spec *gardencorev1beta1.CloudProfileSpec, s *gardencorev1beta1.Shoot, w gardencorev1beta1.Worker, e expiringVersion, at time.Time) (string, error) {
	for _, img := range spec.MachineImages {
		if img.Name == e.image {
			return MachineImageForceUpdateTarget(img, workerImageVersions(spec, img, s, w), e.version, at)
		}
	}
	return "", errNoForceUpdateTarget
}

// workerImageVersions are the versions of img a worker pool can run, as Gardener's maintenance
// filters them: by architecture (amd64 when unset), container runtime (containerd when unset) and
// kubelet version constraint. Capability and in-place update constraints are not applied.
func workerImageVersions(spec *gardencorev1beta1.CloudProfileSpec, img gardencorev1beta1.MachineImage, s *gardencorev1beta1.Shoot, w gardencorev1beta1.Worker) []gardencorev1beta1.ExpirableVersion {
	filter := ImageFilter{Architecture: defaultArchitecture, CRI: defaultCRI}
	if w.Machine.Architecture != nil {
		filter.Architecture = *w.Machine.Architecture
	}
	if w.CRI != nil {
		filter.CRI = string(w.CRI.Name)
	}
	kubelet := s.Spec.Kubernetes.Version
	if w.Kubernetes != nil && w.Kubernetes.Version != nil {
		kubelet = *w.Kubernetes.Version
	}
	var out []gardencorev1beta1.ExpirableVersion
	for _, v := range img.Versions {
		if filter.Matches(v, spec.MachineCapabilities) && kubeletAllowed(v, kubelet) {
			out = append(out, v.ExpirableVersion)
		}
	}
	return out
}

// kubeletAllowed tells whether v's kubelet version constraint, if any, admits kubelet.
func kubeletAllowed(v gardencorev1beta1.MachineImageVersion, kubelet string) bool {
	if v.KubeletVersionConstraint == nil {
		return true
	}
	c, err := ParseConstraint(*v.KubeletVersionConstraint)
	if err != nil {
		return false
	}
	sv, err := ParseVersion(kubelet)
	return err == nil && c.Check(sv)
}

// forceUpdateDetail says which version expires when, how many Shoots run it, and where Gardener
// moves them: the headline before the first "; " names the version and the count.
func forceUpdateDetail(e expiringVersion, affected []affectedShoot, now time.Time) string {
	what := fmt.Sprintf("Kubernetes version %q", e.version)
	if e.image != "" {
		what = fmt.Sprintf("machine image %q version %q", e.image, e.version)
	}
	when := "expires after " + formatInstant(e.at)
	window := "first maintenance window after that instant"
	if !e.at.After(now) {
		when, window = "is expired already", "next maintenance window"
		if !e.since.IsZero() {
			when = "is expired since " + formatInstant(e.since)
		}
	}
	return fmt.Sprintf("%s %s while %s it; in each Shoot's %s Gardener force-updates it, even with auto-update off: %s; projects: %s",
		what, when, countShoots(len(affected)), window, targetsText(affected), projectsText(affected))
}

// countShoots is "1 Shoot runs" or "n Shoots run".
func countShoots(n int) string {
	if n == 1 {
		return "1 Shoot runs"
	}
	return fmt.Sprintf("%d Shoots run", n)
}

// targetsText groups the Shoots by the version Gardener moves them to (or why it cannot), naming
// up to MaxListedShoots Shoots with their maintenance windows.
func targetsText(affected []affectedShoot) string {
	groups := map[string][]string{}
	var keys []string
	listed := 0
	for _, a := range affected {
		key := fmt.Sprintf("to %q", a.target)
		if a.err != nil {
			key = "not possible (" + a.err.Error() + ")"
		}
		if _, ok := groups[key]; !ok {
			keys = append(keys, key)
		}
		if listed < MaxListedShoots {
			groups[key] = append(groups[key], shootText(a.shoot))
			listed++
		} else {
			groups[key] = append(groups[key], "")
		}
	}
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, k+" for "+namedList(groups[k]))
	}
	return strings.Join(parts, "; ")
}

// namedList joins the non-empty names and counts the empty ones (those past the limit).
func namedList(names []string) string {
	var shown []string
	more := 0
	for _, n := range names {
		if n == "" {
			more++
			continue
		}
		shown = append(shown, n)
	}
	if more > 0 {
		shown = append(shown, fmt.Sprintf("%d more", more))
	}
	return strings.Join(shown, ", ")
}

// shootText names a Shoot with its maintenance window, e.g. `garden-dev/app (window 220000+0100-230000+0100)`.
func shootText(s *gardencorev1beta1.Shoot) string {
	text := s.Namespace + "/" + s.Name
	if m := s.Spec.Maintenance; m != nil && m.TimeWindow != nil {
		text += fmt.Sprintf(" (window %s-%s)", m.TimeWindow.Begin, m.TimeWindow.End)
	}
	return text
}

// projectsText counts the affected Shoots per namespace, e.g. `garden-dev (2), garden-ops (1)`.
func projectsText(affected []affectedShoot) string {
	counts := map[string]int{}
	for _, a := range affected {
		counts[a.shoot.Namespace]++
	}
	namespaces := make([]string, 0, len(counts))
	for ns := range counts {
		namespaces = append(namespaces, ns)
	}
	sort.Strings(namespaces)
	parts := make([]string, 0, len(namespaces))
	for _, ns := range namespaces {
		parts = append(parts, fmt.Sprintf("%s (%d)", ns, counts[ns]))
	}
	return strings.Join(parts, ", ")
}

// shootsReferring returns the Shoots that refers says use the profile and that are not being
// deleted, sorted by namespace and name.
func shootsReferring(shoots []gardencorev1beta1.Shoot, refers func(*gardencorev1beta1.Shoot) bool) []*gardencorev1beta1.Shoot {
	var out []*gardencorev1beta1.Shoot
	for i := range shoots {
		if s := &shoots[i]; s.DeletionTimestamp == nil && refers(s) {
			out = append(out, s)
		}
	}
	slices.SortFunc(out, func(a, b *gardencorev1beta1.Shoot) int { return compareNamespacedNames(&a.ObjectMeta, &b.ObjectMeta) })
	return out
}

// ForceUpdatesOfNamespacedCloudProfile returns a warning for each version whose expiration in the
// merged profile the update of old to ncp brings forward (an override removed or moved earlier)
// while Shoots of ncp's namespace that refer to it run it. parent is the parent CloudProfile.
func ForceUpdatesOfNamespacedCloudProfile(ncp, old *gardencorev1beta1.NamespacedCloudProfile, parent *gardencorev1beta1.CloudProfile, shoots []gardencorev1beta1.Shoot, opts Options) Problems {
	if old == nil || parent == nil {
		return nil
	}
	users := shootsReferring(shoots, func(s *gardencorev1beta1.Shoot) bool {
		kind, name, ok := shootCloudProfile(s)
		return ok && kind == kindNamespacedCloudProfile && name == ncp.Name && s.Namespace == ncp.Namespace
	})
	newSpec, oldSpec := mergedSpecs(ncp, old, parent)
	locate := func(image, version string) Path {
		return specVersionPath(&gardencorev1beta1.CloudProfileSpec{Kubernetes: kubernetesOf(ncp.Spec.Kubernetes), MachineImages: ncp.Spec.MachineImages}, image, version)
	}
	return forceUpdateWarnings(&newSpec, &oldSpec, users, locate, opts)
}

// NeedsNamespacedCloudProfileShoots tells whether ForceUpdatesOfNamespacedCloudProfile can find
// anything, so that the Shoots are listed only then.
func NeedsNamespacedCloudProfileShoots(ncp, old *gardencorev1beta1.NamespacedCloudProfile, parent *gardencorev1beta1.CloudProfile, opts Options) bool {
	if old == nil || parent == nil || reflect.DeepEqual(ncp.Spec, old.Spec) {
		return false // an unchanged spec moves no expiration
	}
	newSpec, oldSpec := mergedSpecs(ncp, old, parent)
	return len(expiringVersions(&newSpec, &oldSpec, opts.Now)) > 0
}

// mergedSpecs are the merged profiles of ncp and old with parent, as Gardener's controller
// renders them.
func mergedSpecs(ncp, old *gardencorev1beta1.NamespacedCloudProfile, parent *gardencorev1beta1.CloudProfile) (gardencorev1beta1.CloudProfileSpec, gardencorev1beta1.CloudProfileSpec) {
	return MergeNamespacedCloudProfile(parent.Spec, ncp.Spec, MergeOptions{}), MergeNamespacedCloudProfile(parent.Spec, old.Spec, MergeOptions{})
}

// kubernetesOf is k, or empty settings for nil.
func kubernetesOf(k *gardencorev1beta1.KubernetesSettings) gardencorev1beta1.KubernetesSettings {
	if k == nil {
		return gardencorev1beta1.KubernetesSettings{}
	}
	return *k
}
