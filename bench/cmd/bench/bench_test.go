package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCountRequests(t *testing.T) {
	r := tfResult{requests: []string{
		"GET /apis/core.gardener.cloud/v1beta1/cloudprofiles/a 200",
		"PATCH /apis/core.gardener.cloud/v1beta1/cloudprofiles/a?fieldManager=x&dryRun=All 200",
		"PATCH /apis/core.gardener.cloud/v1beta1/cloudprofiles/a?fieldManager=x 200",
		"GET /openapi/v3 200",
	}}
	if n := r.count("", nil); n != 4 {
		t.Errorf("all: %d", n)
	}
	if n := r.count("PATCH", notDryRun); n != 1 {
		t.Errorf("applies: %d", n)
	}
	if n := r.count("", isDiscovery); n != 1 {
		t.Errorf("discovery: %d", n)
	}
}

func TestCheckGoBench(t *testing.T) {
	file := filepath.Join(t.TempDir(), "bench.txt")
	out := strings.Join([]string{
		"BenchmarkValidate/versions=10000-2   10   9000000 ns/op   10 B/op   1 allocs/op",
		"BenchmarkValidate/versions=10000-2   10  11000000 ns/op   10 B/op   1 allocs/op",
		"BenchmarkValidate/versions=10000-2   10  30000000 ns/op   10 B/op   1 allocs/op",
		"BenchmarkValidate/versions=10-2   10  1000 ns/op",
	}, "\n")
	if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	b := &bench{ok: true}
	if err := b.checkGoBench(file); err != nil {
		t.Fatal(err)
	}
	if !b.ok { // median 11 ms
		t.Error("median under the budget reported as failing")
	}
	if err := os.WriteFile(file, []byte("BenchmarkX/versions=10000-2 1 25000000 ns/op\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := b.checkGoBench(file); err != nil || b.ok {
		t.Errorf("25 ms passed the 20 ms budget (err %v)", err)
	}
}

func TestMedian(t *testing.T) {
	if m := median([]float64{5, 1, 3}); m != 3 {
		t.Error(m)
	}
	if m := median([]float64{4, 1, 3, 2}); m != 2.5 {
		t.Error(m)
	}
}
