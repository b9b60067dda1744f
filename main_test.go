package main

import (
	"testing"
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
