package kube

import (
	"context"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
)

// fastPolicy retries without noticeable waits, so that the tests run in milliseconds.
var fastPolicy = RetryPolicy{MaxAttempts: 4, BaseDelay: time.Millisecond, MaxDelay: 4 * time.Millisecond, MaxRetryAfter: 50 * time.Millisecond, AttemptTimeout: 2 * time.Second}

// scripted answers the n-th request with answers[n] (the last one repeats) and records the
// requests' bodies.
type scripted struct {
	mu      sync.Mutex
	answers []func(w http.ResponseWriter, r *http.Request)
	n       int
	bodies  []string
}

func (s *scripted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	i := min(s.n, len(s.answers)-1)
	s.n++
	b, _ := io.ReadAll(r.Body)
	s.bodies = append(s.bodies, string(b))
	s.mu.Unlock()
	s.answers[i](w, r)
}

func (s *scripted) count() int { s.mu.Lock(); defer s.mu.Unlock(); return s.n }

func status(code int, header ...string) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		_, _ = io.WriteString(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","code":`+strconv.Itoa(code)+`}`)
	}
}

func ok(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, `{"apiVersion":"core.gardener.cloud/v1beta1","kind":"CloudProfile","metadata":{"name":"x"}}`)
}

// reset closes the connection without an answer.
func reset(w http.ResponseWriter, _ *http.Request) {
	conn, _, err := w.(http.Hijacker).Hijack()
	if err == nil {
		_ = conn.Close()
	}
}

func serve(t *testing.T, answers ...func(w http.ResponseWriter, r *http.Request)) (*scripted, string) {
	t.Helper()
	s := &scripted{answers: answers}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return s, srv.URL
}

func do(t *testing.T, p RetryPolicy, method, url, contentType, body string) (*http.Response, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, method, url, strings.NewReader(body))
	if body == "" {
		req, _ = http.NewRequestWithContext(ctx, method, url, nil)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	rt := p.RoundTripper(http.DefaultTransport)
	resp, err := rt.RoundTrip(req)
	if resp != nil {
		t.Cleanup(func() { _ = resp.Body.Close() })
	}
	return resp, err
}

func TestRetry_TransientAnswersOfSafeRequestsAreRetried(t *testing.T) {
	cases := map[string]struct {
		method, contentType, body string
		first                     func(http.ResponseWriter, *http.Request)
	}{
		"GET after 503":                  {method: "GET", first: status(503)},
		"GET after 500 with Retry-After": {method: "GET", first: status(500, "Retry-After", "0")},
		"GET after 429":                  {method: "GET", first: status(429, "Retry-After", "0")},
		"GET after 504":                  {method: "GET", first: status(504)},
		"GET after a connection reset":   {method: "GET", first: reset},
		"server-side apply after 502":    {method: "PATCH", contentType: "application/apply-patch+yaml", body: `{"a":1}`, first: status(502)},
		"server-side apply after reset":  {method: "PATCH", contentType: "application/apply-patch+yaml", body: `{"a":1}`, first: reset},
		"DELETE after 503":               {method: "DELETE", first: status(503)},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			s, url := serve(t, c.first, c.first, ok)
			resp, err := do(t, fastPolicy, c.method, url, c.contentType, c.body)
			if err != nil || resp.StatusCode != 200 {
				t.Fatalf("want 200 after retries, got resp=%v err=%v", resp, err)
			}
			if s.count() != 3 {
				t.Fatalf("want 3 attempts, got %d", s.count())
			}
			for i, b := range s.bodies {
				if b != c.body {
					t.Fatalf("attempt %d sent body %q, want %q", i+1, b, c.body)
				}
			}
		})
	}
}

func TestRetry_PermanentAnswersAndUnsafeRequestsAreNotRetried(t *testing.T) {
	cases := map[string]struct {
		method, contentType string
		answer              func(http.ResponseWriter, *http.Request)
	}{
		"GET 404": {method: "GET", answer: status(404)},
		// Gardener's admission plugins answer 500 for errors that are no metav1.Status: deterministic.
		"apply 500 without Retry-After": {method: "PATCH", contentType: "application/apply-patch+yaml", answer: status(500)},
		"GET 403":                       {method: "GET", answer: status(403)},
		"GET 401":                       {method: "GET", answer: status(401)},
		"apply 409 conflict":            {method: "PATCH", contentType: "application/apply-patch+yaml", answer: status(409)},
		"apply 422 invalid":             {method: "PATCH", contentType: "application/apply-patch+yaml", answer: status(422)},
		"apply 400 bad request":         {method: "PATCH", contentType: "application/apply-patch+yaml", answer: status(400)},
		"merge patch 503":               {method: "PATCH", contentType: "application/merge-patch+json", answer: status(503)},
		"POST 503":                      {method: "POST", contentType: "application/json", answer: status(503)},
		"PUT 500":                       {method: "PUT", contentType: "application/json", answer: status(500)},
		"POST connection reset":         {method: "POST", contentType: "application/json", answer: reset},
		"DELETE 409 (conflicting)":      {method: "DELETE", answer: status(409)},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			s, url := serve(t, c.answer, ok)
			body := ""
			if c.method != "GET" && c.method != "DELETE" {
				body = "{}"
			}
			_, _ = do(t, fastPolicy, c.method, url, c.contentType, body)
			if s.count() != 1 {
				t.Fatalf("want exactly one attempt, got %d", s.count())
			}
		})
	}
}

func TestRetry_GivesUpAfterMaxAttemptsAndLeavesNoRetryAfterForClientGo(t *testing.T) {
	s, url := serve(t, status(429, "Retry-After", "0"))
	resp, err := do(t, fastPolicy, "GET", url, "", "")
	if err != nil || resp.StatusCode != 429 {
		t.Fatalf("want the last 429, got resp=%v err=%v", resp, err)
	}
	if s.count() != fastPolicy.MaxAttempts {
		t.Fatalf("want %d attempts, got %d", fastPolicy.MaxAttempts, s.count())
	}
	if resp.Header.Get("Retry-After") != "" {
		t.Fatal("Retry-After must be removed once honoured, or client-go multiplies the retries")
	}

	s, url = serve(t, reset)
	_, err = do(t, fastPolicy, "GET", url, "", "")
	if err == nil || !strings.Contains(err.Error(), "after 4 attempts") || s.count() != 4 {
		t.Fatalf("want an error after 4 attempts, got %v after %d", err, s.count())
	}
}

func TestRetry_HonoursRetryAfterButNotPastTheDeadline(t *testing.T) {
	_, url := serve(t, status(503, "Retry-After", "1"), ok)
	p := fastPolicy
	p.MaxRetryAfter = 5 * time.Second
	var waited []time.Duration
	rt := &retryTransport{policy: p, next: http.DefaultTransport, sleep: func(_ context.Context, d time.Duration) error {
		waited = append(waited, d)
		return nil
	}}
	req, _ := http.NewRequest("GET", url, nil)
	resp, err := rt.RoundTrip(req)
	if err != nil || resp.StatusCode != 200 || len(waited) != 1 || waited[0] != time.Second {
		t.Fatalf("want one wait of 1s (Retry-After) then 200, got waits %v resp=%v err=%v", waited, resp, err)
	}
	_ = resp.Body.Close()

	// A deadline closer than the Retry-After: the answer comes back at once instead of a wait
	// that could only end in a cancelled context.
	s, url := serve(t, status(503, "Retry-After", "3"), ok)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	req, _ = http.NewRequestWithContext(ctx, "GET", url, nil)
	start := time.Now()
	resp, err = p.RoundTripper(http.DefaultTransport).RoundTrip(req)
	if err != nil || resp.StatusCode != 503 || s.count() != 1 || time.Since(start) > 500*time.Millisecond {
		t.Fatalf("want the 503 at once, got resp=%v err=%v attempts=%d after %s", resp, err, s.count(), time.Since(start))
	}
	_ = resp.Body.Close()
}

func TestRetry_AnAttemptThatHangsIsCutOffAndRetried(t *testing.T) {
	var calls atomic.Int32
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			select {
			case <-release:
			case <-r.Context().Done():
			}
			return
		}
		ok(w, r)
	}))
	t.Cleanup(srv.Close)
	p := fastPolicy
	p.AttemptTimeout = 200 * time.Millisecond
	resp, err := do(t, p, "GET", srv.URL, "", "")
	if err != nil || resp.StatusCode != 200 || calls.Load() != 2 {
		t.Fatalf("want 200 on the second attempt, got resp=%v err=%v calls=%d", resp, err, calls.Load())
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil || !strings.Contains(string(b), "CloudProfile") {
		t.Fatalf("the body must stay readable after the attempt: %q %v", b, err)
	}
}

func TestRetry_TheOperationsCancellationIsNotRetried(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		<-r.Context().Done()
	}))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL, nil)
	_, err := fastPolicy.RoundTripper(http.DefaultTransport).RoundTrip(req)
	if err == nil || calls.Load() != 1 {
		t.Fatalf("want one attempt and the context's error, got err=%v calls=%d", err, calls.Load())
	}
}

func TestBackoff_GrowsAndIsCapped(t *testing.T) {
	p := RetryPolicy{BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second}
	for attempt, want := range map[int]time.Duration{1: 100 * time.Millisecond, 2: 200 * time.Millisecond, 3: 400 * time.Millisecond, 5: time.Second, 30: time.Second} {
		got := p.backoff(attempt)
		if got > want || got < want*3/4 {
			t.Fatalf("backoff(%d) = %s, want within [%s, %s]", attempt, got, want*3/4, want)
		}
	}
}

// newTestClient builds a Client against url with the given retry policy installed as NewClient
// does.
func newTestClient(t *testing.T, url string, p RetryPolicy) *Client {
	t.Helper()
	saved := DefaultRetryPolicy
	DefaultRetryPolicy = p
	defer func() { DefaultRetryPolicy = saved }()
	c, err := NewClient(&rest.Config{Host: url}, "test")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestClient_DeleteThatWasLostAndRetriedEndsInSuccess(t *testing.T) {
	// The first DELETE reached the server but its answer was lost (503 from a proxy); the retry
	// finds the object gone.
	s, url := serve(t, status(503), func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(404)
		_, _ = io.WriteString(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","code":404,"details":{"name":"x","group":"core.gardener.cloud","kind":"cloudprofiles"}}`)
	})
	c := newTestClient(t, url, fastPolicy)
	if err := c.DeleteCloudProfile(context.Background(), "x", ""); err != nil {
		t.Fatalf("want success, got %v", err)
	}
	if s.count() != 2 {
		t.Fatalf("want 2 attempts, got %d", s.count())
	}
}

func TestClient_ExhaustedRetriesAreClassified(t *testing.T) {
	_, url := serve(t, status(503))
	c := newTestClient(t, url, fastPolicy)
	_, err := c.GetCloudProfile(context.Background(), "x")
	if KindOf(err) != KindAPIUnavailable {
		t.Fatalf("want KindAPIUnavailable, got %v (%v)", KindOf(err), err)
	}

	s, url := serve(t, reset)
	c = newTestClient(t, url, fastPolicy)
	_, err = c.ApplyCloudProfile(context.Background(), &gardencorev1beta1.CloudProfile{ObjectMeta: metav1.ObjectMeta{Name: "x"}}, ApplyOptions{})
	if KindOf(err) != KindUnreachable {
		t.Fatalf("want KindUnreachable, got %v (%v)", KindOf(err), err)
	}
	if s.count() != fastPolicy.MaxAttempts {
		t.Fatalf("client-go must not multiply the attempts: want %d, got %d", fastPolicy.MaxAttempts, s.count())
	}
}

func TestRetry_AnUntrustedCertificateIsNotRetried(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { calls.Add(1); ok(w, r) }))
	var handshakes atomic.Int32
	srv.Config.ConnState = func(_ net.Conn, st http.ConnState) {
		if st == http.StateNew {
			handshakes.Add(1)
		}
	}
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	t.Cleanup(srv.Close)
	_, err := do(t, fastPolicy, "GET", srv.URL, "", "")
	if err == nil || !strings.Contains(err.Error(), "certificate") {
		t.Fatalf("want a certificate error, got %v", err)
	}
	if handshakes.Load() != 1 {
		t.Fatalf("want one connection attempt, got %d", handshakes.Load())
	}
}

// TestRetry_ACreateWithAnIdempotencyKeyIsRetried: a create carrying an Idempotency-Key (whose
// client recognises its own earlier success) is repeated after a reset, with the same body; the
// same create without the key is not (see TestRetry_PermanentAnswersAndUnsafeRequestsAreNotRetried).
func TestRetry_ACreateWithAnIdempotencyKeyIsRetried(t *testing.T) {
	s, url := serve(t, reset, status(503), ok)
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, url, strings.NewReader(`{"a":1}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(idempotencyKeyHeader, "c1")
	resp, err := fastPolicy.RoundTripper(http.DefaultTransport).RoundTrip(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("want 200 after retries, got resp=%v err=%v", resp, err)
	}
	_ = resp.Body.Close()
	if s.count() != 3 || s.bodies[2] != `{"a":1}` {
		t.Fatalf("want 3 attempts with the same body, got %d: %q", s.count(), s.bodies)
	}
}

// TestRetry_TheOwnershipPatchOfACreateIsRetried: the JSON patch that records a create as the
// manager's apply carries the create's Idempotency-Key (its test operations make a repetition fail
// rather than change anything) and is repeated after 503 and 429; a JSON patch without the key is
// not.
func TestRetry_TheOwnershipPatchOfACreateIsRetried(t *testing.T) {
	for _, c := range []struct {
		key      string
		attempts int
	}{{"c1", 3}, {"", 1}} {
		s, url := serve(t, status(503), status(429), ok)
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodPatch, url, strings.NewReader(`[{"op":"test","path":"/metadata/uid","value":"u"}]`))
		req.Header.Set("Content-Type", "application/json-patch+json")
		if c.key != "" {
			req.Header.Set(idempotencyKeyHeader, c.key)
		}
		resp, err := fastPolicy.RoundTripper(http.DefaultTransport).RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if s.count() != c.attempts {
			t.Errorf("key %q: %d attempts, want %d", c.key, s.count(), c.attempts)
		}
	}
}
