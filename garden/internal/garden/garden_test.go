package garden_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"go.uber.org/zap/zapcore"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/component-base/featuregate"
	"sigs.k8s.io/controller-runtime/pkg/client"
	crlog "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"
	"sigs.k8s.io/yaml"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/gardener/gardener/pkg/client/kubernetes"
	"github.com/gardener/gardener/pkg/features"
	gardenerutils "github.com/gardener/gardener/pkg/utils/gardener"

	"github.com/gardener-community/terraform-provider-gardener/garden/internal/garden"
	"github.com/gardener-community/terraform-provider-gardener/garden/internal/shim"
)

const (
	project     = "demo"
	waitTimeout = 30 * time.Second
)

// TestMain lets the test binary act as the control-plane shim and quiets controller-runtime.
func TestMain(m *testing.M) {
	shim.RunIfInvoked()
	crlog.SetLogger(zap.New(zap.WriteTo(os.Stderr), zap.Level(zapcore.ErrorLevel), zap.StacktraceLevel(zapcore.PanicLevel)))
	os.Exit(m.Run())
}

// TestLocalGarden starts one Garden (one per process is possible) and checks it from several sides.
func TestLocalGarden(t *testing.T) {
	g := startGarden(t)
	admin := clientFor(t, g.Kubeconfig)
	user := clientFor(t, g.ProjectKubeconfigs[project])

	t.Run("gardener-apiserver runs with the cloud-profile feature gates on", func(t *testing.T) {
		for _, gate := range []featuregate.Feature{features.VersionClassificationLifecycle, features.CloudProfileCapabilities} {
			if !features.DefaultFeatureGate.Enabled(gate) {
				t.Errorf("feature gate %s is off", gate)
			}
		}
	})
	t.Run("the controller finalizes and classifies a CloudProfile", func(t *testing.T) {
		cp := newCloudProfile("classified")
		create(t, admin, cp)
		eventually(t, func() error { return checkCloudProfileStatus(admin, cp.Name) })
	})
	t.Run("the controller merges a NamespacedCloudProfile", func(t *testing.T) {
		parent := newCloudProfile("parent")
		create(t, admin, parent)
		ncp := newNamespacedCloudProfile("merged", parent.Name)
		create(t, user, ncp)
		eventually(t, func() error { return checkNamespacedCloudProfileStatus(admin, ncp) })
	})
	t.Run("the project user may not write CloudProfiles", func(t *testing.T) {
		err := user.Create(context.Background(), newCloudProfile("forbidden"))
		if !apierrors.IsForbidden(err) {
			t.Fatalf("want Forbidden, got %v", err)
		}
	})
	t.Run("the project user may not write outside its namespace", func(t *testing.T) {
		ncp := newNamespacedCloudProfile("elsewhere", "parent")
		ncp.Namespace = "default"
		if err := user.Create(context.Background(), ncp); !apierrors.IsForbidden(err) {
			t.Fatalf("want Forbidden, got %v", err)
		}
	})
	t.Run("every user reads the release in gardener-info, as gardener-operator publishes it", func(t *testing.T) {
		cm := &corev1.ConfigMap{}
		key := client.ObjectKey{Namespace: gardencorev1beta1.GardenerSystemPublicNamespace, Name: "gardener-info"}
		if err := user.Get(context.Background(), key, cm); err != nil {
			t.Fatalf("the project user reads gardener-info: %v", err)
		}
		var info gardenerutils.APIServerInfo
		if err := yaml.Unmarshal([]byte(cm.Data["gardenerAPIServer"]), &info); err != nil {
			t.Fatal(err)
		}
		// garden/go.mod requires Gardener v1.149.3; the build info of this test binary says so too.
		if info.Version != "v1.149.3" || g.GardenerVersion != info.Version {
			t.Fatalf("gardener-info says %q, the Garden runs %q; want v1.149.3", info.Version, g.GardenerVersion)
		}
		other := &corev1.ConfigMap{}
		if err := user.Get(context.Background(), client.ObjectKey{Namespace: key.Namespace, Name: "other"}, other); !apierrors.IsForbidden(err) {
			t.Fatalf("want Forbidden for another ConfigMap of %s, got %v", key.Namespace, err)
		}
	})
	t.Run("paused controllers write no status until resumed", func(t *testing.T) {
		control := httptest.NewServer(garden.ControlHandler(g.Controllers))
		defer control.Close()
		post(t, control.URL+"/controllers/pause")
		cp := newCloudProfile("paused")
		create(t, admin, cp)
		time.Sleep(2 * time.Second)
		if err := checkCloudProfileStatus(admin, cp.Name); err == nil {
			t.Fatal("status written while the controllers were paused")
		}
		post(t, control.URL+"/controllers/resume")
		eventually(t, func() error { return checkCloudProfileStatus(admin, cp.Name) })
	})
}

// startGarden starts a Garden with one project and stops it when the test ends.
func startGarden(t *testing.T) *garden.Garden {
	t.Helper()
	assets := assetsDir()
	for _, name := range shim.Binaries {
		if _, err := os.Stat(filepath.Join(assets, name)); err != nil {
			t.Skipf("control-plane binaries missing (run scripts/build-assets.sh): %v", err)
		}
	}
	g, err := garden.Start(context.Background(), garden.Options{
		AssetsDir:      assets,
		KubeconfigPath: filepath.Join(t.TempDir(), "admin.kubeconfig"),
		Projects:       []string{project},
		Controllers:    true,
		Logf:           t.Logf,
	})
	if err != nil {
		t.Fatalf("starting garden: %v", err)
	}
	t.Cleanup(func() {
		if err := g.Stop(); err != nil {
			t.Errorf("stopping garden: %v", err)
		}
	})
	return g
}

// assetsDir is $KUBEBUILDER_ASSETS, else the repository's .cache/assets.
func assetsDir() string {
	if dir := os.Getenv("KUBEBUILDER_ASSETS"); dir != "" {
		return dir
	}
	return filepath.Join("..", "..", "..", ".cache", "assets")
}

// clientFor builds a client from a kubeconfig file, which also checks the file itself.
func clientFor(t *testing.T, kubeconfig string) client.Client {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		t.Fatalf("loading %s: %v", kubeconfig, err)
	}
	c, err := client.New(cfg, client.Options{Scheme: kubernetes.GardenScheme})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// newCloudProfile returns a CloudProfile whose version 1.33.0 is supported by its lifecycle now.
func newCloudProfile(name string) *gardencorev1beta1.CloudProfile {
	past := metav1.NewTime(time.Now().Add(-24 * time.Hour))
	future := metav1.NewTime(time.Now().Add(365 * 24 * time.Hour))
	return &gardencorev1beta1.CloudProfile{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: gardencorev1beta1.CloudProfileSpec{
			Type: "local",
			Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{{
				Version: "1.33.0",
				Lifecycle: []gardencorev1beta1.LifecycleStage{
					{Classification: gardencorev1beta1.ClassificationPreview},
					{Classification: gardencorev1beta1.ClassificationSupported, StartTime: &past},
					{Classification: gardencorev1beta1.ClassificationDeprecated, StartTime: &future},
				},
			}, {
				Version: "1.32.0",
			}}},
			MachineImages: []gardencorev1beta1.MachineImage{{
				Name: "gardenlinux",
				Versions: []gardencorev1beta1.MachineImageVersion{{
					ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1.0.0"},
					CRI:              []gardencorev1beta1.CRI{{Name: gardencorev1beta1.CRINameContainerD}},
					Architectures:    []string{"amd64"},
				}},
			}},
			MachineTypes: []gardencorev1beta1.MachineType{machineType("m1", "2", "4Gi")},
			Regions:      []gardencorev1beta1.Region{{Name: "local"}},
		},
	}
}

// newNamespacedCloudProfile returns a NamespacedCloudProfile in the project that adds machine type m2.
func newNamespacedCloudProfile(name, parent string) *gardencorev1beta1.NamespacedCloudProfile {
	return &gardencorev1beta1.NamespacedCloudProfile{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: garden.ProjectNamespace(project)},
		Spec: gardencorev1beta1.NamespacedCloudProfileSpec{
			Parent:       gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: parent},
			MachineTypes: []gardencorev1beta1.MachineType{machineType("m2", "4", "8Gi")},
		},
	}
}

// machineType returns an amd64 machine type without GPUs.
func machineType(name, cpu, memory string) gardencorev1beta1.MachineType {
	return gardencorev1beta1.MachineType{
		Name: name, CPU: resource.MustParse(cpu), GPU: resource.MustParse("0"), Memory: resource.MustParse(memory),
		Architecture: new("amd64"),
	}
}

// create creates obj or fails the test.
func create(t *testing.T, c client.Client, obj client.Object) {
	t.Helper()
	if err := c.Create(context.Background(), obj); err != nil {
		t.Fatalf("creating %s: %v", obj.GetName(), err)
	}
}

// checkCloudProfileStatus reports what is missing from the controller's work on a CloudProfile.
func checkCloudProfileStatus(c client.Client, name string) error {
	cp := &gardencorev1beta1.CloudProfile{}
	if err := c.Get(context.Background(), client.ObjectKey{Name: name}, cp); err != nil {
		return err
	}
	if !slices.Contains(cp.Finalizers, gardencorev1beta1.GardenerName) {
		return fmt.Errorf("finalizers %v lack %q", cp.Finalizers, gardencorev1beta1.GardenerName)
	}
	if cp.Status.Kubernetes == nil {
		return errors.New("status.kubernetes not written")
	}
	got := map[string]gardencorev1beta1.VersionClassification{}
	for _, v := range cp.Status.Kubernetes.Versions {
		got[v.Version] = v.Classification
	}
	if got["1.33.0"] != gardencorev1beta1.ClassificationSupported || got["1.32.0"] != gardencorev1beta1.ClassificationSupported {
		return fmt.Errorf("unexpected classifications %v", got)
	}
	if len(cp.Status.MachineImages) != 1 {
		return fmt.Errorf("status.machineImages = %v", cp.Status.MachineImages)
	}
	return nil
}

// checkNamespacedCloudProfileStatus reports what is missing from the merged status of ncp.
func checkNamespacedCloudProfileStatus(c client.Client, ncp *gardencorev1beta1.NamespacedCloudProfile) error {
	got := &gardencorev1beta1.NamespacedCloudProfile{}
	if err := c.Get(context.Background(), client.ObjectKeyFromObject(ncp), got); err != nil {
		return err
	}
	if got.Status.ObservedGeneration != got.Generation {
		return fmt.Errorf("observedGeneration %d, generation %d", got.Status.ObservedGeneration, got.Generation)
	}
	var names []string
	for _, mt := range got.Status.CloudProfileSpec.MachineTypes {
		names = append(names, mt.Name)
	}
	if !slices.Equal(names, []string{"m1", "m2"}) {
		return fmt.Errorf("merged machine types %v", names)
	}
	if got.Status.CloudProfileSpec.Type != "local" {
		return fmt.Errorf("merged type %q", got.Status.CloudProfileSpec.Type)
	}
	return nil
}

// post sends an empty POST to url and fails the test unless it answers 200.
func post(t *testing.T, url string) {
	t.Helper()
	resp, err := http.Post(url, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("POST %s: %s", url, resp.Status)
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
