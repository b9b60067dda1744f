package main

import (
	"testing"
	"time"
)

// TestQuietFrameworkTraceUnlessLogging: without TF_LOG* variables the framework's trace logging is
// switched off; with any of them (a user debugging) the environment is left alone.
func TestQuietFrameworkTraceUnlessLogging(t *testing.T) {
	cases := []struct {
		name    string
		environ []string
		want    map[string]string
	}{
		{"no logging configured", []string{"HOME=/root", "PATH=/bin"}, map[string]string{frameworkLogLevelVariable: "OFF"}},
		{"TF_LOG set", []string{"TF_LOG=TRACE"}, map[string]string{}},
		{"TF_LOG_PROVIDER set", []string{"TF_LOG_PROVIDER=DEBUG"}, map[string]string{}},
		{"framework level set", []string{frameworkLogLevelVariable + "=TRACE"}, map[string]string{}},
		{"a variable merely containing TF_LOG", []string{"MY_TF_LOG=1"}, map[string]string{frameworkLogLevelVariable: "OFF"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := map[string]string{}
			quietFrameworkTraceUnlessLogging(c.environ, func(k, v string) error { got[k] = v; return nil })
			if len(got) != len(c.want) || got[frameworkLogLevelVariable] != c.want[frameworkLogLevelVariable] {
				t.Errorf("set %v, want %v", got, c.want)
			}
		})
	}
}

// TestCollectGarbageSoonerUnlessTuned: the provider lowers the GC target only when GOGC is unset.
func TestCollectGarbageSoonerUnlessTuned(t *testing.T) {
	for _, c := range []struct {
		name string
		env  map[string]string
		want int
	}{
		{"GOGC unset", map[string]string{}, providerGCPercent},
		{"GOGC set", map[string]string{"GOGC": "200"}, -1},
		{"GOGC set empty", map[string]string{"GOGC": ""}, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := -1
			lookup := func(k string) (string, bool) { v, ok := c.env[k]; return v, ok }
			collectGarbageSoonerUnlessTuned(lookup, func(p int) int { got = p; return 100 })
			if got != c.want {
				t.Errorf("GC percent set to %d, want %d (-1: not set)", got, c.want)
			}
		})
	}
}

func TestExitWhenOrphaned_ExitsOnceTheParentChanges(t *testing.T) {
	calls := 0
	getppid := func() int {
		calls++
		if calls < 3 {
			return 42
		}
		return 1 // reparented to init: Terraform died
	}
	exited := make(chan struct{})
	go exitWhenOrphaned(42, getppid, time.Millisecond, func() { close(exited) })
	select {
	case <-exited:
	case <-time.After(5 * time.Second):
		t.Fatal("the provider did not exit after its parent died")
	}
	if calls != 3 {
		t.Fatalf("getppid called %d times, want 3", calls)
	}
}
