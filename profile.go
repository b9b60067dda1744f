package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
)

// cpuProfileDirVariable names a folder into which every provider process writes a CPU profile of
// its whole life, cpu-<pid>.pprof (for `go tool pprof`). Unset, nothing is profiled.
const cpuProfileDirVariable = "GARDENER_PROVIDER_CPU_PROFILE_DIR"

// startCPUProfileIfAsked starts the CPU profile that cpuProfileDirVariable asks for and returns
// the function that ends it and writes the file; a no-op when the variable is unset.
func startCPUProfileIfAsked(lookupEnv func(string) (string, bool), pid int) (stop func(), err error) {
	dir, ok := lookupEnv(cpuProfileDirVariable)
	if !ok || dir == "" {
		return func() {}, nil
	}
	f, err := os.Create(filepath.Join(dir, fmt.Sprintf("cpu-%d.pprof", pid)))
	if err != nil {
		return func() {}, fmt.Errorf("%s: %w", cpuProfileDirVariable, err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		_ = f.Close()
		return func() {}, fmt.Errorf("%s: %w", cpuProfileDirVariable, err)
	}
	return func() {
		pprof.StopCPUProfile()
		_ = f.Close()
	}, nil
}
