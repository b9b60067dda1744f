package cloudprofile

import (
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Transition is a coming change of a version's classification.
type Transition struct {
	// At is the start time of the stage that causes the change. Because Gardener compares
	// strictly, the version still has its old classification at At itself and has classification
	// To at every instant after At (until the following transition).
	At time.Time
	// To is the classification the version has right after At.
	To gardencorev1beta1.VersionClassification
}

// NextTransition returns the first change of v's classification after the instant `at` (DurationUntilNextVersionTransition for
// one version): Classify(v, t) equals Classify(v, at) for every t in [at, At] and equals To just
// after At. It returns false when the classification never changes again.
//
// At is never before `at`; it equals `at` only when a stage starts exactly at `at` (such a stage is
// not active at `at` yet, but is active right after it).
//
// This differs from Gardener's controller requeue (NextRequeue), which takes every start time
// (or, without lifecycle, the expiration date) strictly after now as a candidate, whether or not
// the classification changes there. NextTransition skips candidates at which the classification
// stays the same: a stage sharing its start time with a later stage in the list, a stage that an
// earlier-starting but later-listed stage overrides, or a stage whose classification equals the
// current one.
func NextTransition(v gardencorev1beta1.ExpirableVersion, at time.Time) (Transition, bool) {
	stages := effectiveStages(v)
	if stages == nil {
		return Transition{}, false
	}
	current := Classify(v, at)
	for t, next := range classificationSteps(stages) {
		if !t.Before(at) && next != current {
			return Transition{At: t, To: next}, true
		}
	}
	return Transition{}, false
}
