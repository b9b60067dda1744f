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
// successor right after it. Only expirations that leave something without a successor are
// recorded.
type expiration struct {
	at time.Time
	// orphaned: a Kubernetes version has no supported successor in its minor or the next.
	orphaned bool
	// missingArchs: the architectures of an image version without a supported successor.
	missingArchs []string
}

// withoutSuccessor tells whether the expiration leaves shoots without a successor.
func (e expiration) withoutSuccessor() bool { return e.orphaned || len(e.missingArchs) > 0 }

// expirationAt returns the recorded expiration at instant e, one with successors for everything
// when none is recorded.
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

// expirationLog collects the recorded expirations of a list's versions in one array, a version's
// expirations next to each other. The array is made on the first one, for all expirations of the
// list.
type expirationLog struct {
	versions []indexedVersion
	recorded []expiration
	start    int
}

// begin starts the expirations of a version.
func (l *expirationLog) begin() { l.start = len(l.recorded) }

// add records an expiration of the version begun last.
func (l *expirationLog) add(x expiration) {
	if l.recorded == nil {
		l.recorded = make([]expiration, 0, expirationCount(l.versions))
	}
	l.recorded = append(l.recorded, x)
}

// expirationCount is the number of instants at which versions turn expired.
func expirationCount(versions []indexedVersion) int {
	n := 0
	for i := range versions {
		for _, s := range versions[i].tl.steps {
			if s.class == gardencorev1beta1.ClassificationExpired {
				n++
			}
		}
	}
	return n
}

// end gives the version begun last its expirations.
func (l *expirationLog) end(iv *indexedVersion) {
	if n := len(l.recorded); n > l.start {
		iv.expirations = l.recorded[l.start:n:n]
	}
}

// byVersionDescending returns the indices of versions that parse, highest version first, equal
// versions in list order.
func byVersionDescending(versions []indexedVersion) []int {
	order := make([]int, 0, len(versions))
	for i := range versions {
		if versions[i].ok {
			order = append(order, i)
		}
	}
	slices.SortFunc(order, func(a, b int) int {
		if d := versions[b].parsed.compare(versions[a].parsed); d != 0 {
			return d
		}
		return a - b
	})
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
// the expiration. Versions that do not parse have no successor. order lists the versions that
// parse, highest first.
func (idx *conditionIndex) findKubernetesSuccessors(order []int) {
	versions, minors := idx.kubernetes, idx.minors
	log := expirationLog{versions: versions}
	for i := range versions {
		if !versions[i].ok {
			log.begin()
			for _, s := range versions[i].tl.steps {
				if s.class == gardencorev1beta1.ClassificationExpired {
					log.add(expiration{at: s.at, orphaned: true})
				}
			}
			log.end(&versions[i])
		}
	}
	supported := make([]spanSet, len(minors))
	equalVersionRuns(versions, order, func(run []int) {
		for _, i := range run {
			rank := versions[i].minorRank
			var next *spanSet
			if k := minors[rank]; rank+1 < len(minors) && minors[rank+1] == (minorKey{k.major, k.minor + 1}) {
				next = &supported[rank+1]
			}
			log.begin()
			for _, s := range versions[i].tl.steps {
				if s.class == gardencorev1beta1.ClassificationExpired && !supported[rank].contains(s.at) && (next == nil || !next.contains(s.at)) {
					log.add(expiration{at: s.at, orphaned: true})
				}
			}
			log.end(&versions[i])
		}
		for _, i := range run {
			versions[i].tl.addSupportedSpans(&supported[versions[i].minorRank])
		}
	})
}

// findImageSuccessors records the expirations of every version of an image: for each of the
// version's architectures a successor is a higher version of the image with that architecture
// that is supported right after the expiration. Versions that do not parse have no successor.
func findImageSuccessors(image *indexedImage) {
	versions := image.versions
	log := expirationLog{versions: versions}
	for i := range versions {
		if !versions[i].ok && len(versions[i].archs) > 0 {
			log.begin()
			for _, s := range versions[i].tl.steps {
				if s.class == gardencorev1beta1.ClassificationExpired {
					log.add(expiration{at: s.at, missingArchs: versions[i].archs})
				}
			}
			log.end(&versions[i])
		}
	}
	supported := map[string]*spanSet{}
	equalVersionRuns(versions, byVersionDescending(versions), func(run []int) {
		for _, i := range run {
			log.begin()
			for _, s := range versions[i].tl.steps {
				if s.class != gardencorev1beta1.ClassificationExpired {
					continue
				}
				var missing []string
				for _, arch := range versions[i].archs {
					if set := supported[arch]; set == nil || !set.contains(s.at) {
						missing = append(missing, arch)
					}
				}
				if len(missing) > 0 {
					log.add(expiration{at: s.at, missingArchs: missing})
				}
			}
			log.end(&versions[i])
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
