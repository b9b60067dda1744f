package cloudprofile

import (
	"iter"
	"slices"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Classification of versions at an instant (Gardener's CurrentLifecycleClassification and the VersionIs* predicates of pkg/api/core/helper/cloudprofile.go).
//
// A version's effective stage list is its lifecycle if that is non-empty; otherwise, if the legacy
// classification or expirationDate is set, it is [classification (default supported) without a
// start time] followed by [expired at expirationDate] when that is set. Walking the stages in list
// order, every stage whose start time (missing = the zero time) lies strictly before the instant
// replaces the current classification, which starts as unavailable. A version with no stages at all
// is supported.

// stage is one entry of a version's effective stage list.
type stage struct {
	classification gardencorev1beta1.VersionClassification
	// start is the stage's start time; the zero time when the stage has none.
	start time.Time
}

// effectiveStages returns the stage list Classify walks, converting the legacy fields when the
// lifecycle is empty. It returns nil for a version that is unconditionally supported.
func effectiveStages(v gardencorev1beta1.ExpirableVersion) []stage {
	return appendEffectiveStages(nil, v)
}

// appendEffectiveStages appends the effective stages of v to dst (see effectiveStages); it
// returns dst unchanged for a version without any.
func appendEffectiveStages(dst []stage, v gardencorev1beta1.ExpirableVersion) []stage {
	if len(v.Lifecycle) > 0 {
		for _, s := range v.Lifecycle {
			st := stage{classification: s.Classification}
			if s.StartTime != nil {
				st.start = s.StartTime.Time
			}
			dst = append(dst, st)
		}
		return dst
	}
	if v.Classification == nil && v.ExpirationDate == nil {
		return dst
	}
	first := gardencorev1beta1.ClassificationSupported
	if v.Classification != nil {
		first = *v.Classification
	}
	dst = append(dst, stage{classification: first})
	if v.ExpirationDate != nil {
		dst = append(dst, stage{classification: gardencorev1beta1.ClassificationExpired, start: v.ExpirationDate.Time})
	}
	return dst
}

// Classify returns the classification of v at the instant at, as Gardener's
// CurrentLifecycleClassification computes it. A stage starting exactly at `at` is not
// yet active; the last active stage in list order wins; a lifecycle overrides the legacy fields;
// only a lifecycle whose stages all start after `at` yields unavailable.
func Classify(v gardencorev1beta1.ExpirableVersion, at time.Time) gardencorev1beta1.VersionClassification {
	if len(v.Lifecycle) == 0 {
		return classifyLegacy(v, at)
	}
	current := gardencorev1beta1.ClassificationUnavailable
	for _, s := range v.Lifecycle {
		var start time.Time
		if s.StartTime != nil {
			start = s.StartTime.Time
		}
		if start.Before(at) {
			current = s.Classification
		}
	}
	return current
}

// classifyLegacy classifies a version without lifecycle, without allocating its stage list.
func classifyLegacy(v gardencorev1beta1.ExpirableVersion, at time.Time) gardencorev1beta1.VersionClassification {
	if v.Classification == nil && v.ExpirationDate == nil {
		return gardencorev1beta1.ClassificationSupported
	}
	current := gardencorev1beta1.ClassificationUnavailable
	if (time.Time{}).Before(at) {
		current = gardencorev1beta1.ClassificationSupported
		if v.Classification != nil {
			current = *v.Classification
		}
	}
	if v.ExpirationDate != nil && v.ExpirationDate.Time.Before(at) {
		current = gardencorev1beta1.ClassificationExpired
	}
	return current
}

// classifyStages classifies a stage list for the instants just after `after`: a stage counts when
// it starts at or before `after`.
func classifyStages(stages []stage, after time.Time) gardencorev1beta1.VersionClassification {
	if stages == nil {
		return gardencorev1beta1.ClassificationSupported
	}
	current := gardencorev1beta1.ClassificationUnavailable
	for _, s := range stages {
		if !s.start.After(after) {
			current = s.classification
		}
	}
	return current
}

// classificationSteps yields each distinct start time of stages in ascending order with the
// classification right after it (classifyStages at that instant): the stage listed last among
// those started by then. One sweep over the stages sorted by start, O(k log k) for k stages,
// where classifying the whole list at each start would be O(k²).
func classificationSteps(stages []stage) iter.Seq2[time.Time, gardencorev1beta1.VersionClassification] {
	return func(yield func(time.Time, gardencorev1beta1.VersionClassification) bool) {
		var buf [8]int
		order := buf[:0]
		for i := range stages {
			order = append(order, i)
		}
		slices.SortFunc(order, func(a, b int) int { return stages[a].start.Compare(stages[b].start) })
		last := -1
		for k, i := range order {
			last = max(last, i)
			if k+1 < len(order) && stages[order[k+1]].start.Equal(stages[i].start) {
				continue
			}
			if !yield(stages[i].start, stages[last].classification) {
				return
			}
		}
	}
}

// IsActive reports whether v is active at `at`: neither expired nor unavailable.
func IsActive(v gardencorev1beta1.ExpirableVersion, at time.Time) bool {
	return Classify(v, at).IsActive()
}

// IsExpired reports whether v is expired at `at`.
func IsExpired(v gardencorev1beta1.ExpirableVersion, at time.Time) bool {
	return Classify(v, at) == gardencorev1beta1.ClassificationExpired
}

// IsSupported reports whether v is supported at `at`.
func IsSupported(v gardencorev1beta1.ExpirableVersion, at time.Time) bool {
	return Classify(v, at) == gardencorev1beta1.ClassificationSupported
}

// IsPreview reports whether v is in preview at `at`.
func IsPreview(v gardencorev1beta1.ExpirableVersion, at time.Time) bool {
	return Classify(v, at) == gardencorev1beta1.ClassificationPreview
}

// IsDeprecated reports whether v is deprecated at `at`.
func IsDeprecated(v gardencorev1beta1.ExpirableVersion, at time.Time) bool {
	return Classify(v, at) == gardencorev1beta1.ClassificationDeprecated
}

// ClassificationRank orders classifications as Gardener does: unavailable 0, preview 1,
// supported 2, deprecated 3, expired 4; unknown values rank 0 like unavailable.
func ClassificationRank(c gardencorev1beta1.VersionClassification) int {
	switch c {
	case gardencorev1beta1.ClassificationPreview:
		return 1
	case gardencorev1beta1.ClassificationSupported:
		return 2
	case gardencorev1beta1.ClassificationDeprecated:
		return 3
	case gardencorev1beta1.ClassificationExpired:
		return 4
	}
	return 0
}

// compareClassification is Gardener's VersionClassification.Compare: negative when a ranks
// before b.
func compareClassification(a, b gardencorev1beta1.VersionClassification) int {
	return ClassificationRank(a) - ClassificationRank(b)
}
