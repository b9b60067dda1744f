package provider_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"k8s.io/client-go/tools/clientcmd"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/faultproxy"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// startFaultProxy puts a fault-injecting proxy in front of the local Garden (reached with the
// admin kubeconfig) and returns it with the path of a kubeconfig that trusts it (trustCA) or not.
func startFaultProxy(t *testing.T, cfg faultproxy.Config, trustCA bool) (*faultproxy.Proxy, string) {
	t.Helper()
	admin := acctest.Kubeconfig(t)
	up, err := clientcmd.BuildConfigFromFlags("", admin)
	if err != nil {
		t.Fatalf("loading %s: %v", admin, err)
	}
	cfg.Upstream = up
	p, err := faultproxy.Start(cfg)
	if err != nil {
		t.Fatalf("starting the fault proxy: %v", err)
	}
	t.Cleanup(func() {
		t.Logf("fault proxy: %d requests, faults injected: %v", p.Requests(), p.Counts())
		p.Close()
	})
	raw, err := p.Kubeconfig(trustCA)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "proxy.kubeconfig")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	return p, path
}

// withAttemptTimeout lowers the retry policy's attempt timeout for the clients the provider builds
// during the test, so that answers the proxy holds back cost seconds, not the default 30s. Tests
// that call it must not run in parallel.
func withAttemptTimeout(t *testing.T, d time.Duration) {
	t.Helper()
	saved := kube.DefaultRetryPolicy
	kube.DefaultRetryPolicy.AttemptTimeout = d
	t.Cleanup(func() { kube.DefaultRetryPolicy = saved })
}

// envInt reads a positive integer from the environment, or returns def.
func envInt(name string, def int) int {
	var n int
	if _, err := fmt.Sscan(os.Getenv(name), &n); err == nil && n > 0 {
		return n
	}
	return def
}
