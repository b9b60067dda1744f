package kube

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/client-go/rest"
)

// fakeParentServer serves CloudProfile "parent" at the resourceVersion rv (missing while missing
// is set) to reads as the client makes them: a list of that name, or a GET where listing is
// forbidden (forbidList). It counts the reads that answered.
type fakeParentServer struct {
	gets       atomic.Int32
	lists      atomic.Int32
	denied     atomic.Int32 // lists answered 403
	rv         atomic.Int64
	missing    atomic.Bool
	forbidList bool
	delay      time.Duration
	accept     atomic.Value // the Accept header of the last read
	query      atomic.Value // the query of the last list
}

const fakeParentsPath = "/apis/core.gardener.cloud/v1beta1/cloudprofiles"

func (f *fakeParentServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	list := r.URL.Path == fakeParentsPath && r.URL.Query().Get("fieldSelector") == "metadata.name=parent"
	get := r.URL.Path == fakeParentsPath+"/parent"
	if r.Method != http.MethodGet || !list && !get {
		http.Error(w, "unexpected request", http.StatusTeapot)
		return
	}
	f.accept.Store(r.Header.Get("Accept"))
	w.Header().Set("Content-Type", "application/json")
	if list && f.forbidList {
		f.denied.Add(1)
		w.WriteHeader(http.StatusForbidden)
		_, _ = fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"cloudprofiles.core.gardener.cloud is forbidden: User \"robot\" cannot list resource \"cloudprofiles\" in API group \"core.gardener.cloud\" at the cluster scope","reason":"Forbidden","details":{"group":"core.gardener.cloud","kind":"cloudprofiles"},"code":403}`)
		return
	}
	time.Sleep(f.delay)
	object := fmt.Sprintf(`{"apiVersion":"core.gardener.cloud/v1beta1","kind":"CloudProfile","metadata":{"name":"parent","resourceVersion":"%d"},"spec":{"type":"local"}}`, f.rv.Load())
	if list {
		f.lists.Add(1)
		f.query.Store(r.URL.RawQuery)
		items := object
		if f.missing.Load() {
			items = ""
		}
		_, _ = fmt.Fprintf(w, `{"apiVersion":"core.gardener.cloud/v1beta1","kind":"CloudProfileList","metadata":{"resourceVersion":"%d"},"items":[%s]}`, f.rv.Load(), items)
		return
	}
	f.gets.Add(1)
	if f.missing.Load() {
		w.WriteHeader(http.StatusNotFound)
		_, _ = fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"cloudprofiles.core.gardener.cloud \"parent\" not found","reason":"NotFound","details":{"name":"parent","group":"core.gardener.cloud","kind":"cloudprofiles"},"code":404}`)
		return
	}
	_, _ = fmt.Fprint(w, object)
}

// reads is the number of reads the server answered (lists and GETs).
func (f *fakeParentServer) reads() int32 { return f.gets.Load() + f.lists.Load() }

// newFakeServerClient is a client of a fake API server served by handler, without a rate limit.
func newFakeServerClient(t *testing.T, handler http.Handler) *Client {
	t.Helper()
	srv := httptest.NewServer(handler)
	t.Cleanup(srv.Close)
	c, err := NewClient(&rest.Config{Host: srv.URL, QPS: -1}, "test")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestParentCloudProfile_ConcurrentLookupsShareOneRead(t *testing.T) {
	f := &fakeParentServer{delay: 50 * time.Millisecond}
	f.rv.Store(7)
	c := newFakeServerClient(t, f)
	var wg sync.WaitGroup
	got := make([]*gardencorev1beta1.CloudProfile, 50)
	errs := make([]error, 50)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], errs[i] = c.ParentCloudProfile(context.Background(), "parent")
		}()
	}
	wg.Wait()
	for i := range got {
		if errs[i] != nil || got[i].ResourceVersion != "7" {
			t.Fatalf("lookup %d: %v, %v", i, got[i], errs[i])
		}
	}
	if n := f.reads(); n != 1 {
		t.Fatalf("50 concurrent lookups made %d reads, want 1", n)
	}
	// Every caller has its own copy.
	got[0].Spec.Type = "changed"
	again, _ := c.ParentCloudProfile(context.Background(), "parent")
	if again.Spec.Type != "local" || got[1].Spec.Type != "local" {
		t.Fatalf("a caller's change leaked into the cache: %q, %q", again.Spec.Type, got[1].Spec.Type)
	}
}

func TestParentCloudProfile_NewerReadReplacesTheCachedParent(t *testing.T) {
	f := &fakeParentServer{}
	f.rv.Store(7)
	c := newFakeServerClient(t, f)
	if _, err := c.ParentCloudProfile(context.Background(), "parent"); err != nil {
		t.Fatal(err)
	}
	f.rv.Store(9) // changed out of band
	if cp, _ := c.ParentCloudProfile(context.Background(), "parent"); cp.ResourceVersion != "7" {
		t.Fatalf("cached lookup = %s, want the cached 7 (one read per run)", cp.ResourceVersion)
	}
	if cp, err := c.RefreshedParentCloudProfile(context.Background(), "parent"); err != nil || cp.ResourceVersion != "9" {
		t.Fatalf("refreshed lookup = %v, %v; want 9", cp, err)
	}
	if cp, _ := c.ParentCloudProfile(context.Background(), "parent"); cp.ResourceVersion != "9" {
		t.Fatalf("after a refresh the cache serves %s, want 9", cp.ResourceVersion)
	}
	if n := f.reads(); n != 2 {
		t.Fatalf("%d reads, want 2", n)
	}
}

func TestParentCloudProfile_OlderObservationNeverReplacesANewerOne(t *testing.T) {
	f := &fakeParentServer{}
	f.rv.Store(12)
	c := newFakeServerClient(t, f)
	if _, err := c.ParentCloudProfile(context.Background(), "parent"); err != nil {
		t.Fatal(err)
	}
	old := &gardencorev1beta1.CloudProfile{}
	old.Name, old.ResourceVersion = "parent", "11"
	c.parents.observe(old) // e.g. the answer of a request that started earlier
	if cp, _ := c.ParentCloudProfile(context.Background(), "parent"); cp.ResourceVersion != "12" {
		t.Fatalf("cache serves %s after an older observation, want 12", cp.ResourceVersion)
	}
	newer := old.DeepCopy()
	newer.ResourceVersion = "13" // e.g. the answer of this client's own apply of the parent
	c.parents.observe(newer)
	if cp, _ := c.ParentCloudProfile(context.Background(), "parent"); cp.ResourceVersion != "13" {
		t.Fatalf("cache serves %s after the client wrote 13", cp.ResourceVersion)
	}
	if n := f.reads(); n != 1 {
		t.Fatalf("%d reads, want 1", n)
	}
}

func TestParentCloudProfile_FailureIsNotCached(t *testing.T) {
	f := &fakeParentServer{}
	f.missing.Store(true)
	c := newFakeServerClient(t, f)
	if _, err := c.ParentCloudProfile(context.Background(), "parent"); !IsNotFound(err) {
		t.Fatalf("missing parent: %v, want NotFound", err)
	}
	f.missing.Store(false) // created later in the same run
	f.rv.Store(3)
	if cp, err := c.ParentCloudProfile(context.Background(), "parent"); err != nil || cp.ResourceVersion != "3" {
		t.Fatalf("after the parent was created: %v, %v", cp, err)
	}
	if n := f.reads(); n != 2 {
		t.Fatalf("%d reads, want 2 (the failure is not cached)", n)
	}
}

func TestParentCloudProfile_EachClientReadsAgain(t *testing.T) {
	f := &fakeParentServer{}
	f.rv.Store(4)
	for run := 1; run <= 2; run++ {
		c := newFakeServerClient(t, f) // a new provider process per Terraform run
		if _, err := c.ParentCloudProfile(context.Background(), "parent"); err != nil {
			t.Fatal(err)
		}
		if n := f.reads(); n != int32(run) {
			t.Fatalf("run %d: %d reads in all, want %d", run, n, run)
		}
	}
}

func TestOlderResourceVersion(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{{"9", "10", true}, {"10", "9", false}, {"10", "10", false}, {"x", "10", false}, {"10", "", false}} {
		if got := olderResourceVersion(tc.a, tc.b); got != tc.want {
			t.Errorf("olderResourceVersion(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// A NamespacedCloudProfile's status holds the whole merged parent: answers are asked for in
// protobuf, which is cheaper to decode, with JSON as the fallback (the fake answers JSON).
func TestClient_AcceptsProtobufThenJSON(t *testing.T) {
	f := &fakeParentServer{}
	c := newFakeServerClient(t, f)
	if _, err := c.GetCloudProfile(context.Background(), "parent"); err != nil {
		t.Fatal(err)
	}
	if got, _ := f.accept.Load().(string); got != "application/vnd.kubernetes.protobuf, application/json" {
		t.Fatalf("Accept = %q", got)
	}
}
