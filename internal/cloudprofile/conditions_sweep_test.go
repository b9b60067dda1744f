package cloudprofile

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// randomConditionsSpec builds a profile whose lifecycles start on a coarse grid of hours, so that
// steps of different versions coincide and expirations meet the warning window exactly. Some
// lifecycles are not valid ones (the conditions are computed for whatever a cluster holds).
func randomConditionsSpec(r *rand.Rand) gardencorev1beta1.CloudProfileSpec {
	classes := []gardencorev1beta1.VersionClassification{lkPreview, lkSupported, lkDeprecated, lkExpired}
	instant := func() time.Time { return lk2030.Add(time.Duration(r.IntN(12)) * time.Hour) }
	version := func(name string) gardencorev1beta1.ExpirableVersion {
		switch r.IntN(3) {
		case 0:
			return lkVersion(name, classes[r.IntN(3)], instant())
		case 1:
			return lkVersion(name, classes[r.IntN(3)], time.Time{})
		}
		var stages []any
		start := lk2030.Add(-time.Hour)
		for _, c := range classes {
			if r.IntN(3) == 0 {
				continue
			}
			if r.IntN(8) == 0 {
				c = classes[r.IntN(4)] // out of order
			}
			start = start.Add(time.Duration(r.IntN(4)) * time.Hour)
			stages = append(stages, c, start)
		}
		if len(stages) == 0 {
			stages = []any{lkSupported, time.Time{}}
		}
		return lkLifecycle(name, stages...)
	}
	names := func(n int, format string) []string {
		seen := map[string]bool{}
		var out []string
		for len(out) < n {
			name := fmt.Sprintf(format, r.IntN(4), r.IntN(4))
			if r.IntN(20) == 0 {
				name = "not-a-version-" + name
			}
			if !seen[name] {
				seen[name] = true
				out = append(out, name)
			}
		}
		return out
	}
	var spec gardencorev1beta1.CloudProfileSpec
	for _, name := range names(r.IntN(9)+1, "1.%d.%d") {
		spec.Kubernetes.Versions = append(spec.Kubernetes.Versions, version(name))
	}
	archs := [][]string{{"amd64"}, {"arm64"}, {"amd64", "arm64"}}
	for img := 0; img < r.IntN(3); img++ {
		image := gardencorev1beta1.MachineImage{Name: fmt.Sprintf("image-%d", img)}
		for _, name := range names(r.IntN(6)+1, "%d.%d.0") {
			image.Versions = append(image.Versions, lkImageVersion(version(name), archs[r.IntN(3)]...))
		}
		spec.MachineImages = append(spec.MachineImages, image)
	}
	for i := 0; i < r.IntN(3); i++ {
		spec.MachineTypes = append(spec.MachineTypes, gardencorev1beta1.MachineType{Name: fmt.Sprintf("m%d", i), Architecture: lkStr([]string{"amd64", "arm64", "s390x"}[r.IntN(3)])})
	}
	return spec
}

// TestExpirationSuccessors_AgreeWithScanningEveryVersion: the successors found with the span sets
// are those a scan of every other version finds (ExpirationsHaveSuccessors: a higher version of
// the same major in the same or next minor, resp. of the same image with the architecture, that
// is supported right after the expiration).
func TestExpirationSuccessors_AgreeWithScanningEveryVersion(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	supportedAfter := func(v gardencorev1beta1.ExpirableVersion, e time.Time) bool {
		return Classify(v, e.Add(time.Nanosecond)) == gardencorev1beta1.ClassificationSupported
	}
	for n := 0; n < 3000; n++ {
		spec := randomConditionsSpec(r)
		idx := newConditionIndex(&spec, lk2030)
		for _, iv := range idx.kubernetes {
			for _, x := range expirationsOf(iv) {
				found := false
				for o, other := range idx.kubernetes {
					found = found || (iv.ok && other.ok && other.parsed.compare(iv.parsed) > 0 && other.parsed.major == iv.parsed.major &&
						other.parsed.minor <= iv.parsed.minor+1 && supportedAfter(spec.Kubernetes.Versions[o], x.at))
				}
				if x.orphaned == found {
					t.Fatalf("Kubernetes %s expiring at %s: orphaned=%v, but a scan finds a successor: %v\n%+v", iv.version, x.at, x.orphaned, found, spec.Kubernetes.Versions)
				}
			}
		}
		for i, image := range idx.images {
			for _, iv := range image.versions {
				for _, x := range expirationsOf(iv) {
					var missing []string
					for _, arch := range iv.archs {
						found := false
						for o, other := range image.versions {
							found = found || (iv.ok && other.ok && other.parsed.compare(iv.parsed) > 0 && slices.Contains(other.archs, arch) &&
								supportedAfter(spec.MachineImages[i].Versions[o].ExpirableVersion, x.at))
						}
						if !found {
							missing = append(missing, arch)
						}
					}
					if !slices.Equal(x.missingArchs, missing) {
						t.Fatalf("image %s %s expiring at %s: missing %v, a scan finds %v\n%+v", image.name, iv.version, x.at, x.missingArchs, missing, image.versions)
					}
				}
			}
		}
	}
}

// expirationsOf is what the index says of every instant at which iv turns expired, recorded or not.
func expirationsOf(iv indexedVersion) []expiration {
	var out []expiration
	for _, s := range iv.tl.steps {
		if s.class == gardencorev1beta1.ClassificationExpired {
			out = append(out, iv.expirationAt(s.at))
		}
	}
	return out
}

// TestProfileConditions_LastTransitionTimesAgreeWithEvaluatingEveryInstant: the incremental sweep
// finds the same LastTransitionTime as evaluating every condition at every stage start and every
// stage start minus the window, walking back from `at`.
func TestProfileConditions_LastTransitionTimesAgreeWithEvaluatingEveryInstant(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for n := 0; n < 3000; n++ {
		spec := randomConditionsSpec(r)
		window := []time.Duration{0, 2 * time.Hour, 5 * time.Hour}[r.IntN(3)]
		at := lk2030.Add(time.Duration(r.IntN(16)-2)*time.Hour + []time.Duration{0, time.Nanosecond, 30 * time.Minute}[r.IntN(3)])
		got := ProfileConditions(&spec, at, window)
		want := conditionsByEvaluatingEveryInstant(&spec, at, window)
		for i := range want {
			if got[i].Type != want[i].Type || got[i].Status != want[i].Status || !got[i].LastTransitionTime.Equal(want[i].LastTransitionTime) {
				t.Fatalf("at %s, window %s: %s is %s since %s, want %s since %s\nspec: %+v", at, window, got[i].Type, got[i].Status,
					got[i].LastTransitionTime, want[i].Status, want[i].LastTransitionTime, spec)
			}
		}
	}
}

// conditionsByEvaluatingEveryInstant is ProfileConditions by brute force.
func conditionsByEvaluatingEveryInstant(spec *gardencorev1beta1.CloudProfileSpec, at time.Time, window time.Duration) []Condition {
	idx := newConditionIndex(spec, time.Time{}) // no instant the index keeps: every one is searched
	eval := func(t time.Time, detail bool) []Condition {
		conds := append([]Condition{{}}, idx.lifecycleConditions(t, window, detail)...)
		conds[0] = Summarize(conds[1:])
		return conds
	}
	var instants []time.Time
	versions := slices.Clone(spec.Kubernetes.Versions)
	for _, image := range spec.MachineImages {
		for _, v := range image.Versions {
			versions = append(versions, v.ExpirableVersion)
		}
	}
	for _, v := range versions {
		for _, s := range effectiveStages(v) {
			if !s.start.IsZero() {
				instants = append(instants, s.start, s.start.Add(-window))
			}
		}
	}
	slices.SortFunc(instants, func(a, b time.Time) int { return b.Compare(a) })
	current := eval(at, true)
	for i := range current {
		current[i].LastTransitionTime = at
		for _, t := range instants {
			if !t.Before(at) {
				continue
			}
			if eval(t, false)[i].Status != current[i].Status {
				current[i].LastTransitionTime = t
				break
			}
		}
	}
	return current
}

// TestHighestNonzero_AgreesWithAScan: the newest minor with released versions, which the sweep
// asks for at every instant, is found in logarithmic time; it is the highest set position a scan
// finds, for any sequence of changes and any number of positions.
func TestHighestNonzero_AgreesWithAScan(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 2, 3, 5, 8, 13, 64, 100} {
		h := newHighestNonzero(n)
		set := make([]bool, n)
		for step := 0; step < 2000; step++ {
			if n > 0 {
				i, on := r.IntN(n), r.IntN(3) == 0
				h.set(i, on)
				set[i] = on
			}
			want := -1
			for i := n - 1; i >= 0; i-- {
				if set[i] {
					want = i
					break
				}
			}
			if got := h.highest(); got != want {
				t.Fatalf("n=%d step %d: highest %d, a scan finds %d", n, step, got, want)
			}
		}
	}
}

// TestProfileConditions_ManyMinorsWithManyChangesSweepInLinearTime: 100,000 Kubernetes versions,
// each its own minor, supported from one hour after the one before. KubernetesVersionsSupported
// holds since the first of them, so the search for its last transition walks back over every
// start. Finding the newest minor with released versions by scanning all minors at each instant
// takes about 10¹⁰ steps here (minutes); it takes a fraction of a second.
func TestProfileConditions_ManyMinorsWithManyChangesSweepInLinearTime(t *testing.T) {
	const n = 100_000
	spec := gardencorev1beta1.CloudProfileSpec{}
	for i := 0; i < n; i++ {
		start := metav1.NewTime(testNow.Add(-time.Duration(n-i) * time.Hour))
		spec.Kubernetes.Versions = append(spec.Kubernetes.Versions, gardencorev1beta1.ExpirableVersion{
			Version:   fmt.Sprintf("1.%d.0", i),
			Lifecycle: []gardencorev1beta1.LifecycleStage{{Classification: gardencorev1beta1.ClassificationPreview}, {Classification: gardencorev1beta1.ClassificationSupported, StartTime: &start}},
		})
	}
	done := make(chan []Condition, 1)
	go func() { done <- ProfileConditions(&spec, testNow, DefaultExpiryWarningWindow) }()
	select {
	case conds := <-done:
		c := conditionOf(t, conds, ConditionKubernetesVersionsSupported)
		if first := testNow.Add(-n * time.Hour); c.Status != ConditionTrue || !c.LastTransitionTime.Equal(first) {
			t.Errorf("KubernetesVersionsSupported %s since %s, want True since %s", c.Status, c.LastTransitionTime, first)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the conditions of 100,000 minors took longer than 30 s: the sweep is not linear")
	}
}

// TestProfileConditions_ManyArchitecturesWithManyChangesSweepInLinearTime: 100,000 versions of an
// image, each for its own architecture and supported from one hour after the one before, and a
// usable machine type for each architecture. Checking every architecture at each instant of the
// search takes about 10¹⁰ steps here (minutes); it takes about a second.
func TestProfileConditions_ManyArchitecturesWithManyChangesSweepInLinearTime(t *testing.T) {
	const n = 100_000
	spec := gardencorev1beta1.CloudProfileSpec{MachineImages: []gardencorev1beta1.MachineImage{{Name: "image"}}}
	for i := 0; i < n; i++ {
		arch := fmt.Sprintf("arch-%d", i)
		start := metav1.NewTime(testNow.Add(-time.Duration(n-i) * time.Hour))
		spec.MachineImages[0].Versions = append(spec.MachineImages[0].Versions, gardencorev1beta1.MachineImageVersion{
			ExpirableVersion: gardencorev1beta1.ExpirableVersion{
				Version:   fmt.Sprintf("1.%d.0", i),
				Lifecycle: []gardencorev1beta1.LifecycleStage{{Classification: gardencorev1beta1.ClassificationPreview}, {Classification: gardencorev1beta1.ClassificationSupported, StartTime: &start}},
			},
			Architectures: []string{arch},
		})
		spec.MachineTypes = append(spec.MachineTypes, gardencorev1beta1.MachineType{Name: arch, Architecture: &arch})
	}
	done := make(chan []Condition, 1)
	go func() { done <- ProfileConditions(&spec, testNow, DefaultExpiryWarningWindow) }()
	select {
	case conds := <-done:
		c := conditionOf(t, conds, ConditionMachineImagesSupported)
		if last := testNow.Add(-time.Hour); c.Status != ConditionTrue || !c.LastTransitionTime.Equal(last) {
			t.Errorf("MachineImagesSupported %s since %s, want True since %s", c.Status, c.LastTransitionTime, last)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the conditions of 100,000 architectures took longer than 30 s: the sweep is not linear")
	}
}
