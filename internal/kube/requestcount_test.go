package kube

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"k8s.io/client-go/rest"
)

func TestRequestLogAppendsOneLinePerRequest(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasSuffix(r.URL.Path, "/missing"):
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"NotFound","message":"not found","details":{"name":"missing"},"code":404}`))
		case strings.Contains(r.URL.Path, "/namespaces/"):
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Forbidden","message":"User \"robot\" cannot list resource \"namespacedcloudprofiles\"","code":403}`))
		default:
			_, _ = w.Write([]byte(`{"apiVersion":"core.gardener.cloud/v1beta1","kind":"CloudProfileList","items":[{"metadata":{"name":"a"}}]}`))
		}
	}))
	defer srv.Close()

	file := filepath.Join(t.TempDir(), "requests.log")
	t.Setenv(RequestLogEnv, file)
	c, err := NewClient(&rest.Config{Host: srv.URL}, "test")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := c.GetCloudProfile(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.GetNamespacedCloudProfile(ctx, "garden-x", "missing"); err == nil {
		t.Fatalf("want an error, got %v", err)
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	want := "GET /apis/core.gardener.cloud/v1beta1/cloudprofiles?fieldSelector=metadata.name%3Da 200\n" +
		"GET /apis/core.gardener.cloud/v1beta1/namespaces/garden-x/namespacedcloudprofiles?fieldSelector=metadata.name%3Dmissing 403\n" +
		"GET /apis/core.gardener.cloud/v1beta1/namespaces/garden-x/namespacedcloudprofiles/missing 404\n"
	if got := withoutDurations(t, string(raw)); got != want {
		t.Fatalf("log:\n%s\nwant:\n%s", raw, want)
	}
}

// withoutDurations drops the last field of each line of a request log, which must be a duration in
// microseconds.
func withoutDurations(t *testing.T, log string) string {
	t.Helper()
	var b strings.Builder
	for line := range strings.Lines(log) {
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			t.Fatalf("line without a duration: %q", line)
		}
		if _, err := strconv.ParseUint(strings.TrimSuffix(line[i+1:], "\n"), 10, 64); err != nil {
			t.Fatalf("line %q: the last field is no duration in microseconds: %v", line, err)
		}
		b.WriteString(line[:i] + "\n")
	}
	return b.String()
}

func TestRequestLogOffWithoutVariable(t *testing.T) {
	t.Setenv(RequestLogEnv, "")
	cfg := &rest.Config{Host: "http://127.0.0.1:1"}
	withRequestLog(cfg)
	if cfg.WrapTransport != nil {
		t.Fatal("transport wrapped although the variable is empty")
	}
}

func TestRequestLogRecordsTransportErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "requests.log")
	l := newRequestLog(http.DefaultTransport, file)
	req, _ := http.NewRequest(http.MethodPatch, "http://127.0.0.1:1/apis/x?dryRun=All", nil)
	if _, err := l.RoundTrip(req); err == nil {
		t.Fatal("expected a connection error")
	}
	raw, _ := os.ReadFile(file)
	if withoutDurations(t, string(raw)) != "PATCH /apis/x?dryRun=All ERR\n" {
		t.Fatalf("log: %q", raw)
	}
}
