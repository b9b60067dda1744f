package kube

import (
	"testing"

	"k8s.io/client-go/rest"
)

// rateLimiterOf builds a client from the settings (host only, no kubeconfig) and returns its
// client-side rate limiter, nil when it has none.
func rateLimiterOf(t *testing.T, s Settings) interface{ QPS() float32 } {
	t.Helper()
	isolate(t)
	s.Host = "https://garden.example:6443"
	cfg, err := s.RESTConfig()
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewClient(cfg, "test")
	if err != nil {
		t.Fatal(err)
	}
	rl := c.rest.(*rest.RESTClient).GetRateLimiter()
	if rl == nil {
		return nil
	}
	return rl
}

func TestRateLimit_NoneByDefaultSoTheProviderNeverWaitsOnItself(t *testing.T) {
	if rl := rateLimiterOf(t, Settings{}); rl != nil {
		t.Fatalf("default client has a client-side rate limiter of %v qps; want none (client-go's default 5 qps would throttle Terraform's parallelism)", rl.QPS())
	}
}

func TestRateLimit_ConfiguredQPSIsUsed(t *testing.T) {
	rl := rateLimiterOf(t, Settings{QPS: 50, Burst: 100})
	if rl == nil || rl.QPS() != 50 {
		t.Fatalf("rate limiter = %v, want 50 qps", rl)
	}
}

func TestRateLimit_BurstDefaultsToTwoSecondsOfQPS(t *testing.T) {
	for _, tc := range []struct {
		qps   float32
		burst int
	}{{5, 10}, {50, 100}, {0.2, 1}, {1.5, 3}} {
		qps, burst := Settings{QPS: tc.qps}.RateLimit()
		if qps != tc.qps || burst != tc.burst {
			t.Errorf("qps %v: RateLimit() = %v, %d; want %v, %d", tc.qps, qps, burst, tc.qps, tc.burst)
		}
	}
	if _, burst := (Settings{QPS: 5, Burst: 7}).RateLimit(); burst != 7 {
		t.Errorf("configured burst 7 gave %d", burst)
	}
}
