package provider_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/faultproxy"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// workspaceParent is a parent CloudProfile for the workspace tests, created with client-go as a
// platform team's parent would be; Kubernetes 1.30.5 expires on expiry.
func workspaceParent(name string, expiry time.Time) *gardencorev1beta1.CloudProfile {
	exp := metav1.NewTime(expiry)
	supported, deprecated := gardencorev1beta1.ClassificationSupported, gardencorev1beta1.ClassificationDeprecated
	return &gardencorev1beta1.CloudProfile{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: gardencorev1beta1.CloudProfileSpec{
			Type: "local",
			Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{
				{Version: "1.31.2", Classification: &supported},
				{Version: "1.30.5", Classification: &deprecated, ExpirationDate: &exp},
			}},
			MachineImages: []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: []gardencorev1beta1.MachineImageVersion{{
				ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1877.3.0", Classification: &supported},
				CRI:              []gardencorev1beta1.CRI{{Name: gardencorev1beta1.CRINameContainerD}},
				Architectures:    []string{"amd64"},
			}}}},
			MachineTypes: []gardencorev1beta1.MachineType{{Name: "m5.large", CPU: resource.MustParse("2"), GPU: resource.MustParse("0"), Memory: resource.MustParse("8Gi")}},
			Regions:      []gardencorev1beta1.Region{{Name: "local", Zones: []gardencorev1beta1.AvailabilityZone{{Name: "local-a"}}}},
			ProviderConfig: &runtime.RawExtension{Raw: []byte(`{"apiVersion":"local.provider.extensions.gardener.cloud/v1alpha1","kind":"CloudProfileConfig",` +
				`"machineImages":[{"name":"gardenlinux","versions":[{"version":"1877.3.0","image":"local/gardenlinux"}]}]}`)},
		},
	}
}

// createWorkspaceParent creates the parent with the admin client and deletes it when the test
// ends (after the test's own cleanups, which remove the namespaced profiles).
func createWorkspaceParent(t *testing.T, admin *kube.Client, cp *gardencorev1beta1.CloudProfile) {
	t.Helper()
	if _, err := admin.ApplyCloudProfile(acctest.Context(t), cp, kube.ApplyOptions{Force: true}); err != nil {
		t.Fatalf("creating the parent %s: %v", cp.Name, err)
	}
	t.Cleanup(func() {
		_ = admin.DeleteCloudProfile(context.Background(), cp.Name, "")
	})
	dsWaitForCloudProfileStatus(t, admin, cp.Name)
}

// workspaceNamespacedConfig renders count namespaced profiles name-0 … of the parent, each
// extending 1.30.5 until 2099-06-01 and adding a machine type named after itself.
func workspaceNamespacedConfig(kubeconfig, parent, name string, count int) string {
	return acctest.ProviderBlock(kubeconfig) + fmt.Sprintf(`
resource "gardener_namespaced_cloud_profile" "team" {
  count = %d
  metadata = {
    name      = "%s-${count.index}"
    namespace = %q
  }
  spec = {
    parent        = { kind = "CloudProfile", name = %q }
    kubernetes    = { versions = { "1.30.5" = { expiration_date = "2099-06-01T00:00:00Z" } } }
    machine_types = { "%s-${count.index}.metal" = { cpu = "96", gpu = "0", memory = "1Ti" } }
  }
}
`, count, name, projectNamespace, parent, name)
}

// TestAccWorkspace_parentChangedBetweenPlansIsSeen plans a namespaced profile twice with the
// parent changed out of band in between: the first plan finds the override useful, the second
// sees that the parent now has the same expiration date (warning W-no-op, a reminder about an
// override the plan does not change, so given with plan_reminders = true), so the parent read by
// one run is never served to the next.
func TestAccWorkspace_parentChangedBetweenPlansIsSeen(t *testing.T) {
	admin := acctest.Client(t)
	parent, name := acctest.UniqueName("acc-ws-parent"), acctest.UniqueName("acc-ws")
	cp := workspaceParent(parent, time.Date(2098, 1, 1, 0, 0, 0, 0, time.UTC))
	createWorkspaceParent(t, admin, cp)
	config := workspaceNamespacedConfig(acctest.Kubeconfig(t), parent, name, 1)
	w := newCLIWorkspace(t, strings.Replace(config, "config_path = ", "plan_reminders = true\n  config_path = ", 1))
	w.destroyOnCleanup()
	w.mustRun(0, "apply", "-auto-approve")

	noOp := regexp.MustCompile(`(?s)same\s+as\s+in\s+the\s+parent`)
	first := w.mustRun(0, "plan", "-detailed-exitcode")
	if noOp.MatchString(first) {
		t.Fatalf("the first plan warns about a no-op override, but the parent's 1.30.5 expires earlier:\n%s", first)
	}
	changed := getCloudProfile(t, admin, parent)
	changed.Spec.Kubernetes.Versions[1].ExpirationDate = &metav1.Time{Time: time.Date(2099, 6, 1, 0, 0, 0, 0, time.UTC)}
	changed.ManagedFields, changed.ResourceVersion = nil, ""
	if _, err := admin.ApplyCloudProfile(acctest.Context(t), changed, kube.ApplyOptions{Force: true}); err != nil {
		t.Fatalf("changing the parent out of band: %v", err)
	}
	second := w.mustRun(0, "plan", "-detailed-exitcode")
	if !noOp.MatchString(second) {
		t.Fatalf("the second plan does not see the parent changed out of band (no W-no-op warning for 1.30.5):\n%s", second)
	}
	requireNoProviderBug(t, second)
}

// TestAccWorkspace_manyProfilesInParallelUnderFaults applies 50 namespaced profiles with
// -parallelism=50 through a proxy that answers 20% of the requests with 429 (Retry-After) or 503.
// The apply must succeed, the next plan must be empty (state equals cluster), and the cluster and
// the state must hold each of the 50 exactly once, with the object's UID in the state; a destroy
// removes all of them.
func TestAccWorkspace_manyProfilesInParallelUnderFaults(t *testing.T) {
	const count = 50
	admin := acctest.Client(t)
	parent, name := acctest.UniqueName("acc-wsf-parent"), acctest.UniqueName("acc-wsf")
	createWorkspaceParent(t, admin, workspaceParent(parent, time.Date(2098, 1, 1, 0, 0, 0, 0, time.UTC)))
	t.Cleanup(func() {
		for i := range count {
			_ = admin.DeleteNamespacedCloudProfile(context.Background(), projectNamespace, fmt.Sprintf("%s-%d", name, i), "")
		}
	})
	proxy, kubeconfig := startFaultProxy(t, faultproxy.Config{Rate: 0.2, Seed: 20261125, Faults: []faultproxy.Fault{faultproxy.Status429, faultproxy.Status503}}, true)
	w := newCLIWorkspace(t, workspaceNamespacedConfig(kubeconfig, parent, name, count))

	out := w.mustRun(0, "apply", "-auto-approve", "-parallelism=50")
	requireNoProviderBug(t, out)
	w.mustRun(0, "plan", "-detailed-exitcode", "-parallelism=50")
	if err := workspaceClusterHolds(admin, w, name, count); err != nil {
		t.Fatal(err)
	}
	if proxy.Injected() == 0 {
		t.Fatal("the proxy injected no fault: the test proves nothing")
	}
	w.mustRun(0, "destroy", "-auto-approve", "-parallelism=50")
	if err := workspaceClusterHolds(admin, w, name, 0); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d requests, faults %v", proxy.Requests(), proxy.Counts())
}

// workspaceClusterHolds checks, with the admin client, that exactly the profiles name-0 …
// name-(count-1) exist among those named name-*, each with its configured machine type, and that
// the state holds each of them once with the object's UID.
func workspaceClusterHolds(admin *kube.Client, w *cliWorkspace, name string, count int) error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	items, err := admin.ListNamespacedCloudProfiles(ctx, projectNamespace)
	if err != nil {
		return err
	}
	uids := map[string]string{}
	for _, ncp := range items {
		if !strings.HasPrefix(ncp.Name, name+"-") || ncp.DeletionTimestamp != nil {
			continue
		}
		if len(ncp.Spec.MachineTypes) != 1 || ncp.Spec.MachineTypes[0].Name != ncp.Name+".metal" {
			return fmt.Errorf("%s has machine types %v, want only %s.metal", ncp.Name, ncp.Spec.MachineTypes, ncp.Name)
		}
		uids[projectNamespace+"/"+ncp.Name] = string(ncp.UID)
	}
	if len(uids) != count {
		return fmt.Errorf("the cluster holds %d profiles named %s-*, want %d", len(uids), name, count)
	}
	state := w.stateValues()
	if len(state) != count {
		return fmt.Errorf("the state holds %d resources, want %d", len(state), count)
	}
	seen := map[string]bool{}
	for addr, values := range state {
		id, _ := values["id"].(string)
		meta, _ := values["metadata"].(map[string]any)
		uid, _ := meta["uid"].(string)
		switch {
		case seen[id]:
			return fmt.Errorf("%s is in the state twice", id)
		case uids[id] == "":
			return fmt.Errorf("%s (%s) is in the state but not in the cluster", addr, id)
		case uids[id] != uid:
			return fmt.Errorf("%s has UID %s in the state, the cluster's object has %s", id, uid, uids[id])
		}
		seen[id] = true
	}
	return nil
}
