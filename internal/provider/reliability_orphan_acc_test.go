package provider_test

import (
	"fmt"
	"net/http"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/faultproxy"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// isOwnershipPatch matches the JSON patch that records a create as its manager's apply.
func isOwnershipPatch(r *http.Request) bool {
	return r.Method == http.MethodPatch && r.Header.Get("Content-Type") == "application/json-patch+json"
}

// failOwnershipPatches starts a proxy that answers every ownership patch with 503, with retries
// turned off; before fails them, when set, runs at the first one.
func failOwnershipPatches(t *testing.T, before func()) string {
	saved := kube.DefaultRetryPolicy
	kube.DefaultRetryPolicy.MaxAttempts = 1
	t.Cleanup(func() { kube.DefaultRetryPolicy = saved })
	var once sync.Once
	proxy, kubeconfig := startFaultProxy(t, faultproxy.Config{
		Faults: []faultproxy.Fault{faultproxy.Status503},
		Match: func(r *http.Request) bool {
			if isOwnershipPatch(r) && before != nil {
				once.Do(before)
			}
			return isOwnershipPatch(r)
		},
	}, true)
	proxy.SetRate(1)
	return kubeconfig
}

// cloudProfileGoneWithin waits until the CloudProfile is gone (Gardener's controller removes its
// finalizer after a delete) and fails the test when it is still there after a minute.
func cloudProfileGoneWithin(t *testing.T, admin *kube.Client, name string) {
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(500 * time.Millisecond) {
		_, err := admin.GetCloudProfile(acctest.Context(t), name)
		if kube.IsNotFound(err) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the failed create left CloudProfile %s in the Garden (err=%v)", name, err)
		}
	}
}

// TestAccReliability_failedCreateDeletesWhatItCreated: a create whose ownership patch fails after
// the object was stored deletes that object again (its own create ID and UID, no other manager),
// so that the failed run leaves nothing no state knows, and the next apply creates it.
func TestAccReliability_failedCreateDeletesWhatItCreated(t *testing.T) {
	admin := acctest.Client(t)
	name := acctest.UniqueName("acc-undo")
	kubeconfig := failOwnershipPatches(t, nil)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		CheckDestroy:             cloudProfileGone(admin, name),
		Steps: []resource.TestStep{
			{
				Config:      ownedConfig(acctest.ProviderBlock(kubeconfig), name, "8Gi", ""),
				ExpectError: regexp.MustCompile(`(?s)recording the create.*was\s+deleted\s+again`),
			},
			{
				PreConfig: func() { cloudProfileGoneWithin(t, admin, name) },
				Config:    ownedConfig(acctest.ProviderBlock(acctest.Kubeconfig(t)), name, "8Gi", ""),
			},
		},
	})
}

// TestAccReliability_failedCreateRecordsWhatOthersManage: a create whose ownership patch fails
// after another manager wrote to the new object leaves it to that manager too, and records it in
// the state (tainted), so that the next plan replaces it instead of failing with "already exists".
func TestAccReliability_failedCreateRecordsWhatOthersManage(t *testing.T) {
	admin := acctest.Client(t)
	name := acctest.UniqueName("acc-kept")
	kubeconfig := failOwnershipPatches(t, func() { labelAsTeamB(t, name) })
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		CheckDestroy:             cloudProfileGone(admin, name),
		Steps: []resource.TestStep{
			{
				Config:      ownedConfig(acctest.ProviderBlock(kubeconfig), name, "8Gi", ""),
				ExpectError: regexp.MustCompile(`(?s)team-b.*recorded\s+in\s+the\s+state,\s+marked\s+tainted`),
			},
			{
				Config: ownedConfig(acctest.ProviderBlock(acctest.Kubeconfig(t)), name, "8Gi", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(cpAddr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
			},
		},
	})
}

// labelAsTeamB server-side applies a label to the CloudProfile as field manager team-b.
func labelAsTeamB(t *testing.T, name string) {
	cfg, err := clientcmd.BuildConfigFromFlags("", acctest.Kubeconfig(t))
	if err != nil {
		t.Error(err)
		return
	}
	dc, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Error(err)
		return
	}
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "core.gardener.cloud/v1beta1", "kind": "CloudProfile",
		"metadata": map[string]any{"name": name, "labels": map[string]any{"team": "b"}},
	}}
	gvr := schema.GroupVersionResource{Group: "core.gardener.cloud", Version: "v1beta1", Resource: "cloudprofiles"}
	if _, err := dc.Resource(gvr).Apply(acctest.Context(t), name, obj, metav1.ApplyOptions{FieldManager: "team-b"}); err != nil {
		t.Error(fmt.Errorf("team-b's apply: %w", err))
	}
}
