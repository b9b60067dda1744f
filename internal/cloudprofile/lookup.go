package cloudprofile

import (
	"fmt"
	"iter"
	"slices"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Lookups answer the questions a shoot module asks of a (merged) profile at an instant: the newest
// supported Kubernetes version, overall and per minor, and the newest supported version of a
// machine image for an architecture and container runtime. "Newest" is the highest version in
// Gardener's semver order (Masterminds); versions that do not parse are never picked. On a tie the
// first version in spec order wins, as in Gardener's DetermineLatestExpirableVersion.

// defaultCRI is the container runtime interface Gardener defaults on CloudProfile image versions.
const defaultCRI = string(gardencorev1beta1.CRINameContainerD)

// LatestSupportedKubernetesVersion returns the highest Kubernetes version that is supported at
// `at`, and false when no version is.
func LatestSupportedKubernetesVersion(versions []gardencorev1beta1.ExpirableVersion, at time.Time) (string, bool) {
	best, ok := highest(supportedVersions(len(versions), func(i int) gardencorev1beta1.ExpirableVersion { return versions[i] }, at))
	if !ok {
		return "", false
	}
	return versions[best].Version, true
}

// LatestSupportedKubernetesVersionsByMinor maps each minor line "MAJOR.MINOR" (such as "1.31") that
// has a version supported at `at` to the highest such version.
func LatestSupportedKubernetesVersionsByMinor(versions []gardencorev1beta1.ExpirableVersion, at time.Time) map[string]string {
	type pick struct {
		version string
		parsed  semVersion
	}
	best := map[minorKey]pick{}
	for i, parsed := range supportedVersions(len(versions), func(i int) gardencorev1beta1.ExpirableVersion { return versions[i] }, at) {
		k := parsed.minorKey()
		if p, ok := best[k]; !ok || parsed.compare(p.parsed) > 0 {
			best[k] = pick{version: versions[i].Version, parsed: parsed}
		}
	}
	out := make(map[string]string, len(best))
	for k, p := range best {
		out[minorString(k)] = p.version
	}
	return out
}

func minorString(k minorKey) string { return fmt.Sprintf("%d.%d", k.major, k.minor) }

// ImageFilter selects machine image versions by what they run on. Empty fields match everything.
type ImageFilter struct {
	// Architecture a version must support, e.g. "arm64" (see ImageVersionArchitectures).
	Architecture string
	// CRI a version must offer, e.g. "containerd" (see ImageVersionCRINames).
	CRI string
	// HasImage, when set, tells whether a version of the named image has what else a module needs,
	// such as an image of the provider extension in its region.
	HasImage func(image, version string) bool
}

// Matches tells whether v passes the filter under the profile's capability definitions.
func (f ImageFilter) Matches(v gardencorev1beta1.MachineImageVersion, defs []gardencorev1beta1.CapabilityDefinition) bool {
	if f.Architecture != "" && !slices.Contains(ImageVersionArchitectures(v, defs), f.Architecture) {
		return false
	}
	if f.CRI != "" && !slices.Contains(ImageVersionCRINames(v), f.CRI) {
		return false
	}
	return true
}

// ImageVersionArchitectures returns the architectures an image version supports: its
// architectures when set; else, under capability definitions, the union of the architecture
// values of its flavors with the definitions' defaults applied (no flavors meaning every defined
// architecture); else amd64, Gardener's default.
func ImageVersionArchitectures(v gardencorev1beta1.MachineImageVersion, defs []gardencorev1beta1.CapabilityDefinition) []string {
	if len(v.Architectures) > 0 {
		return v.Architectures
	}
	if len(defs) > 0 {
		if archs := defaultedFlavorArchitectures(v.CapabilityFlavors, defs); len(archs) > 0 {
			return archs
		}
	}
	return []string{defaultArchitecture}
}

// ImageVersionCRINames returns the names of the container runtime interfaces an image version
// offers; an empty list counts as containerd, which Gardener defaults on CloudProfiles.
func ImageVersionCRINames(v gardencorev1beta1.MachineImageVersion) []string {
	if len(v.CRI) == 0 {
		return []string{defaultCRI}
	}
	names := make([]string, 0, len(v.CRI))
	for _, c := range v.CRI {
		names = append(names, string(c.Name))
	}
	return names
}

// LatestSupportedImageVersion returns the highest version of image that is supported at `at` and
// passes filter, and false when there is none.
func LatestSupportedImageVersion(image gardencorev1beta1.MachineImage, defs []gardencorev1beta1.CapabilityDefinition, at time.Time, filter ImageFilter) (string, bool) {
	supported := supportedVersions(len(image.Versions), func(i int) gardencorev1beta1.ExpirableVersion { return image.Versions[i].ExpirableVersion }, at)
	matching := func(yield func(int, semVersion) bool) {
		for i, parsed := range supported {
			if filter.Matches(image.Versions[i], defs) && (filter.HasImage == nil || filter.HasImage(image.Name, image.Versions[i].Version)) && !yield(i, parsed) {
				return
			}
		}
	}
	best, ok := highest(matching)
	if !ok {
		return "", false
	}
	return image.Versions[best].Version, true
}

// supportedVersions yields the index and the parsed semver of each of n versions that is supported
// at `at` and parses; version(i) is the i-th version.
func supportedVersions(n int, version func(i int) gardencorev1beta1.ExpirableVersion, at time.Time) iter.Seq2[int, semVersion] {
	return func(yield func(int, semVersion) bool) {
		for i := range n {
			v := version(i)
			if Classify(v, at) != gardencorev1beta1.ClassificationSupported {
				continue
			}
			parsed, err := parseSemver(v.Version)
			if err == nil && !yield(i, parsed) {
				return
			}
		}
	}
}

// highest returns the index of the highest version of versions, the first on a tie, and false when
// there is none.
func highest(versions iter.Seq2[int, semVersion]) (int, bool) {
	best, bestVersion := -1, semVersion{}
	for i, parsed := range versions {
		if best < 0 || parsed.compare(bestVersion) > 0 {
			best, bestVersion = i, parsed
		}
	}
	return best, best >= 0
}

// LatestSupportedImageVersions maps the name of every image of spec that has a version supported at
// `at` and passing filter to the highest such version.
func LatestSupportedImageVersions(spec gardencorev1beta1.CloudProfileSpec, at time.Time, filter ImageFilter) map[string]string {
	out := make(map[string]string, len(spec.MachineImages))
	for _, image := range spec.MachineImages {
		if v, ok := LatestSupportedImageVersion(image, spec.MachineCapabilities, at, filter); ok {
			out[image.Name] = v
		}
	}
	return out
}

// ExpirationOf returns the instant from which v is expired, derived from its lifecycle or its
// legacy expirationDate, and false when v is not expired at `at` and no coming stage makes it
// expired. For a version expired at `at` it is the start of the current expired period (false when
// that cannot be derived, e.g. a lifecycle starting with an expired stage without start time);
// otherwise the first instant after which it becomes expired.
func ExpirationOf(v gardencorev1beta1.ExpirableVersion, at time.Time) (time.Time, bool) {
	if Classify(v, at) == gardencorev1beta1.ClassificationExpired {
		return PeriodStart(v, at)
	}
	from := at
	for {
		tr, ok := NextTransition(v, from)
		if !ok {
			return time.Time{}, false
		}
		if tr.To == gardencorev1beta1.ClassificationExpired {
			return tr.At, true
		}
		// v has classification tr.To right after tr.At; continue from there.
		from = tr.At.Add(time.Nanosecond)
	}
}

// PeriodStart returns the instant since which v has had its classification at `at`: the latest
// stage start before `at` at which the classification changed to the current one. It is false when
// v has had that classification since the beginning of time.
func PeriodStart(v gardencorev1beta1.ExpirableVersion, at time.Time) (time.Time, bool) {
	current := Classify(v, at)
	var starts []time.Time
	for _, s := range effectiveStages(v) {
		if !s.start.IsZero() && s.start.Before(at) {
			starts = append(starts, s.start)
		}
	}
	slices.SortFunc(starts, func(a, b time.Time) int { return b.Compare(a) })
	for i, t := range starts {
		if i > 0 && t.Equal(starts[i-1]) {
			continue
		}
		// Classify(v, t) is the classification on the interval that ends at t: t is the change.
		if Classify(v, t) != current {
			return t, true
		}
	}
	return time.Time{}, false
}
