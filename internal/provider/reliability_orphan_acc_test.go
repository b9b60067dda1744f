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
	apierrors "k8s.io/apimachinery/pkg/api/errors"
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

// TestAccReliability_failedCreateNeverTouchesAnotherTeamsObject: while a create's ownership patch
// is on its way (the create request stored the object and answered its UID), team B deletes the
// object and creates one of the same name from its manifest (`kubectl replace --force`: another
// UID, team B's label, and the annotations, the create's ID among them); then the patch fails. The
// create records nothing and says so; the next apply plans a create (the state holds nothing) and
// fails because the name is taken; team B's object survives both applies unchanged, with no entry
// of the provider's field manager.
func TestAccReliability_failedCreateNeverTouchesAnotherTeamsObject(t *testing.T) {
	admin := acctest.Client(t)
	name := acctest.UniqueName("acc-taken")
	var teamB metav1.Object
	kubeconfig := failOwnershipPatches(t, func() { teamB = replaceAsTeamB(t, name) })
	t.Cleanup(func() { _ = admin.DeleteCloudProfile(acctest.Context(t), name, "") })
	survives := func(after string) {
		t.Helper()
		if teamB == nil {
			t.Fatalf("team B's object was not created")
		}
		cp, err := admin.GetCloudProfile(acctest.Context(t), name)
		if err != nil {
			t.Fatalf("team B's object is gone after %s: %v", after, err)
		}
		if cp.UID != teamB.GetUID() || cp.Generation != teamB.GetGeneration() || cp.DeletionTimestamp != nil || cp.Labels["team"] != "b" {
			t.Fatalf("%s changed team B's object (uid %s -> %s, generation %d -> %d, deletion %v, labels %v)", after,
				teamB.GetUID(), cp.UID, teamB.GetGeneration(), cp.Generation, cp.DeletionTimestamp, cp.Labels)
		}
		for _, e := range cp.ManagedFields {
			if e.Manager == kube.DefaultFieldManager {
				t.Fatalf("%s left an entry of field manager %s on team B's object", after, e.Manager)
			}
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		Steps: []resource.TestStep{
			{
				Config:      ownedConfig(acctest.ProviderBlock(kubeconfig), name, "8Gi", ""),
				ExpectError: regexp.MustCompile(`(?s)CloudProfile replaced during the create.*team-b.*records\s+nothing\s+in\s+the\s+state`),
			},
			{
				PreConfig: func() { survives("the failed create") },
				Config:    ownedConfig(acctest.ProviderBlock(acctest.Kubeconfig(t)), name, "8Gi", ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(cpAddr, plancheck.ResourceActionCreate),
				}},
				ExpectError: regexp.MustCompile(`CloudProfile already exists`),
			},
		},
	})
	survives("the next apply")
}

// replaceAsTeamB deletes the CloudProfile and creates it again from its manifest as field manager
// team-b, with team B's label, as `kubectl replace --force` would, and returns the new object. It
// runs inside the fault proxy (t.Error, not t.Fatal).
func replaceAsTeamB(t *testing.T, name string) metav1.Object {
	ctx, resources := acctest.Context(t), cloudProfilesOf(t)
	if resources == nil {
		return nil
	}
	old, err := resources.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Errorf("team B's read of %s: %v", name, err)
		return nil
	}
	err = resources.Delete(ctx, name, metav1.DeleteOptions{})
	for deadline := time.Now().Add(time.Minute); err == nil; time.Sleep(200 * time.Millisecond) {
		if _, err = resources.Get(ctx, name, metav1.GetOptions{}); err == nil && time.Now().After(deadline) {
			err = fmt.Errorf("still there after a minute")
		}
	}
	if !apierrors.IsNotFound(err) {
		t.Errorf("team B's delete of %s: %v", name, err)
		return nil
	}
	manifest := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "core.gardener.cloud/v1beta1", "kind": "CloudProfile",
		"metadata": map[string]any{"name": name, "labels": map[string]any{"team": "b"}, "annotations": toAny(old.GetAnnotations())},
		"spec":     old.Object["spec"],
	}}
	created, err := resources.Create(ctx, manifest, metav1.CreateOptions{FieldManager: "team-b"})
	if err != nil {
		t.Errorf("team B's create of %s: %v", name, err)
		return nil
	}
	return created
}

// toAny is a string map as unstructured content.
func toAny(m map[string]string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// cloudProfilesOf is a dynamic client of the local Garden's CloudProfiles, with the admin
// kubeconfig.
func cloudProfilesOf(t *testing.T) dynamic.NamespaceableResourceInterface {
	cfg, err := clientcmd.BuildConfigFromFlags("", acctest.Kubeconfig(t))
	if err != nil {
		t.Error(err)
		return nil
	}
	dc, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Error(err)
		return nil
	}
	return dc.Resource(schema.GroupVersionResource{Group: "core.gardener.cloud", Version: "v1beta1", Resource: "cloudprofiles"})
}

// labelAsTeamB server-side applies a label to the CloudProfile as field manager team-b.
func labelAsTeamB(t *testing.T, name string) {
	resources := cloudProfilesOf(t)
	if resources == nil {
		return
	}
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "core.gardener.cloud/v1beta1", "kind": "CloudProfile",
		"metadata": map[string]any{"name": name, "labels": map[string]any{"team": "b"}},
	}}
	if _, err := resources.Apply(acctest.Context(t), name, obj, metav1.ApplyOptions{FieldManager: "team-b"}); err != nil {
		t.Error(fmt.Errorf("team-b's apply: %w", err))
	}
}
