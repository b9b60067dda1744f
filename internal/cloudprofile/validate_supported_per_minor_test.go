package cloudprofile

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// supportedVersionsOverlapping is Gardener's supportedVersionsOverlapping, compared pair by pair:
// the oracle that the tallies of validateOneSupportedPerMinor must agree with.
func supportedVersionsOverlapping(a, b gardencorev1beta1.ExpirableVersion) bool {
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

// pairwiseOneSupportedPerMinor is Gardener's validateSupportedVersionsConfiguration as Gardener
// runs it: every checked version against every candidate, one error per overlapping partner. It
// returns the number of errors per version index.
func pairwiseOneSupportedPerMinor(versions []gardencorev1beta1.ExpirableVersion, opts Options) map[int]int {
	parsed := parseVersionStrings(len(versions), func(i int) string { return versions[i].Version })
	errors := map[int]int{}
	for i, v := range versions {
		if v.Classification == nil || Classify(v, opts.Now) != supported || parsed.errs[i] != nil {
			continue
		}
		for j, w := range versions {
			if !hasSupportedClassification(w) {
				continue
			}
			if parsed.errs[j] != nil {
				return map[int]int{}
			}
			if parsed.versions[j].minorKey() != parsed.versions[i].minorKey() || parsed.versions[j].compare(parsed.versions[i]) == 0 {
				continue
			}
			if supportedVersionsOverlapping(v, w) {
				errors[i]++
			}
		}
	}
	return errors
}

// randomVersion draws a version of minor 1.1 (or, rarely, 1.2) in one of a few spellings, with a
// legacy classification, a lifecycle of random stages and start times, or both.
func randomVersion(r *rand.Rand) gardencorev1beta1.ExpirableVersion {
	spellings := []string{"1.1.%d", "v1.1.%d", "1.1.%d-rc.1", "1.1.%d+build", "1.2.%d"}
	v := gardencorev1beta1.ExpirableVersion{Version: fmt.Sprintf(spellings[r.IntN(len(spellings))], r.IntN(4))}
	classes := []gardencorev1beta1.VersionClassification{preview, supported, deprecated, expired}
	if r.IntN(3) > 0 {
		v.Classification = cls(classes[r.IntN(3)])
	}
	if r.IntN(3) > 0 {
		for range r.IntN(4) + 1 {
			s := gardencorev1beta1.LifecycleStage{Classification: classes[r.IntN(len(classes))]}
			if r.IntN(4) > 0 {
				s.StartTime = at(time.Duration(r.IntN(5)-2) * day)
			}
			v.Lifecycle = append(v.Lifecycle, s)
		}
	}
	if r.IntN(5) == 0 {
		v.ExpirationDate = at(time.Duration(r.IntN(5)-2) * day)
	}
	return v
}

func TestRuleC8_CountedRepeatsAgreeWithGardenersPairwiseComparison(t *testing.T) {
	r := rand.New(rand.NewPCG(44, 8))
	opts := gateOn()
	for round := range 3000 {
		versions := make([]gardencorev1beta1.ExpirableVersion, r.IntN(12))
		for i := range versions {
			versions[i] = randomVersion(r)
		}
		want := pairwiseOneSupportedPerMinor(versions, opts)
		parsed := parseVersionStrings(len(versions), func(i int) string { return versions[i].Version })
		got := validateOneSupportedPerMinor(perMinorRules{"C-8", "C-9"}, len(versions), func(i int) gardencorev1beta1.ExpirableVersion { return versions[i] }, parsed, NewPath("spec").Child("kubernetes").Child("versions"), opts)
		counts := map[int]int{}
		for _, p := range got {
			i := p.Path.Steps()[len(p.Path.Steps())-1].Index
			if counts[i] > 0 {
				t.Fatalf("round %d: version %d is reported twice: %s", round, i, describe(got))
			}
			counts[i] = 1 + p.Repeats
		}
		if fmt.Sprint(counts) != fmt.Sprint(want) {
			t.Fatalf("round %d: errors per version %v, Gardener's pairwise comparison gives %v, of %+v", round, counts, want, versions)
		}
	}
}
