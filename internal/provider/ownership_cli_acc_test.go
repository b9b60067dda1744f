package provider_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	k8sresource "k8s.io/apimachinery/pkg/api/resource"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/faultproxy"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// savedPlanOfAnUpdate creates the profile with the CLI and saves the plan of an update (memory
// 8Gi -> 16Gi) in the file "update.tfplan".
func savedPlanOfAnUpdate(t *testing.T, name string) *cliWorkspace {
	t.Helper()
	w := newCLIWorkspace(t, ownedConfig(acctest.ProviderBlock(acctest.Kubeconfig(t)), name, "8Gi", ""))
	w.destroyOnCleanup()
	w.mustRun(0, "apply", "-auto-approve")
	w.write(ownedConfig(acctest.ProviderBlock(acctest.Kubeconfig(t)), name, "16Gi", ""))
	w.mustRun(2, "plan", "-detailed-exitcode", "-out=update.tfplan")
	return w
}

// requireStateMemory checks the memory of the first machine type in the workspace's state.
func requireStateMemory(t *testing.T, w *cliWorkspace, memory string) {
	t.Helper()
	if got := toJSON(t, w.stateAttribute(cpAddr, "spec", "machine_types")); !strings.Contains(strings.ReplaceAll(got, " ", ""), fmt.Sprintf(`"memory":%q`, memory)) {
		t.Fatalf("the state's machine types are %s, want memory %s: a failed write changed the state", got, memory)
	}
}

// requireOnlyDiagnostic checks that the CLI printed exactly one diagnostic, the error of summary:
// a saved plan applied after the object changed in the Garden says what happened once, without a
// warning of the server check that Terraform's planning again before the apply ran into first.
func requireOnlyDiagnostic(t *testing.T, out, summary string) {
	t.Helper()
	warnings := strings.Count(out, "Warning: ") - strings.Count(out, "Warning: Provider development overrides are in effect")
	if errors := strings.Count(out, "Error: "); errors != 1 || warnings != 0 || !strings.Contains(out, "Error: "+summary) {
		t.Fatalf("want only the error %q, got %d errors and %d warnings:\n%s", summary, errors, warnings, out)
	}
}

// requireConverges applies the workspace, checks that the next plan is empty and that the
// cluster holds the configured memory.
func requireConverges(t *testing.T, w *cliWorkspace, admin *kube.Client, name, memory string) {
	t.Helper()
	w.mustRun(0, "apply", "-auto-approve")
	w.mustRun(0, "plan", "-detailed-exitcode")
	if cp := getCloudProfile(t, admin, name); cp.Spec.MachineTypes[0].Memory.Cmp(k8sresource.MustParse(memory)) != 0 {
		t.Fatalf("cluster holds memory %s, want %s", cp.Spec.MachineTypes[0].Memory.String(), memory)
	}
}

// TestAccOwnership_savedPlanAfterTheObjectWasDeleted: the saved update is applied after someone
// deleted the profile. The apply fails with one clear error, re-creates nothing, blames no
// provider bug and leaves the state as it was; the next plan creates the profile, and after that
// apply the plan is empty.
func TestAccOwnership_savedPlanAfterTheObjectWasDeleted(t *testing.T) {
	admin := acctest.Client(t)
	name := acctest.UniqueName("acc-saved-del")
	w := savedPlanOfAnUpdate(t, name)
	uid := getCloudProfile(t, admin, name).UID
	if err := admin.DeleteCloudProfile(acctest.Context(t), name, ""); err != nil {
		t.Fatal(err)
	}
	waitGone(t, admin, name)

	out := w.mustRun(1, "apply", "update.tfplan")
	requireNoProviderBug(t, out)
	if !strings.Contains(out, "CloudProfile deleted outside of Terraform") || !strings.Contains(out, "Run terraform plan again") {
		t.Fatalf("want the deleted-since-the-plan error:\n%s", out)
	}
	requireOnlyDiagnostic(t, out, "CloudProfile deleted outside of Terraform")
	if _, err := admin.GetCloudProfile(acctest.Context(t), name); !kube.IsNotFound(err) {
		t.Fatalf("the failed update re-created the profile (err=%v)", err)
	}
	if got := w.stateAttribute(cpAddr, "metadata", "uid"); got != string(uid) {
		t.Fatalf("state uid %v, want the unchanged %s", got, uid)
	}
	requireStateMemory(t, w, "8Gi")

	plan := w.mustRun(2, "plan", "-detailed-exitcode")
	if !strings.Contains(plan, "will be created") {
		t.Fatalf("after the deletion the plan should create the profile:\n%s", plan)
	}
	requireConverges(t, w, admin, name, "16Gi")
}

// TestAccOwnership_savedPlanAndDestroyAfterTheObjectWasReplaced: someone deletes the profile and
// creates another of the same name. The saved update fails without touching the new object; a
// destroy that does not refresh refuses to delete it (UID precondition); a refreshing plan warns,
// forgets the old object and plans a create, which fails because the name is taken; the new
// object survives all of it unchanged.
func TestAccOwnership_savedPlanAndDestroyAfterTheObjectWasReplaced(t *testing.T) {
	admin := acctest.Client(t)
	other := acctest.ClientAs(t, "other-team")
	name := acctest.UniqueName("acc-saved-new")
	w := savedPlanOfAnUpdate(t, name)
	if err := admin.DeleteCloudProfile(acctest.Context(t), name, ""); err != nil {
		t.Fatal(err)
	}
	waitGone(t, admin, name)
	replacement, err := other.ApplyCloudProfile(acctest.Context(t), minimalCloudProfile(name), kube.ApplyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = admin.DeleteCloudProfile(acctest.Context(t), name, "") })
	unchanged := func(step string) {
		t.Helper()
		// Gardener's controller adds its finalizer meanwhile (the resourceVersion moves); the
		// object, its spec (generation) and its managers must not change.
		cp := getCloudProfile(t, admin, name)
		if cp.UID != replacement.UID || cp.Generation != replacement.Generation || cp.DeletionTimestamp != nil {
			t.Fatalf("%s changed the other team's object (uid %s -> %s, generation %d -> %d, deletion %v)", step,
				replacement.UID, cp.UID, replacement.Generation, cp.Generation, cp.DeletionTimestamp)
		}
		for _, e := range cp.ManagedFields {
			if e.Manager == kube.DefaultFieldManager {
				t.Fatalf("%s left an entry of field manager %s on the other team's object", step, e.Manager)
			}
		}
	}

	out := w.mustRun(1, "apply", "update.tfplan")
	requireNoProviderBug(t, out)
	if !strings.Contains(out, "CloudProfile replaced outside of Terraform") {
		t.Fatalf("want the replaced error:\n%s", out)
	}
	requireOnlyDiagnostic(t, out, "CloudProfile replaced outside of Terraform")
	unchanged("the saved update")

	// A plan without refresh that drops a version the other team owns on its object says nothing
	// of that object's owners: it is not the object of the state's UID.
	config := ownedConfig(acctest.ProviderBlock(acctest.Kubeconfig(t)), name, "16Gi", "")
	w.write(strings.Replace(config, `"1.31.2" = {}`, `"1.31.3" = {}`, 1))
	if out = w.mustRun(2, "plan", "-refresh=false", "-detailed-exitcode"); strings.Contains(out, "Removed entries stay in the cluster") {
		t.Fatalf("the plan describes the other team's object as the state's:\n%s", out)
	}
	w.write(config)

	out = w.mustRun(1, "destroy", "-auto-approve", "-refresh=false")
	if !strings.Contains(out, "CloudProfile replaced outside of Terraform") || !strings.Contains(out, "deleted nothing") {
		t.Fatalf("want the destroy to refuse the other object:\n%s", out)
	}
	unchanged("the destroy without refresh")

	out = w.mustRun(1, "apply", "-auto-approve")
	if !strings.Contains(out, "Warning: CloudProfile replaced outside of Terraform") || !strings.Contains(out, "other-team (Apply)") {
		t.Fatalf("want the refresh to warn and the create to name the other team:\n%s", out)
	}
	unchanged("the apply after refresh")
	w.mustRun(0, "destroy", "-auto-approve")
	unchanged("the destroy with refresh")
}

// TestAccOwnership_savedPlanAfterAnotherManagerChangedTheObject: another field manager adds a
// machine type after the plan; the saved update applies, keeps the other manager's machine type,
// and the next plan is empty.
func TestAccOwnership_savedPlanAfterAnotherManagerChangedTheObject(t *testing.T) {
	admin := acctest.Client(t)
	other := acctest.ClientAs(t, "other-team")
	name := acctest.UniqueName("acc-saved-chg")
	w := savedPlanOfAnUpdate(t, name)
	theirs := minimalCloudProfile(name)
	theirs.Labels = nil
	theirs.Spec.Kubernetes.Versions = nil
	theirs.Spec.MachineImages = nil
	theirs.Spec.Regions = nil
	theirs.Spec.MachineTypes[0].Name = "theirs.large"
	if _, err := other.ApplyCloudProfile(acctest.Context(t), theirs, kube.ApplyOptions{}); err != nil {
		t.Fatal(err)
	}

	requireNoProviderBug(t, w.mustRun(0, "apply", "update.tfplan"))
	w.mustRun(0, "plan", "-detailed-exitcode")
	cp := getCloudProfile(t, admin, name)
	var names []string
	for _, m := range cp.Spec.MachineTypes {
		names = append(names, m.Name)
	}
	if strings.Join(names, ",") != "m5.large,theirs.large" || cp.Spec.MachineTypes[0].Memory.Cmp(k8sresource.MustParse("16Gi")) != 0 {
		t.Fatalf("cluster machine types %v (first memory %s), want m5.large with 16Gi and the other team's theirs.large", names, cp.Spec.MachineTypes[0].Memory.String())
	}
}

// TestAccOwnership_failedWriteChangesNothingInTheState: the Garden stops answering (every request
// through the proxy fails) in the middle of the apply of an update. Terraform prints the one
// request error, no provider-bug diagnostics, and keeps the prior state; once the Garden answers
// again the same configuration applies and the plan is empty.
func TestAccOwnership_failedWriteChangesNothingInTheState(t *testing.T) {
	admin := acctest.Client(t)
	proxy, kubeconfig := startFaultProxy(t, faultproxy.Config{
		Faults: []faultproxy.Fault{faultproxy.Reset},
		// The writes fail, not the plan's server check (a dry run).
		Match: func(r *http.Request) bool { return r.Method == http.MethodPatch && r.URL.Query().Get("dryRun") == "" },
	}, true)
	name := acctest.UniqueName("acc-failed-write")
	w := newCLIWorkspace(t, ownedConfig(acctest.ProviderBlock(kubeconfig), name, "8Gi", ""))
	w.destroyOnCleanup()
	w.mustRun(0, "apply", "-auto-approve")
	// Gardener's controller writes the new profile once more (finalizer, status); the state is
	// compared from after that write on.
	waitForController(t, admin, name)
	w.mustRun(0, "apply", "-refresh-only", "-auto-approve")
	before := w.stateAttribute(cpAddr, "metadata", "resource_version")

	w.write(ownedConfig(acctest.ProviderBlock(kubeconfig), name, "16Gi", ""))
	proxy.SetRate(1)
	out := w.mustRun(1, "apply", "-auto-approve")
	proxy.SetRate(0)
	requireNoProviderBug(t, out)
	if n := strings.Count(out, "Error: "); n != 1 || !strings.Contains(out, "Garden cluster unreachable") {
		t.Fatalf("want exactly one error, Garden cluster unreachable; got %d:\n%s", n, out)
	}
	_, afterPlan, _ := strings.Cut(out, "Plan: 0 to add, 1 to change, 0 to destroy.")
	if lines := strings.Count(afterPlan, "\n"); lines > 25 {
		t.Fatalf("the failed apply printed %d lines, want a short error:\n%s", lines, out)
	}
	if got := w.stateAttribute(cpAddr, "metadata", "resource_version"); got != before {
		t.Fatalf("the failed write changed the state: resource_version %v -> %v", before, got)
	}
	requireStateMemory(t, w, "8Gi")
	w.mustRun(2, "plan", "-detailed-exitcode")
	requireConverges(t, w, admin, name, "16Gi")
}

// TestAccOwnership_importOfACoOwnedProfileFailsOnRemovalsOthersKeep: another team applied a
// profile (server-side) with a label, a Kubernetes version, a machine type and a classification
// this configuration leaves out. After the import, the plan would show them removed while the
// apply would leave them (server-side apply removes nothing another manager owns), so the plan
// fails, naming exactly those entries by their attributes, the manager that keeps them and the
// fix. Keeping them in the configuration (the fix) plans and applies without a change to them,
// and the next plan is empty.
func TestAccOwnership_importOfACoOwnedProfileFailsOnRemovalsOthersKeep(t *testing.T) {
	admin := acctest.Client(t)
	other := acctest.ClientAs(t, "other-team")
	name := acctest.UniqueName("acc-import-co")
	theirs := minimalCloudProfile(name) // label team=acc, 1.31.2 classified supported
	theirs.Spec.Kubernetes.Versions = append(theirs.Spec.Kubernetes.Versions, gardencorev1beta1.ExpirableVersion{Version: "1.30.8"})
	theirs.Spec.MachineTypes = append(theirs.Spec.MachineTypes, gardencorev1beta1.MachineType{
		Name: "theirs.large", CPU: k8sresource.MustParse("4"), GPU: k8sresource.MustParse("0"), Memory: k8sresource.MustParse("16Gi")})
	if _, err := other.ApplyCloudProfile(acctest.Context(t), theirs, kube.ApplyOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = admin.DeleteCloudProfile(acctest.Context(t), name, "") })
	importBlock := fmt.Sprintf("import {\n  to = %s\n  id = %q\n}\n", cpAddr, name)
	w := newCLIWorkspace(t, ownedConfig(acctest.ProviderBlock(acctest.Kubeconfig(t)), name, "8Gi", "")+importBlock)

	plan := w.mustRun(1, "plan", "-detailed-exitcode")
	requireNoProviderBug(t, plan)
	t.Logf("the failed plan (%d lines):\n%s", strings.Count(plan, "\n"), plan)
	_, detail, found := strings.Cut(plan, "Error: Removal the apply cannot carry out: other field managers keep 4 entries")
	if !found {
		t.Fatalf("want the error about the 4 entries other managers keep:\n%s", plan)
	}
	for _, entry := range []string{
		`metadata.labels["team"]: kept by "other-team"`,
		`spec.kubernetes.versions["1.30.8"]: kept by "other-team"`,
		`spec.kubernetes.versions["1.31.2"].classification: kept by "other-team"`,
		`spec.machine_types["theirs.large"]: kept by "other-team"`,
		"To fix: keep them in the configuration",
	} {
		if n := strings.Count(detail, entry); n != 1 {
			t.Errorf("the error names %q %d times, want once:\n%s", entry, n, detail)
		}
	}
	if n := strings.Count(plan, "\nError: "); n != 1 {
		t.Errorf("the plan has %d errors, want 1:\n%s", n, plan)
	}

	kept := strings.Replace(strings.Replace(ownedConfig(acctest.ProviderBlock(acctest.Kubeconfig(t)), name, "8Gi", ""),
		`"1.31.2" = {}`, `"1.31.2" = { classification = "supported" }, "1.30.8" = {}`, 1),
		`"m5.large" = { cpu = "2", gpu = "0", memory = "8Gi" }`, `"m5.large" = { cpu = "2", gpu = "0", memory = "8Gi" }, "theirs.large" = { cpu = "4", gpu = "0", memory = "16Gi" }`, 1)
	kept = strings.Replace(kept, "metadata = { name = ", `metadata = { labels = { team = "acc" }, name = `, 1)
	w.write(kept + importBlock)
	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))
	cp := getCloudProfile(t, admin, name)
	if cp.Labels["team"] != "acc" || len(cp.Spec.Kubernetes.Versions) != 2 || len(cp.Spec.MachineTypes) != 2 ||
		cp.Spec.Kubernetes.Versions[0].Classification == nil {
		t.Fatalf("the apply changed what the other team owns: labels %v, versions %+v, machine types %d",
			cp.Labels, cp.Spec.Kubernetes.Versions, len(cp.Spec.MachineTypes))
	}
	w.mustRun(0, "plan", "-detailed-exitcode")
}
