package provider_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"k8s.io/client-go/tools/clientcmd"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/faultproxy"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// The Gardener release a plan follows (provider_release.go): the local Garden publishes its own,
// v1.149.3, in gardener-info; a plan reads it once and says nothing about it; gardener_version
// decides the verdict of a rule only some releases apply; a release the Garden publishes outside
// the known range, or none, is said once per run.

// localGardenRelease is the release the local Garden runs: garden/go.mod's Gardener.
const localGardenRelease = "v1.149.3"

// gardenerInfoPath is where a Garden publishes its release.
const gardenerInfoPath = "/api/v1/namespaces/gardener-system-public/configmaps/gardener-info"

// releaseProfiles are CloudProfiles of type local, one per name, after providerBlock. With
// reservedCapability their machine capabilities include one with Gardener's reserved prefix
// "gardener-", which Gardener v1.147.0 and later reject (rule I-3) and v1.146.0 accepts.
func releaseProfiles(providerBlock string, reservedCapability bool, names ...string) string {
	capabilities := `[{ name = "architecture", values = ["amd64"] }]`
	if reservedCapability {
		capabilities = `[{ name = "architecture", values = ["amd64"] }, { name = "gardener-update-type", values = ["rolling"] }]`
	}
	return providerBlock + fmt.Sprintf(`
resource "gardener_cloud_profile" "test" {
  for_each = toset([%s])
  metadata = { name = each.key }
  spec = {
    type                 = "local"
    machine_capabilities = %s
    kubernetes           = { versions = { "1.31.2" = {} } }
    machine_images       = { "gardenlinux" = { versions = { "1877.3.0" = {} } } }
    machine_types        = { "m5.large" = { cpu = "2", gpu = "0", memory = "8Gi" } }
    regions              = { "local" = {} }
    provider_config = jsonencode({
      apiVersion    = "local.provider.extensions.gardener.cloud/v1alpha1"
      kind          = "CloudProfileConfig"
      machineImages = [{ name = "gardenlinux", versions = [{ version = "1877.3.0", capabilityFlavors = [{ image = "local/gardenlinux:1877.3.0", capabilities = { architecture = ["amd64"] } }] }] }]
    })
  }
}
`, quotedList(names), capabilities)
}

// quotedList renders names as the elements of an HCL list.
func quotedList(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(quoted, ", ")
}

// withSettings adds settings to a provider block of acctest.ProviderBlock or offlineProvider.
func withSettings(providerBlock, settings string) string {
	return strings.Replace(providerBlock, "provider \"gardener\" {\n", "provider \"gardener\" {\n"+settings, 1)
}

// TestAccReleases_LocalGardenPublishesItsRelease: the local Garden publishes the release it runs
// in gardener-info, readable by the project's robot as by every authenticated user, and with
// provider-local's admission it lists provider-local of that release as a Garden lists its
// extensions.
func TestAccReleases_LocalGardenPublishesItsRelease(t *testing.T) {
	ctx := acctest.Context(t)
	for who, client := range map[string]*kube.Client{"admin": acctest.Client(t), "project robot": projectClient(t)} {
		if v, err := client.PublishedGardenerVersion(ctx); v != localGardenRelease || err != nil {
			t.Errorf("%s reads the release %q, %v; want %s", who, v, err, localGardenRelease)
		}
	}
	requireLocalMutator(t)
	ext, found, err := acctest.Client(t).ProviderExtension(ctx, "local")
	if err != nil || !found || ext.Registration != "provider-local" || ext.Version != localGardenRelease {
		t.Fatalf("the extension of type local: %+v, %v, %v; want provider-local %s", ext, found, err, localGardenRelease)
	}
}

// projectClient is a client of the local Garden's project robot.
func projectClient(t *testing.T) *kube.Client {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", acctest.ProjectKubeconfig(t))
	if err != nil {
		t.Fatal(err)
	}
	c, err := kube.NewClient(cfg, "acctest")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestAccReleases_PlanReadsTheReleaseOnceAndSaysNothing: a plan of three CloudProfiles against the
// local Garden (v1.149.3, the default's minor) reads gardener-info once, and the extension
// releases once, and prints no warning: the release it follows is the one it would follow anyway.
func TestAccReleases_PlanReadsTheReleaseOnceAndSaysNothing(t *testing.T) {
	kubeconfig := acctest.Kubeconfig(t)
	prefix := acctest.UniqueName("acc-release")
	w := newCLIWorkspace(t, releaseProfiles(acctest.ProviderBlock(kubeconfig), false, prefix+"-a", prefix+"-b", prefix+"-c"))
	log := filepath.Join(t.TempDir(), "requests.log")
	w.h.env = append(w.h.env, kube.RequestLogEnv+"="+log)
	out := w.mustRun(2, "plan", "-detailed-exitcode")
	requireNoProviderBug(t, out)
	requireNoWarnings(t, "a plan against the local Garden", out)
	raw, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	count := func(prefix string) int {
		return len(slices.DeleteFunc(slices.Clone(lines), func(l string) bool { return !strings.HasPrefix(l, prefix) }))
	}
	if n := count("GET " + gardenerInfoPath + " 200"); n != 1 {
		t.Errorf("the plan read gardener-info %d times, want once:\n%s", n, raw)
	}
	if n := count("GET /apis/core.gardener.cloud/v1beta1/controllerregistrations "); n != 1 {
		t.Errorf("the plan listed the ControllerRegistrations %d times, want once:\n%s", n, raw)
	}
	if n := count("GET /apis/core.gardener.cloud/v1/controllerdeployments/"); n > 1 {
		t.Errorf("the plan read %d ControllerDeployments, want at most provider-local's:\n%s", n, raw)
	}
}

// TestAccReleases_TheReleaseDecidesTheVerdict is rule I-3 per release, through the CLI: a
// capability with Gardener's reserved prefix validates and plans with gardener_version = v1.146.0
// (saying once which release's rules it followed) and fails at validate and plan with v1.149.3, on
// the capability, saying from which release the rule applies; a value unknown at validate follows
// v1.149.3 without an error of its own. Against the local Garden (v1.149.3)
// with v1.146.0 the setting wins offline, the plan says that it disagrees with the Garden, and the
// Garden's dry run rejects the profiles.
func TestAccReleases_TheReleaseDecidesTheVerdict(t *testing.T) {
	names := []string{"release-a", "release-b"}
	w := newCLIWorkspace(t, "")
	for _, c := range []struct {
		version  string
		accepted bool
	}{{"v1.146.0", true}, {"v1.149.3", false}} {
		w.write(releaseProfiles(offlineProvider(fmt.Sprintf("  server_checks = false\n  gardener_version = %q\n", c.version)), true, names...))
		validate, validateCode := w.run("validate")
		plan, planCode := w.run("plan")
		requireNoProviderBug(t, plan)
		if c.accepted {
			if validateCode != 0 || planCode != 0 {
				t.Fatalf("gardener_version = %s: validate exited %d, plan %d; want both to accept:\n%s\n%s", c.version, validateCode, planCode, validate, plan)
			}
			requirePlanHeadlines(t, "the plan of "+c.version, plan, "Rules of Gardener v1.146.0")
			continue
		}
		for what, out := range map[string]string{"validate": validate, "plan": plan} {
			flat := oneLine(out)
			for _, want := range []string{"Error: ", `Gardener: spec.machineCapabilities[1].name: Forbidden`, "(rule I-3)",
				"Gardener v1.147.0 and later apply rule I-3. The offline checks follow gardener_version, else the release the Garden publishes, else v1.149.3."} {
				if !strings.Contains(flat, want) {
					t.Errorf("gardener_version = %s: %s does not say %q:\n%s", c.version, what, want, out)
				}
			}
		}
		if validateCode != 1 || planCode != 1 || len(warningHeadlines(plan)) != 0 {
			t.Fatalf("gardener_version = %s: validate exited %d, plan %d; want both to reject, without warnings:\n%s", c.version, validateCode, planCode, plan)
		}
	}
	// A value unknown at validate (a variable without a value) is no error: the default's rules apply.
	w.write("variable \"gardener_version\" {\n  type = string\n}\n" +
		releaseProfiles(offlineProvider("  server_checks = false\n  gardener_version = var.gardener_version\n"), true, names...))
	out, code := w.run("validate")
	if flat := oneLine(out); code != 1 || !strings.Contains(flat, "(rule I-3)") || strings.Contains(flat, "Invalid Gardener release") {
		t.Fatalf("validate with gardener_version unknown: want the rules of v1.149.3 (I-3), got exit %d:\n%s", code, out)
	}

	kubeconfig := acctest.Kubeconfig(t)
	prefix := acctest.UniqueName("acc-release")
	w.write(releaseProfiles(withSettings(acctest.ProviderBlock(kubeconfig), "  gardener_version = \"v1.146.0\"\n"), true, prefix+"-a", prefix+"-b"))
	out = w.mustRun(1, "plan")
	requireNoProviderBug(t, out)
	requireHeadlines(t, "a plan with gardener_version = v1.146.0 against the local Garden", out, "gardener_version differs from the Garden's release")
	flat := oneLine(out)
	for _, want := range []string{`gardener_version = "v1.146.0", but the Garden publishes Gardener v1.149.3`, "follow the setting: the rules of v1.146.0",
		`set gardener_version = "v1.149.3"`, "gardener-update-type"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the plan does not say %q:\n%s", want, out)
		}
	}
}

// TestAccReleases_WhatTheGardenPublishesIsSaidOnce: a proxy in front of the local Garden answers
// gardener-info (and provider-local's ControllerDeployment) as other Gardens would. A plan of three
// CloudProfiles says once per run what matters: a release outside the known range names it and
// the nearest known release, a known release other than the default names its rules, a Garden
// without gardener-info, one that forbids reading it or one whose release cannot be read gets one
// note; an extension of another minor release is one warning, and a Garden whose
// ControllerDeployments cannot be read says nothing about them.
func TestAccReleases_WhatTheGardenPublishesIsSaidOnce(t *testing.T) {
	proxy, kubeconfig := startFaultProxy(t, faultproxy.Config{}, true)
	prefix := acctest.UniqueName("acc-release")
	w := newCLIWorkspace(t, releaseProfiles(acctest.ProviderBlock(kubeconfig), false, prefix+"-a", prefix+"-b", prefix+"-c"))
	info := func(code int, body string) func(*http.Request) (faultproxy.Response, bool) {
		return func(r *http.Request) (faultproxy.Response, bool) {
			return faultproxy.Response{Code: code, Body: body}, r.URL.Path == gardenerInfoPath
		}
	}
	published := func(version string) func(*http.Request) (faultproxy.Response, bool) {
		return info(200, fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"gardener-info","namespace":"gardener-system-public"},"data":{"gardenerAPIServer":%q}}`,
			"version: "+version+"\nworkloadIdentityIssuerURL: \"\"\n"))
	}
	status := func(code int, reason, message string) string {
		return fmt.Sprintf(`{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":%q,"reason":%q,"details":{"name":"gardener-info","kind":"configmaps"},"code":%d}`, message, reason, code)
	}
	localDeployment := func(code int, body string) func(*http.Request) (faultproxy.Response, bool) {
		return func(r *http.Request) (faultproxy.Response, bool) {
			return faultproxy.Response{Code: code, Body: body}, r.URL.Path == "/apis/core.gardener.cloud/v1/controllerdeployments/provider-local"
		}
	}
	for _, c := range []struct {
		name     string
		answer   func(*http.Request) (faultproxy.Response, bool)
		headline string
		says     []string
	}{
		{"a newer release", published("v1.152.1"), "Gardener release not known to the provider",
			[]string{"Gardener v1.152.1 (the Garden publishes v1.152.1 in", "newer than every release", "nearest known release, v1.150.0", "stay the authority"}},
		{"an older release", published("v1.140.0"), "Gardener release not known to the provider",
			[]string{"Gardener v1.140.0", "older than every release", "nearest known release, v1.146.0"}},
		{"another known release", published("v1.150.0"), "Rules of Gardener v1.150.0",
			[]string{"follow the rules of Gardener v1.150.0 (the Garden publishes v1.150.0 in"}},
		{"no gardener-info", info(404, status(404, "NotFound", `configmaps "gardener-info" not found`)), "Gardener release not read",
			[]string{`The Garden publishes no ConfigMap "gardener-system-public/gardener-info"`, `gardener_version = "v1.149.3"`}},
		{"gardener-info forbidden", info(403, status(403, "Forbidden", `configmaps "gardener-info" is forbidden: User "robot" cannot get resource "configmaps" in API group "" in the namespace "gardener-system-public"`)),
			"Gardener release not read", []string{"may not read"}},
		{"no release in gardener-info", published("main"), "Gardener release not read", []string{`"main" is not a Gardener release`}},
		{"provider-local of another release", localDeployment(200, `{"apiVersion":"core.gardener.cloud/v1","kind":"ControllerDeployment","metadata":{"name":"provider-local"},`+
			`"helm":{"ociRepository":{"repository":"europe-docker.pkg.dev/gardener-project/releases/charts/gardener/extensions/provider-local","tag":"v1.150.1"}}}`),
			"Provider extension local: another release in the Garden",
			[]string{"The Garden runs provider-local v1.150.1 for profiles of type local", "follow Gardener v1.149.3 (provider-local)", "stay the authority"}},
		{"ControllerDeployments forbidden", localDeployment(403, status(403, "Forbidden", `controllerdeployments.core.gardener.cloud "provider-local" is forbidden: User "robot" cannot get resource "controllerdeployments" in API group "core.gardener.cloud" at the cluster scope`)),
			"", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if strings.HasPrefix(c.name, "provider-local") {
				requireLocalMutator(t)
			}
			proxy.SetOverride(c.answer)
			defer proxy.SetOverride(nil)
			out := w.mustRun(2, "plan", "-detailed-exitcode")
			requireNoProviderBug(t, out)
			if c.headline == "" {
				requireNoWarnings(t, c.name, out)
				return
			}
			requirePlanHeadlines(t, c.name, out, c.headline)
			if n := strings.Count(out, "Warning: "+c.headline); n != 1 {
				t.Fatalf("%s: the warning came %d times, want once per run:\n%s", c.name, n, out)
			}
			flat := oneLine(out)
			for _, want := range c.says {
				if !strings.Contains(flat, want) {
					t.Errorf("%s: the warning does not say %q:\n%s", c.name, want, out)
				}
			}
		})
	}
}
