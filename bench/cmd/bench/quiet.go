package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Each measured command starts on a quiet machine. A change to the big profile makes Gardener's
// controller re-render all 200 namespaced profiles (each status holds the merged spec), which
// keeps the API servers busy for a while; a command measured during that storm would be charged
// for it, and which command comes right after an apply would decide the plan/floor ratio.

const (
	// quietBusy is the CPU use (all CPUs) below which the machine counts as quiet.
	quietBusy = 0.20
)

// quietTimeout bounds the wait; the command then runs anyway and the report says so (flag
// -quiet-timeout).
var quietTimeout = 120 * time.Second

// cpuTimes reads the total and idle (idle + iowait) jiffies of all CPUs from /proc/stat.
func cpuTimes() (total, idle uint64, err error) {
	raw, err := os.ReadFile("/proc/stat")
	if err != nil {
		return 0, 0, err
	}
	line, _, _ := strings.Cut(string(raw), "\n")
	fields := strings.Fields(line)
	if len(fields) < 6 || fields[0] != "cpu" {
		return 0, 0, fmt.Errorf("unexpected /proc/stat line %q", line)
	}
	for i, f := range fields[1:] {
		n, err := strconv.ParseUint(f, 10, 64)
		if err != nil {
			return 0, 0, err
		}
		total += n
		if i == 3 || i == 4 { // idle, iowait
			idle += n
		}
	}
	return total, idle, nil
}

// cpuBusy is the fraction of the CPUs' time spent busy during the next interval.
func cpuBusy(ctx context.Context, interval time.Duration) (float64, error) {
	t0, i0, err := cpuTimes()
	if err != nil {
		return 0, err
	}
	select {
	case <-ctx.Done():
		return 0, ctx.Err()
	case <-time.After(interval):
	}
	t1, i1, err := cpuTimes()
	if err != nil || t1 == t0 {
		return 0, err
	}
	return 1 - float64(i1-i0)/float64(t1-t0), nil
}

// waitQuiet waits until the CPUs were less than quietBusy busy for a second, at most
// quietTimeout. It returns how long it waited and whether the machine became quiet.
func waitQuiet(ctx context.Context) (time.Duration, bool) {
	start := time.Now()
	for time.Since(start) < quietTimeout {
		busy, err := cpuBusy(ctx, time.Second)
		if err != nil {
			return time.Since(start), false
		}
		if busy < quietBusy {
			return time.Since(start), true
		}
	}
	return time.Since(start), false
}
