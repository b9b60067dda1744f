package provider_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// storedYAMLLines is how many lines the objects take as `kubectl get -o yaml` prints them (which
// leaves out managedFields).
func storedYAMLLines(t *testing.T, resource, namespace string, names ...string) int {
	t.Helper()
	n := 0
	for _, name := range names {
		object := storedObject(t, resource, namespace, name)
		unstructured.RemoveNestedField(object, "metadata", "managedFields")
		raw, err := yaml.Marshal(object)
		if err != nil {
			t.Fatal(err)
		}
		n += strings.Count(string(raw), "\n")
	}
	return n
}

// createdAs creates an object with a raw client as the given field manager, with kubectl's
// last-applied annotation when lastApplied (see createUnstructured).
func createdAs(t *testing.T, manager string, object any, lastApplied bool) {
	t.Helper()
	raw, err := json.Marshal(object)
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{}
	if err := json.Unmarshal(raw, &u.Object); err != nil {
		t.Fatal(err)
	}
	if _, err := createUnstructured(acctest.Context(t), webhookClient(t), u, manager, lastApplied); err != nil {
		t.Fatalf("creating %s %s as %s: %v", u.GetKind(), u.GetName(), manager, err)
	}
}

// TestAccQuery_onboardsAMixedLandscape: CloudProfiles created by kubectl's client-side apply
// (with its last-applied annotation), by another manager's server-side apply and by a plain create,
// with labels and annotations, and a NamespacedCloudProfile of one of them, are onboarded with
// `terraform query -generate-config-out` (Terraform 1.14+): the generated file is at most 1.5× the
// lines of the objects' YAML (as kubectl prints them), its import applies, the next plan is empty, and after the
// onboarding guide's one edit (the namespaced profile's parent named by reference) one destroy
// removes everything.
func TestAccQuery_onboardsAMixedLandscape(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	w := newCLIWorkspace(t, acctest.ProviderBlock(kubeconfig))
	if w.h.version[0] == 1 && w.h.version[1] < 14 {
		t.Skipf("terraform query needs Terraform 1.14 or later, the CLI is %d.%d", w.h.version[0], w.h.version[1])
	}
	admin := acctest.Client(t)
	label := acctest.UniqueName("onboard")
	profile := func(suffix string) *gardencorev1beta1.CloudProfile {
		cp := minimalCloudProfile(label + "-" + suffix)
		cp.TypeMeta = metav1.TypeMeta{APIVersion: "core.gardener.cloud/v1beta1", Kind: "CloudProfile"}
		cp.Labels = map[string]string{"acc-onboard": label, "team": suffix}
		cp.Annotations = map[string]string{"owner": "platform-" + suffix}
		t.Cleanup(func() { _ = admin.DeleteCloudProfile(acctest.Context(t), cp.Name, "") })
		return cp
	}
	kubectl, ssa, plain := profile("kubectl"), profile("ssa"), profile("plain")
	createdAs(t, "kubectl-client-side-apply", kubectl, true)
	if _, err := acctest.ClientAs(t, "team-a").ApplyCloudProfile(acctest.Context(t), ssa, kube.ApplyOptions{}); err != nil {
		t.Fatalf("team-a's server-side apply: %v", err)
	}
	createdAs(t, "creator", plain, false)
	team := teamProfile(projectNamespace, label+"-team", kubectl.Name)
	team.TypeMeta = metav1.TypeMeta{APIVersion: "core.gardener.cloud/v1beta1", Kind: "NamespacedCloudProfile"}
	team.Spec.Kubernetes, team.Spec.MachineImages = nil, nil
	team.Labels = map[string]string{"acc-onboard": label}
	t.Cleanup(func() { _ = admin.DeleteNamespacedCloudProfile(acctest.Context(t), projectNamespace, team.Name, "") })
	createdAs(t, "creator", team, false)

	query := fmt.Sprintf(`
list "gardener_cloud_profile" "landscape" {
  provider         = gardener
  include_resource = true
  config {
    label_selector = "acc-onboard=%[1]s"
  }
}

list "gardener_namespaced_cloud_profile" "landscape" {
  provider         = gardener
  include_resource = true
  config {
    namespace      = %[2]q
    label_selector = "acc-onboard=%[1]s"
  }
}
`, label, projectNamespace)
	if err := os.WriteFile(filepath.Join(w.dir, "landscape.tfquery.hcl"), []byte(query), 0o600); err != nil {
		t.Fatal(err)
	}
	requireNoProviderBug(t, w.mustRun(0, "query", "-generate-config-out=generated.tf"))
	path := filepath.Join(w.dir, "generated.tf")
	generated, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("generated.tf:\n%s", generated)
	lines := strings.Count(string(generated), "\n")
	objects := storedYAMLLines(t, "cloudprofiles", "", kubectl.Name, ssa.Name, plain.Name) + storedYAMLLines(t, "namespacedcloudprofiles", projectNamespace, team.Name)
	t.Logf("generated.tf has %d lines, the objects' YAML %d", lines, objects)
	if float64(lines) > 1.5*float64(objects) {
		t.Errorf("generated.tf has %d lines, more than 1.5× the %d lines of the objects' YAML", lines, objects)
	}
	for _, unwanted := range []string{lastAppliedAnnotation, `architecture = "amd64"`, "usable", `update_strategy = "major"`, "adopt_existing"} {
		if strings.Contains(string(generated), unwanted) {
			t.Errorf("generated.tf writes %s, which a person would not:\n%s", unwanted, generated)
		}
	}

	requireNoProviderBug(t, w.mustRun(0, "apply", "-auto-approve"))
	w.mustRun(0, "plan", "-detailed-exitcode")

	// The guide's one edit: the namespaced profile refers to its parent's resource.
	address := regexp.MustCompile(`(?s)resource "gardener_cloud_profile" "([^"]+)" \{.{0,400}?name += "` + regexp.QuoteMeta(kubectl.Name) + `"`).FindSubmatch(generated)
	if address == nil {
		t.Fatalf("generated.tf has no resource of %s", kubectl.Name)
	}
	edited := regexp.MustCompile(`(parent\s*=\s*\{[^}]*name\s*=\s*)"`+regexp.QuoteMeta(kubectl.Name)+`"`).
		ReplaceAllString(string(generated), "${1}gardener_cloud_profile."+string(address[1])+".metadata.name")
	if edited == string(generated) {
		t.Fatalf("the namespaced profile's parent is not written as a literal in generated.tf:\n%s", generated)
	}
	if err := os.WriteFile(path, []byte(edited), 0o600); err != nil {
		t.Fatal(err)
	}
	w.mustRun(0, "plan", "-detailed-exitcode")
	requireNoProviderBug(t, w.mustRun(0, "destroy", "-auto-approve"))
	for _, name := range []string{kubectl.Name, ssa.Name, plain.Name} {
		if _, err := admin.GetCloudProfile(acctest.Context(t), name); kube.KindOf(err) != kube.KindNotFound {
			t.Errorf("CloudProfile %s still exists after the destroy (%v)", name, err)
		}
	}
}
