package cloudprofile

import (
	"slices"
	"sort"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Successors of expiring versions (ExpirationsHaveSuccessors), computed once for a whole profile:
// versions are visited from the highest down, and the instants at which the versions visited so
// far are supported are kept as a union of spans, so that "is a higher version supported right
// after e" is a binary search instead of a scan of every other version.

// expiration is an instant at which a version becomes expired, with what lacks a supported
// successor right after it.
type expiration struct {
	at time.Time
	// orphaned: a Kubernetes version has no supported successor in its minor or the next.
	orphaned bool
	// missingArchs: the architectures of an image version without a supported successor.
	missingArchs []string
}

// withoutSuccessor tells whether the expiration leaves shoots without a successor.
func (e expiration) withoutSuccessor() bool { return e.orphaned || len(e.missingArchs) > 0 }

// expirationAt returns the recorded expiration at instant e.
func (iv *indexedVersion) expirationAt(e time.Time) expiration {
	for _, x := range iv.expirations {
		if x.at.Equal(e) {
			return x
		}
	}
	return expiration{at: e}
}

// span is the half-open interval [from, to) of instants; a zero from is the beginning of time, a
// zero to the end of time.
type span struct{ from, to time.Time }

// spanSet is a union of spans, kept sorted, disjoint and without touching neighbours.
type spanSet struct{ spans []span }

// add merges sp into the set.
func (s *spanSet) add(sp span) {
	// first is the first span that does not end before sp starts; end is the first span that
	// starts after sp ends. Spans in between overlap or touch sp.
	first := sort.Search(len(s.spans), func(k int) bool { to := s.spans[k].to; return to.IsZero() || !to.Before(sp.from) })
	end := sort.Search(len(s.spans), func(k int) bool { from := s.spans[k].from; return !sp.to.IsZero() && from.After(sp.to) })
	if first < end {
		if from := s.spans[first].from; from.Before(sp.from) {
			sp.from = from
		}
		if to := s.spans[end-1].to; !sp.to.IsZero() && (to.IsZero() || to.After(sp.to)) {
			sp.to = to
		}
	}
	s.spans = slices.Replace(s.spans, first, end, sp)
}

// contains tells whether instant t lies in a span of the set.
func (s *spanSet) contains(t time.Time) bool {
	k := sort.Search(len(s.spans), func(k int) bool { to := s.spans[k].to; return to.IsZero() || to.After(t) })
	return k < len(s.spans) && !s.spans[k].from.After(t)
}

// addSupportedSpans adds to set the spans of instants e right after which the version is
// supported (the classification right after e is supported).
func (tl timeline) addSupportedSpans(set *spanSet) {
	if tl.initial == gardencorev1beta1.ClassificationSupported {
		sp := span{}
		if len(tl.steps) > 0 {
			sp.to = tl.steps[0].at
		}
		set.add(sp)
	}
	for i, s := range tl.steps {
		if s.class != gardencorev1beta1.ClassificationSupported {
			continue
		}
		sp := span{from: s.at}
		if i+1 < len(tl.steps) {
			sp.to = tl.steps[i+1].at
		}
		set.add(sp)
	}
}

// initExpirations records the instants at which the version turns expired, each without any
// successor until one is found.
func (iv *indexedVersion) initExpirations(orphaned bool, missingArchs []string) {
	for _, s := range iv.tl.steps {
		if s.class == gardencorev1beta1.ClassificationExpired {
			iv.expirations = append(iv.expirations, expiration{at: s.at, orphaned: orphaned, missingArchs: missingArchs})
		}
	}
}

// byVersionDescending returns the indices of versions that parse, highest version first.
func byVersionDescending(versions []indexedVersion) []int {
	var order []int
	for i := range versions {
		if versions[i].ok {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return versions[b].parsed.compare(versions[a].parsed) })
	return order
}

// equalVersionRuns calls visit with each run of equal versions in order, highest first.
func equalVersionRuns(versions []indexedVersion, order []int, visit func(run []int)) {
	for start := 0; start < len(order); {
		end := start + 1
		for end < len(order) && versions[order[end]].parsed.compare(versions[order[start]].parsed) == 0 {
			end++
		}
		visit(order[start:end])
		start = end
	}
}

// findKubernetesSuccessors records the expirations of every Kubernetes version: a successor is a
// higher version of the same major in the same or the next minor that is supported right after
// the expiration. Versions that do not parse have no successor.
func (idx *conditionIndex) findKubernetesSuccessors() {
	versions := idx.kubernetes
	for i := range versions {
		versions[i].initExpirations(true, nil)
	}
	supported := map[minorKey]*spanSet{}
	set := func(k minorKey) *spanSet {
		if supported[k] == nil {
			supported[k] = &spanSet{}
		}
		return supported[k]
	}
	equalVersionRuns(versions, byVersionDescending(versions), func(run []int) {
		for _, i := range run {
			k := versions[i].parsed.minorKey()
			next := minorKey{k.major, k.minor + 1}
			for x := range versions[i].expirations {
				e := versions[i].expirations[x].at
				versions[i].expirations[x].orphaned = !set(k).contains(e) && !set(next).contains(e)
			}
		}
		for _, i := range run {
			versions[i].tl.addSupportedSpans(set(versions[i].parsed.minorKey()))
		}
	})
}

// findImageSuccessors records the expirations of every version of an image: for each of the
// version's architectures a successor is a higher version of the image with that architecture
// that is supported right after the expiration.
func findImageSuccessors(image *indexedImage) {
	versions := image.versions
	for i := range versions {
		versions[i].initExpirations(false, versions[i].archs)
	}
	supported := map[string]*spanSet{}
	equalVersionRuns(versions, byVersionDescending(versions), func(run []int) {
		for _, i := range run {
			for x := range versions[i].expirations {
				e := versions[i].expirations[x].at
				var missing []string
				for _, arch := range versions[i].archs {
					if s := supported[arch]; s == nil || !s.contains(e) {
						missing = append(missing, arch)
					}
				}
				versions[i].expirations[x].missingArchs = missing
			}
		}
		for _, i := range run {
			for _, arch := range versions[i].archs {
				if supported[arch] == nil {
					supported[arch] = &spanSet{}
				}
				versions[i].tl.addSupportedSpans(supported[arch])
			}
		}
	})
}
