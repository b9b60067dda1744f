package kube

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const gardenerInfoPath = "/api/v1/namespaces/gardener-system-public/configmaps/gardener-info"

// fakeInfoServer answers the GET of gardener-info with status and body, after delay, and counts
// every request.
type fakeInfoServer struct {
	status   int
	body     string
	delay    time.Duration
	requests atomic.Int32
	paths    sync.Map
}

func (f *fakeInfoServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.requests.Add(1)
	f.paths.Store(r.Method+" "+r.URL.Path, true)
	time.Sleep(f.delay)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(f.status)
	_, _ = fmt.Fprint(w, f.body)
}

// infoConfigMap is gardener-info as gardener-operator writes it, with data as the value of
// gardenerAPIServer (JSON-quoted).
func infoConfigMap(data string) string {
	return fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"gardener-info","namespace":"gardener-system-public"},"data":{"gardenerAPIServer":%q}}`, data)
}

// TestPublishedGardenerVersion_OneGETPerRun: twenty concurrent callers and a later one share one
// GET of gardener-info, and read the version gardener-operator writes there.
func TestPublishedGardenerVersion_OneGETPerRun(t *testing.T) {
	f := &fakeInfoServer{status: 200, body: infoConfigMap("version: v1.150.0\nworkloadIdentityIssuerURL: https://issuer.example.com\n"), delay: 50 * time.Millisecond}
	c := newFakeServerClient(t, f)
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if v, err := c.PublishedGardenerVersion(context.Background()); v != "v1.150.0" || err != nil {
				t.Errorf("PublishedGardenerVersion = %q, %v", v, err)
			}
		})
	}
	wg.Wait()
	if v, err := c.PublishedGardenerVersion(context.Background()); v != "v1.150.0" || err != nil {
		t.Fatalf("later PublishedGardenerVersion = %q, %v", v, err)
	}
	if n := f.requests.Load(); n != 1 {
		t.Fatalf("%d requests, want 1", n)
	}
	if _, ok := f.paths.Load("GET " + gardenerInfoPath); !ok {
		t.Fatalf("the request was not a GET of %s", gardenerInfoPath)
	}
}

// TestPublishedGardenerVersion_Failures: a missing ConfigMap is KindNotFound, a denied read
// KindForbidden, data without a version ErrGardenerInfoMalformed; each is kept for the run.
func TestPublishedGardenerVersion_Failures(t *testing.T) {
	for name, c := range map[string]struct {
		status    int
		body      string
		kind      ErrorKind
		malformed bool
	}{
		"not found":   {404, `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"configmaps \"gardener-info\" not found","reason":"NotFound","details":{"name":"gardener-info","kind":"configmaps"},"code":404}`, KindNotFound, false},
		"forbidden":   {403, `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"configmaps \"gardener-info\" is forbidden: User \"robot\" cannot get resource \"configmaps\" in API group \"\" in the namespace \"gardener-system-public\"","reason":"Forbidden","details":{"name":"gardener-info","kind":"configmaps"},"code":403}`, KindForbidden, false},
		"no data key": {200, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"gardener-info"},"data":{"other":"x"}}`, KindOther, true},
		"not YAML":    {200, infoConfigMap("version: [unclosed"), KindOther, true},
		"no version":  {200, infoConfigMap("workloadIdentityIssuerURL: https://issuer.example.com\n"), KindOther, true},
	} {
		t.Run(name, func(t *testing.T) {
			f := &fakeInfoServer{status: c.status, body: c.body}
			client := newFakeServerClient(t, f)
			for range 2 {
				_, err := client.PublishedGardenerVersion(context.Background())
				if err == nil || KindOf(err) != c.kind || errors.Is(err, ErrGardenerInfoMalformed) != c.malformed {
					t.Fatalf("err = %v (kind %d), want kind %d, malformed %v", err, KindOf(err), c.kind, c.malformed)
				}
			}
			if n := f.requests.Load(); n != 1 {
				t.Fatalf("%d requests, want 1 (the failure is kept)", n)
			}
		})
	}
}

// TestPublishedGardenerVersion_ABoundedWait: a Garden that does not answer is given up on after
// InfoReadTimeout, retries included, not after the retry policy's budget of a request a run needs.
func TestPublishedGardenerVersion_ABoundedWait(t *testing.T) {
	f := &fakeInfoServer{status: 503, body: `{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"ServiceUnavailable","code":503}`}
	c := newFakeServerClient(t, f)
	start := time.Now()
	_, err := c.PublishedGardenerVersion(context.Background())
	if took := time.Since(start); err == nil || took > InfoReadTimeout+time.Second {
		t.Fatalf("took %s (err %v), want a failure within %s", took, err, InfoReadTimeout)
	}
	if n := f.requests.Load(); n < 2 {
		t.Fatalf("%d requests, want the retries that fit", n)
	}
}
