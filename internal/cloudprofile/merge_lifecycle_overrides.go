package cloudprofile

import (
	"sort"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// GEP-32 lifecycle overrides in a NamespacedCloudProfile (MergeOptions.LifecycleOverrides).
//
// Gardener v1.149 does not implement them: its merge takes only the expiration date of an override.
// This is the opt-in behaviour the GEP describes ("Compatibility with Namespaced Cloud Profiles")
// as refined by the unmerged pull request gardener/gardener#15003, for the feature-gate-on case:
//
//   - A NamespacedCloudProfile may change the start time of a stage of the parent's lifecycle,
//     but may not introduce a stage through a lifecycle override ("changing the startTime of a
//     stage is possible, but introducing new lifecycle stages isn't"). Override stages whose
//     classification the parent's lifecycle lacks are ignored, and so are override stages
//     without start time.
//   - Legacy overrides keep working: an override's expirationDate is an "expired" stage starting
//     at that date, and it may be added when the parent has no expired stage (that is how an
//     expiration date has always been extended or introduced). An override's legacy
//     classification is a stage without start time that may be added too; parent stages without
//     start time that rank after it are removed first (pull request #15003 step 2).
//   - Other stages are adjusted implicitly so that the merged lifecycle stays ordered and
//     monotonic: for each override stage applied at time t, every earlier-ranked stage starting
//     after t moves to t, and every later-ranked stage without start time or starting before t
//     moves to t ("expired's startTime will be set to the one of the deprecated override").
//
// Interpretations, where neither the GEP nor pull request #15003 is explicit:
//   - pull request #15003 migrates a legacy version to [{its current classification at T}, {expired at
//     expirationDate}]. For a legacy version the current classification is its classification
//     (default supported) until the expiration date, and expired afterwards, which would make the
//     migrated lifecycle start with a duplicate expired stage and make an expired parent version
//     impossible to extend. This package therefore migrates to [{classification or supported},
//     {expired at expirationDate}], which is the same lifecycle whenever the date lies after T,
//     and does not depend on T otherwise (MergeOptions.Now is accepted but not needed).
//   - An override migrates only the facts it states: its classification when set, and an expired
//     stage when it sets an expirationDate. (Migrating an override without classification to a
//     leading "supported" stage would add that stage to parents that lack it and break D-8.)
//   - When neither the parent version nor the override has a lifecycle, the result keeps the
//     legacy form: the override's classification and expirationDate replace the parent's when
//     set (as the feature-gate-off merge of pull request #15003). The lifecycle form would
//     classify identically.
//   - An override without any applicable stage leaves the parent version unchanged; in particular
//     an override without expirationDate no longer clears the parent's date (it does in v1.149).
//   - Adjustments are applied for the override stages in the override's order. If the override
//     itself is not monotonic (which K-4 rejects for Kubernetes versions but nothing rejects for
//     machine image versions), a final sweep moves every stage that would start before its
//     predecessor to the predecessor's start time, so the result always passes D-5 … D-9 for a
//     valid parent lifecycle.
//   - The rest of the v1.149 merge is unchanged, including the rule that a machine image version
//     override with architectures, capabilityFlavors, cri, kubeletVersionConstraint or
//     classification replaces the parent's version wholesale.

// mergeExpirableLifecycles merges a parent version with its NamespacedCloudProfile override under
// GEP-32. now is the merge instant; see the interpretation notes above for why the result does not
// depend on it.
func mergeExpirableLifecycles(base, override gardencorev1beta1.ExpirableVersion, _ time.Time) gardencorev1beta1.ExpirableVersion {
	if len(base.Lifecycle) == 0 && len(override.Lifecycle) == 0 {
		if override.Classification != nil {
			base.Classification = override.Classification
		}
		if override.ExpirationDate != nil {
			base.ExpirationDate = override.ExpirationDate
		}
		return base
	}

	stages := migrateBaseLifecycle(base)
	overrideStages, legacyOverride := migrateOverrideLifecycle(override)
	changed := false
	if legacyOverride && override.Classification != nil {
		before := len(stages)
		stages = removeImplicitStagesAfter(stages, *override.Classification)
		changed = len(stages) != before
	}

	var applied []gardencorev1beta1.LifecycleStage
	for _, o := range overrideStages {
		k := stageIndex(stages, o.Classification)
		switch {
		case k >= 0:
			if o.StartTime == nil {
				continue
			}
			stages[k].StartTime = copyTime(o.StartTime)
		case legacyOverride:
			stages = append(stages, gardencorev1beta1.LifecycleStage{Classification: o.Classification, StartTime: copyTime(o.StartTime)})
			if o.StartTime == nil {
				changed = true
				continue
			}
		default:
			continue
		}
		changed = true
		applied = append(applied, o)
	}
	if !changed {
		return base
	}

	sort.SliceStable(stages, func(i, j int) bool {
		return ClassificationRank(stages[i].Classification) < ClassificationRank(stages[j].Classification)
	})
	for _, o := range applied {
		adjustStartTimes(stages, o)
	}
	stages = normalizeLifecycle(stages)

	base.Lifecycle = stages
	base.Classification = nil
	base.ExpirationDate = nil
	return base
}

// migrateBaseLifecycle returns a copy of the parent version's lifecycle, converting the legacy
// fields (see the interpretation notes) when it has none.
func migrateBaseLifecycle(v gardencorev1beta1.ExpirableVersion) []gardencorev1beta1.LifecycleStage {
	if len(v.Lifecycle) > 0 {
		stages := make([]gardencorev1beta1.LifecycleStage, len(v.Lifecycle), len(v.Lifecycle)+2)
		for i, s := range v.Lifecycle {
			stages[i] = gardencorev1beta1.LifecycleStage{Classification: s.Classification, StartTime: copyTime(s.StartTime)}
		}
		return stages
	}
	first := gardencorev1beta1.ClassificationSupported
	if v.Classification != nil {
		first = *v.Classification
	}
	stages := make([]gardencorev1beta1.LifecycleStage, 0, 3)
	stages = append(stages, gardencorev1beta1.LifecycleStage{Classification: first})
	if v.ExpirationDate != nil && first != gardencorev1beta1.ClassificationExpired {
		stages = append(stages, gardencorev1beta1.LifecycleStage{Classification: gardencorev1beta1.ClassificationExpired, StartTime: copyTime(v.ExpirationDate)})
	}
	return stages
}

// migrateOverrideLifecycle returns the override's stages and whether they come from the legacy
// fields (which may add stages).
func migrateOverrideLifecycle(v gardencorev1beta1.ExpirableVersion) ([]gardencorev1beta1.LifecycleStage, bool) {
	if len(v.Lifecycle) > 0 {
		return v.Lifecycle, false
	}
	var stages []gardencorev1beta1.LifecycleStage
	if v.Classification != nil {
		stages = append(stages, gardencorev1beta1.LifecycleStage{Classification: *v.Classification})
	}
	if v.ExpirationDate != nil {
		stages = append(stages, gardencorev1beta1.LifecycleStage{Classification: gardencorev1beta1.ClassificationExpired, StartTime: v.ExpirationDate})
	}
	return stages, true
}

// removeImplicitStagesAfter drops the stages without start time that rank after c.
func removeImplicitStagesAfter(stages []gardencorev1beta1.LifecycleStage, c gardencorev1beta1.VersionClassification) []gardencorev1beta1.LifecycleStage {
	out := stages[:0]
	for _, s := range stages {
		if s.StartTime == nil && ClassificationRank(s.Classification) > ClassificationRank(c) {
			continue
		}
		out = append(out, s)
	}
	return out
}

func stageIndex(stages []gardencorev1beta1.LifecycleStage, c gardencorev1beta1.VersionClassification) int {
	for k, s := range stages {
		if s.Classification == c {
			return k
		}
	}
	return -1
}

// adjustStartTimes moves the other stages around an applied override stage o: earlier-ranked
// stages starting after o's start time and later-ranked stages without start time or starting
// before it move to o's start time.
func adjustStartTimes(stages []gardencorev1beta1.LifecycleStage, o gardencorev1beta1.LifecycleStage) {
	t := o.StartTime.Time
	rank := ClassificationRank(o.Classification)
	for k := range stages {
		s := &stages[k]
		if s.Classification == o.Classification {
			continue
		}
		r := ClassificationRank(s.Classification)
		switch {
		case r < rank && s.StartTime != nil && s.StartTime.After(t):
			s.StartTime = copyTime(o.StartTime)
		case r > rank && (s.StartTime == nil || s.StartTime.Time.Before(t)):
			s.StartTime = copyTime(o.StartTime)
		}
	}
}

// normalizeLifecycle guarantees D-8 and D-9 for a sorted stage list: of several leading stages
// without start time only the last one is kept (the earlier ones are never in effect), and every
// later stage without start time or starting before its predecessor starts with its predecessor.
func normalizeLifecycle(stages []gardencorev1beta1.LifecycleStage) []gardencorev1beta1.LifecycleStage {
	lead := 0
	for lead < len(stages) && stages[lead].StartTime == nil {
		lead++
	}
	if lead > 1 {
		stages = stages[lead-1:]
	}
	for k := 1; k < len(stages); k++ {
		previous := stages[k-1].StartTime
		if previous == nil {
			continue
		}
		if stages[k].StartTime == nil || stages[k].StartTime.Time.Before(previous.Time) {
			stages[k].StartTime = copyTime(previous)
		}
	}
	return stages
}

func copyTime(t *metav1.Time) *metav1.Time {
	if t == nil {
		return nil
	}
	c := *t
	return &c
}
