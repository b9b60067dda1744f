// Package faultproxy is a reverse proxy for tests that stands in front of a Kubernetes API server
// and injects the faults of an unreliable network or a degraded control plane: error answers (500,
// 503, 429 with Retry-After), connection resets before and after the request reached the server,
// and answers that come too late.
//
// Design: the proxy terminates TLS with a self-signed certificate of its own (for 127.0.0.1) and
// talks to the upstream API server with the credentials of a rest.Config (typically the admin
// kubeconfig), so clients of the proxy need no credentials and keep TLS verification on by
// trusting CAPEM. Kubeconfig writes such a kubeconfig. An Authorization header a client sends is
// passed on, so token-based clients keep their own identity when the upstream config has no
// client certificate.
package faultproxy

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// Fault is one kind of injected failure.
type Fault int

const (
	// None forwards the request unchanged.
	None Fault = iota
	// Status500 answers 500 Internal Server Error with Retry-After: 1 without forwarding.
	Status500
	// Status503 answers 503 Service Unavailable without forwarding.
	Status503
	// Status429 answers 429 Too Many Requests with Retry-After: 1 without forwarding.
	Status429
	// Reset closes the connection (TCP RST) without forwarding.
	Reset
	// ResetAfterUpstream forwards the request, so that the server acts on it, then closes the
	// connection instead of answering: the client cannot know whether its write happened.
	ResetAfterUpstream
	// Slow forwards the request, then holds the answer back for Config.Delay (longer than the
	// client's attempt timeout), so the client gives up although the server acted.
	Slow
	numFaults
)

var faultNames = [...]string{"none", "500", "503", "429", "reset", "reset-after-upstream", "slow"}

func (f Fault) String() string {
	if f >= 0 && int(f) < len(faultNames) {
		return faultNames[f]
	}
	return fmt.Sprintf("Fault(%d)", int(f))
}

// AllFaults lists every fault.
func AllFaults() []Fault {
	out := make([]Fault, 0, numFaults-1)
	for f := Status500; f < numFaults; f++ {
		out = append(out, f)
	}
	return out
}

// Config configures a proxy.
type Config struct {
	// Upstream is the API server and the credentials the proxy uses to reach it.
	Upstream *rest.Config
	// Rate is the share of matching requests (0 to 1) that get a fault.
	Rate float64
	// Faults are the faults drawn from, uniformly; empty means AllFaults.
	Faults []Fault
	// Delay is how long Slow holds an answer back; default 5s.
	Delay time.Duration
	// Seed makes the sequence of faults reproducible.
	Seed uint64
	// Match selects the requests that may get a fault; nil means all.
	Match func(*http.Request) bool
}

// Response is a fixed answer set with SetOverride.
type Response struct {
	Code int
	Body string
}

// Proxy is a running fault-injecting proxy.
type Proxy struct {
	// URL is the proxy's https address.
	URL string
	// CAPEM is the proxy's self-signed certificate, to be trusted by clients.
	CAPEM []byte

	cfg      Config
	srv      *http.Server
	ln       net.Listener
	upstream *httputil.ReverseProxy

	mu       sync.Mutex
	rng      *mrand.Rand
	rate     float64
	override func(*http.Request) (Response, bool)

	requests atomic.Int64
	counts   [numFaults]atomic.Int64
	wg       sync.WaitGroup
}

// Start listens on 127.0.0.1 on a free port and serves until Close.
func Start(cfg Config) (*Proxy, error) {
	if cfg.Upstream == nil {
		return nil, fmt.Errorf("faultproxy: no upstream configured")
	}
	if len(cfg.Faults) == 0 {
		cfg.Faults = AllFaults()
	}
	if cfg.Delay == 0 {
		cfg.Delay = 5 * time.Second
	}
	target, err := url.Parse(cfg.Upstream.Host)
	if err != nil || target.Host == "" {
		return nil, fmt.Errorf("faultproxy: upstream host %q: %v", cfg.Upstream.Host, err)
	}
	transport, err := rest.TransportFor(cfg.Upstream)
	if err != nil {
		return nil, fmt.Errorf("faultproxy: upstream transport: %w", err)
	}
	cert, certPEM, err := selfSigned()
	if err != nil {
		return nil, err
	}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}, NextProtos: []string{"http/1.1"}, MinVersion: tls.VersionTLS12})
	if err != nil {
		return nil, fmt.Errorf("faultproxy: listen: %w", err)
	}
	p := &Proxy{
		URL:   "https://" + ln.Addr().String(),
		CAPEM: certPEM,
		cfg:   cfg,
		ln:    ln,
		rng:   mrand.New(mrand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15)),
		rate:  cfg.Rate,
	}
	p.upstream = &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(target)
			r.Out.Host = target.Host
		},
		Transport: transport,
		ErrorHandler: func(w http.ResponseWriter, _ *http.Request, err error) {
			writeStatus(w, http.StatusBadGateway, "BadGateway", "faultproxy: upstream: "+err.Error())
		},
	}
	p.srv = &http.Server{Handler: http.HandlerFunc(p.serve), ReadHeaderTimeout: 10 * time.Second, ErrorLog: nil}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		_ = p.srv.Serve(ln)
	}()
	return p, nil
}

// Close stops the proxy and drops open connections.
func (p *Proxy) Close() {
	_ = p.srv.Close()
	p.wg.Wait()
}

// SetRate changes the share of requests that get a fault, e.g. to 0 for checks.
func (p *Proxy) SetRate(rate float64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.rate = rate
}

// SetOverride makes the proxy answer every request for which fn returns true with fn's response,
// without forwarding it (a degraded control plane); nil removes the override.
func (p *Proxy) SetOverride(fn func(*http.Request) (Response, bool)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.override = fn
}

// Requests is the number of requests the proxy received.
func (p *Proxy) Requests() int64 { return p.requests.Load() }

// Counts returns how often each fault was injected.
func (p *Proxy) Counts() map[Fault]int64 {
	out := map[Fault]int64{}
	for f := Status500; f < numFaults; f++ {
		if n := p.counts[f].Load(); n > 0 {
			out[f] = n
		}
	}
	return out
}

// Injected is the total number of faults injected.
func (p *Proxy) Injected() int64 {
	var n int64
	for f := Status500; f < numFaults; f++ {
		n += p.counts[f].Load()
	}
	return n
}

// Kubeconfig returns a kubeconfig for the proxy without credentials (the proxy adds the
// upstream's). With trustCA the proxy's certificate is the cluster's CA; without it, a client that
// verifies TLS must fail.
func (p *Proxy) Kubeconfig(trustCA bool) ([]byte, error) {
	cluster := &clientcmdapi.Cluster{Server: p.URL}
	if trustCA {
		cluster.CertificateAuthorityData = p.CAPEM
	}
	cfg := clientcmdapi.Config{
		Clusters:       map[string]*clientcmdapi.Cluster{"faultproxy": cluster},
		AuthInfos:      map[string]*clientcmdapi.AuthInfo{"faultproxy": {}},
		Contexts:       map[string]*clientcmdapi.Context{"faultproxy": {Cluster: "faultproxy", AuthInfo: "faultproxy"}},
		CurrentContext: "faultproxy",
	}
	return clientcmd.Write(cfg)
}

// GardenerAPI matches requests for the core.gardener.cloud API group.
func GardenerAPI(r *http.Request) bool {
	return r.URL.Path == "/apis/core.gardener.cloud" || strings.HasPrefix(r.URL.Path, "/apis/core.gardener.cloud/")
}

// GardenerAPIUnavailable answers what kube-apiserver answers while the aggregated
// gardener-apiserver is down: 503 for every path of its group.
func GardenerAPIUnavailable(r *http.Request) (Response, bool) {
	if !GardenerAPI(r) {
		return Response{}, false
	}
	return Response{Code: http.StatusServiceUnavailable, Body: statusBody(http.StatusServiceUnavailable, "ServiceUnavailable", "service unavailable")}, true
}

// GardenerAPINotRegistered answers what kube-apiserver answers when core.gardener.cloud is not
// registered: 404 without an object name.
func GardenerAPINotRegistered(r *http.Request) (Response, bool) {
	if !GardenerAPI(r) {
		return Response{}, false
	}
	return Response{Code: http.StatusNotFound, Body: statusBody(http.StatusNotFound, "NotFound", "the server could not find the requested resource")}, true
}

func (p *Proxy) serve(w http.ResponseWriter, r *http.Request) {
	p.requests.Add(1)
	fault, override, hasOverride := p.decide(r)
	if hasOverride {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(override.Code)
		_, _ = w.Write([]byte(override.Body))
		return
	}
	p.counts[fault].Add(1)
	switch fault {
	case Status500:
		w.Header().Set("Retry-After", "1")
		writeStatus(w, http.StatusInternalServerError, "InternalError", "faultproxy: injected internal error")
	case Status503:
		writeStatus(w, http.StatusServiceUnavailable, "ServiceUnavailable", "faultproxy: injected service unavailable")
	case Status429:
		w.Header().Set("Retry-After", "1")
		writeStatus(w, http.StatusTooManyRequests, "TooManyRequests", "faultproxy: injected throttling")
	case Reset:
		resetConn(w)
	case ResetAfterUpstream:
		buf := newBuffered()
		p.upstream.ServeHTTP(buf, r)
		resetConn(w)
	case Slow:
		buf := newBuffered()
		p.upstream.ServeHTTP(buf, r)
		select {
		case <-time.After(p.cfg.Delay):
			buf.copyTo(w)
		case <-r.Context().Done():
		}
	default:
		p.upstream.ServeHTTP(w, r)
	}
}

func (p *Proxy) decide(r *http.Request) (Fault, Response, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.override != nil {
		if resp, ok := p.override(r); ok {
			return None, resp, true
		}
	}
	if p.rate <= 0 || (p.cfg.Match != nil && !p.cfg.Match(r)) || p.rng.Float64() >= p.rate {
		return None, Response{}, false
	}
	return p.cfg.Faults[p.rng.IntN(len(p.cfg.Faults))], Response{}, false
}

func statusBody(code int, reason, message string) string {
	return fmt.Sprintf(`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":%q,"reason":%q,"code":%d}`, message, reason, code)
}

func writeStatus(w http.ResponseWriter, code int, reason, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_, _ = w.Write([]byte(statusBody(code, reason, message)))
}

// resetConn closes the client's connection with a TCP RST instead of an answer.
func resetConn(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler)
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if tc, ok := conn.(*tls.Conn); ok {
		if tcp, ok := tc.NetConn().(*net.TCPConn); ok {
			_ = tcp.SetLinger(0)
		}
	}
	_ = conn.Close()
}

// buffered is a ResponseWriter that keeps the upstream's answer for later.
type buffered struct {
	header http.Header
	code   int
	body   bytes.Buffer
}

func newBuffered() *buffered { return &buffered{header: http.Header{}, code: http.StatusOK} }

// Header returns the header to be sent later.
func (b *buffered) Header() http.Header { return b.header }

// Write keeps the body.
func (b *buffered) Write(p []byte) (int, error) { return b.body.Write(p) }

// WriteHeader keeps the status code.
func (b *buffered) WriteHeader(code int) { b.code = code }

func (b *buffered) copyTo(w http.ResponseWriter) {
	for k, v := range b.header {
		w.Header()[k] = v
	}
	w.WriteHeader(b.code)
	_, _ = w.Write(b.body.Bytes())
}

// selfSigned makes a certificate for 127.0.0.1 and localhost, valid for a day.
func selfSigned() (tls.Certificate, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, fmt.Errorf("faultproxy: key: %w", err)
	}
	serial, _ := rand.Int(rand.Reader, big.NewInt(1<<62))
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "faultproxy"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames:              []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, nil, fmt.Errorf("faultproxy: certificate: %w", err)
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return tls.Certificate{}, nil, fmt.Errorf("faultproxy: key: %w", err)
	}
	cert, err := tls.X509KeyPair(certPEM, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}))
	if err != nil {
		return tls.Certificate{}, nil, fmt.Errorf("faultproxy: key pair: %w", err)
	}
	return cert, certPEM, nil
}
