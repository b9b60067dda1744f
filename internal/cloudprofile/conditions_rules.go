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
	version string
	parsed  semVersion
	ok      bool
	// archs are the architectures of an image version (nil for Kubernetes versions).
	archs []string
	tl    timeline
	// stepsBeforeAt is tl.stepsBefore of the index's instant.
	stepsBeforeAt int
	// minorRank orders the minors of the Kubernetes versions that parse: 0 is the lowest.
	minorRank int
	// expirations are the instants the version turns expired, with their successors.
	expirations []expiration
}

// timeline is a version's classification as a step function of time: initial up to and including
// steps[0].at, then steps[i].class right after steps[i].at up to and including steps[i+1].at. It
// answers Classify in logarithmic time; the condition rules evaluate it at many instants.
type timeline struct {
	initial gardencorev1beta1.VersionClassification
	steps   []timelineStep
}

// timelineStep is a change of classification: to class right after the instant at.
type timelineStep struct {
	at    time.Time
	class gardencorev1beta1.VersionClassification
}

// newTimeline returns v's timeline with its steps appended to buf, and buf: the timelines of an
// index share one array.
func newTimeline(v gardencorev1beta1.ExpirableVersion, buf []timelineStep) (timeline, []timelineStep) {
	if len(v.Lifecycle) == 0 {
		return legacyTimeline(v, buf)
	}
	var stageBuf [4]stage
	stages := appendEffectiveStages(stageBuf[:0], v)
	tl := timeline{initial: gardencorev1beta1.ClassificationSupported}
	if len(stages) > 0 {
		// Right after the zero time every stage without start time is active.
		tl.initial = classifyStages(stages, time.Time{})
	}
	start := len(buf)
	prev := tl.initial
	for s, c := range classificationSteps(stages) {
		if s.IsZero() || c == prev {
			continue
		}
		buf = append(buf, timelineStep{at: s, class: c})
		prev = c
	}
	if len(buf) > start {
		tl.steps = buf[start:len(buf):len(buf)]
	}
	return tl, buf
}

// legacyTimeline is newTimeline for a version without a lifecycle: its classification (supported
// when unset) until its expiration date, expired after it.
func legacyTimeline(v gardencorev1beta1.ExpirableVersion, buf []timelineStep) (timeline, []timelineStep) {
	tl := timeline{initial: gardencorev1beta1.ClassificationSupported}
	if v.Classification != nil {
		tl.initial = *v.Classification
	}
	switch {
	case v.ExpirationDate == nil || tl.initial == gardencorev1beta1.ClassificationExpired:
	case !v.ExpirationDate.After(time.Time{}):
		tl.initial = gardencorev1beta1.ClassificationExpired
	default:
		buf = append(buf, timelineStep{at: v.ExpirationDate.Time, class: gardencorev1beta1.ClassificationExpired})
		tl.steps = buf[len(buf)-1 : len(buf) : len(buf)]
	}
	return tl, buf
}

// maxSteps bounds the number of steps of v's timeline: one per lifecycle stage, or one for an
// expiration date.
func maxSteps(v gardencorev1beta1.ExpirableVersion) int {
	if len(v.Lifecycle) == 0 && v.ExpirationDate != nil {
		return 1
	}
	return len(v.Lifecycle)
}

// stepsBefore is the number of steps strictly before t.
func (tl timeline) stepsBefore(t time.Time) int {
	n, _ := slices.BinarySearchFunc(tl.steps, t, func(s timelineStep, t time.Time) int { return s.at.Compare(t) })
	return n
}

// classAfter is the classification after the first n steps.
func (tl timeline) classAfter(n int) gardencorev1beta1.VersionClassification {
	if n == 0 {
		return tl.initial
	}
	return tl.steps[n-1].class
}

// expiresAfterStep returns when a version active after the first n steps becomes expired, if that
// happens before end.
func (tl timeline) expiresAfterStep(n int, end time.Time) (time.Time, bool) {
	if !tl.classAfter(n).IsActive() {
		return time.Time{}, false
	}
	for _, s := range tl.steps[n:] {
		if !s.at.Before(end) {
			break
		}
		if s.class == gardencorev1beta1.ClassificationExpired {
			return s.at, true
		}
	}
	return time.Time{}, false
}

// stepsBefore is iv.tl.stepsBefore(t), kept for the index's instant.
func (idx *conditionIndex) stepsBefore(iv *indexedVersion, t time.Time) int {
	if t.Equal(idx.at) {
		return iv.stepsBeforeAt
	}
	return iv.tl.stepsBefore(t)
}

// classify is iv's classification at t (after the zero time): Classify of its version.
func (idx *conditionIndex) classify(iv *indexedVersion, t time.Time) gardencorev1beta1.VersionClassification {
	return iv.tl.classAfter(idx.stepsBefore(iv, t))
}

// expiresBefore returns when iv, active at t, becomes expired, if that happens before end.
func (idx *conditionIndex) expiresBefore(iv *indexedVersion, t, end time.Time) (time.Time, bool) {
	return iv.tl.expiresAfterStep(idx.stepsBefore(iv, t), end)
}

type indexedImage struct {
	name     string
	versions []indexedVersion
}

// conditionIndex holds what the condition rules need of a spec, parsed once.
type conditionIndex struct {
	spec *gardencorev1beta1.CloudProfileSpec
	// at is the instant the index answers for without searching the timelines (see stepsBefore).
	at         time.Time
	kubernetes []indexedVersion
	images     []indexedImage
	// machineTypeArchs are the architectures of the usable machine types, in order of first use.
	machineTypeArchs archSet
	// latest is the index of the highest Kubernetes version that parses, -1 if none does.
	latest int
	// minors are the distinct minors of the Kubernetes versions that parse, lowest first: a
	// version's minorRank is the index of its minor.
	minors []minorKey
}

// newConditionIndex indexes spec for the rules, which it answers fastest at the instant at.
func newConditionIndex(spec *gardencorev1beta1.CloudProfileSpec, at time.Time) *conditionIndex {
	idx := &conditionIndex{spec: spec, at: at, latest: -1}
	if spec == nil {
		return idx
	}
	idx.kubernetes = make([]indexedVersion, 0, len(spec.Kubernetes.Versions))
	idx.images = make([]indexedImage, 0, len(spec.MachineImages))
	steps := make([]timelineStep, 0, stepCount(spec))
	for _, v := range spec.Kubernetes.Versions {
		parsed, err := parseSemver(v.Version)
		iv := indexedVersion{version: v.Version, parsed: parsed, ok: err == nil}
		iv.tl, steps = newTimeline(v, steps)
		iv.stepsBeforeAt = iv.tl.stepsBefore(at)
		idx.kubernetes = append(idx.kubernetes, iv)
	}
	order := byVersionDescending(idx.kubernetes)
	if len(order) > 0 {
		idx.latest = order[0]
	}
	idx.rankMinors(order)
	idx.findKubernetesSuccessors(order)
	for _, image := range spec.MachineImages {
		ii := indexedImage{name: image.Name, versions: make([]indexedVersion, 0, len(image.Versions))}
		for _, v := range image.Versions {
			parsed, err := parseSemver(v.Version)
			iv := indexedVersion{version: v.Version, parsed: parsed, ok: err == nil, archs: ImageVersionArchitectures(v, spec.MachineCapabilities)}
			iv.tl, steps = newTimeline(v.ExpirableVersion, steps)
			iv.stepsBeforeAt = iv.tl.stepsBefore(at)
			ii.versions = append(ii.versions, iv)
		}
		findImageSuccessors(&ii)
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
		idx.machineTypeArchs.add(arch)
	}
	return idx
}

// stepCount bounds the number of timeline steps of every version of spec.
func stepCount(spec *gardencorev1beta1.CloudProfileSpec) int {
	n := 0
	for _, v := range spec.Kubernetes.Versions {
		n += maxSteps(v)
	}
	for _, image := range spec.MachineImages {
		for _, v := range image.Versions {
			n += maxSteps(v.ExpirableVersion)
		}
	}
	return n
}

// rankMinors sets the minors of the index and the minorRank of every Kubernetes version that
// parses, given order (their indices, highest version first).
func (idx *conditionIndex) rankMinors(order []int) {
	var keys []minorKey
	for _, i := range order {
		if k := idx.kubernetes[i].parsed.minorKey(); len(keys) == 0 || keys[len(keys)-1] != k {
			keys = append(keys, k)
		}
		idx.kubernetes[i].minorRank = len(keys) - 1
	}
	for _, i := range order {
		idx.kubernetes[i].minorRank = len(keys) - 1 - idx.kubernetes[i].minorRank
	}
	slices.Reverse(keys)
	idx.minors = keys
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
// each minor that has released versions but no supported one, in it or in a newer minor: its
// shoots have no supported version to update to. An older minor with only deprecated versions is
// the usual end of its maintenance while a newer minor is supported, and no finding. Minors with
// only preview versions are not required to have a supported version yet. Versions that do not
// parse are ignored.
func (idx *conditionIndex) kubernetesVersionsSupported(t time.Time, f *findings) Condition {
	type minorState struct {
		seen, supported bool
		released        []int // indices of the released versions, for the message
	}
	minors := make([]minorState, len(idx.minors))
	anyActive, anySupported := false, false
	for i := range idx.kubernetes {
		iv := &idx.kubernetes[i]
		c := idx.classify(iv, t)
		if !c.IsActive() {
			continue
		}
		anyActive = true
		if c == gardencorev1beta1.ClassificationSupported {
			anySupported = true
		}
		if !iv.ok || !released(c) {
			continue
		}
		m := &minors[iv.minorRank]
		m.seen = true
		if c == gardencorev1beta1.ClassificationSupported {
			m.supported = true
		}
		if f.detail && !m.supported {
			m.released = append(m.released, i)
		}
	}

	switch {
	case !anyActive:
		f.add(ConditionSeverityError, ReasonNoActiveKubernetesVersion,
			"no Kubernetes version is active: every version is expired or not yet available, so no shoot can be created")
	case !anySupported:
		f.add(ConditionSeverityError, ReasonNoSupportedKubernetesVersion, "no Kubernetes version is supported; active versions: %s", strings.Join(idx.kubernetesDescribed(t, nil), ", "))
	}
	// Newest first: the minors older than the newest supported one are covered by it.
	for rank := len(minors) - 1; rank >= 0; rank-- {
		m := &minors[rank]
		if !m.seen {
			continue
		}
		if f.done() || m.supported {
			break
		}
		f.add(ConditionSeverityWarning, ReasonMinorWithoutSupportedVersion, "minor %s has no supported version, nor has a newer minor (%s)",
			minorString(idx.minors[rank]), strings.Join(idx.kubernetesDescribed(t, m.released), ", "))
	}
	return fromFindings(ConditionKubernetesVersionsSupported, f.list, ReasonEveryMinorSupported,
		"every Kubernetes minor with released versions has a supported version in it or in a newer minor")
}

// kubernetesDescribed describes Kubernetes versions with their classification at t: those with
// the given indices ("1.30.4 is deprecated"), or with nil every active one ("1.30.4 (deprecated)").
func (idx *conditionIndex) kubernetesDescribed(t time.Time, indices []int) []string {
	var out []string
	if indices != nil {
		for _, i := range indices {
			out = append(out, idx.kubernetes[i].version+" is "+string(idx.classify(&idx.kubernetes[i], t)))
		}
		return out
	}
	for i := range idx.kubernetes {
		iv := &idx.kubernetes[i]
		if c := idx.classify(iv, t); c.IsActive() {
			out = append(out, iv.version+" ("+string(c)+")")
		}
	}
	return out
}

// latestKubernetesVersionNotDeprecated looks at the highest Kubernetes version (any
// classification): deprecated is a Warning, expired an Error; preview, supported and not yet
// available are fine.
func (idx *conditionIndex) latestKubernetesVersionNotDeprecated(t time.Time) Condition {
	const typ = ConditionLatestKubernetesVersionNotDeprecated
	best := idx.latest
	if best < 0 {
		return Condition{Type: typ, Status: ConditionFalse, Severity: ConditionSeverityError, Reason: ReasonNoKubernetesVersion,
			Message: "the profile offers no Kubernetes version"}
	}
	v := idx.kubernetes[best]
	switch idx.classify(&idx.kubernetes[best], t) {
	case gardencorev1beta1.ClassificationDeprecated:
		return Condition{Type: typ, Status: ConditionFalse, Severity: ConditionSeverityWarning, Reason: ReasonLatestVersionDeprecated,
			Message: "the latest Kubernetes version " + v.version + " is deprecated"}
	case gardencorev1beta1.ClassificationExpired:
		return Condition{Type: typ, Status: ConditionFalse, Severity: ConditionSeverityError, Reason: ReasonLatestVersionExpired,
			Message: "the latest Kubernetes version " + v.version + " is expired"}
	case gardencorev1beta1.ClassificationPreview:
		return Condition{Type: typ, Status: ConditionTrue, Reason: ReasonLatestVersionInPreview,
			Message: "the latest Kubernetes version " + v.version + " is in preview"}
	case gardencorev1beta1.ClassificationUnavailable:
		return Condition{Type: typ, Status: ConditionTrue, Reason: ReasonLatestVersionNotYetAvailable,
			Message: "the latest Kubernetes version " + v.version + " is not yet available"}
	}
	return Condition{Type: typ, Status: ConditionTrue, Reason: ReasonLatestVersionSupported,
		Message: "the latest Kubernetes version " + v.version + " is supported"}
}

// expirationsHaveSuccessors: a version active at t that becomes expired at an instant e before
// t+window (the window is open at its end so that, like a classification, the condition changes
// right after an instant: right after e - window, and back right after e) needs a successor that
// is supported right after e: for Kubernetes a higher version of the same or the next minor (where
// Gardener's maintenance moves shoots on expiry), for a machine image a higher version of the same
// image for each of the expiring version's architectures. Each missing successor is a Warning.
func (idx *conditionIndex) expirationsHaveSuccessors(t time.Time, window time.Duration, f *findings) Condition {
	end := t.Add(window)
	for i := range idx.kubernetes {
		iv := &idx.kubernetes[i]
		if f.done() {
			break
		}
		e, ok := idx.expiresBefore(iv, t, end)
		if !ok {
			continue
		}
		if iv.expirationAt(e).orphaned {
			f.add(ConditionSeverityWarning, ReasonExpirationWithoutSuccessor,
				"Kubernetes %s expires at %s without a supported successor in its minor or the next", iv.version, formatInstant(e))
		}
	}
	for _, image := range idx.images {
		for i := range image.versions {
			iv := &image.versions[i]
			if f.done() {
				break
			}
			e, ok := idx.expiresBefore(iv, t, end)
			if !ok {
				continue
			}
			missing := iv.expirationAt(e).missingArchs
			if len(missing) > 0 {
				f.add(ConditionSeverityWarning, ReasonExpirationWithoutSuccessor,
					"machine image %s %s expires at %s without a supported successor for %s", image.name, iv.version, formatInstant(e), strings.Join(missing, ", "))
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
	var supportedArchs archSet
	for _, image := range idx.images {
		var releasedArchs, imageSupported archSet
		anyActive := false
		for i := range image.versions {
			iv := &image.versions[i]
			c := idx.classify(iv, t)
			anyActive = anyActive || c.IsActive()
			if released(c) {
				releasedArchs.add(iv.archs...)
			}
			if c == gardencorev1beta1.ClassificationSupported {
				imageSupported.add(iv.archs...)
			}
		}
		supportedArchs.add(imageSupported.order...)
		if !anyActive {
			f.add(ConditionSeverityWarning, ReasonImageWithoutActiveVersion, "machine image %s has no active version", image.name)
			continue
		}
		for _, arch := range releasedArchs.order {
			if !imageSupported.has(arch) {
				f.add(ConditionSeverityWarning, ReasonArchitectureWithoutSupported, "machine image %s has no supported version for %s", image.name, arch)
			}
		}
	}
	if len(supportedArchs.order) == 0 {
		f.add(ConditionSeverityError, ReasonNoSupportedMachineImage, "no machine image has a supported version")
	} else {
		for _, arch := range idx.machineTypeArchs.order {
			if !supportedArchs.has(arch) {
				f.add(ConditionSeverityWarning, ReasonMachineTypeArchitectureNoImage,
					"usable machine types run on %s, but no machine image has a supported version for it", arch)
			}
		}
	}
	return fromFindings(ConditionMachineImagesSupported, f.list, ReasonEveryArchitectureSupported,
		"every machine image has a supported version for each architecture it offers")
}

// formatWindow renders a warning window in whole days where it is one ("1 day", "30 days").
func formatWindow(d time.Duration) string {
	switch {
	case d == 24*time.Hour:
		return "1 day"
	case d > 0 && d%(24*time.Hour) == 0:
		return fmt.Sprintf("%d days", d/(24*time.Hour))
	}
	return d.String()
}
