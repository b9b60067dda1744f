package cloudprofile

import (
	"fmt"

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
//     period overlaps (always, unless both carry a lifecycle).
//  4. If the checked version or any partner candidate of the list fails to parse, nothing is
//     reported for it (Gardener bails out, the parse error is reported elsewhere).
//
// Gardener compares every version with every candidate; this implementation groups the candidates
// by major.minor once, which keeps the same errors in the same order.

// perMinorRules are the rules of one list: classified checks the versions with a legacy
// classification (C-8, F-8), lifecycleOnly the versions with only a lifecycle (C-9, F-11).
type perMinorRules struct{ classified, lifecycleOnly string }

func validateOneSupportedPerMinor(rules perMinorRules, n int, version func(i int) gardencorev1beta1.ExpirableVersion, parsed parsedVersions, fld Path, opts Options) Problems {
	var (
		groups        *minorGroups
		detailed      bool
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
		if !detailed {
			detailed = true
			var unparsable bool
			if groups, unparsable = supportedCandidates(n, version, parsed); unparsable {
				return nil
			}
		}
		self := parsed.versions[i]
		for j := groups.first(self.minorKey()); j >= 0; j = groups.next[j] {
			if parsed.versions[j].compare(self) == 0 {
				continue
			}
			if supportedPeriodsOverlap(v, version(j)) {
				ps = append(ps, forbidden(rule, fld.Index(i), fmt.Sprintf("unable to add version %q with classification %q. %q lifecycle stages must not overlap per minor version",
					v.Version, gardencorev1beta1.ClassificationSupported, gardencorev1beta1.ClassificationSupported)))
			}
		}
	}
	return ps
}

// minorGroups lists the candidate indices of each major.minor in list order, as linked lists
// (head per minor, next per index) to avoid one slice per minor.
type minorGroups struct {
	head, tail map[minorKey]int
	next       []int
}

func (g *minorGroups) first(k minorKey) int {
	if i, ok := g.head[k]; ok {
		return i
	}
	return -1
}

// supportedCandidates groups the versions that can conflict (legacy classification supported, or a
// supported lifecycle stage) by major.minor, in list order. unparsable reports that a candidate
// fails to parse.
func supportedCandidates(n int, version func(i int) gardencorev1beta1.ExpirableVersion, parsed parsedVersions) (*minorGroups, bool) {
	g := &minorGroups{head: make(map[minorKey]int), tail: make(map[minorKey]int), next: make([]int, n)}
	for j := 0; j < n; j++ {
		g.next[j] = -1
		if !hasSupportedClassification(version(j)) {
			continue
		}
		if parsed.errs[j] != nil {
			return nil, true
		}
		key := parsed.versions[j].minorKey()
		if last, ok := g.tail[key]; ok {
			g.next[last] = j
		} else {
			g.head[key] = j
		}
		g.tail[key] = j
	}
	return g, false
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

// supportedPeriodsOverlap is Gardener's supportedVersionsOverlapping. Without a lifecycle on either
// side it is always true. With lifecycles on both it compares the first supported stages and the
// first later-ranked stages after them: the periods overlap when neither has a later stage, or one
// has none and its supported stage starts (or has no start) before the other's later stage. When
// both have later stages it reports no overlap.
func supportedPeriodsOverlap(a, b gardencorev1beta1.ExpirableVersion) bool {
	if len(a.Lifecycle) == 0 || len(b.Lifecycle) == 0 {
		return true
	}
	supportedA, supportedB := firstSupportedStage(a), firstSupportedStage(b)
	if supportedA.Classification != gardencorev1beta1.ClassificationSupported || supportedB.Classification != supportedA.Classification {
		return false
	}
	nextA, nextB := firstStageAbove(a, supportedA.Classification), firstStageAbove(b, supportedB.Classification)
	switch {
	case nextA == nil && nextB == nil:
		return true
	case nextA == nil && (supportedA.StartTime == nil || supportedA.StartTime.Before(nextB.StartTime)):
		return true
	case nextB == nil && (supportedB.StartTime == nil || supportedB.StartTime.Before(nextA.StartTime)):
		return true
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
