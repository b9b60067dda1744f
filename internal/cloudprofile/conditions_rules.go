package cloudprofile

import (
	"fmt"
	"slices"
	"strings"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// The lifecycle conditions, evaluated at one instant on a pre-parsed spec.

// indexedVersion is a version with its parsed semver (ok false when it does not parse) and its
// classification timeline.
type indexedVersion struct {
	v      gardencorev1beta1.ExpirableVersion
	parsed semVersion
	ok     bool
	// archs are the architectures of an image version (nil for Kubernetes versions).
	archs []string
	tl    timeline
}

// timeline is a version's classification as a step function of time: initial up to and including
// at[0], then classes[i] right after at[i] up to and including at[i+1]. It answers Classify in
// logarithmic time; the condition rules evaluate it at many instants.
type timeline struct {
	initial gardencorev1beta1.VersionClassification
	at      []time.Time
	classes []gardencorev1beta1.VersionClassification
}

func newTimeline(v gardencorev1beta1.ExpirableVersion) timeline {
	stages := effectiveStages(v)
	var starts []time.Time
	for _, s := range stages {
		if !s.start.IsZero() {
			starts = append(starts, s.start)
		}
	}
	slices.SortFunc(starts, func(a, b time.Time) int { return a.Compare(b) })
	starts = slices.CompactFunc(starts, func(a, b time.Time) bool { return a.Equal(b) })
	tl := timeline{initial: gardencorev1beta1.ClassificationSupported}
	if stages != nil {
		// Right after the zero time every stage without start time is active.
		tl.initial = classifyStages(stages, time.Time{})
	}
	prev := tl.initial
	for _, s := range starts {
		c := classifyStages(stages, s)
		if c == prev {
			continue
		}
		tl.at = append(tl.at, s)
		tl.classes = append(tl.classes, c)
		prev = c
	}
	return tl
}

// classify is Classify(v, t) for t after the zero time.
func (tl timeline) classify(t time.Time) gardencorev1beta1.VersionClassification {
	// The number of steps strictly before t.
	n, _ := slices.BinarySearchFunc(tl.at, t, func(a, b time.Time) int { return a.Compare(b) })
	if n == 0 {
		return tl.initial
	}
	return tl.classes[n-1]
}

// classifyAfter is the classification right after the instant t.
func (tl timeline) classifyAfter(t time.Time) gardencorev1beta1.VersionClassification {
	return tl.classify(t.Add(time.Nanosecond))
}

// expiresBefore returns when a version active at t becomes expired, if that happens before end.
func (tl timeline) expiresBefore(t, end time.Time) (time.Time, bool) {
	if !tl.classify(t).IsActive() {
		return time.Time{}, false
	}
	n, _ := slices.BinarySearchFunc(tl.at, t, func(a, b time.Time) int { return a.Compare(b) })
	for i := n; i < len(tl.at) && tl.at[i].Before(end); i++ {
		if tl.classes[i] == gardencorev1beta1.ClassificationExpired {
			return tl.at[i], true
		}
	}
	return time.Time{}, false
}

type indexedImage struct {
	name     string
	versions []indexedVersion
}

// conditionIndex holds what the condition rules need of a spec, parsed once.
type conditionIndex struct {
	spec       *gardencorev1beta1.CloudProfileSpec
	kubernetes []indexedVersion
	images     []indexedImage
	// machineTypeArchs are the architectures of the usable machine types, in order of first use.
	machineTypeArchs []string
	// starts are the distinct non-zero stage start times of all versions, ascending.
	starts []time.Time
}

func newConditionIndex(spec *gardencorev1beta1.CloudProfileSpec) *conditionIndex {
	idx := &conditionIndex{spec: spec}
	if spec == nil {
		return idx
	}
	var starts []time.Time
	collect := func(v gardencorev1beta1.ExpirableVersion) {
		for _, s := range effectiveStages(v) {
			if !s.start.IsZero() {
				starts = append(starts, s.start)
			}
		}
	}
	for _, v := range spec.Kubernetes.Versions {
		parsed, err := parseSemver(v.Version)
		idx.kubernetes = append(idx.kubernetes, indexedVersion{v: v, parsed: parsed, ok: err == nil, tl: newTimeline(v)})
		collect(v)
	}
	for _, image := range spec.MachineImages {
		ii := indexedImage{name: image.Name}
		for _, v := range image.Versions {
			parsed, err := parseSemver(v.Version)
			ii.versions = append(ii.versions, indexedVersion{v: v.ExpirableVersion, parsed: parsed, ok: err == nil,
				archs: ImageVersionArchitectures(v, spec.MachineCapabilities), tl: newTimeline(v.ExpirableVersion)})
			collect(v.ExpirableVersion)
		}
		idx.images = append(idx.images, ii)
	}
	for i := range spec.MachineTypes {
		m := &spec.MachineTypes[i]
		if m.Usable != nil && !*m.Usable {
			continue
		}
		arch := m.GetArchitecture(spec.MachineCapabilities)
		if arch == "" {
			arch = defaultArchitecture
		}
		if !slices.Contains(idx.machineTypeArchs, arch) {
			idx.machineTypeArchs = append(idx.machineTypeArchs, arch)
		}
	}
	slices.SortFunc(starts, func(a, b time.Time) int { return a.Compare(b) })
	idx.starts = slices.CompactFunc(starts, func(a, b time.Time) bool { return a.Equal(b) })
	return idx
}

// breakpointsBefore returns, latest first, the distinct instants before `at` at which a lifecycle
// condition may change: every stage start s, and s - window (where a coming expiration enters the
// warning window).
func (idx *conditionIndex) breakpointsBefore(at time.Time, window time.Duration) []time.Time {
	out := make([]time.Time, 0, 2*len(idx.starts))
	for _, s := range idx.starts {
		if s.Before(at) {
			out = append(out, s)
		}
		if window > 0 {
			if w := s.Add(-window); w.Before(at) {
				out = append(out, w)
			}
		}
	}
	slices.SortFunc(out, func(a, b time.Time) int { return b.Compare(a) })
	return slices.CompactFunc(out, func(a, b time.Time) bool { return a.Equal(b) })
}

// lifecycleConditions evaluates the four lifecycle conditions at t. Without detail only the
// statuses are meaningful: rules stop at their first finding and build no messages, which is what
// the search for last transition times needs.
func (idx *conditionIndex) lifecycleConditions(t time.Time, window time.Duration, detail bool) []Condition {
	types := []string{ConditionKubernetesVersionsSupported, ConditionLatestKubernetesVersionNotDeprecated,
		ConditionExpirationsHaveSuccessors, ConditionMachineImagesSupported}
	if idx.spec == nil {
		out := make([]Condition, len(types))
		for i, typ := range types {
			out[i] = Condition{Type: typ, Status: ConditionUnknown, Reason: ReasonSpecNotAvailable, Message: "the profile's spec is not available"}
		}
		return out
	}
	return []Condition{
		idx.kubernetesVersionsSupported(t, &findings{detail: detail}),
		idx.latestKubernetesVersionNotDeprecated(t),
		idx.expirationsHaveSuccessors(t, window, &findings{detail: detail}),
		idx.machineImagesSupported(t, &findings{detail: detail}),
	}
}

// findings collects the reasons for a condition not to be met.
type findings struct {
	detail bool
	list   []finding
}

// add records a finding; the message is formatted only with detail.
func (f *findings) add(severity ConditionSeverity, reason, format string, args ...any) {
	msg := ""
	if f.detail {
		msg = fmt.Sprintf(format, args...)
	}
	f.list = append(f.list, finding{severity, reason, msg})
}

// done tells a rule to stop: without detail the first finding decides the status.
func (f *findings) done() bool { return !f.detail && len(f.list) > 0 }

// released tells whether a classification counts as released: supported or deprecated. Preview
// versions are not released yet; expired and unavailable ones are not active.
func released(c gardencorev1beta1.VersionClassification) bool {
	return c == gardencorev1beta1.ClassificationSupported || c == gardencorev1beta1.ClassificationDeprecated
}

// kubernetesVersionsSupported: Error when no version is active or none is supported; Warning for
// each minor that has released versions but no supported one. Minors with only preview versions
// are not required to have a supported version yet. Versions that do not parse are ignored.
func (idx *conditionIndex) kubernetesVersionsSupported(t time.Time, f *findings) Condition {
	type minorState struct {
		key       minorKey
		supported bool
		released  []string
	}
	var minors []*minorState
	byKey := map[minorKey]*minorState{}
	anyActive, anySupported := false, false
	var active []string
	for _, iv := range idx.kubernetes {
		c := iv.tl.classify(t)
		if !c.IsActive() {
			continue
		}
		anyActive = true
		if f.detail {
			active = append(active, iv.v.Version+" ("+string(c)+")")
		}
		if c == gardencorev1beta1.ClassificationSupported {
			anySupported = true
		}
		if !iv.ok || !released(c) {
			continue
		}
		k := iv.parsed.minorKey()
		m := byKey[k]
		if m == nil {
			m = &minorState{key: k}
			byKey[k] = m
			minors = append(minors, m)
		}
		if c == gardencorev1beta1.ClassificationSupported {
			m.supported = true
		}
		if f.detail {
			m.released = append(m.released, iv.v.Version+" is "+string(c))
		}
	}

	switch {
	case !anyActive:
		f.add(ConditionSeverityError, ReasonNoActiveKubernetesVersion,
			"no Kubernetes version is active: every version is expired or not yet available, so no shoot can be created")
	case !anySupported:
		f.add(ConditionSeverityError, ReasonNoSupportedKubernetesVersion, "no Kubernetes version is supported; active versions: %s", strings.Join(active, ", "))
	}
	slices.SortFunc(minors, func(a, b *minorState) int {
		if d := compareUint(b.key.major, a.key.major); d != 0 {
			return d
		}
		return compareUint(b.key.minor, a.key.minor)
	})
	for _, m := range minors {
		if f.done() {
			break
		}
		if !m.supported {
			f.add(ConditionSeverityWarning, ReasonMinorWithoutSupportedVersion, "minor %s has no supported version (%s)", minorString(m.key), strings.Join(m.released, ", "))
		}
	}
	return fromFindings(ConditionKubernetesVersionsSupported, f.list, ReasonEveryMinorSupported,
		"every Kubernetes minor with released versions has a supported version")
}

// latestKubernetesVersionNotDeprecated looks at the highest Kubernetes version (any
// classification): deprecated is a Warning, expired an Error; preview, supported and not yet
// available are fine.
func (idx *conditionIndex) latestKubernetesVersionNotDeprecated(t time.Time) Condition {
	const typ = ConditionLatestKubernetesVersionNotDeprecated
	best := -1
	for i, iv := range idx.kubernetes {
		if iv.ok && (best < 0 || iv.parsed.compare(idx.kubernetes[best].parsed) > 0) {
			best = i
		}
	}
	if best < 0 {
		return Condition{Type: typ, Status: ConditionFalse, Severity: ConditionSeverityError, Reason: ReasonNoKubernetesVersion,
			Message: "the profile offers no Kubernetes version"}
	}
	v := idx.kubernetes[best].v
	switch idx.kubernetes[best].tl.classify(t) {
	case gardencorev1beta1.ClassificationDeprecated:
		return Condition{Type: typ, Status: ConditionFalse, Severity: ConditionSeverityWarning, Reason: ReasonLatestVersionDeprecated,
			Message: "the latest Kubernetes version " + v.Version + " is deprecated"}
	case gardencorev1beta1.ClassificationExpired:
		return Condition{Type: typ, Status: ConditionFalse, Severity: ConditionSeverityError, Reason: ReasonLatestVersionExpired,
			Message: "the latest Kubernetes version " + v.Version + " is expired"}
	case gardencorev1beta1.ClassificationPreview:
		return Condition{Type: typ, Status: ConditionTrue, Reason: ReasonLatestVersionInPreview,
			Message: "the latest Kubernetes version " + v.Version + " is in preview"}
	case gardencorev1beta1.ClassificationUnavailable:
		return Condition{Type: typ, Status: ConditionTrue, Reason: ReasonLatestVersionNotYetAvailable,
			Message: "the latest Kubernetes version " + v.Version + " is not yet available"}
	}
	return Condition{Type: typ, Status: ConditionTrue, Reason: ReasonLatestVersionSupported,
		Message: "the latest Kubernetes version " + v.Version + " is supported"}
}

// expirationsHaveSuccessors: a version active at t that becomes expired at an instant e before
// t+window (the window is open at its end so that, like a classification, the condition changes
// right after an instant: right after e - window, and back right after e) needs a successor that
// is supported right after e: for Kubernetes a higher version of the same or the next minor (where
// Gardener's maintenance moves shoots on expiry), for a machine image a higher version of the same
// image for each of the expiring version's architectures. Each missing successor is a Warning.
func (idx *conditionIndex) expirationsHaveSuccessors(t time.Time, window time.Duration, f *findings) Condition {
	end := t.Add(window)
	for _, iv := range idx.kubernetes {
		if f.done() {
			break
		}
		e, ok := iv.tl.expiresBefore(t, end)
		if !ok {
			continue
		}
		hasSuccessor := false
		for _, other := range idx.kubernetes {
			if other.ok && iv.ok && other.parsed.compare(iv.parsed) > 0 && other.parsed.major == iv.parsed.major &&
				other.parsed.minor <= iv.parsed.minor+1 && other.tl.classifyAfter(e) == gardencorev1beta1.ClassificationSupported {
				hasSuccessor = true
				break
			}
		}
		if !hasSuccessor {
			f.add(ConditionSeverityWarning, ReasonExpirationWithoutSuccessor,
				"Kubernetes %s expires at %s without a supported successor in its minor or the next", iv.v.Version, formatInstant(e))
		}
	}
	for _, image := range idx.images {
		for _, iv := range image.versions {
			if f.done() {
				break
			}
			e, ok := iv.tl.expiresBefore(t, end)
			if !ok {
				continue
			}
			var missing []string
			for _, arch := range iv.archs {
				found := false
				for _, other := range image.versions {
					if other.ok && iv.ok && other.parsed.compare(iv.parsed) > 0 && slices.Contains(other.archs, arch) &&
						other.tl.classifyAfter(e) == gardencorev1beta1.ClassificationSupported {
						found = true
						break
					}
				}
				if !found {
					missing = append(missing, arch)
				}
			}
			if len(missing) > 0 {
				f.add(ConditionSeverityWarning, ReasonExpirationWithoutSuccessor,
					"machine image %s %s expires at %s without a supported successor for %s", image.name, iv.v.Version, formatInstant(e), strings.Join(missing, ", "))
			}
		}
	}
	return fromFindings(ConditionExpirationsHaveSuccessors, f.list, ReasonNoExpirationWithoutSuccessor,
		"no version expires within "+formatWindow(window)+" without a supported successor")
}

// machineImagesSupported: Error when no image has a supported version; Warning for an image without
// any active version, for each architecture that an image's released versions cover but none of its
// supported versions does, and for each architecture of a usable machine type that no supported
// image version covers.
func (idx *conditionIndex) machineImagesSupported(t time.Time, f *findings) Condition {
	var supportedArchs []string
	for _, image := range idx.images {
		var releasedArchs, imageSupported []string
		anyActive := false
		for _, iv := range image.versions {
			c := iv.tl.classify(t)
			anyActive = anyActive || c.IsActive()
			if released(c) {
				releasedArchs = appendNew(releasedArchs, iv.archs...)
			}
			if c == gardencorev1beta1.ClassificationSupported {
				imageSupported = appendNew(imageSupported, iv.archs...)
			}
		}
		supportedArchs = appendNew(supportedArchs, imageSupported...)
		if !anyActive {
			f.add(ConditionSeverityWarning, ReasonImageWithoutActiveVersion, "machine image %s has no active version", image.name)
			continue
		}
		for _, arch := range releasedArchs {
			if !slices.Contains(imageSupported, arch) {
				f.add(ConditionSeverityWarning, ReasonArchitectureWithoutSupported, "machine image %s has no supported version for %s", image.name, arch)
			}
		}
	}
	if len(supportedArchs) == 0 {
		f.add(ConditionSeverityError, ReasonNoSupportedMachineImage, "no machine image has a supported version")
	} else {
		for _, arch := range idx.machineTypeArchs {
			if !slices.Contains(supportedArchs, arch) {
				f.add(ConditionSeverityWarning, ReasonMachineTypeArchitectureNoImage,
					"usable machine types run on %s, but no machine image has a supported version for it", arch)
			}
		}
	}
	return fromFindings(ConditionMachineImagesSupported, f.list, ReasonEveryArchitectureSupported,
		"every machine image has a supported version for each architecture it offers")
}

func appendNew(list []string, values ...string) []string {
	for _, v := range values {
		if !slices.Contains(list, v) {
			list = append(list, v)
		}
	}
	return list
}

func formatWindow(d time.Duration) string {
	if d > 0 && d%(24*time.Hour) == 0 {
		return fmt.Sprintf("%d days", d/(24*time.Hour))
	}
	return d.String()
}
