package kube

import (
	"context"
	"net/http"
	"testing"
)

// A read asks for the newest state of the one name (no resourceVersion), as a list the API
// server answers from its watch cache.
func TestReadOne_ListsTheNameWithoutResourceVersion(t *testing.T) {
	f := &fakeParentServer{}
	f.rv.Store(5)
	c := newFakeServerClient(t, f)
	cp, err := c.GetCloudProfile(context.Background(), "parent")
	if err != nil || cp.Name != "parent" || cp.ResourceVersion != "5" || cp.Spec.Type != "local" {
		t.Fatalf("read = %+v, %v", cp, err)
	}
	if got, _ := f.query.Load().(string); got != "fieldSelector=metadata.name%3Dparent" {
		t.Fatalf("query = %q, want only the field selector", got)
	}
	if f.lists.Load() != 1 || f.gets.Load() != 0 {
		t.Fatalf("%d lists and %d GETs, want one list", f.lists.Load(), f.gets.Load())
	}
}

// An empty list is the object's absence, reported as the API server reports a GET of it.
func TestReadOne_EmptyListIsNotFound(t *testing.T) {
	f := &fakeParentServer{}
	f.missing.Store(true)
	c := newFakeServerClient(t, f)
	_, err := c.GetCloudProfile(context.Background(), "parent")
	if !IsNotFound(err) {
		t.Fatalf("err = %v, want NotFound", err)
	}
	if want := `CloudProfile "parent": cloudprofiles.core.gardener.cloud "parent" not found`; err.Error() != want {
		t.Fatalf("err = %q, want %q", err, want)
	}
}

// Credentials that may get but not list read with GETs: the forbidden list is asked once per
// scope, then every read of that scope is one GET.
func TestReadOne_FallsBackToGetWhereListingIsForbidden(t *testing.T) {
	f := &fakeParentServer{forbidList: true}
	f.rv.Store(8)
	c := newFakeServerClient(t, f)
	for i := range 3 {
		cp, err := c.GetCloudProfile(context.Background(), "parent")
		if err != nil || cp.ResourceVersion != "8" {
			t.Fatalf("read %d = %+v, %v", i, cp, err)
		}
	}
	if f.gets.Load() != 3 || f.denied.Load() != 1 || f.lists.Load() != 0 {
		t.Fatalf("%d GETs, %d forbidden lists, %d answered lists; want 3 GETs after one forbidden list", f.gets.Load(), f.denied.Load(), f.lists.Load())
	}
	f.missing.Store(true)
	if _, err := c.GetCloudProfile(context.Background(), "parent"); !IsNotFound(err) {
		t.Fatalf("missing object through the GET: %v, want NotFound", err)
	}
}

// The denial is remembered per resource and namespace: other namespaces are still listed.
func TestListDenials_ArePerScope(t *testing.T) {
	var d listDenials
	a := objectKind{resource: resourceNamespacedCloudProfiles, namespace: "garden-a", name: "x"}
	b := objectKind{resource: resourceNamespacedCloudProfiles, namespace: "garden-b", name: "x"}
	d.deny(a)
	if !d.denied(a) || !d.denied(objectKind{resource: a.resource, namespace: a.namespace, name: "y"}) {
		t.Fatal("the denied scope is listed again")
	}
	if d.denied(b) || d.denied(objectKind{resource: resourceCloudProfiles, name: "x"}) {
		t.Fatal("another scope counts as denied")
	}
}

// A list answered 404 without an object's name means the API is not served, as for a GET.
func TestReadOne_MissingAPIIsAPIUnavailable(t *testing.T) {
	c := newFakeServerClient(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","message":"the server could not find the requested resource","reason":"NotFound","details":{},"code":404}`))
	}))
	_, err := c.GetNamespacedCloudProfile(context.Background(), "garden-a", "x")
	if KindOf(err) != KindAPIUnavailable {
		t.Fatalf("err = %v (kind %v), want KindAPIUnavailable", err, KindOf(err))
	}
}
