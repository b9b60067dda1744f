package kube

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"time"

	"k8s.io/apimachinery/pkg/types"
)

// RetryPolicy says which failed requests are tried again, how often and how long to wait in
// between. Only requests that are safe to repeat are retried:
//
//   - GET (reads),
//   - PATCH with the server-side apply content type (applying the same configuration twice gives
//     the same object),
//   - DELETE (a repeated delete of an object that is already gone answers 404, which the client
//     treats as success),
//   - POST and PATCH with an Idempotency-Key header (a create whose client recognises its own
//     earlier success by that key, and the create's ownership patch, whose test operations make a
//     repetition fail rather than change anything; see create.go).
//
// They are retried after a network error (connection refused or reset, an unexpected EOF), after
// an attempt that took longer than AttemptTimeout, and after the answers 429, 500 (with Retry-After), 502, 503 and
// 504. Every other answer, in particular 4xx validation, conflict, permission and not-found errors,
// is returned at once. Waits grow exponentially from BaseDelay up to MaxDelay with jitter; a
// Retry-After header of the server is honoured (up to MaxRetryAfter). No wait reaches past the
// request's context deadline: when the next attempt could not start before the deadline, the last
// answer is returned.
type RetryPolicy struct {
	// MaxAttempts is the number of attempts including the first; 1 or less turns retries off.
	MaxAttempts int
	// BaseDelay is the wait before the second attempt; it doubles with every further attempt.
	BaseDelay time.Duration
	// MaxDelay caps the exponential wait.
	MaxDelay time.Duration
	// MaxRetryAfter caps how long a server's Retry-After is honoured.
	MaxRetryAfter time.Duration
	// AttemptTimeout bounds one attempt of a retryable request, so that a server that accepts the
	// connection but never answers does not use up the whole operation's timeout. Zero means no
	// bound besides the request's context.
	AttemptTimeout time.Duration
}

// DefaultRetryPolicy is the policy NewClient installs. Tests that put a fault-injecting proxy in
// front of the API server may lower AttemptTimeout (and restore it afterwards); they must not run
// in parallel with other tests when they do.
// Eight attempts wait at most about 16s in total (0.2s, 0.4s, … capped at 5s) and make a request
// fail only when it fails eight times in a row: 0.007% of requests at a 30% fault rate.
var DefaultRetryPolicy = RetryPolicy{
	MaxAttempts:    8,
	BaseDelay:      200 * time.Millisecond,
	MaxDelay:       5 * time.Second,
	MaxRetryAfter:  30 * time.Second,
	AttemptTimeout: 30 * time.Second,
}

// RoundTripper wraps next with the policy's retries.
func (p RetryPolicy) RoundTripper(next http.RoundTripper) http.RoundTripper {
	return &retryTransport{policy: p, next: next, sleep: sleepCtx}
}

type retryTransport struct {
	policy RetryPolicy
	next   http.RoundTripper
	// sleep waits d or until ctx ends; replaced in tests.
	sleep func(ctx context.Context, d time.Duration) error
}

// RetriesExhaustedError reports a request that failed on every attempt. It deliberately does not
// unwrap to the last network error, so that client-go does not retry the request again on its own
// (it retries GETs after connection resets), which would multiply the attempts.
type RetriesExhaustedError struct {
	Method   string
	Attempts int
	Last     error
}

func (e *RetriesExhaustedError) Error() string {
	return fmt.Sprintf("%s failed after %d attempts: %v", e.Method, e.Attempts, e.Last)
}

// Timeout tells net.Error users that the failure is transient.
func (e *RetriesExhaustedError) Timeout() bool { return true }

// Temporary is part of net.Error.
func (e *RetriesExhaustedError) Temporary() bool { return true }

// RetryableRequest tells whether repeating the request cannot change the outcome.
func RetryableRequest(r *http.Request) bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodDelete:
		return true
	case http.MethodPatch:
		return r.Header.Get("Content-Type") == string(types.ApplyPatchType) || r.Header.Get(idempotencyKeyHeader) != ""
	case http.MethodPost:
		return r.Header.Get(idempotencyKeyHeader) != ""
	}
	return false
}

// retryableStatus tells whether an answer is a transient failure of the server or of a proxy in
// between. A 500 counts only with a Retry-After header (as client-go does): without one it is
// usually deterministic — Gardener's admission plugins answer 500 for errors that are no
// metav1.Status, and repeating such a request only delays the error.
func retryableStatus(resp *http.Response) bool {
	switch resp.StatusCode {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	case http.StatusInternalServerError:
		return resp.Header.Get("Retry-After") != ""
	}
	return false
}

// RoundTrip sends req, and again after transient failures while the policy allows.
func (t *retryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.policy.MaxAttempts <= 1 || !RetryableRequest(req) || (req.Body != nil && req.Body != http.NoBody && req.GetBody == nil) {
		return t.next.RoundTrip(req)
	}
	ctx := req.Context()
	for attempt := 1; ; attempt++ {
		resp, err := t.attempt(ctx, req, attempt)
		if err == nil && !retryableStatus(resp) {
			return resp, nil
		}
		if err != nil && (ctx.Err() != nil || permanentTransportError(err)) {
			// The operation's own deadline or cancellation, or a TLS verification failure: never
			// retried.
			return nil, err
		}
		wait := t.policy.backoff(attempt)
		if err == nil {
			if ra, ok := retryAfter(resp); ok {
				wait = min(ra, t.policy.MaxRetryAfter)
			}
		}
		last := attempt >= t.policy.MaxAttempts
		if dl, ok := ctx.Deadline(); ok && time.Now().Add(wait).After(dl) {
			last = true
		}
		if last {
			if err != nil {
				return nil, &RetriesExhaustedError{Method: req.Method, Attempts: attempt, Last: err}
			}
			// The wait was honoured here already: keep client-go from waiting and retrying again.
			resp.Header.Del("Retry-After")
			return resp, nil
		}
		if resp != nil {
			_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
			_ = resp.Body.Close()
		}
		if err := t.sleep(ctx, wait); err != nil {
			if resp != nil {
				return nil, fmt.Errorf("%s %s: %w while waiting to retry after HTTP %d", req.Method, req.URL.Path, err, resp.StatusCode)
			}
			return nil, err
		}
	}
}

// attempt sends one copy of req, bounded by the attempt timeout. The attempt's context stays alive
// until the body of a successful response is read and closed.
func (t *retryTransport) attempt(ctx context.Context, req *http.Request, n int) (*http.Response, error) {
	r := req
	if n > 1 || t.policy.AttemptTimeout > 0 {
		r = req.Clone(ctx)
		if req.GetBody != nil {
			body, err := req.GetBody()
			if err != nil {
				return nil, err
			}
			r.Body = body
		}
	}
	if t.policy.AttemptTimeout <= 0 {
		return t.next.RoundTrip(r)
	}
	actx, cancel := context.WithTimeout(ctx, t.policy.AttemptTimeout)
	resp, err := t.next.RoundTrip(r.WithContext(actx))
	if err != nil {
		timedOut := actx.Err() != nil && ctx.Err() == nil
		cancel()
		if timedOut {
			err = fmt.Errorf("no answer within %s: %w", t.policy.AttemptTimeout, err)
		}
		return nil, err
	}
	resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
	return resp, nil
}

type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

// Close closes the body and ends the attempt's context.
func (c *cancelOnClose) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}

// backoff is the wait after the given failed attempt: BaseDelay·2^(attempt-1), capped at
// MaxDelay, with up to 25% jitter so that parallel clients do not retry in lockstep.
func (p RetryPolicy) backoff(attempt int) time.Duration {
	d := p.BaseDelay
	for i := 1; i < attempt && d < p.MaxDelay; i++ {
		d *= 2
	}
	if p.MaxDelay > 0 && d > p.MaxDelay {
		d = p.MaxDelay
	}
	if d <= 0 {
		return 0
	}
	return d - time.Duration(rand.Int64N(int64(d)/4+1))
}

// retryAfter reads a Retry-After header given in seconds (the form the Kubernetes API server
// uses) or as an HTTP date.
func retryAfter(resp *http.Response) (time.Duration, bool) {
	v := resp.Header.Get("Retry-After")
	if v == "" {
		return 0, false
	}
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return time.Duration(s) * time.Second, true
	}
	if at, err := http.ParseTime(v); err == nil {
		return max(time.Until(at), 0), true
	}
	return 0, false
}

// permanentTransportError tells errors that no retry can fix: the server's certificate is not
// trusted or does not match.
func permanentTransportError(err error) bool {
	var verify *tls.CertificateVerificationError
	var unknownCA x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	return errors.As(err, &verify) || errors.As(err, &unknownCA) || errors.As(err, &hostname) || errors.As(err, &invalid)
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-timer.C:
		return nil
	}
}
