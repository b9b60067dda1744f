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

// clockTicksPerSecond is the unit of the CPU times in /proc/<pid>/stat (USER_HZ, 100 on Linux).
const clockTicksPerSecond = 100

// processGroupCPU is the CPU time (user and system) the live processes of the process group have
// used so far; zero when pgid is 0 or /proc cannot be read.
func processGroupCPU(pgid int) time.Duration {
	if pgid == 0 {
		return 0
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	var ticks uint64
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		raw, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // the process ended
		}
		ticks += groupTicks(string(raw), pgid)
	}
	return time.Duration(ticks) * time.Second / clockTicksPerSecond
}

// groupTicks is utime + stime of a /proc/<pid>/stat line when the process belongs to the process
// group, else 0. The fields after the command name (which may hold spaces and parentheses) are
// state, ppid, pgrp, …, with utime and stime the 14th and 15th fields of the whole line.
func groupTicks(stat string, pgid int) uint64 {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(stat[i+1:])
	if len(f) < 13 || f[2] != strconv.Itoa(pgid) {
		return 0
	}
	utime, err1 := strconv.ParseUint(f[11], 10, 64)
	stime, err2 := strconv.ParseUint(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0
	}
	return utime + stime
}
