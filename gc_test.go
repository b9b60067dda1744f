package main

import (
	"runtime"
	"testing"
	"time"
)

// gcRecord records what tuneGarbageCollectionUnlessTuned sets, and keeps the hook it installs.
type gcRecord struct {
	percent int
	limit   int64
	hook    func(liveHeap uint64)
}

func (r *gcRecord) SetGCPercent(percent int)             { r.percent = percent }
func (r *gcRecord) SetMemoryLimit(limit int64)           { r.limit = limit }
func (r *gcRecord) AfterEveryGC(f func(liveHeap uint64)) { r.hook = f }

// TestTuneGarbageCollectionUnlessTuned: the provider sets its GC target and memory limit, and lifts
// the limit with the live heap, only when neither GOGC nor GOMEMLIMIT is set.
func TestTuneGarbageCollectionUnlessTuned(t *testing.T) {
	for _, c := range []struct {
		name  string
		env   map[string]string
		tunes bool
	}{
		{"both unset", map[string]string{}, true},
		{"GOGC set", map[string]string{"GOGC": "50"}, false},
		{"GOGC set empty", map[string]string{"GOGC": ""}, false},
		{"GOMEMLIMIT set", map[string]string{"GOMEMLIMIT": "1GiB"}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := &gcRecord{percent: -1, limit: -1}
			tuneGarbageCollectionUnlessTuned(func(k string) (string, bool) { v, ok := c.env[k]; return v, ok }, r)
			if !c.tunes {
				if r.percent != -1 || r.limit != -1 || r.hook != nil {
					t.Fatalf("set GC percent %d, limit %d, hook %v; want nothing", r.percent, r.limit, r.hook != nil)
				}
				return
			}
			if r.percent != providerGCPercent || r.limit != providerMemoryLimit || r.hook == nil {
				t.Fatalf("set GC percent %d, limit %d, hook %v; want %d, %d and a hook", r.percent, r.limit, r.hook != nil, providerGCPercent, providerMemoryLimit)
			}
			r.hook(100 << 20)
			if r.limit != maxMemoryLimit {
				t.Fatalf("after a collection with 100 MiB live the limit is %d, want %d", r.limit, maxMemoryLimit)
			}
			r.hook(10 << 20)
			if r.limit != providerMemoryLimit {
				t.Fatalf("after a collection with 10 MiB live the limit is %d, want %d", r.limit, providerMemoryLimit)
			}
		})
	}
}

// TestMemoryLimitFor_LiftsTheLimitAboveALargeLiveHeap: the soft limit stays providerMemoryLimit for
// small live heaps, is twice the live heap above half of it, and is maxMemoryLimit for large ones,
// so that the collector never runs without pause against a limit just above what is live.
func TestMemoryLimitFor_LiftsTheLimitAboveALargeLiveHeap(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int64
	}{
		{0, providerMemoryLimit},
		{18 << 20, providerMemoryLimit},
		{24 << 20, providerMemoryLimit},
		{30 << 20, 60 << 20},
		{liftLimitAtLiveHeap - 1, 2 * (liftLimitAtLiveHeap - 1)},
		{liftLimitAtLiveHeap, maxMemoryLimit},
		{100 << 20, maxMemoryLimit},
		{1 << 30, maxMemoryLimit},
	} {
		if got := memoryLimitFor(c.live); got != c.want {
			t.Errorf("memoryLimitFor(%d) = %d, want %d", c.live, got, c.want)
		}
	}
	if maxMemoryLimit < 3*liftLimitAtLiveHeap {
		t.Errorf("maxMemoryLimit %d leaves a live heap of %d less room than the GC target's", maxMemoryLimit, liftLimitAtLiveHeap)
	}
}

// TestRuntimeGC_AfterEveryGCReportsEachCollection: the runtime's hook runs after each of several
// collections (it re-arms itself) with a live heap the runtime measured.
func TestRuntimeGC_AfterEveryGCReportsEachCollection(t *testing.T) {
	reports := make(chan uint64, 16)
	runtimeGC{}.AfterEveryGC(func(live uint64) {
		select {
		case reports <- live:
		default:
		}
	})
	for i := range 3 {
		runtime.GC()
		select {
		case live := <-reports:
			if live == 0 {
				t.Fatalf("collection %d reported no live heap", i+1)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no report after collection %d", i+1)
		}
	}
}
