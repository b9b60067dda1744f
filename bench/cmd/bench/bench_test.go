package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gardener-community/terraform-provider-gardener/bench/gen"
)

func TestCountRequests(t *testing.T) {
	r := tfResult{requests: []string{
		"GET /apis/core.gardener.cloud/v1beta1/cloudprofiles/a 200",
		"PATCH /apis/core.gardener.cloud/v1beta1/cloudprofiles/a?fieldManager=x&dryRun=All 200",
		"PATCH /apis/core.gardener.cloud/v1beta1/cloudprofiles/a?fieldManager=x 200",
		"GET /openapi/v3 200",
		"GET /api/v1/namespaces/gardener-system-public/configmaps/gardener-info 200",
		"GET /apis/core.gardener.cloud/v1beta1/controllerregistrations 200",
		"GET /apis/core.gardener.cloud/v1/controllerdeployments/provider-local 200",
	}}
	if n := r.count("", nil); n != 7 {
		t.Errorf("all: %d", n)
	}
	if n := r.count("GET", isGardenInfo); n != 3 {
		t.Errorf("the Garden's release and extensions: %d", n)
	}
	if n := r.count("GET", isRelease); n != 1 {
		t.Errorf("the Garden's release: %d", n)
	}
	if n := r.count("PATCH", notDryRun); n != 1 {
		t.Errorf("applies: %d", n)
	}
	if n := r.count("", isDiscovery); n != 1 {
		t.Errorf("discovery: %d", n)
	}
}

func TestIsParent_CountsListsAndGetsOfTheParentOnly(t *testing.T) {
	for uri, want := range map[string]bool{
		apiPrefix + "cloudprofiles?fieldSelector=metadata.name%3D" + gen.WorkspaceParentName:         true,
		apiPrefix + "cloudprofiles/" + gen.WorkspaceParentName:                                       true,
		apiPrefix + "cloudprofiles?fieldSelector=metadata.name%3D" + gen.WorkspaceParentName + "x":   false,
		apiPrefix + "namespaces/garden-demo/namespacedcloudprofiles?fieldSelector=metadata.name%3Dp": false,
	} {
		if got := isParent(uri); got != want {
			t.Errorf("isParent(%q) = %v, want %v", uri, got, want)
		}
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

func TestGroupTicks(t *testing.T) {
	// A command name with a space and a parenthesis; pgrp 4711, utime 250, stime 30.
	stat := "4712 (kube-apiserver (x)) S 4711 4711 4711 0 -1 4194560 100 0 0 0 250 30 0 0 20 0 12 0"
	if got := groupTicks(stat, 4711); got != 280 {
		t.Errorf("member: %d ticks, want 280", got)
	}
	if got := groupTicks(stat, 4712); got != 0 {
		t.Errorf("not a member: %d ticks, want 0", got)
	}
	if got := groupTicks("garbage", 4711); got != 0 {
		t.Errorf("unreadable line: %d ticks, want 0", got)
	}
}

func TestParseRSSLog(t *testing.T) {
	runs := parseRSSLog([]string{"101 74000 1500000 2", "102 12000 20000 5", "garbage", "103 9000 10"})
	if runs.peakKB != 74000 {
		t.Errorf("peak %d kB, want 74000", runs.peakKB)
	}
	if want := 1520 * time.Millisecond; runs.cpu != want {
		t.Errorf("CPU %v, want %v (the processes' sum; an incomplete line is skipped)", runs.cpu, want)
	}
	if runs.processes != 2 || runs.logLines != 7 {
		t.Errorf("%d processes with %d log lines, want 2 with 7", runs.processes, runs.logLines)
	}
}

func TestLineCounter_CountsLinesAndPassesThemOn(t *testing.T) {
	var out bytes.Buffer
	c := &lineCounter{w: &out}
	for _, s := range []string{"{\"@level\":\"trace\"}\n{\"@le", "vel\":\"debug\"}\n", "partial"} {
		if _, err := c.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	if c.lines != 2 || out.String() != "{\"@level\":\"trace\"}\n{\"@level\":\"debug\"}\npartial" {
		t.Errorf("%d lines, passed on %q", c.lines, out.String())
	}
}

// TestLineCounter_KeepsWhatFollowsTheStartUpLines: the wrapper counts every line and keeps only
// what follows go-plugin's two start-up lines, however the writes split them.
func TestLineCounter_KeepsWhatFollowsTheStartUpLines(t *testing.T) {
	var out bytes.Buffer
	c := &lineCounter{w: &out}
	for _, chunk := range []string{"1|6|unix|/tmp/plugin", "|grpc|\n{\"@level\":\"info\"}\nI1129 throttled", " 1s\nlast\n"} {
		if _, err := c.Write([]byte(chunk)); err != nil {
			t.Fatal(err)
		}
	}
	if c.lines != 4 || string(c.extra) != "I1129 throttled 1s\nlast\n" || out.Len() != 69 {
		t.Fatalf("lines %d, kept %q, passed on %d bytes", c.lines, c.extra, out.Len())
	}
}

// A share below its floor (Terraform took longer alone than with the provider) reads as the
// negative duration it is, in the unit of its size.
func TestFmtDur_NegativeDurationsReadLikePositiveOnes(t *testing.T) {
	for d, want := range map[time.Duration]string{
		-5054572300 * time.Nanosecond: "−5.05s",
		-345856600 * time.Nanosecond:  "−345.86ms",
		2240 * time.Millisecond:       "2.24s",
		-35 * time.Microsecond:        "−35.0µs",
	} {
		if got := fmtDur(d); got != want {
			t.Errorf("fmtDur(%v) = %q, want %q", d, got, want)
		}
	}
}
