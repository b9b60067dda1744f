package kube

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"k8s.io/client-go/rest"
)

func TestListPages_SelectorLimitAndContinue(t *testing.T) {
	var queries []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		queries = append(queries, r.URL.Path+"?"+r.URL.RawQuery)
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Query().Get("continue") {
		case "":
			_, _ = w.Write([]byte(`{"kind":"CloudProfileList","apiVersion":"core.gardener.cloud/v1beta1","metadata":{"continue":"next"},"items":[{"metadata":{"name":"a"}}]}`))
		default:
			_, _ = w.Write([]byte(`{"kind":"NamespacedCloudProfileList","apiVersion":"core.gardener.cloud/v1beta1","metadata":{},"items":[{"metadata":{"name":"b","namespace":"garden-x"}}]}`))
		}
	}))
	defer srv.Close()
	c, err := NewClient(&rest.Config{Host: srv.URL}, "test")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cps, next, err := c.CloudProfilesPage(ctx, ListPage{LabelSelector: "team=a", Limit: 1})
	if err != nil || len(cps) != 1 || cps[0].Name != "a" || next != "next" {
		t.Fatalf("first page: %v %+v %q", err, cps, next)
	}
	ncps, next, err := c.NamespacedCloudProfilesPage(ctx, "garden-x", ListPage{Continue: "next"})
	if err != nil || len(ncps) != 1 || ncps[0].Name != "b" || next != "" {
		t.Fatalf("last page: %v %+v %q", err, ncps, next)
	}
	want := []string{
		"/apis/core.gardener.cloud/v1beta1/cloudprofiles?labelSelector=team%3Da&limit=1",
		"/apis/core.gardener.cloud/v1beta1/namespaces/garden-x/namespacedcloudprofiles?continue=next",
	}
	if len(queries) != 2 || queries[0] != want[0] || queries[1] != want[1] {
		t.Fatalf("requests %q, want %q", queries, want)
	}
}
