package main

import (
	"maps"
	"strings"
	"testing"
	"time"
)

// TestQuietLogsUnlessLogging: without TF_LOG* variables the SDK's trace logging (protocol and
// framework) and the provider's own logs are switched off; with any of them (a user debugging) the
// environment is left alone.
func TestQuietLogsUnlessLogging(t *testing.T) {
	off := map[string]string{sdkLogLevelVariable: "OFF", providerLogLevelVariable: "OFF"}
	cases := []struct {
		name    string
		environ []string
		want    map[string]string
	}{
		{"no logging configured", []string{"HOME=/root", "PATH=/bin"}, off},
		{"TF_LOG set", []string{"TF_LOG=TRACE"}, map[string]string{}},
		{"TF_LOG_PROVIDER set", []string{"TF_LOG_PROVIDER=DEBUG"}, map[string]string{}},
		{"SDK level set", []string{sdkLogLevelVariable + "=TRACE"}, map[string]string{}},
		{"framework level set", []string{"TF_LOG_SDK_FRAMEWORK=TRACE"}, map[string]string{}},
		{"a variable merely containing TF_LOG", []string{"MY_TF_LOG=1"}, off},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := map[string]string{}
			quietLogsUnlessLogging(c.environ, func(k, v string) error { got[k] = v; return nil })
			if !maps.Equal(got, c.want) {
				t.Errorf("set %v, want %v", got, c.want)
			}
		})
	}
}

// TestTuneGarbageCollectionUnlessTuned: the provider sets its GC target and memory limit only
// when neither GOGC nor GOMEMLIMIT is set.
func TestTuneGarbageCollectionUnlessTuned(t *testing.T) {
	for _, c := range []struct {
		name      string
		env       map[string]string
		wantGC    int
		wantLimit int64
	}{
		{"both unset", map[string]string{}, providerGCPercent, providerMemoryLimit},
		{"GOGC set", map[string]string{"GOGC": "50"}, -1, -1},
		{"GOGC set empty", map[string]string{"GOGC": ""}, -1, -1},
		{"GOMEMLIMIT set", map[string]string{"GOMEMLIMIT": "1GiB"}, -1, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			gotGC, gotLimit := -1, int64(-1)
			lookup := func(k string) (string, bool) { v, ok := c.env[k]; return v, ok }
			tuneGarbageCollectionUnlessTuned(lookup, func(p int) int { gotGC = p; return 100 }, func(l int64) int64 { gotLimit = l; return 0 })
			if gotGC != c.wantGC || gotLimit != c.wantLimit {
				t.Errorf("GC percent %d and memory limit %d set, want %d and %d (-1: not set)", gotGC, gotLimit, c.wantGC, c.wantLimit)
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

// TestProviderLogLevelVariable_IsTheOneTerraformPluginGoReads: terraform-plugin-go reads the level of
// a provider's own logs from TF_LOG_PROVIDER_ and the type of the provider's address, upper case.
func TestProviderLogLevelVariable_IsTheOneTerraformPluginGoReads(t *testing.T) {
	typ := Address[strings.LastIndex(Address, "/")+1:]
	if want := "TF_LOG_PROVIDER_" + strings.ToUpper(strings.ReplaceAll(typ, "-", "_")); providerLogLevelVariable != want {
		t.Fatalf("providerLogLevelVariable is %s, want %s", providerLogLevelVariable, want)
	}
}
