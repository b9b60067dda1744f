package faultproxy

import (
	"crypto/tls"
	"crypto/x509"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// upstream is a fake API server that counts requests and echoes the Authorization header.
func upstream(t *testing.T) (*rest.Config, *atomic.Int64) {
	t.Helper()
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"path":"`+r.URL.Path+`","auth":"`+r.Header.Get("Authorization")+`"}`)
	}))
	t.Cleanup(srv.Close)
	return &rest.Config{Host: srv.URL}, &n
}

func start(t *testing.T, cfg Config) *Proxy {
	t.Helper()
	p, err := Start(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

func client(t *testing.T, p *Proxy, timeout time.Duration) *http.Client {
	t.Helper()
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(p.CAPEM) {
		t.Fatal("CAPEM is not a certificate")
	}
	return &http.Client{Timeout: timeout, Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}, DisableKeepAlives: true}}
}

func get(c *http.Client, url string, header ...string) (int, string, error) {
	req, _ := http.NewRequest("GET", url, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), err
}

func TestProxy_ForwardsWithVerifiedTLSAndPassesTheClientsToken(t *testing.T) {
	up, n := upstream(t)
	p := start(t, Config{Upstream: up})
	code, body, err := get(client(t, p, 5*time.Second), p.URL+"/apis/core.gardener.cloud/v1beta1/cloudprofiles", "Authorization", "Bearer abc")
	if err != nil || code != 200 || !strings.Contains(body, `"auth":"Bearer abc"`) || !strings.Contains(body, "/cloudprofiles") || n.Load() != 1 {
		t.Fatalf("want a forwarded request, got %d %q %v (upstream saw %d)", code, body, err, n.Load())
	}
	if len(p.Counts()) != 0 || p.Requests() != 1 {
		t.Fatalf("no fault expected, got %v", p.Counts())
	}
}

func TestProxy_InjectsEachFault(t *testing.T) {
	cases := map[Fault]struct {
		wantCode     int
		wantErr      bool
		wantUpstream int64
	}{
		Status500:          {wantCode: 500},
		Status503:          {wantCode: 503},
		Status429:          {wantCode: 429},
		Reset:              {wantErr: true},
		ResetAfterUpstream: {wantErr: true, wantUpstream: 1},
		Slow:               {wantErr: true, wantUpstream: 1},
	}
	for fault, c := range cases {
		t.Run(fault.String(), func(t *testing.T) {
			up, n := upstream(t)
			p := start(t, Config{Upstream: up, Rate: 1, Faults: []Fault{fault}, Delay: 2 * time.Second})
			code, _, err := get(client(t, p, 500*time.Millisecond), p.URL+"/api")
			if (err != nil) != c.wantErr || code != c.wantCode {
				t.Fatalf("want code %d err=%v, got %d %v", c.wantCode, c.wantErr, code, err)
			}
			if n.Load() != c.wantUpstream {
				t.Fatalf("upstream saw %d requests, want %d", n.Load(), c.wantUpstream)
			}
			if p.Counts()[fault] != 1 || p.Injected() != 1 {
				t.Fatalf("counts %v", p.Counts())
			}
		})
	}
}

func TestProxy_RateMatchAndOverride(t *testing.T) {
	up, _ := upstream(t)
	p := start(t, Config{Upstream: up, Rate: 0.3, Faults: []Fault{Status503}, Seed: 7, Match: GardenerAPI})
	c := client(t, p, 5*time.Second)
	faults := 0
	for range 200 {
		code, _, _ := get(c, p.URL+"/apis/core.gardener.cloud/v1beta1/cloudprofiles/x")
		if code == 503 {
			faults++
		}
		if code, _, _ := get(c, p.URL+"/api/v1/namespaces"); code != 200 {
			t.Fatalf("a path outside Match got %d", code)
		}
	}
	if faults < 35 || faults > 85 {
		t.Fatalf("30%% of 200 requests should fail, %d did", faults)
	}
	p.SetRate(0)
	p.SetOverride(GardenerAPINotRegistered)
	if code, body, _ := get(c, p.URL+"/apis/core.gardener.cloud/v1beta1/cloudprofiles/x"); code != 404 || !strings.Contains(body, "could not find the requested resource") {
		t.Fatalf("want the unregistered group's 404, got %d %s", code, body)
	}
	p.SetOverride(GardenerAPIUnavailable)
	if code, _, _ := get(c, p.URL+"/apis/core.gardener.cloud/v1beta1"); code != 503 {
		t.Fatalf("want 503, got %d", code)
	}
	if code, _, _ := get(c, p.URL+"/api/v1"); code != 200 {
		t.Fatalf("other groups stay served, got %d", code)
	}
}

func TestProxy_KubeconfigTrustsTheProxyOnlyWhenAsked(t *testing.T) {
	up, _ := upstream(t)
	p := start(t, Config{Upstream: up})
	for _, trust := range []bool{true, false} {
		raw, err := p.Kubeconfig(trust)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := clientcmd.RESTConfigFromKubeConfig(raw)
		if err != nil {
			t.Fatal(err)
		}
		rt, err := rest.TransportFor(cfg)
		if err != nil {
			t.Fatal(err)
		}
		req, _ := http.NewRequest("GET", p.URL+"/api", nil)
		resp, err := rt.RoundTrip(req)
		if trust && (err != nil || resp.StatusCode != 200) {
			t.Fatalf("trusting the proxy: %v", err)
		}
		if !trust && (err == nil || !strings.Contains(err.Error(), "certificate")) {
			t.Fatalf("without the CA the TLS handshake must fail, got %v", err)
		}
		if resp != nil {
			_ = resp.Body.Close()
		}
	}
}
