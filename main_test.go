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
