package kube

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"

	gardencorev1 "github.com/gardener/gardener/pkg/apis/core/v1"
	"k8s.io/utils/ptr"
)

// fakeExtensionServer serves two ControllerRegistrations (provider-aws of type aws with two
// deployments, the first of a raw chart; networking-calico, an extension of another kind with type
// aws too) and their ControllerDeployments; it counts requests by path. With forbidden set the
// deployments answer 403.
type fakeExtensionServer struct {
	mu        sync.Mutex
	requests  map[string]int
	forbidden bool
}

func (f *fakeExtensionServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	f.requests[r.URL.Path]++
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	switch r.URL.Path {
	case "/apis/core.gardener.cloud/v1beta1/controllerregistrations":
		_, _ = fmt.Fprint(w, `{"apiVersion":"core.gardener.cloud/v1beta1","kind":"ControllerRegistrationList","metadata":{},"items":[`+
			`{"metadata":{"name":"networking-calico"},"spec":{"resources":[{"kind":"Network","type":"calico"},{"kind":"Extension","type":"aws"}],"deployment":{"deploymentRefs":[{"name":"networking-calico"}]}}},`+
			`{"metadata":{"name":"provider-aws"},"spec":{"resources":[{"kind":"BackupBucket","type":"aws"},{"kind":"Infrastructure","type":"aws"},{"kind":"Worker","type":"aws"}],"deployment":{"deploymentRefs":[{"name":"provider-aws-raw"},{"name":"provider-aws"}]}}}]}`)
	case "/apis/core.gardener.cloud/v1/controllerdeployments/provider-aws-raw":
		if f.forbidden {
			w.WriteHeader(http.StatusForbidden)
			_, _ = fmt.Fprint(w, `{"kind":"Status","apiVersion":"v1","status":"Failure","message":"controllerdeployments.core.gardener.cloud \"provider-aws-raw\" is forbidden: User \"robot\" cannot get resource \"controllerdeployments\" in API group \"core.gardener.cloud\" at the cluster scope","reason":"Forbidden","code":403}`)
			return
		}
		_, _ = fmt.Fprint(w, `{"apiVersion":"core.gardener.cloud/v1","kind":"ControllerDeployment","metadata":{"name":"provider-aws-raw"},"helm":{"rawChart":"H4sI"}}`)
	case "/apis/core.gardener.cloud/v1/controllerdeployments/provider-aws":
		_, _ = fmt.Fprint(w, `{"apiVersion":"core.gardener.cloud/v1","kind":"ControllerDeployment","metadata":{"name":"provider-aws"},"helm":{"ociRepository":{"repository":"europe-docker.pkg.dev/gardener-project/releases/charts/gardener/extensions/provider-aws","tag":"v1.74.2"}}}`)
	default:
		http.Error(w, "unexpected request", http.StatusTeapot)
	}
}

// TestProviderExtension_TheTaggedChartOfTheProviderRegistration: the extension of a provider type
// is the registration that serves one of its provider kinds (not an Extension of the same type
// name), and its release the first deployment with a tagged chart; the registrations are listed
// once and each deployment read once per run, a type no registration serves is not found.
func TestProviderExtension_TheTaggedChartOfTheProviderRegistration(t *testing.T) {
	f := &fakeExtensionServer{requests: map[string]int{}}
	c := newFakeServerClient(t, f)
	want := ExtensionDeployment{Registration: "provider-aws", Deployment: "provider-aws",
		Chart: "europe-docker.pkg.dev/gardener-project/releases/charts/gardener/extensions/provider-aws", Version: "v1.74.2"}
	for range 3 {
		got, found, err := c.ProviderExtension(context.Background(), "aws")
		if err != nil || !found || got != want {
			t.Fatalf("ProviderExtension(aws) = %+v, %v, %v; want %+v", got, found, err, want)
		}
	}
	if _, found, err := c.ProviderExtension(context.Background(), "gcp"); found || err != nil {
		t.Fatalf("ProviderExtension(gcp) = %v, %v; want not found", found, err)
	}
	want2 := map[string]int{
		"/apis/core.gardener.cloud/v1beta1/controllerregistrations":           1,
		"/apis/core.gardener.cloud/v1/controllerdeployments/provider-aws-raw": 1,
		"/apis/core.gardener.cloud/v1/controllerdeployments/provider-aws":     1,
	}
	if fmt.Sprint(f.requests) != fmt.Sprint(want2) {
		t.Fatalf("requests = %v, want %v", f.requests, want2)
	}
}

// TestProviderExtension_ForbiddenDeployments: credentials that may not read ControllerDeployments
// get KindForbidden, once per run.
func TestProviderExtension_ForbiddenDeployments(t *testing.T) {
	f := &fakeExtensionServer{requests: map[string]int{}, forbidden: true}
	c := newFakeServerClient(t, f)
	for range 2 {
		if _, _, err := c.ProviderExtension(context.Background(), "aws"); KindOf(err) != KindForbidden {
			t.Fatalf("err = %v, want KindForbidden", err)
		}
	}
	if n := f.requests["/apis/core.gardener.cloud/v1/controllerdeployments/provider-aws-raw"]; n != 1 {
		t.Fatalf("%d reads of the forbidden deployment, want 1", n)
	}
}

// TestChartRelease: the tag of a chart given by repository and tag, or by a full reference with or
// without "oci://", a registry port and a digest; none for a digest alone or a raw chart.
func TestChartRelease(t *testing.T) {
	oci := func(o gardencorev1.OCIRepository) *gardencorev1.ControllerDeployment {
		return &gardencorev1.ControllerDeployment{Helm: &gardencorev1.HelmControllerDeployment{OCIRepository: &o}}
	}
	for _, c := range []struct {
		d            *gardencorev1.ControllerDeployment
		chart, tag   string
		wantReleased bool
	}{
		{oci(gardencorev1.OCIRepository{Repository: ptr.To("r.example.com/charts/provider-aws"), Tag: ptr.To("v1.73.0")}), "r.example.com/charts/provider-aws", "v1.73.0", true},
		{oci(gardencorev1.OCIRepository{Ref: ptr.To("oci://r.example.com:5000/charts/provider-aws:v1.73.1")}), "r.example.com:5000/charts/provider-aws", "v1.73.1", true},
		{oci(gardencorev1.OCIRepository{Ref: ptr.To("r.example.com/charts/provider-aws:v1.73.2@sha256:abc")}), "r.example.com/charts/provider-aws", "v1.73.2", true},
		{oci(gardencorev1.OCIRepository{Ref: ptr.To("r.example.com:5000/charts/provider-aws@sha256:abc")}), "", "", false},
		{oci(gardencorev1.OCIRepository{Repository: ptr.To("r.example.com/charts/provider-aws"), Digest: ptr.To("sha256:abc")}), "", "", false},
		{&gardencorev1.ControllerDeployment{Helm: &gardencorev1.HelmControllerDeployment{RawChart: []byte("x")}}, "", "", false},
		{&gardencorev1.ControllerDeployment{}, "", "", false},
	} {
		chart, tag, ok := chartRelease(c.d)
		if chart != c.chart || tag != c.tag || ok != c.wantReleased {
			t.Errorf("chartRelease(%+v) = %q, %q, %v; want %q, %q, %v", c.d.Helm, chart, tag, ok, c.chart, c.tag, c.wantReleased)
		}
	}
}
