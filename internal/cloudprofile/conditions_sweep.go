package cloudprofile

import (
	"slices"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// The search for LastTransitionTime walks back from `at` over the instants at which a lifecycle
// condition may change: every step of a version's timeline, and every expiration minus the
// warning window. Instead of evaluating all conditions anew at each instant (quadratic in the
// number of versions), it keeps tallies of what each version contributes and, at each instant,
// updates only the versions with a step there. The statuses it yields are those of
// lifecycleConditions(t, window, false).

// versionRef names a version of the index: image -1 is a Kubernetes version.
type versionRef struct{ image, version int }

// versionState is what one version contributes to the lifecycle conditions at an instant.
type versionState struct {
	class gardencorev1beta1.VersionClassification
	// expiring: the version expires within the warning window without a supported successor.
	expiring bool
}

func (idx *conditionIndex) version(r versionRef) *indexedVersion {
	if r.image < 0 {
		return &idx.kubernetes[r.version]
	}
	return &idx.images[r.image].versions[r.version]
}

// versionCount is the number of Kubernetes and image versions.
func (idx *conditionIndex) versionCount() int {
	n := len(idx.kubernetes)
	for _, image := range idx.images {
		n += len(image.versions)
	}
	return n
}

// stateAt is the contribution of version r at instant t.
func (idx *conditionIndex) stateAt(r versionRef, t time.Time, window time.Duration) versionState {
	iv := idx.version(r)
	n := idx.stepsBefore(iv, t)
	s := versionState{class: iv.tl.classAfter(n)}
	if e, ok := iv.tl.expiresAfterStep(n, t.Add(window)); ok {
		s.expiring = iv.expirationAt(e).withoutSuccessor()
	}
	return s
}

// minorTally counts the released and supported Kubernetes versions of a minor.
type minorTally struct{ released, supported int }

// imageTally counts an image's active versions and its released and supported versions per
// architecture (released[i] and supported[i] of the architecture numbered i by archs), and the
// architectures with released but no supported versions (uncovered).
type imageTally struct {
	active              int
	archs               map[string]int
	released, supported []int
	uncovered           int
}

// arch returns the number of an architecture, adding it on first use.
func (t *imageTally) arch(name string) int {
	if i, ok := t.archs[name]; ok {
		return i
	}
	if t.archs == nil {
		t.archs = map[string]int{}
	}
	t.archs[name] = len(t.released)
	t.released = append(t.released, 0)
	t.supported = append(t.supported, 0)
	return len(t.released) - 1
}

// count adds delta to the released (and, if supported, the supported) versions of architecture a.
func (t *imageTally) count(a int, released, supported bool, delta int) {
	before := t.released[a] > 0 && t.supported[a] == 0
	if released {
		t.released[a] += delta
	}
	if supported {
		t.supported[a] += delta
	}
	t.uncovered += countChange(before, t.released[a] > 0 && t.supported[a] == 0)
}

// hasFindings tells whether MachineImagesSupported reports the image: no active version, or an
// architecture with released but no supported versions.
func (t *imageTally) hasFindings() bool { return t.active == 0 || t.uncovered > 0 }

// conditionTallies sums the contributions of all versions at one instant.
type conditionTallies struct {
	idx                 *conditionIndex
	kubernetesActive    int
	kubernetesSupported int
	// minors tallies each minor by rank; releasedMinors tracks the ranks with released versions.
	minors                  []minorTally
	releasedMinors          highestNonzero
	latestClass             gardencorev1beta1.VersionClassification
	expiring                int
	images                  []imageTally
	imagesWithFindings      int
	supportedVersionsByArch map[string]int
	// archsWithSupported counts the architectures with supported image versions, of them
	// machineTypeArchsWithSupported those of usable machine types.
	archsWithSupported, machineTypeArchsWithSupported int
}

func newConditionTallies(idx *conditionIndex) *conditionTallies {
	// Before any version is added, every image lacks an active version.
	ts := &conditionTallies{idx: idx, minors: make([]minorTally, len(idx.minors)), releasedMinors: newHighestNonzero(len(idx.minors)), supportedVersionsByArch: map[string]int{},
		images: make([]imageTally, len(idx.images)), imagesWithFindings: len(idx.images)}
	return ts
}

// apply adds (delta 1) or removes (delta -1) the contribution s of version r.
func (ts *conditionTallies) apply(r versionRef, s versionState, delta int) {
	if s.expiring {
		ts.expiring += delta
	}
	if r.image < 0 {
		ts.applyKubernetes(r.version, s, delta)
		return
	}
	img := &ts.images[r.image]
	before := img.hasFindings()
	if s.class.IsActive() {
		img.active += delta
	}
	supported := s.class == gardencorev1beta1.ClassificationSupported
	for _, arch := range ts.idx.images[r.image].versions[r.version].archs {
		img.count(img.arch(arch), released(s.class), supported, delta)
		if supported {
			ts.countSupported(arch, delta)
		}
	}
	ts.imagesWithFindings += countChange(before, img.hasFindings())
}

func (ts *conditionTallies) applyKubernetes(i int, s versionState, delta int) {
	if i == ts.idx.latest && delta > 0 {
		ts.latestClass = s.class
	}
	if s.class.IsActive() {
		ts.kubernetesActive += delta
	}
	if s.class == gardencorev1beta1.ClassificationSupported {
		ts.kubernetesSupported += delta
	}
	iv := &ts.idx.kubernetes[i]
	if !iv.ok || !released(s.class) {
		return
	}
	m := &ts.minors[iv.minorRank]
	m.released += delta
	ts.releasedMinors.set(iv.minorRank, m.released > 0)
	if s.class == gardencorev1beta1.ClassificationSupported {
		m.supported += delta
	}
}

// newestMinorSupported tells whether the newest minor with released versions has a supported one
// (or no minor has released versions): that covers every older minor (see
// kubernetesVersionsSupported).
func (ts *conditionTallies) newestMinorSupported() bool {
	newest := ts.releasedMinors.highest()
	return newest < 0 || ts.minors[newest].supported > 0
}

// highestNonzero tracks which of n positions are set and finds the highest set one, each in
// O(log n): a binary tree over the positions whose nodes count the set positions below them.
type highestNonzero struct {
	leaves int
	tree   []int
}

func newHighestNonzero(n int) highestNonzero {
	leaves := 1
	for leaves < n {
		leaves *= 2
	}
	return highestNonzero{leaves: leaves, tree: make([]int, 2*leaves)}
}

// set marks position i as set or not.
func (h *highestNonzero) set(i int, set bool) {
	k := h.leaves + i
	want := 0
	if set {
		want = 1
	}
	if d := want - h.tree[k]; d != 0 {
		for ; k >= 1; k /= 2 {
			h.tree[k] += d
		}
	}
}

// highest is the highest set position, -1 when none is.
func (h *highestNonzero) highest() int {
	if h.tree[1] == 0 {
		return -1
	}
	k := 1
	for k < h.leaves {
		k *= 2
		if h.tree[k+1] > 0 {
			k++
		}
	}
	return k - h.leaves
}

// countChange is +1 when a condition starts to hold, -1 when it stops, else 0.
func countChange(before, after bool) int {
	switch {
	case after && !before:
		return 1
	case before && !after:
		return -1
	}
	return 0
}

// statuses are the statuses of the four lifecycle conditions, in the order of lifecycleConditions.
func (ts *conditionTallies) statuses() []ConditionStatus {
	status := func(met bool) ConditionStatus {
		if met {
			return ConditionTrue
		}
		return ConditionFalse
	}
	latestOK := ts.idx.latest >= 0 && ts.latestClass != gardencorev1beta1.ClassificationDeprecated &&
		ts.latestClass != gardencorev1beta1.ClassificationExpired
	return []ConditionStatus{
		status(ts.kubernetesActive > 0 && ts.kubernetesSupported > 0 && ts.newestMinorSupported()),
		status(latestOK),
		status(ts.expiring == 0),
		status(ts.machineImagesSupported()),
	}
}

// countSupported adds delta to the supported image versions of an architecture.
func (ts *conditionTallies) countSupported(arch string, delta int) {
	before := ts.supportedVersionsByArch[arch] > 0
	ts.supportedVersionsByArch[arch] += delta
	change := countChange(before, ts.supportedVersionsByArch[arch] > 0)
	ts.archsWithSupported += change
	if ts.idx.machineTypeArchs.has(arch) {
		ts.machineTypeArchsWithSupported += change
	}
}

// machineImagesSupported tells whether MachineImagesSupported holds: no image has findings, some
// architecture has a supported version, and so does every architecture of a usable machine type.
func (ts *conditionTallies) machineImagesSupported() bool {
	return ts.imagesWithFindings == 0 && ts.archsWithSupported > 0 && ts.machineTypeArchsWithSupported == len(ts.idx.machineTypeArchs.order)
}

// versionEvent is an instant at which version ref's contribution may change.
type versionEvent struct {
	at  time.Time
	ref int // index into the sweep's refs
}

// sweepBack calls visit with the lifecycle statuses at each instant before `at` where one may
// change, latest first, until visit returns true.
func (idx *conditionIndex) sweepBack(at time.Time, window time.Duration, visit func(t time.Time, statuses []ConditionStatus) (stop bool)) {
	refs := make([]versionRef, 0, idx.versionCount())
	for i := range idx.kubernetes {
		refs = append(refs, versionRef{-1, i})
	}
	for img := range idx.images {
		for i := range idx.images[img].versions {
			refs = append(refs, versionRef{img, i})
		}
	}
	var events []versionEvent
	ts := newConditionTallies(idx)
	states := make([]versionState, len(refs))
	for k, r := range refs {
		states[k] = idx.stateAt(r, at, window)
		ts.apply(r, states[k], 1)
		tl := idx.version(r).tl
		for _, s := range tl.steps {
			events = appendEventBefore(events, at, s.at, k)
			if window > 0 && s.class == gardencorev1beta1.ClassificationExpired {
				events = appendEventBefore(events, at, s.at.Add(-window), k)
			}
		}
	}
	slices.SortFunc(events, func(a, b versionEvent) int { return b.at.Compare(a.at) })
	for start := 0; start < len(events); {
		t := events[start].at
		end := start
		for ; end < len(events) && events[end].at.Equal(t); end++ {
			k := events[end].ref
			if s := idx.stateAt(refs[k], t, window); s != states[k] {
				ts.apply(refs[k], states[k], -1)
				ts.apply(refs[k], s, 1)
				states[k] = s
			}
		}
		if visit(t, ts.statuses()) {
			return
		}
		start = end
	}
}

func appendEventBefore(events []versionEvent, at, t time.Time, ref int) []versionEvent {
	if t.Before(at) {
		events = append(events, versionEvent{at: t, ref: ref})
	}
	return events
}
