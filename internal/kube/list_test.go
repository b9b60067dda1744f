package kube

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"k8s.io/client-go/rest"
)

func TestList_PathsAndDecoding(t *testing.T) {
	var paths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.URL.Path)
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/apis/core.gardener.cloud/v1beta1/shoots", "/apis/core.gardener.cloud/v1beta1/namespaces/garden-a/shoots":
			_, _ = w.Write([]byte(`{"apiVersion":"core.gardener.cloud/v1beta1","kind":"ShootList","items":[{"metadata":{"name":"s1","namespace":"garden-a"},"spec":{"kubernetes":{"version":"1.30.0"}}}]}`))
		case "/apis/core.gardener.cloud/v1beta1/namespacedcloudprofiles":
			_, _ = w.Write([]byte(`{"apiVersion":"core.gardener.cloud/v1beta1","kind":"NamespacedCloudProfileList","items":[{"metadata":{"name":"n","namespace":"garden-a"},"spec":{"parent":{"kind":"CloudProfile","name":"p"}}}]}`))
		default:
			w.WriteHeader(http.StatusForbidden)
			_, _ = w.Write([]byte(`{"apiVersion":"v1","kind":"Status","status":"Failure","reason":"Forbidden","code":403,"message":"shoots is forbidden: User \"robot\" cannot list resource \"shoots\" in API group \"core.gardener.cloud\" in the namespace \"garden-b\""}`))
		}
	}))
	defer srv.Close()
	c, err := NewClient(&rest.Config{Host: srv.URL}, "test")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	shoots, err := c.ListShoots(ctx, "")
	if err != nil || len(shoots) != 1 || shoots[0].Spec.Kubernetes.Version != "1.30.0" {
		t.Fatalf("ListShoots all: %v %+v", err, shoots)
	}
	if shoots, err = c.ListShoots(ctx, "garden-a"); err != nil || len(shoots) != 1 {
		t.Fatalf("ListShoots garden-a: %v %+v", err, shoots)
	}
	ncps, err := c.ListNamespacedCloudProfiles(ctx, "")
	if err != nil || len(ncps) != 1 || ncps[0].Spec.Parent.Name != "p" {
		t.Fatalf("ListNamespacedCloudProfiles: %v %+v", err, ncps)
	}
	if _, err := c.ListShoots(ctx, "garden-b"); KindOf(err) != KindForbidden {
		t.Fatalf("ListShoots garden-b: want forbidden, got %v", err)
	}
	if len(paths) != 4 {
		t.Fatalf("want one request per call, got %v", paths)
	}
}
