package provider_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// blastRadiusConfig is a CloudProfile with Kubernetes 1.31.2 and 1.30.5 and the gardenlinux
// versions 1877.3.0 and 1592.9.0 (update strategy minor); expiry is the expiration_date of 1.30.5
// and of 1592.9.0 ("" for none). A data source counts the Shoots per version.
func blastRadiusConfig(kubeconfig, name, expiry string) string {
	expiration := ""
	if expiry != "" {
		expiration = fmt.Sprintf(", expiration_date = %q", expiry)
	}
	return acctest.ProviderBlock(kubeconfig) + fmt.Sprintf(`
resource "gardener_cloud_profile" "test" {
  metadata = { name = %[1]q }
  spec = {
    type = "local"
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [for image in ["gardenlinux", "ubuntu", "alpine", "suse", "rhel"] : { name = image, versions = [{ version = "1.0.0", image = "local/${image}" }] }] })
    kubernetes = {
      versions = {
        "1.31.2" = { classification = "supported" }
        "1.30.5" = { classification = "supported"%[2]s }
      }
    }
    machine_images = {
      "gardenlinux" = {
        update_strategy = "minor"
        versions = {
          "1877.3.0" = { classification = "supported", architectures = ["amd64"] }
          "1592.9.0" = { classification = "supported", architectures = ["amd64"]%[2]s }
        }
      }
    }
    machine_types = { "m5.large" = { cpu = "2", gpu = "0", memory = "8Gi", architecture = "amd64" } }
    regions       = { "local" = {} }
  }
}

data "gardener_cloud_profile" "test" {
  name         = gardener_cloud_profile.test.metadata.name
  count_shoots = true
}

output "shoots_by_version" {
  value = data.gardener_cloud_profile.test.shoots_by_version
}
`, name, expiration)
}

// TestAccShoots_ExpiringVersionsReportTheirShoots is rule W-force-update against the local Garden:
// Shoots of two projects run 1.30.5 and 1.31.2 and the gardenlinux versions. The data source
// counts them per version; a plan that expires 1.30.5 and 1592.9.0 names the Shoots on them per
// project with the version Gardener force-updates them to; a plan that changes nothing lists no
// Shoots, and the expiring plan lists them once (the request log of the provider).
func TestAccShoots_ExpiringVersionsReportTheirShoots(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	name := acctest.UniqueName("blast")
	w := newCLIWorkspace(t, blastRadiusConfig(kubeconfig, name, ""))
	requests := filepath.Join(t.TempDir(), "requests.log")
	w.h.env = append(w.h.env, kube.RequestLogEnv+"="+requests)
	w.destroyOnCleanup()
	w.mustRun(0, "apply", "-auto-approve")

	// Gardener allows projects of 10 characters and 21 for a project's and a Shoot's name together.
	unique := acctest.UniqueName("")
	second, shoots := "bp"+unique[len(unique)-6:], "bs"+unique[len(unique)-6:]
	fixture := newShootFixture(t, kubeconfig, shoots)
	ctx := acctest.Context(t)
	if err := fixture.blastRadiusShoots(ctx, name, second); err != nil {
		t.Fatal(err)
	}

	w.mustRun(0, "apply", "-auto-approve") // reads the data source again
	var counts struct {
		Kubernetes    map[string]int            `json:"kubernetes"`
		MachineImages map[string]map[string]int `json:"machine_images"`
	}
	if err := json.Unmarshal([]byte(w.mustRun(0, "output", "-json", "shoots_by_version")), &counts); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(counts.Kubernetes) != "map[1.30.5:3 1.31.2:1]" || fmt.Sprint(counts.MachineImages) != "map[gardenlinux:map[1592.9.0:2 1877.3.0:2]]" {
		t.Fatalf("shoots_by_version = %+v", counts)
	}

	truncate(t, requests)
	requireNoWarnings(t, "a plan without changes", w.mustRun(0, "plan", "-detailed-exitcode"))
	if n := shootLists(t, requests); n != 1 {
		t.Errorf("a plan without changes listed the Shoots %d times, want once (for the data source only)", n)
	}

	truncate(t, requests)
	w.write(blastRadiusConfig(kubeconfig, name, "2099-01-01T00:00:00Z"))
	out := w.mustRun(2, "plan", "-detailed-exitcode")
	requirePlanHeadlines(t, "the expiring plan", out,
		`Kubernetes version "1.30.5" expires after 2099-01-01T00:00:00Z while 3 Shoots run it`,
		`Machine image "gardenlinux" version "1592.9.0" expires after 2099-01-01T00:00:00Z while 2 Shoots run it`)
	shoot := func(namespace, suffix string) string {
		return namespace + "/" + shoots + "-" + suffix + " (window 220000+0000-230000+0000)"
	}
	for _, want := range []string{
		`force-updates it, even with auto-update off: to "1.31.2" for ` + shoot("garden-"+second, "d") + ", " + shoot("garden-demo", "a") + ", " +
			shoot("garden-demo", "b") + fmt.Sprintf("; projects: garden-%s (1), garden-demo (2)", second),
		`force-updates it, even with auto-update off: to "1877.3.0" for ` + shoot("garden-demo", "a") + ", " + shoot("garden-demo", "c") + "; projects: garden-demo (2)",
		"(rule W-force-update, the provider's own check)",
	} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("the plan does not say %q:\n%s", want, out)
		}
	}
	if n := shootLists(t, requests); n != 1 {
		t.Errorf("the expiring plan listed the Shoots %d times, want once per run", n)
	}
}

// blastRadiusShoots creates, for the CloudProfile, the Shoots <name>-a (1.30.5, gardenlinux
// 1592.9.0), -b (1.30.5, 1877.3.0), -c (1.31.2, 1592.9.0) in the demo project, and -d (1.30.5,
// 1877.3.0) in a second project it creates.
func (f *shootFixture) blastRadiusShoots(ctx context.Context, profile, second string) error {
	if err := f.prerequisites(ctx); err != nil {
		return err
	}
	if err := f.project(ctx, second); err != nil {
		return err
	}
	for _, s := range []struct{ namespace, suffix, kubernetes, image string }{
		{projectNamespace, "a", "1.30.5", "1592.9.0"},
		{projectNamespace, "b", "1.30.5", "1877.3.0"},
		{projectNamespace, "c", "1.31.2", "1592.9.0"},
		{"garden-" + second, "d", "1.30.5", "1877.3.0"},
	} {
		if err := f.profileShoot(ctx, s.namespace, f.name+"-"+s.suffix, "CloudProfile", profile, s.kubernetes, s.image); err != nil {
			return err
		}
	}
	return nil
}

var (
	gvrNamespaces = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	gvrProjects   = schema.GroupVersionResource{Group: "core.gardener.cloud", Version: "v1beta1", Resource: "projects"}
)

// project creates a second project (namespace garden-<name>, Project <name>) with the Secret and
// SecretBinding its Shoots need.
func (f *shootFixture) project(ctx context.Context, name string) error {
	namespace := "garden-" + name
	if err := f.create(ctx, gvrNamespaces, "", map[string]any{"apiVersion": "v1", "kind": "Namespace",
		"metadata": map[string]any{"name": namespace, "labels": map[string]any{"gardener.cloud/role": "project", "project.gardener.cloud/name": name}}}); err != nil {
		return err
	}
	if err := f.create(ctx, gvrProjects, "", map[string]any{"apiVersion": "core.gardener.cloud/v1beta1", "kind": "Project",
		"metadata": map[string]any{"name": name, "annotations": map[string]any{"confirmation.gardener.cloud/deletion": "true"}},
		"spec":     map[string]any{"namespace": namespace}}); err != nil {
		return err
	}
	if err := f.create(ctx, gvrSecrets, namespace, map[string]any{"apiVersion": "v1", "kind": "Secret",
		"metadata": map[string]any{"name": f.name, "namespace": namespace}, "stringData": map[string]any{"token": "unused"}}); err != nil {
		return err
	}
	return f.create(ctx, gvrSecretBindings, namespace, map[string]any{"apiVersion": "core.gardener.cloud/v1beta1", "kind": "SecretBinding",
		"metadata": map[string]any{"name": f.name, "namespace": namespace}, "provider": map[string]any{"type": "local"},
		"secretRef": map[string]any{"name": f.name, "namespace": namespace}})
}

// profileShoot creates a Shoot of the profile (kind CloudProfile or NamespacedCloudProfile) with
// one worker pool on the gardenlinux version image.
func (f *shootFixture) profileShoot(ctx context.Context, namespace, name, kind, profile, kubernetes, image string) error {
	return f.create(ctx, gvrShoots, namespace, map[string]any{
		"apiVersion": "core.gardener.cloud/v1beta1", "kind": "Shoot",
		"metadata": map[string]any{"name": name, "namespace": namespace,
			"annotations": map[string]any{"confirmation.gardener.cloud/deletion": "true"}},
		"spec": map[string]any{
			"cloudProfile":      map[string]any{"kind": kind, "name": profile},
			"region":            "local",
			"secretBindingName": f.name,
			"kubernetes":        map[string]any{"version": kubernetes},
			"networking":        map[string]any{"type": "calico", "nodes": shootNodesCIDR},
			"maintenance":       map[string]any{"timeWindow": map[string]any{"begin": "220000+0000", "end": "230000+0000"}},
			"provider": map[string]any{"type": "local", "workers": []any{map[string]any{
				"name": "cpu-worker", "minimum": 1, "maximum": 1,
				"machine": map[string]any{"type": "m5.large", "image": map[string]any{"name": "gardenlinux", "version": image}},
			}}},
		},
	})
}

// truncate empties the request log.
func truncate(t *testing.T, file string) {
	t.Helper()
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
}

// shootLists counts the Shoot lists in the request log.
func shootLists(t *testing.T, file string) int {
	t.Helper()
	raw, err := os.ReadFile(file)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	n := 0
	for line := range strings.SplitSeq(string(raw), "\n") {
		if strings.HasPrefix(line, "GET ") && strings.Contains(line, "/shoots") {
			n++
		}
	}
	return n
}

// TestAccShoots_WithoutPermissionTheRunWarnsOnce: the project's user may not list Shoots; two data
// sources that count them give one warning that names the missing permission, and both read
// with shoots_by_version null.
func TestAccShoots_WithoutPermissionTheRunWarnsOnce(t *testing.T) {
	project := acctest.ProjectKubeconfig(t)
	client := acctest.Client(t)
	parentName, name := acctest.UniqueName("acc-noshoots"), acctest.UniqueName("acc-noshoots-ncp")
	if _, err := client.ApplyCloudProfile(acctest.Context(t), lifecycleCloudProfile(parentName), kube.ApplyOptions{}); err != nil {
		t.Fatalf("creating CloudProfile %s: %v", parentName, err)
	}
	t.Cleanup(func() { _ = client.DeleteCloudProfile(acctest.Context(t), parentName, "") })
	if _, err := client.ApplyNamespacedCloudProfile(acctest.Context(t), teamProfile(dsNamespace, name, parentName), kube.ApplyOptions{}); err != nil {
		t.Fatalf("creating NamespacedCloudProfile %s: %v", name, err)
	}
	t.Cleanup(func() { _ = client.DeleteNamespacedCloudProfile(acctest.Context(t), dsNamespace, name, "") })
	config := acctest.ProviderBlock(project)
	for _, ds := range []string{"one", "two"} {
		config += fmt.Sprintf(`
data "gardener_namespaced_cloud_profile" %q {
  namespace    = %q
  name         = %q
  count_shoots = true
}

output %q {
  value = data.gardener_namespaced_cloud_profile.%s.shoots_by_version == null
}
`, ds, dsNamespace, name, ds, ds)
	}
	w := newCLIWorkspace(t, config)
	out := w.mustRun(0, "apply", "-auto-approve")
	requirePlanHeadlines(t, "reading two data sources without permission to list Shoots", out, "Shoots not listed")
	for _, want := range []string{`Listing the Shoots of namespace "` + dsNamespace + `" failed`, `may not list them in namespace "` + dsNamespace + `"`, "one = true", "two = true"} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("the apply does not say %q:\n%s", want, out)
		}
	}
}

// TestAccShoots_RemovingAnOverrideReportsTheShootsOfTheNamespacedProfile is rule W-force-update
// for a NamespacedCloudProfile: removing the override that extended 1.30.5 brings the parent's
// earlier expiration back into the merged profile, and the plan names the Shoot of the namespaced
// profile that runs it and its target, 1.31.2.
func TestAccShoots_RemovingAnOverrideReportsTheShootsOfTheNamespacedProfile(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	client := acctest.Client(t)
	parent, name := acctest.UniqueName("acc-br-parent"), acctest.UniqueName("acc-br-ncp")
	override := `kubernetes = { versions = { "1.30.5" = { expiration_date = "2099-06-01T00:00:00Z" } } }`
	w := newCLIWorkspace(t, parentAndNamespacedConfig(kubeconfig, parent, name, override))
	w.destroyOnCleanup()
	w.mustRun(0, "apply", "-auto-approve")
	if err := waitForRenderedStatus(t, client, name); err != nil {
		t.Fatal(err)
	}
	unique := acctest.UniqueName("")
	fixture := newShootFixture(t, kubeconfig, "bn"+unique[len(unique)-6:])
	ctx := acctest.Context(t)
	if err := fixture.prerequisites(ctx); err != nil {
		t.Fatal(err)
	}
	if err := fixture.profileShoot(ctx, projectNamespace, fixture.name, "NamespacedCloudProfile", name, "1.30.5", "1877.3.0"); err != nil {
		t.Fatal(err)
	}

	requireNoWarnings(t, "a plan without changes", w.mustRun(0, "plan", "-detailed-exitcode"))
	w.write(parentAndNamespacedConfig(kubeconfig, parent, name, ""))
	out := w.mustRun(2, "plan", "-detailed-exitcode")
	requirePlanHeadlines(t, "the plan removing the override", out,
		`Kubernetes version "1.30.5" expires after 2099-01-01T00:00:00Z while 1 Shoot runs it`)
	want := `to "1.31.2" for ` + projectNamespace + "/" + fixture.name + " (window 220000+0000-230000+0000); projects: " + projectNamespace + " (1)"
	if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
		t.Errorf("the plan does not say %q:\n%s", want, out)
	}
}
