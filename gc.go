package main

import (
	"runtime"
	runtimedebug "runtime/debug"
	"runtime/metrics"
)

// The provider's garbage collection: every request decodes and converts values that turn into
// garbage at once, so collecting often costs much CPU (with a target of 50, a plan of hundreds of
// small profiles spent about half of its CPU in the collector). The target providerGCPercent lets
// the heap grow to three times what is live, and the soft limit providerMemoryLimit makes the
// collector run sooner once the heap nears it, which keeps the process of a plan or apply of a
// profile with thousands of versions (about 18 to 30 MB live) below 80 MB (make bench measures
// both). A soft limit close to the live heap makes the collector run nearly all the time, though
// (validating 10,000 versions with lifecycles took 5.4 s of CPU instead of 1.5 s; a spec of 10,000
// zones, about 30 MB live, collected 40 times in one second for 3 MB each): so the limit is at least
// twice the live heap after the last collection, and once that is liftLimitAtLiveHeap or more it is
// maxMemoryLimit (memoryLimitFor), which only bounds the process (make bench's worst cases peak at
// 273 MB of RSS).
const (
	providerGCPercent   = 200
	providerMemoryLimit = 48 << 20
	liftLimitAtLiveHeap = 36 << 20
	maxMemoryLimit      = 240 << 20
)

// gcSettings is what tuneGarbageCollectionUnlessTuned sets: the Go runtime's, or a test's record.
type gcSettings interface {
	SetGCPercent(percent int)
	SetMemoryLimit(limit int64)
	// AfterEveryGC calls f with the live heap in bytes after each garbage collection.
	AfterEveryGC(f func(liveHeap uint64))
}

// tuneGarbageCollectionUnlessTuned sets providerGCPercent and the memory limit of memoryLimitFor
// unless GOGC or GOMEMLIMIT is set: whoever sets one has made their own trade between memory and
// CPU.
func tuneGarbageCollectionUnlessTuned(lookupEnv func(string) (string, bool), gc gcSettings) {
	if _, set := lookupEnv("GOGC"); set {
		return
	}
	if _, set := lookupEnv("GOMEMLIMIT"); set {
		return
	}
	gc.SetGCPercent(providerGCPercent)
	gc.SetMemoryLimit(providerMemoryLimit)
	gc.AfterEveryGC(func(live uint64) { gc.SetMemoryLimit(memoryLimitFor(live)) })
}

// memoryLimitFor is the soft memory limit for a live heap of live bytes: providerMemoryLimit or
// twice the live heap, whichever is more, while the live heap is below liftLimitAtLiveHeap, else
// maxMemoryLimit.
func memoryLimitFor(live uint64) int64 {
	if live < liftLimitAtLiveHeap {
		return max(providerMemoryLimit, 2*int64(live))
	}
	return maxMemoryLimit
}

// runtimeGC is gcSettings of the Go runtime.
type runtimeGC struct{}

// SetGCPercent sets the runtime's GC target.
func (runtimeGC) SetGCPercent(percent int) { runtimedebug.SetGCPercent(percent) }

// SetMemoryLimit sets the runtime's soft memory limit.
func (runtimeGC) SetMemoryLimit(limit int64) { runtimedebug.SetMemoryLimit(limit) }

// AfterEveryGC calls f after each collection: a finalizer of an object nothing references runs
// once the collector has found it unreachable, and re-arms itself for the next collection.
func (runtimeGC) AfterEveryGC(f func(liveHeap uint64)) {
	sentinel := &gcSentinel{f: f}
	runtime.SetFinalizer(sentinel, (*gcSentinel).collected)
}

// gcSentinel is the object whose finalizer tells of a collection.
type gcSentinel struct{ f func(liveHeap uint64) }

// collected reports the live heap to f and arms the sentinel for the next collection.
func (s *gcSentinel) collected() {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() == metrics.KindUint64 {
		s.f(sample[0].Value.Uint64())
	}
	runtime.SetFinalizer(s, (*gcSentinel).collected)
}
