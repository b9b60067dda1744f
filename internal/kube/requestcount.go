package kube

import (
	"fmt"
	"net/http"
	"os"
	"sync"
	"time"

	"k8s.io/client-go/rest"
)

// RequestLogEnv names the environment variable that turns on the request log: when it names a
// file, every API request the provider makes appends one line "METHOD PATH STATUS MICROSECONDS" to
// it (PATH with its query, STATUS the HTTP status code or ERR when no response came back,
// MICROSECONDS how long the round trip took until the response's headers). make bench reads it to
// count the requests of each operation and to time the ones made once per run. Unset or empty, nothing is wrapped.
const RequestLogEnv = "GARDENER_PROVIDER_REQUEST_LOG"

// withRequestLog makes cfg log its requests to the file named by RequestLogEnv, if it is set.
func withRequestLog(cfg *rest.Config) {
	if file := os.Getenv(RequestLogEnv); file != "" {
		cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper { return newRequestLog(rt, file) })
	}
}

// requestLog is a RoundTripper that appends one line per request to a file. Each line is a single
// write to a file opened with O_APPEND, so that several provider processes can share one file.
type requestLog struct {
	next http.RoundTripper
	file string
	mu   sync.Mutex
}

func newRequestLog(next http.RoundTripper, file string) *requestLog {
	if next == nil {
		next = http.DefaultTransport
	}
	return &requestLog{next: next, file: file}
}

// RoundTrip forwards the request and appends "METHOD PATH STATUS MICROSECONDS" to the log.
func (l *requestLog) RoundTrip(req *http.Request) (*http.Response, error) {
	start := time.Now()
	resp, err := l.next.RoundTrip(req)
	took := time.Since(start)
	status := "ERR"
	if resp != nil {
		status = fmt.Sprint(resp.StatusCode)
	}
	l.write(fmt.Sprintf("%s %s %s %d\n", req.Method, req.URL.RequestURI(), status, took.Microseconds()))
	return resp, err
}

// write appends a line; a failure to log never fails the request.
func (l *requestLog) write(line string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	f, err := os.OpenFile(l.file, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return
	}
	_, _ = f.WriteString(line)
	_ = f.Close()
}
