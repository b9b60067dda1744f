package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestStartCPUProfileIfAsked: without the variable nothing is written; with it, the process's
// profile lands in the folder once stopped.
func TestStartCPUProfileIfAsked(t *testing.T) {
	dir := t.TempDir()
	stop, err := startCPUProfileIfAsked(func(string) (string, bool) { return "", false }, 7)
	if err != nil {
		t.Fatal(err)
	}
	stop()
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Fatalf("wrote %v without being asked", entries)
	}
	stop, err = startCPUProfileIfAsked(func(k string) (string, bool) { return dir, k == cpuProfileDirVariable }, 7)
	if err != nil {
		t.Fatal(err)
	}
	stop()
	fi, err := os.Stat(filepath.Join(dir, "cpu-7.pprof"))
	if err != nil || fi.Size() == 0 {
		t.Fatalf("profile: %v, %v", fi, err)
	}
}
