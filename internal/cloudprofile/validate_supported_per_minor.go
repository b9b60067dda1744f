package cloudprofile

import (
	"fmt"
	"slices"
	"sort"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// "Only one supported version per minor" (C-8 for Kubernetes versions, F-8 per machine image),
// exactly as Gardener's validateSupportedVersionsConfiguration behaves:
//
//  1. Only a version whose legacy classification is set and that is supported at opts.Now is
//     checked (from v1.149.0 a lifecycle-only version never is, upstream issue #14328). Releases
//     before v1.149.0 also check a version that has a lifecycle and no legacy classification
//     when it is supported at opts.Now; its problems carry the rule of that check (C-9, F-11).
//  2. Its partners are all versions of the list whose legacy classification is supported
//     (whether expired or not) or whose lifecycle has a supported stage (at any time), with the
//     same semver major and minor but a different semver value.
//  3. One Forbidden error is reported at the checked version for each partner whose supported
//     period overlaps (Gardener's supportedVersionsOverlapping): always, unless both carry a
//     lifecycle. With lifecycles on both it compares the first supported stages and the first
//     stages ranked above supported (anywhere in the lifecycle): the periods overlap when neither
//     has such a later stage, or one has none and its supported stage starts (or has no start)
//     before the other's later stage; when both have later stages they do not overlap. A version
//     whose lifecycle has no supported stage overlaps no version with a lifecycle.
//  4. If the checked version or any partner candidate of the list fails to parse, nothing is
//     reported for it (Gardener bails out, the parse error is reported elsewhere).
//
// Gardener compares every version with every candidate and reports one identical error per
// overlapping partner, n·(n−1) errors for n supported versions of one minor. This implementation
// groups the candidates by major.minor once and counts each version's overlapping partners
// (supportedPartners): it reports the same errors in the same order, each once with the number of
// its repeats (Problem.Repeats), in O(n log n) for any list.

// perMinorRules are the rules of one list: classified checks the versions with a legacy
// classification (C-8, F-8), lifecycleOnly the versions with only a lifecycle (C-9, F-11).
type perMinorRules struct{ classified, lifecycleOnly string }

func validateOneSupportedPerMinor(rules perMinorRules, n int, version func(i int) gardencorev1beta1.ExpirableVersion, parsed parsedVersions, fld Path, opts Options) Problems {
	var (
		partners      *supportedPartners
		ps            Problems
		lifecycleOnly = !opts.from(release149)
	)
	for i := 0; i < n; i++ {
		v := version(i)
		rule := rules.classified
		if v.Classification == nil {
			if !lifecycleOnly || len(v.Lifecycle) == 0 {
				continue
			}
			rule = rules.lifecycleOnly
		}
		if Classify(v, opts.Now) != gardencorev1beta1.ClassificationSupported || parsed.errs[i] != nil {
			continue
		}
		if partners == nil {
			var unparsable bool
			if partners, unparsable = supportedCandidates(n, version, parsed); unparsable {
				return nil
			}
		}
		if overlapping := partners.overlapping(i, v); overlapping > 0 {
			p := forbidden(rule, fld.Index(i), fmt.Sprintf("unable to add version %q with classification %q. %q lifecycle stages must not overlap per minor version",
				v.Version, gardencorev1beta1.ClassificationSupported, gardencorev1beta1.ClassificationSupported))
			p.Repeats = overlapping - 1
			ps = append(ps, p)
		}
	}
	return ps
}

// supportedPartners are the versions that can conflict (legacy classification supported, or a
// supported lifecycle stage), tallied per major.minor and per semver value.
type supportedPartners struct {
	// minors tallies the candidates of each major.minor, same those of each class of candidates
	// that compare equal; minorOf and class give each candidate's tallies by version index.
	minors, same   []overlapTally
	minorOf, class []int
}

// overlapping is how many candidates of version i's minor, other than those equal to it as
// semver, have a supported period overlapping v's (v is version i, itself a candidate).
func (s *supportedPartners) overlapping(i int, v gardencorev1beta1.ExpirableVersion) int {
	return s.minors[s.minorOf[i]].count(v) - s.same[s.class[i]].count(v)
}

// supportedCandidates tallies the partner candidates of a list; unparsable is true when one of
// them does not parse (Gardener then reports nothing). Sorted by semver, the candidates of a
// class, and those of a minor, are neighbours: each tally is built from one run of them.
func supportedCandidates(n int, version func(i int) gardencorev1beta1.ExpirableVersion, parsed parsedVersions) (s *supportedPartners, unparsable bool) {
	var candidates []int
	for j := 0; j < n; j++ {
		if !hasSupportedClassification(version(j)) {
			continue
		}
		if parsed.errs[j] != nil {
			return nil, true
		}
		candidates = append(candidates, j)
	}
	slices.SortFunc(candidates, func(a, b int) int { return parsed.versions[a].compare(parsed.versions[b]) })
	periods := make([]overlapPeriod, len(candidates))
	for k, j := range candidates {
		periods[k] = overlapPeriodOf(version(j))
	}
	s = &supportedPartners{minorOf: make([]int, n), class: make([]int, n)}
	s.minors = tallyEachRun(candidates, periods, s.minorOf, func(a, b int) bool {
		return parsed.versions[a].minorKey() == parsed.versions[b].minorKey()
	})
	s.same = tallyEachRun(candidates, periods, s.class, func(a, b int) bool {
		return parsed.versions[a].compare(parsed.versions[b]) == 0
	})
	return s, false
}

// tallyEachRun tallies each run of neighbouring candidates that together groups (periods are the
// candidates' periods) and sets of[j] to the number of candidate j's run.
func tallyEachRun(candidates []int, periods []overlapPeriod, of []int, together func(a, b int) bool) []overlapTally {
	runs := newTallyRuns(len(candidates))
	tallies := make([]overlapTally, 0, len(candidates))
	for start := 0; start < len(candidates); {
		end := start + 1
		for end < len(candidates) && together(candidates[start], candidates[end]) {
			end++
		}
		for _, j := range candidates[start:end] {
			of[j] = len(tallies)
		}
		tallies = append(tallies, runs.tally(periods[start:end]))
		start = end
	}
	return tallies
}

// overlapPeriod is what a version contributes to an overlapTally (point 3 above).
type overlapPeriod struct {
	kind overlapKind
	// at is the start of the supported stage (openFrom) or of the later stage (closedAtInstant).
	at time.Time
}

// overlapKind sorts a version's supported period by its shape.
type overlapKind int

const (
	withoutLifecycle      overlapKind = iota
	withoutSupportedStage             // a lifecycle without a supported stage
	openFromStart                     // supported from the start, no later stage
	openFrom                          // supported from at, no later stage
	closedAnytime                     // a later stage without a start time
	closedAtInstant                   // a later stage that starts at at
)

func overlapPeriodOf(v gardencorev1beta1.ExpirableVersion) overlapPeriod {
	if len(v.Lifecycle) == 0 {
		return overlapPeriod{kind: withoutLifecycle}
	}
	supported, next, ok := supportedPeriod(v)
	switch {
	case !ok:
		return overlapPeriod{kind: withoutSupportedStage}
	case next == nil && supported.StartTime == nil:
		return overlapPeriod{kind: openFromStart}
	case next == nil:
		return overlapPeriod{kind: openFrom, at: supported.StartTime.Time}
	case next.StartTime == nil:
		return overlapPeriod{kind: closedAnytime}
	}
	return overlapPeriod{kind: closedAtInstant, at: next.StartTime.Time}
}

// tallyRuns builds overlap tallies one after the other, their instants in shared arrays.
type tallyRuns struct{ open, closedAt []time.Time }

func newTallyRuns(capacity int) *tallyRuns {
	return &tallyRuns{open: make([]time.Time, 0, capacity), closedAt: make([]time.Time, 0, capacity)}
}

// tally counts the versions of periods, with its instants sorted for count.
func (r *tallyRuns) tally(periods []overlapPeriod) overlapTally {
	t := overlapTally{all: len(periods)}
	open, closedAt := len(r.open), len(r.closedAt)
	for _, p := range periods {
		if p.kind != withoutLifecycle {
			t.withLifecycle++
		}
		switch p.kind {
		case openFromStart:
			t.openFromStart++
		case openFrom:
			r.open = append(r.open, p.at)
		case closedAnytime:
			t.closed++
		case closedAtInstant:
			t.closed++
			r.closedAt = append(r.closedAt, p.at)
		}
	}
	t.open = r.open[open:len(r.open):len(r.open)]
	t.closedAt = r.closedAt[closedAt:len(r.closedAt):len(r.closedAt)]
	slices.SortFunc(t.open, time.Time.Compare)
	slices.SortFunc(t.closedAt, time.Time.Compare)
	return t
}

// overlapTally counts the versions of a set whose supported period overlaps a given version's
// (point 3 above) without comparing the version with each: by the shape of their lifecycles, with
// the instants that decide an overlap sorted.
type overlapTally struct {
	// all counts the versions, withLifecycle those with a lifecycle.
	all, withLifecycle int
	// Of the versions whose lifecycle has a supported stage: open are those without a later
	// stage, by the start of their supported stage (openFromStart counts those without a start
	// time); closedAt are the start times of the later stages of the others (closed counts
	// them all, closedAt only those with a start time).
	open          []time.Time
	openFromStart int
	closedAt      []time.Time
	closed        int
}

// count is how many versions of the tally overlap v (point 3 above).
func (t *overlapTally) count(v gardencorev1beta1.ExpirableVersion) int {
	if len(v.Lifecycle) == 0 {
		return t.all
	}
	n := t.all - t.withLifecycle
	supported, next, ok := supportedPeriod(v)
	switch {
	case !ok:
	case next == nil:
		// Every version without a later stage overlaps, and one with a later stage when v's
		// supported stage has no start or starts before that later stage.
		n += len(t.open) + t.openFromStart
		if supported.StartTime == nil {
			n += t.closed
		} else {
			n += len(t.closedAt) - countAtOrBefore(t.closedAt, supported.StartTime.Time)
		}
	default:
		// Only versions without a later stage overlap, when their supported stage has no start
		// or starts before v's later stage.
		n += t.openFromStart
		if next.StartTime != nil {
			n += countBefore(t.open, next.StartTime.Time)
		}
	}
	return n
}

// countBefore is how many instants of the sorted list lie strictly before at; countAtOrBefore
// how many lie at or before it.
func countBefore(sorted []time.Time, at time.Time) int {
	return sort.Search(len(sorted), func(k int) bool { return !sorted[k].Before(at) })
}

func countAtOrBefore(sorted []time.Time, at time.Time) int {
	return sort.Search(len(sorted), func(k int) bool { return sorted[k].After(at) })
}

// supportedPeriod returns v's first supported stage and the first stage ranked above supported
// (nil when there is none), which decide an overlap (point 3 above); ok is false when v's
// lifecycle has no supported stage.
func supportedPeriod(v gardencorev1beta1.ExpirableVersion) (supported gardencorev1beta1.LifecycleStage, next *gardencorev1beta1.LifecycleStage, ok bool) {
	supported = firstSupportedStage(v)
	if supported.Classification != gardencorev1beta1.ClassificationSupported {
		return supported, nil, false
	}
	return supported, firstStageAbove(v, supported.Classification), true
}

// hasSupportedClassification is Gardener's FilterVersionsWithClassification(supported) for one
// version: the legacy classification is supported, or any lifecycle stage is.
func hasSupportedClassification(v gardencorev1beta1.ExpirableVersion) bool {
	if v.Classification != nil && *v.Classification == gardencorev1beta1.ClassificationSupported {
		return true
	}
	for _, s := range v.Lifecycle {
		if s.Classification == gardencorev1beta1.ClassificationSupported {
			return true
		}
	}
	return false
}

func firstSupportedStage(v gardencorev1beta1.ExpirableVersion) gardencorev1beta1.LifecycleStage {
	for _, s := range v.Lifecycle {
		if s.Classification == gardencorev1beta1.ClassificationSupported {
			return s
		}
	}
	return gardencorev1beta1.LifecycleStage{}
}

func firstStageAbove(v gardencorev1beta1.ExpirableVersion, c gardencorev1beta1.VersionClassification) *gardencorev1beta1.LifecycleStage {
	for i := range v.Lifecycle {
		if compareClassification(v.Lifecycle[i].Classification, c) > 0 {
			return &v.Lifecycle[i]
		}
	}
	return nil
}
