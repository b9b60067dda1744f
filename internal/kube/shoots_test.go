package kube

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
)

// fakeShootServer answers Shoot lists (403 when forbidden is set) and counts them by path.
type fakeShootServer struct {
	mu        sync.Mutex
	lists     map[string]int
	forbidden atomic.Bool
}

func (f *fakeShootServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.lists[r.URL.Path]++
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if f.forbidden.Load() {
		w.WriteHeader(http.StatusForbidden)
		_, _ = fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"shoots.core.gardener.cloud is forbidden: User \"robot\" cannot list resource \"shoots\" in API group \"core.gardener.cloud\" in the namespace \"garden-a\"","reason":"Forbidden","code":403}`)
		return
	}
	_, _ = fmt.Fprint(w, `{"apiVersion":"core.gardener.cloud/v1beta1","kind":"ShootList","metadata":{},"items":[`+
		`{"metadata":{"name":"a","namespace":"garden-a"},"spec":{"kubernetes":{"version":"1.30.5"}}},`+
		`{"metadata":{"name":"b","namespace":"garden-b"},"spec":{"kubernetes":{"version":"1.31.2"}}}]}`)
}

// TestRunShoots_OneListPerScope: concurrent and later callers share one list of all namespaces,
// which also answers for a namespace.
func TestRunShoots_OneListPerScope(t *testing.T) {
	f := &fakeShootServer{lists: map[string]int{}}
	c := newFakeServerClient(t, f)
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			if shoots, err := c.RunShoots(context.Background(), ""); err != nil || len(shoots) != 2 {
				t.Errorf("RunShoots = %d shoots, %v", len(shoots), err)
			}
		})
	}
	wg.Wait()
	shoots, err := c.RunShoots(context.Background(), "garden-b")
	if err != nil || len(shoots) != 1 || shoots[0].Name != "b" {
		t.Fatalf("RunShoots(garden-b) = %v, %v", shoots, err)
	}
	if fmt.Sprint(f.lists) != "map[/apis/core.gardener.cloud/v1beta1/shoots:1]" {
		t.Fatalf("requests = %v, want one list of all namespaces", f.lists)
	}
}

// TestRunShoots_FailureIsKept: a forbidden list is not repeated in the run.
func TestRunShoots_FailureIsKept(t *testing.T) {
	f := &fakeShootServer{lists: map[string]int{}}
	f.forbidden.Store(true)
	c := newFakeServerClient(t, f)
	for range 3 {
		if _, err := c.RunShoots(context.Background(), "garden-a"); KindOf(err) != KindForbidden {
			t.Fatalf("err = %v, want forbidden", err)
		}
	}
	if fmt.Sprint(f.lists) != "map[/apis/core.gardener.cloud/v1beta1/namespaces/garden-a/shoots:1]" {
		t.Fatalf("requests = %v, want one list of garden-a", f.lists)
	}
}
