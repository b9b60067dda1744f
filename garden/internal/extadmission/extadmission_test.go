package extadmission_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"go.uber.org/zap/zapcore"
	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/controller-runtime/pkg/client"
	crlog "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/gardener/gardener/pkg/client/kubernetes"

	"github.com/gardener-community/terraform-provider-gardener/garden/internal/extadmission"
	"github.com/gardener-community/terraform-provider-gardener/garden/internal/garden"
	"github.com/gardener-community/terraform-provider-gardener/garden/internal/shim"
)

const (
	project     = "demo"
	waitTimeout = 30 * time.Second
	label       = "provider.extensions.gardener.cloud/local"
)

// TestMain lets the test binary act as the control-plane shim and quiets controller-runtime.
func TestMain(m *testing.M) {
	shim.RunIfInvoked()
	crlog.SetLogger(zap.New(zap.WriteTo(os.Stderr), zap.Level(zapcore.ErrorLevel), zap.StacktraceLevel(zapcore.PanicLevel)))
	os.Exit(m.Run())
}

// TestLocalExtensionAdmission starts a Garden with --extension-admission=local and checks that
// gardener-apiserver calls provider-local's validator and mutator for cloud profiles of type local.
func TestLocalExtensionAdmission(t *testing.T) {
	g := startGarden(t)
	admin := clientFor(t, g.Kubeconfig)
	user := clientFor(t, g.ProjectKubeconfigs[project])
	ctx := context.Background()

	t.Run("the webhooks are registered as provider-local registers them", func(t *testing.T) {
		vwc := &admissionregistrationv1.ValidatingWebhookConfiguration{}
		if err := admin.Get(ctx, client.ObjectKey{Name: "gardener-extension-admission-local"}, vwc); err != nil {
			t.Fatal(err)
		}
		mwc := &admissionregistrationv1.MutatingWebhookConfiguration{}
		if err := admin.Get(ctx, client.ObjectKey{Name: "gardener-extension-admission-local"}, mwc); err != nil {
			t.Fatal(err)
		}
		if len(vwc.Webhooks) != 1 || len(mwc.Webhooks) != 1 {
			t.Fatalf("want one validating and one mutating webhook, got %d and %d", len(vwc.Webhooks), len(mwc.Webhooks))
		}
		v, m := vwc.Webhooks[0], mwc.Webhooks[0]
		checkHook(t, v.ClientConfig, v.ObjectSelector, v.Rules, v.FailurePolicy, "/webhooks/validate",
			"cloudprofiles", "namespacedcloudprofiles")
		checkHook(t, m.ClientConfig, m.ObjectSelector, m.Rules, m.FailurePolicy, "/webhooks/mutate",
			"namespacedcloudprofiles/status")
	})

	t.Run("a CloudProfile of type local without providerConfig is rejected", func(t *testing.T) {
		err := admin.Create(ctx, newCloudProfile("no-config", nil))
		if err == nil {
			t.Fatal("created")
		}
		for _, want := range []string{
			`admission webhook "validator.admission-local.extensions.gardener.cloud" denied the request`,
			"spec.providerConfig: Required value: providerConfig must be set for cloud profiles of provider local",
		} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q lacks %q", err, want)
			}
		}
	})

	t.Run("a providerConfig without the image's mapping is rejected", func(t *testing.T) {
		err := admin.Create(ctx, newCloudProfile("no-mapping", providerConfig(map[string]map[string]string{"other": {"1.0.0": "x"}})))
		want := `spec.providerConfig.machineImages[0]: Required value: must provide an image mapping for image "gardenlinux" in providerConfig`
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("want %q, got %v", want, err)
		}
	})

	parent := newCloudProfile("parent", providerConfig(map[string]map[string]string{"gardenlinux": {"1.0.0": "local/gardenlinux:1.0.0"}}))
	t.Run("a CloudProfile with an image mapping is accepted and labelled", func(t *testing.T) {
		if err := admin.Create(ctx, parent); err != nil {
			t.Fatal(err)
		}
		if parent.Labels[label] != "true" {
			t.Fatalf("labels %v", parent.Labels)
		}
	})

	t.Run("a NamespacedCloudProfile adding a version without mapping is rejected", func(t *testing.T) {
		ncp := newNamespacedCloudProfile("no-mapping", parent.Name, nil)
		err := user.Create(ctx, ncp)
		want := "spec.providerConfig.machineImages: Required value: machine image version gardenlinux@2.0.0 is not defined in the NamespacedCloudProfile providerConfig"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("want %q, got %v", want, err)
		}
	})

	t.Run("the merged status carries the parent's and the NamespacedCloudProfile's mappings", func(t *testing.T) {
		ncp := newNamespacedCloudProfile("merged", parent.Name,
			providerConfig(map[string]map[string]string{"gardenlinux": {"2.0.0": "local/gardenlinux:2.0.0"}}))
		if err := user.Create(ctx, ncp); err != nil {
			t.Fatal(err)
		}
		// The NamespacedCloudProfile controller writes status.cloudProfileSpec with the parent's
		// providerConfig; provider-local's mutator, called for the status subresource, merges the
		// NamespacedCloudProfile's mappings into it. The merge goes through Go maps, so the order of
		// images and versions is not fixed.
		want := map[string]string{"gardenlinux@1.0.0": "local/gardenlinux:1.0.0", "gardenlinux@2.0.0": "local/gardenlinux:2.0.0"}
		eventually(t, func() error {
			got := &gardencorev1beta1.NamespacedCloudProfile{}
			if err := admin.Get(ctx, client.ObjectKeyFromObject(ncp), got); err != nil {
				return err
			}
			return checkMappings(got, want)
		})
	})
}

// checkHook checks one registered webhook.
func checkHook(t *testing.T, cc admissionregistrationv1.WebhookClientConfig, sel *metav1.LabelSelector,
	rules []admissionregistrationv1.RuleWithOperations, fp *admissionregistrationv1.FailurePolicyType, path string, resources ...string,
) {
	t.Helper()
	if cc.URL == nil || !strings.HasPrefix(*cc.URL, "https://127.0.0.1:") || !strings.HasSuffix(*cc.URL, path) {
		t.Errorf("url %v, want https://127.0.0.1:PORT%s", cc.URL, path)
	}
	if len(cc.CABundle) == 0 {
		t.Error("no caBundle")
	}
	if sel == nil || sel.MatchLabels[label] != "true" {
		t.Errorf("object selector %v", sel)
	}
	if fp == nil || *fp != admissionregistrationv1.Fail {
		t.Errorf("failure policy %v", fp)
	}
	var got []string
	for _, r := range rules {
		if slices.Contains(r.APIGroups, gardencorev1beta1.GroupName) {
			got = append(got, r.Resources...)
		}
	}
	for _, want := range resources {
		if !slices.Contains(got, want) {
			t.Errorf("rules for %s: %v lack %s", gardencorev1beta1.GroupName, got, want)
		}
	}
}

// checkMappings compares the image mappings in status.cloudProfileSpec.providerConfig with want
// (name@version → image).
func checkMappings(ncp *gardencorev1beta1.NamespacedCloudProfile, want map[string]string) error {
	if ncp.Status.ObservedGeneration != ncp.Generation || ncp.Status.CloudProfileSpec.ProviderConfig == nil {
		return fmt.Errorf("status not written yet (observedGeneration %d, generation %d)", ncp.Status.ObservedGeneration, ncp.Generation)
	}
	var cfg struct {
		MachineImages []struct {
			Name     string `json:"name"`
			Versions []struct {
				Version string `json:"version"`
				Image   string `json:"image"`
			} `json:"versions"`
		} `json:"machineImages"`
	}
	raw := ncp.Status.CloudProfileSpec.ProviderConfig.Raw
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return err
	}
	// The mutator decodes and re-encodes the whole config with provider-local's own types, which
	// always write loadBalancer; the parent's config written by the test has none.
	if !strings.Contains(string(raw), `"loadBalancer":{"image":""}`) {
		return fmt.Errorf("status providerConfig %s was not written by provider-local's mutator", raw)
	}
	got := map[string]string{}
	for _, mi := range cfg.MachineImages {
		for _, v := range mi.Versions {
			got[mi.Name+"@"+v.Version] = v.Image
		}
	}
	if len(got) != len(want) {
		return fmt.Errorf("status providerConfig %s: mappings %v, want %v", raw, got, want)
	}
	for k, v := range want {
		if got[k] != v {
			return fmt.Errorf("status providerConfig %s: mappings %v, want %v", raw, got, want)
		}
	}
	return nil
}

// startGarden starts a Garden with provider-local's admission and stops it when the test ends.
func startGarden(t *testing.T) *garden.Garden {
	t.Helper()
	assets := os.Getenv("KUBEBUILDER_ASSETS")
	if assets == "" {
		assets = filepath.Join("..", "..", "..", ".cache", "assets")
	}
	for _, name := range shim.Binaries {
		if _, err := os.Stat(filepath.Join(assets, name)); err != nil {
			t.Skipf("control-plane binaries missing (run scripts/build-assets.sh): %v", err)
		}
	}
	start := time.Now()
	g, err := garden.Start(context.Background(), garden.Options{
		AssetsDir:          assets,
		KubeconfigPath:     filepath.Join(t.TempDir(), "admin.kubeconfig"),
		Projects:           []string{project},
		Controllers:        true,
		ExtensionAdmission: extadmission.Local,
		Logf:               t.Logf,
	})
	if err != nil {
		t.Fatalf("starting garden: %v", err)
	}
	t.Logf("garden with extension admission ready after %s", time.Since(start).Round(time.Millisecond))
	t.Cleanup(func() {
		if err := g.Stop(); err != nil {
			t.Errorf("stopping garden: %v", err)
		}
	})
	return g
}

// clientFor builds a client from a kubeconfig file; it also knows the admissionregistration types.
func clientFor(t *testing.T, kubeconfig string) client.Client {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		t.Fatalf("loading %s: %v", kubeconfig, err)
	}
	scheme := runtime.NewScheme()
	utilruntime.Must(kubernetes.AddGardenSchemeToScheme(scheme))
	utilruntime.Must(admissionregistrationv1.AddToScheme(scheme))
	c, err := client.New(cfg, client.Options{Scheme: scheme})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// providerConfig returns a provider-local CloudProfileConfig with the given mappings
// (image name → version → image).
func providerConfig(images map[string]map[string]string) *runtime.RawExtension {
	type version struct {
		Version string `json:"version"`
		Image   string `json:"image"`
	}
	type image struct {
		Name     string    `json:"name"`
		Versions []version `json:"versions"`
	}
	cfg := struct {
		APIVersion    string  `json:"apiVersion"`
		Kind          string  `json:"kind"`
		MachineImages []image `json:"machineImages"`
	}{APIVersion: "local.provider.extensions.gardener.cloud/v1alpha1", Kind: "CloudProfileConfig"}
	for _, name := range sortedKeys(images) {
		mi := image{Name: name}
		for _, v := range sortedKeys(images[name]) {
			mi.Versions = append(mi.Versions, version{Version: v, Image: images[name][v]})
		}
		cfg.MachineImages = append(cfg.MachineImages, mi)
	}
	raw, err := json.Marshal(cfg)
	utilruntime.Must(err)
	return &runtime.RawExtension{Raw: raw}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// newCloudProfile returns a CloudProfile of type local with machine image gardenlinux 1.0.0.
func newCloudProfile(name string, cfg *runtime.RawExtension) *gardencorev1beta1.CloudProfile {
	return &gardencorev1beta1.CloudProfile{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: gardencorev1beta1.CloudProfileSpec{
			Type:           "local",
			ProviderConfig: cfg,
			Kubernetes:     gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{{Version: "1.33.0"}}},
			MachineImages: []gardencorev1beta1.MachineImage{{
				Name:     "gardenlinux",
				Versions: []gardencorev1beta1.MachineImageVersion{imageVersion("1.0.0")},
			}},
			MachineTypes: []gardencorev1beta1.MachineType{{
				Name: "m1", CPU: resource.MustParse("2"), GPU: resource.MustParse("0"), Memory: resource.MustParse("4Gi"),
				Architecture: new("amd64"),
			}},
			Regions: []gardencorev1beta1.Region{{Name: "local"}},
		},
	}
}

// newNamespacedCloudProfile returns a NamespacedCloudProfile in the project that adds gardenlinux 2.0.0.
func newNamespacedCloudProfile(name, parent string, cfg *runtime.RawExtension) *gardencorev1beta1.NamespacedCloudProfile {
	return &gardencorev1beta1.NamespacedCloudProfile{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: garden.ProjectNamespace(project)},
		Spec: gardencorev1beta1.NamespacedCloudProfileSpec{
			Parent:         gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: parent},
			ProviderConfig: cfg,
			MachineImages: []gardencorev1beta1.MachineImage{{
				Name:     "gardenlinux",
				Versions: []gardencorev1beta1.MachineImageVersion{imageVersion("2.0.0")},
			}},
		},
	}
}

func imageVersion(v string) gardencorev1beta1.MachineImageVersion {
	expires := metav1.NewTime(time.Now().Add(365 * 24 * time.Hour))
	return gardencorev1beta1.MachineImageVersion{
		ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: v, ExpirationDate: &expires},
		CRI:              []gardencorev1beta1.CRI{{Name: gardencorev1beta1.CRINameContainerD}},
		Architectures:    []string{"amd64"},
	}
}

// eventually retries check until it succeeds or waitTimeout passes.
func eventually(t *testing.T, check func() error) {
	t.Helper()
	deadline := time.Now().Add(waitTimeout)
	for {
		err := check()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("still failing after %s: %v", waitTimeout, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
