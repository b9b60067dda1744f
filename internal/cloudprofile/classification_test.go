package cloudprofile

import (
	"math/rand"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

type ev = gardencorev1beta1.ExpirableVersion
type lc = []gardencorev1beta1.LifecycleStage

// The effective classification of one version at an instant (Gardener's
// CurrentLifecycleClassification; entries of its tests in pkg/api/core/v1beta1/helper and pkg/api/core/helper).
func TestClassification_CurrentLifecycleClassification(t *testing.T) {
	tests := []struct {
		name    string
		version ev
		want    gardencorev1beta1.VersionClassification
	}{
		{"only a version string is supported", ev{Version: "1.28.0"}, supported},
		{"a lifecycle that starts in the future is unavailable",
			ev{Version: "1.28.0", Lifecycle: lc{stageAt(supported, 3*hour)}}, unavailable},
		{"a version in its preview stage is preview",
			ev{Version: "1.28.0", Lifecycle: lc{stageAt(preview, -hour), stageAt(supported, 3*hour)}}, preview},
		{"a full lifecycle currently in its supported stage is supported",
			ev{Version: "1.28.0", Lifecycle: lc{stageAt(preview, -3*hour), stageAt(supported, -hour), stageAt(deprecated, 5*hour), stageAt(expired, 8*hour)}}, supported},
		{"a lifecycle whose expired stage has started is expired",
			ev{Version: "1.28.0", Lifecycle: lc{stageAt(supported, -4*hour), stageAt(deprecated, -3*hour), stageAt(expired, -hour)}}, expired},
		{"a lifecycle currently deprecated is deprecated",
			ev{Version: "1.28.0", Lifecycle: lc{stageAt(supported, -4*hour), stageAt(deprecated, -hour), stageAt(expired, 3*hour)}}, deprecated},
		{"the first lifecycle start time is optional (active since the beginning of time)",
			ev{Version: "1.28.5", Lifecycle: lc{stageOpen(preview), stageAt(supported, 3*hour), stageAt(deprecated, 4*hour), stageAt(expired, 5*hour)}}, preview},
		{"a legacy supported classification is supported", ev{Version: "1.28.0", Classification: cls(supported)}, supported},
		{"a legacy expiration date in the past is expired", ev{Version: "1.28.0", ExpirationDate: at(-hour)}, expired},
		{"a legacy expiration date in the future without classification is supported", ev{Version: "1.28.0", ExpirationDate: at(hour)}, supported},
		{"a legacy preview with a future expiration date is preview", ev{Version: "1.28.0", Classification: cls(preview), ExpirationDate: at(3 * hour)}, preview},
		{"a legacy deprecated with a future expiration date is deprecated", ev{Version: "1.28.0", Classification: cls(deprecated), ExpirationDate: at(3 * hour)}, deprecated},
		{"a legacy deprecated with a past expiration date is expired", ev{Version: "1.28.0", Classification: cls(deprecated), ExpirationDate: at(-hour)}, expired},
		{"a stage starting exactly now is not yet active", ev{Version: "1", Lifecycle: lc{stageAt(supported, 0)}}, unavailable},
		{"an expiration date equal to now is not yet expired", ev{Version: "1", ExpirationDate: at(0)}, supported},
		{"with equal start times in the past the later stage in the list wins",
			ev{Version: "1", Lifecycle: lc{stageOpen(preview), stageAt(supported, -hour), stageAt(deprecated, -hour)}}, deprecated},
		{"stages are not sorted: the last active stage in list order wins",
			ev{Version: "1", Lifecycle: lc{stageAt(deprecated, -2*hour), stageAt(preview, -hour)}}, preview},
		{"the legacy fields never make a version unavailable", ev{Version: "1", Classification: cls(preview)}, preview},
		{"a lifecycle wins over the legacy fields",
			ev{Version: "1", Classification: cls(deprecated), ExpirationDate: at(-hour), Lifecycle: lc{stageAt(supported, -hour)}}, supported},
		{"an empty lifecycle falls back to the legacy fields",
			ev{Version: "1", Classification: cls(expired), Lifecycle: lc{}}, expired},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Classify(tt.version, testNow); got != tt.want {
				t.Fatalf("Classify = %s, want %s", got, tt.want)
			}
		})
	}
}

// The predicates derived from the classification.
func TestClassification_DerivedPredicates(t *testing.T) {
	tests := []struct {
		name                                            string
		version                                         ev
		active, expired, supported, preview, deprecated bool
	}{
		{"supported", ev{Version: "1"}, true, false, true, false, false},
		{"preview", ev{Version: "1", Classification: cls(preview)}, true, false, false, true, false},
		{"deprecated", ev{Version: "1", Classification: cls(deprecated)}, true, false, false, false, true},
		{"expired", ev{Version: "1", ExpirationDate: at(-hour)}, false, true, false, false, false},
		{"unavailable", ev{Version: "1", Lifecycle: lc{stageAt(preview, hour)}}, false, false, false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := [5]bool{IsActive(tt.version, testNow), IsExpired(tt.version, testNow), IsSupported(tt.version, testNow), IsPreview(tt.version, testNow), IsDeprecated(tt.version, testNow)}
			if want := [5]bool{tt.active, tt.expired, tt.supported, tt.preview, tt.deprecated}; got != want {
				t.Fatalf("predicates = %v, want %v", got, want)
			}
		})
	}
}

// The requeue of the CloudProfile controller for one version: the first actual change of the classification.
func TestNextTransition_FirstChangeOfClassification(t *testing.T) {
	tests := []struct {
		name    string
		version ev
		want    *Transition
	}{
		{"a plain version never changes", ev{Version: "1"}, nil},
		{"a legacy classification without date never changes", ev{Version: "1", Classification: cls(deprecated)}, nil},
		{"a legacy expiration date in the future expires then",
			ev{Version: "1", ExpirationDate: at(2 * hour)}, &Transition{At: testNow.Add(2 * hour), To: expired}},
		{"a legacy expiration date in the past gives no further change", ev{Version: "1", ExpirationDate: at(-hour)}, nil},
		{"the next lifecycle stage in the future",
			ev{Version: "1", Lifecycle: lc{stageAt(preview, -hour), stageAt(supported, 2*hour), stageAt(deprecated, 5*hour)}}, &Transition{At: testNow.Add(2 * hour), To: supported}},
		{"an unavailable version becomes available at its first stage",
			ev{Version: "1", Lifecycle: lc{stageAt(preview, 3*hour), stageAt(supported, 4*hour)}}, &Transition{At: testNow.Add(3 * hour), To: preview}},
		{"equal start times: the later listed stage is what the version changes to",
			ev{Version: "1", Lifecycle: lc{stageOpen(preview), stageAt(supported, hour), stageAt(deprecated, hour)}}, &Transition{At: testNow.Add(hour), To: deprecated}},
		{"a stage whose classification is the current one is no change",
			ev{Version: "1", Lifecycle: lc{stageAt(supported, -hour), stageAt(deprecated, hour), stageAt(deprecated, 2*hour), stageAt(expired, 3*hour)}}, &Transition{At: testNow.Add(hour), To: deprecated}},
		{"a stage overridden by a later-listed, earlier-starting stage is no change",
			ev{Version: "1", Lifecycle: lc{stageOpen(supported), stageAt(deprecated, 2*hour), stageAt(supported, hour)}}, nil},
		{"a lifecycle wins over the expiration date",
			ev{Version: "1", ExpirationDate: at(hour), Lifecycle: lc{stageOpen(supported), stageAt(expired, 3*hour)}}, &Transition{At: testNow.Add(3 * hour), To: expired}},
		{"a stage starting exactly now changes right after now",
			ev{Version: "1", Lifecycle: lc{stageOpen(supported), stageAt(deprecated, 0)}}, &Transition{At: testNow, To: deprecated}},
		{"an expired version has no further change",
			ev{Version: "1", Lifecycle: lc{stageAt(supported, -2*hour), stageAt(expired, -hour)}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := NextTransition(tt.version, testNow)
			if tt.want == nil {
				if ok {
					t.Fatalf("NextTransition = %+v, want none", got)
				}
				return
			}
			if !ok || !got.At.Equal(tt.want.At) || got.To != tt.want.To {
				t.Fatalf("NextTransition = %+v, %v; want %+v", got, ok, *tt.want)
			}
			if before := Classify(tt.version, got.At); before != Classify(tt.version, testNow) {
				t.Fatalf("classification at At = %s, want the current %s", before, Classify(tt.version, testNow))
			}
			if after := Classify(tt.version, got.At.Add(time.Nanosecond)); after != got.To {
				t.Fatalf("classification after At = %s, want %s", after, got.To)
			}
		})
	}
}

// randomValidVersion builds a version that passes D-1 … D-9 with the gate on: an ordered subset of
// the classifications with non-decreasing start times (the first one optionally without start
// time), or a legacy version.
func randomValidVersion(r *rand.Rand, base time.Time) ev {
	if r.Intn(4) == 0 {
		v := ev{Version: "1.0.0"}
		if r.Intn(2) == 0 {
			v.Classification = cls([]gardencorev1beta1.VersionClassification{preview, supported, deprecated}[r.Intn(3)])
		}
		if r.Intn(2) == 0 {
			v.ExpirationDate = ptrTo(metav1.NewTime(base.Add(time.Duration(r.Intn(200)-100) * hour)))
		}
		return v
	}
	v := ev{Version: "1.0.0", Lifecycle: lc{}}
	t := base.Add(time.Duration(r.Intn(200)-150) * hour)
	for i, c := range []gardencorev1beta1.VersionClassification{preview, supported, deprecated, expired} {
		if r.Intn(3) == 0 {
			continue
		}
		s := gardencorev1beta1.LifecycleStage{Classification: c}
		if i != 0 || r.Intn(2) != 0 || len(v.Lifecycle) > 0 {
			if r.Intn(4) != 0 {
				t = t.Add(time.Duration(r.Intn(100)) * hour)
			}
			s.StartTime = ptrTo(metav1.NewTime(t))
		}
		v.Lifecycle = append(v.Lifecycle, s)
	}
	if len(v.Lifecycle) == 0 {
		v.Lifecycle = lc{stageOpen(supported)}
	}
	return v
}

// Property: for valid lifecycles the classification never moves backwards in time, and
// NextTransition is the earliest change (constant on [at, At], To right after At).
func TestClassification_PropertyMonotonicAndNextTransitionIsEarliestChange(t *testing.T) {
	r := rand.New(rand.NewSource(20270115))
	for n := 0; n < 3000; n++ {
		v := randomValidVersion(r, testNow)
		if ps := validateExpirableVersion(v, NewPath("v"), gateOn()); len(ps) > 0 {
			t.Fatalf("generator produced an invalid version %+v:%s", v, describe(ps))
		}
		start := testNow.Add(time.Duration(r.Intn(400)-250) * hour)

		// Monotonic: sample instants in increasing order.
		previous := Classify(v, start)
		for step := 0; step < 60; step++ {
			instant := start.Add(time.Duration(step) * 7 * hour)
			c := Classify(v, instant)
			if ClassificationRank(c) < ClassificationRank(previous) {
				t.Fatalf("classification moved backwards from %s to %s at %s for %+v", previous, c, instant, v)
			}
			previous = c
		}

		// NextTransition is the earliest change.
		current := Classify(v, start)
		tr, ok := NextTransition(v, start)
		if !ok {
			for step := 1; step < 60; step++ {
				if c := Classify(v, start.Add(time.Duration(step)*11*hour)); c != current {
					t.Fatalf("NextTransition reported none but classification changes to %s for %+v", c, v)
				}
			}
			continue
		}
		if tr.At.Before(start) {
			t.Fatalf("transition %v before the start %v", tr.At, start)
		}
		if c := Classify(v, tr.At); c != current {
			t.Fatalf("classification at At is %s, want current %s (%+v)", c, current, v)
		}
		if c := Classify(v, tr.At.Add(-time.Nanosecond)); !tr.At.Equal(start) && c != current {
			t.Fatalf("classification just before At is %s, want current %s (%+v)", c, current, v)
		}
		if c := Classify(v, tr.At.Add(time.Nanosecond)); c != tr.To || c == current {
			t.Fatalf("classification right after At is %s, want %s != %s (%+v)", c, tr.To, current, v)
		}
		if span := tr.At.Sub(start); span > 0 {
			for k := 0; k < 10; k++ {
				if c := Classify(v, start.Add(time.Duration(r.Int63n(int64(span))))); c != current {
					t.Fatalf("classification changed to %s before the reported transition %v (%+v)", c, tr.At, v)
				}
			}
		}
	}
}

// classificationSteps, one sweep over the stages sorted by start, agrees with classifying the
// whole stage list at each start, for stage lists of any length and order, with shared starts.
func TestClassificationSteps_AgreeWithClassifyingEveryStart(t *testing.T) {
	r := rand.New(rand.NewSource(44))
	classes := []gardencorev1beta1.VersionClassification{preview, supported, deprecated, expired}
	for n := 0; n < 2000; n++ {
		stages := make([]stage, r.Intn(20))
		for i := range stages {
			stages[i] = stage{classification: classes[r.Intn(len(classes))]}
			if r.Intn(5) > 0 {
				stages[i].start = testNow.Add(time.Duration(r.Intn(6)) * day)
			}
		}
		var starts []time.Time
		for at, c := range classificationSteps(stages) {
			if len(starts) > 0 && !at.After(starts[len(starts)-1]) {
				t.Fatalf("steps not in ascending order of distinct starts: %v after %v (%+v)", at, starts[len(starts)-1], stages)
			}
			starts = append(starts, at)
			if want := classifyStages(stages, at); c != want {
				t.Fatalf("step at %v gives %s, classifying every stage gives %s (%+v)", at, c, want, stages)
			}
		}
		distinct := map[time.Time]bool{}
		for _, s := range stages {
			distinct[s.start] = true
		}
		if len(starts) != len(distinct) {
			t.Fatalf("%d steps for %d distinct starts (%+v)", len(starts), len(distinct), stages)
		}
	}
}

func BenchmarkClassify(b *testing.B) {
	versions := []ev{
		{Version: "1.30.0"},
		{Version: "1.30.1", Classification: cls(deprecated), ExpirationDate: at(day)},
		{Version: "1.30.2", Lifecycle: lc{stageOpen(preview), stageAt(supported, -day), stageAt(deprecated, day), stageAt(expired, 2*day)}},
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_ = Classify(versions[i%len(versions)], testNow)
	}
}
