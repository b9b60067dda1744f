package provider_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	k8stypes "k8s.io/apimachinery/pkg/types"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// The drift check platform teams run in CI is `plan -refresh-only -detailed-exitcode`: 0 while
// the Garden holds what the state records, 2 (with the values) once another field manager changed
// a field. These tests drive the real CLI, whose exit code terraform-plugin-testing does not show.

// gvrOf is the API resource of the kind's objects.
func gvrOf(resource string) schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: "core.gardener.cloud", Version: "v1beta1", Resource: resource}
}

// patchedBy changes an object with a JSON patch as the field manager (kubectl patch, edit and
// replace write as an Update of their own manager).
func patchedBy(t *testing.T, manager, resource, namespace, name, patch string) {
	t.Helper()
	_, err := webhookClient(t).Resource(gvrOf(resource)).Namespace(namespace).Patch(acctest.Context(t), name, k8stypes.JSONPatchType,
		[]byte(patch), metav1.PatchOptions{FieldManager: manager})
	if err != nil {
		t.Fatalf("%s patching %s %s: %v", manager, resource, name, err)
	}
}

// parentAndNamespacedWorkspace is a CLI workspace with a CloudProfile and a NamespacedCloudProfile
// of it, applied, after Gardener's controllers have written both (finalizers, status) and a
// refresh recorded that.
func parentAndNamespacedWorkspace(t *testing.T, parent, name string) *cliWorkspace {
	t.Helper()
	admin := acctest.Client(t)
	w := newCLIWorkspace(t, parentAndNamespacedConfig(acctest.Kubeconfig(t), parent, name, `
    kubernetes = { versions = { "1.30.5" = { expiration_date = "2099-06-01T00:00:00Z" } } }`))
	w.destroyOnCleanup()
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))
	waitForController(t, admin, parent)
	if err := waitForRenderedStatus(t, admin, name); err != nil {
		t.Fatal(err)
	}
	w.mustRun(0, "apply", "-refresh-only", "-auto-approve")
	return w
}

// waitForMergedMemory waits until Gardener's controller has merged a machine type's memory of the
// parent into the NamespacedCloudProfile's status (it writes the object when its parent changed).
func waitForMergedMemory(t *testing.T, client *kube.Client, name, memory string) {
	t.Helper()
	err := kube.WaitUntilGone(acctest.Context(t), func(ctx context.Context) error {
		ncp, err := client.GetNamespacedCloudProfile(ctx, projectNamespace, name)
		if err != nil {
			return err
		}
		for _, m := range ncp.Status.CloudProfileSpec.MachineTypes {
			if m.Name == "m5.large" && m.Memory.String() == memory {
				return &kube.Error{Kind: kube.KindNotFound, Object: "merged status", Err: fmt.Errorf("merged")}
			}
		}
		return fmt.Errorf("not merged yet")
	})
	if err != nil {
		t.Fatalf("the merged status of %s never showed memory %s: %v", name, memory, err)
	}
}

// TestAccDriftCheck_refreshOnlyExitsZeroOnUnchangedObjects: on both resources, refresh-only
// plans of objects nobody changed exit 0, again and again (each refresh records exactly what the
// previous one did); after another field manager changed a field of each (kubectl patch, a bot's
// forced server-side apply), the refresh-only plan exits 2 showing both values, and once
// `apply -refresh-only` recorded them it exits 0 again.
func TestAccDriftCheck_refreshOnlyExitsZeroOnUnchangedObjects(t *testing.T) {
	admin := acctest.Client(t)
	parent, name := acctest.UniqueName("acc-drift-p"), acctest.UniqueName("acc-drift-n")
	w := parentAndNamespacedWorkspace(t, parent, name)
	for range 2 {
		out := w.mustRun(0, "plan", "-refresh-only", "-detailed-exitcode")
		if !strings.Contains(out, "No changes.") {
			t.Fatalf("the refresh-only plan of unchanged objects says more than no changes:\n%s", out)
		}
	}
	w.mustRun(0, "plan", "-detailed-exitcode")

	patchedBy(t, "kubectl-patch", "cloudprofiles", "", parent, `[{"op":"replace","path":"/spec/machineTypes/0/memory","value":"16Gi"}]`)
	bot := acctest.ClientAs(t, "expiry-bot")
	ncp := teamProfile(projectNamespace, name, parent)
	ncp.Spec.MachineTypes, ncp.Spec.MachineImages = nil, nil
	ncp.Spec.Kubernetes.Versions = []gardencorev1beta1.ExpirableVersion{{Version: "1.30.5", ExpirationDate: dsTime("2099-09-01T00:00:00Z")}}
	if _, err := bot.ApplyNamespacedCloudProfile(acctest.Context(t), ncp, kube.ApplyOptions{Force: true}); err != nil {
		t.Fatalf("the bot's apply: %v", err)
	}
	waitForMergedMemory(t, admin, name, "16Gi")

	out := w.mustRun(2, "plan", "-refresh-only", "-detailed-exitcode")
	for _, change := range []*regexp.Regexp{
		regexp.MustCompile(`memory\s+= "8Gi" -> "16Gi"`),
		regexp.MustCompile(`expiration_date = "2099-06-01T00:00:00Z" -> "2099-09-01T00:00:00Z"`),
	} {
		if !change.MatchString(out) {
			t.Errorf("the refresh-only plan does not show %s:\n%s", change, out)
		}
	}
	w.mustRun(0, "apply", "-refresh-only", "-auto-approve")
	w.mustRun(0, "plan", "-refresh-only", "-detailed-exitcode")
}
