package provider_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path"
	"strings"
	"sync"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// fakeGarden serves fixed Gardener objects over HTTP and records every request, to count the API
// requests of the data sources without a cluster. It answers reads as the client makes them: a
// list of one name (field selector metadata.name), recorded as "LIST <the object's path>".
type fakeGarden struct {
	objects map[string]any // by URL path
	mu      sync.Mutex
	seen    map[string]int // "METHOD path" -> count
}

func (f *fakeGarden) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name, isList := strings.CutPrefix(r.URL.Query().Get("fieldSelector"), "metadata.name=")
	method, objectPath := r.Method, r.URL.Path
	if isList && r.Method == http.MethodGet {
		method, objectPath = "LIST", r.URL.Path+"/"+name
	}
	f.mu.Lock()
	f.seen[method+" "+objectPath]++
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	obj, ok := f.objects[objectPath]
	switch {
	case method == "LIST":
		_ = json.NewEncoder(w).Encode(listOf(path.Base(r.URL.Path), obj, ok))
	case r.Method != http.MethodGet || !ok:
		w.WriteHeader(http.StatusNotFound)
		// An object that does not exist, as the API server reports it (with the object's name).
		_ = json.NewEncoder(w).Encode(metav1.Status{TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}, Status: metav1.StatusFailure,
			Reason: metav1.StatusReasonNotFound, Code: http.StatusNotFound, Message: r.URL.Path + " not found",
			Details: &metav1.StatusDetails{Name: path.Base(r.URL.Path), Group: "core.gardener.cloud"}})
	default:
		_ = json.NewEncoder(w).Encode(obj)
	}
}

// listOf is the answer to a list of resource holding obj when found, else no item.
func listOf(resource string, obj any, found bool) map[string]any {
	kind := map[string]string{"cloudprofiles": "CloudProfileList", "namespacedcloudprofiles": "NamespacedCloudProfileList"}[resource]
	items := []any{}
	if found {
		items = append(items, obj)
	}
	return map[string]any{"apiVersion": "core.gardener.cloud/v1beta1", "kind": kind, "metadata": map[string]any{}, "items": items}
}

func (f *fakeGarden) count(method, p string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.seen[method+" "+p]
}

const fakeAPI = "/apis/core.gardener.cloud/v1beta1"

// fakeGardenerInfo is the path of gardener-info, which a Garden publishes (see gardenerInfo).
const fakeGardenerInfo = "/api/v1/namespaces/gardener-system-public/configmaps/gardener-info"

// gardenerInfo is gardener-info as gardener-operator writes it, for a fake Garden of release version.
func gardenerInfo(version string) map[string]any {
	return map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "gardener-info", "namespace": "gardener-system-public"},
		"data":     map[string]any{"gardenerAPIServer": "version: " + version + "\nworkloadIdentityIssuerURL: \"\"\n"}}
}

// TestDataSources_RequestsPerLookupAndMissingParent reads through a fake API server: a CloudProfile
// lookup makes one read (and the run reads the Garden's release once, for status_in_sync), a
// NamespacedCloudProfile lookup two at most (itself, and its parent once per run) and nothing else; a missing parent is a condition, not an error; lifecycle_overrides switches to the GEP-32
// merge, which the (v1.149) status does not match.
func TestDataSources_RequestsPerLookupAndMissingParent(t *testing.T) {
	parent := lifecycleCloudProfile("parent")
	parent.TypeMeta = metav1.TypeMeta{APIVersion: "core.gardener.cloud/v1beta1", Kind: "CloudProfile"}
	parent.Generation = 1
	parent = cloudprofile.DefaultedCloudProfile(parent)

	team := teamProfile("team", "ncp", "parent")
	team.TypeMeta = metav1.TypeMeta{APIVersion: "core.gardener.cloud/v1beta1", Kind: "NamespacedCloudProfile"}
	team.Generation = 3
	// A lifecycle override: Gardener v1.149 ignores it, the GEP-32 merge moves 1.32.4's expiry.
	team.Spec.Kubernetes.Versions = append(team.Spec.Kubernetes.Versions, gardencorev1beta1.ExpirableVersion{
		Version: "1.32.4", Lifecycle: []gardencorev1beta1.LifecycleStage{dsStage(gardencorev1beta1.ClassificationExpired, "2032-01-01T00:00:00Z")},
	})
	team.Status.ObservedGeneration = 3
	team.Status.CloudProfileSpec = cloudprofile.MergeNamespacedCloudProfile(parent.Spec, team.Spec, cloudprofile.MergeOptions{})

	orphan := teamProfile("team", "orphan", "gone")
	orphan.TypeMeta = team.TypeMeta

	fake := &fakeGarden{seen: map[string]int{}, objects: map[string]any{
		fakeAPI + "/cloudprofiles/parent":                           parent,
		fakeAPI + "/namespaces/team/namespacedcloudprofiles/ncp":    team,
		fakeAPI + "/namespaces/team/namespacedcloudprofiles/orphan": orphan,
		fakeGardenerInfo: gardenerInfo("v1.149.3"),
	}}
	server := httptest.NewServer(fake)
	defer server.Close()

	config := fmt.Sprintf(`
provider "gardener" {
  host = %q
}

data "gardener_cloud_profile" "parent" {
  name = "parent"
  at   = "2031-06-01T00:00:00Z"
}

data "gardener_namespaced_cloud_profile" "v1149" {
  namespace              = "team"
  name                   = "ncp"
  at                     = "2031-06-01T00:00:00Z"
  include_merged_profile = true
}

data "gardener_namespaced_cloud_profile" "gep32" {
  namespace              = "team"
  name                   = "ncp"
  at                     = "2031-06-01T00:00:00Z"
  lifecycle_overrides    = true
  include_merged_profile = true
}

data "gardener_namespaced_cloud_profile" "orphan" {
  namespace              = "team"
  name                   = "orphan"
  at                     = "2031-06-01T00:00:00Z"
  include_merged_profile = true
}
`, server.URL)
	k8s := func(version, attr string) tfjsonpath.Path {
		return tfjsonpath.New("kubernetes_versions").AtMapKey(version).AtMapKey(attr)
	}
	orphanAddr := "data.gardener_namespaced_cloud_profile.orphan"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				dsCheck("data.gardener_cloud_profile.parent", k8s("1.32.4", "classification"), knownvalue.StringExact("expired")),
				dsCheck("data.gardener_cloud_profile.parent", k8s("1.32.4", "status_classification"), knownvalue.Null()), // the fake has no status
				dsCheck("data.gardener_cloud_profile.parent", tfjsonpath.New("status_in_sync"), knownvalue.Bool(false)),
				dsCheck("data.gardener_namespaced_cloud_profile.v1149", k8s("1.32.4", "classification"), knownvalue.StringExact("expired")),
				dsCheck("data.gardener_namespaced_cloud_profile.v1149", tfjsonpath.New("status_in_sync"), knownvalue.Bool(true)),
				dsCheck("data.gardener_namespaced_cloud_profile.gep32", k8s("1.32.4", "classification"), knownvalue.StringExact("deprecated")),
				dsCheck("data.gardener_namespaced_cloud_profile.gep32", k8s("1.32.4", "lifecycle").AtSliceIndex(2), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"classification": knownvalue.StringExact("expired"), "start_time": knownvalue.StringExact("2032-01-01T00:00:00Z")})),
				dsCheck("data.gardener_namespaced_cloud_profile.gep32", tfjsonpath.New("status_in_sync"), knownvalue.Bool(false)),
				dsCondition("data.gardener_namespaced_cloud_profile.gep32", 2, "StatusInSync", "False", "Warning", "StatusDiffers"),
				dsCheck(orphanAddr, tfjsonpath.New("parent_found"), knownvalue.Bool(false)),
				dsCheck(orphanAddr, tfjsonpath.New("merged_spec"), knownvalue.Null()),
				dsCheck(orphanAddr, tfjsonpath.New("status"), knownvalue.Null()),
				dsCheck(orphanAddr, tfjsonpath.New("status_in_sync"), knownvalue.Bool(false)),
				dsCheck(orphanAddr, tfjsonpath.New("kubernetes_versions"), knownvalue.MapExact(map[string]knownvalue.Check{})),
				dsCheck(orphanAddr, tfjsonpath.New("latest_kubernetes_version"), knownvalue.Null()),
				dsCondition(orphanAddr, 0, "Ready", "False", "Error", "ParentNotFound"),
				dsCondition(orphanAddr, 1, "ParentExists", "False", "Error", "ParentNotFound"),
				dsCondition(orphanAddr, 2, "StatusInSync", "Unknown", "", "ParentNotFound"),
				dsCondition(orphanAddr, 3, "KubernetesVersionsSupported", "Unknown", "", "SpecNotAvailable"),
			},
		}},
	})

	// Every data source is read equally often; each read is one request per object it needs.
	reads := fake.count("LIST", fakeAPI+"/namespaces/team/namespacedcloudprofiles/orphan")
	if reads == 0 {
		t.Fatal("no reads recorded")
	}
	// The parent is read once per run for the CloudProfile data source; the two lookups of ncp
	// share the run's parent (kube.Client.ParentCloudProfile): they read it once more at most,
	// when they ask before the CloudProfile data source's read has returned.
	parentReads := fake.count("LIST", fakeAPI+"/cloudprofiles/parent")
	if parentReads < reads || parentReads > 2*reads {
		t.Errorf("LIST %s/cloudprofiles/parent: %d requests, want %d to %d (each data source was read %d times)", fakeAPI, parentReads, reads, 2*reads, reads)
	}
	want := map[string]int{
		"LIST " + fakeAPI + "/cloudprofiles/parent":                           parentReads,
		"LIST " + fakeAPI + "/namespaces/team/namespacedcloudprofiles/ncp":    2 * reads,
		"LIST " + fakeAPI + "/namespaces/team/namespacedcloudprofiles/orphan": reads,
		"LIST " + fakeAPI + "/cloudprofiles/gone":                             reads,
		// Once per run, for the release of the CloudProfile's status_in_sync.
		"GET " + fakeGardenerInfo: reads,
	}
	fake.mu.Lock()
	defer fake.mu.Unlock()
	for req, n := range fake.seen {
		if want[req] != n {
			t.Errorf("%s: %d requests, want %d (each data source was read %d times)", req, n, want[req], reads)
		}
	}
	for req, n := range want {
		if fake.seen[req] == 0 && n > 0 {
			t.Errorf("%s: no request, want %d", req, n)
		}
	}
}
