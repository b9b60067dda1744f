package garden

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	gardenerenvtest "github.com/gardener/gardener/test/envtest"

	"github.com/gardener-community/terraform-provider-gardener/garden/internal/shim"
)

const (
	startTimeout = 90 * time.Second
	stopTimeout  = 30 * time.Second
)

// DefaultFeatureGates are the feature gates gardener-apiserver starts with unless Options says
// otherwise: the lifecycle feature is switched on. All admission plugins keep their defaults, so
// cloud profiles are admitted as on a real landscape.
const DefaultFeatureGates = "VersionClassificationLifecycle=true"

// newEnvironment configures Gardener's envtest: etcd and kube-apiserver are started through shims (see
// package shim) and gardener-apiserver runs in this process.
func newEnvironment(opts Options, runDir string) (*gardenerenvtest.GardenerTestEnvironment, error) {
	shimDir := filepath.Join(runDir, "bin")
	if err := os.Mkdir(shimDir, 0o755); err != nil {
		return nil, err
	}
	if err := shim.Prepare(opts.AssetsDir, shimDir); err != nil {
		return nil, err
	}
	// envtest looks binaries up here; gardener-apiserver must run in-process.
	if err := os.Setenv("KUBEBUILDER_ASSETS", shimDir); err != nil {
		return nil, err
	}
	if err := os.Unsetenv("TEST_ASSET_GARDENER_APISERVER"); err != nil {
		return nil, err
	}
	out := io.Discard
	logLevel := "error"
	if opts.Verbose {
		out, logLevel = os.Stderr, "info"
	}
	env := &envtest.Environment{
		BinaryAssetsDirectory:    shimDir,
		UseExistingCluster:       ptr.To(false),
		ControlPlaneStartTimeout: startTimeout,
		ControlPlaneStopTimeout:  stopTimeout,
	}
	env.ControlPlane.Etcd = &envtest.Etcd{Path: filepath.Join(shimDir, "etcd"), Out: out, Err: out}
	apiServer := env.ControlPlane.GetAPIServer()
	apiServer.Path = filepath.Join(shimDir, "kube-apiserver")
	apiServer.Out, apiServer.Err = out, out
	return &gardenerenvtest.GardenerTestEnvironment{
		Environment:         env,
		UseExistingGardener: ptr.To(false),
		GardenerAPIServer: &gardenerenvtest.GardenerAPIServer{
			Args: []string{"--feature-gates=" + opts.featureGates(), "--log-level=" + logLevel},
			Out:  out,
			Err:  out,
		},
	}, nil
}

// featureGates is the --feature-gates value of gardener-apiserver.
func (o Options) featureGates() string {
	if o.FeatureGates == "" {
		return DefaultFeatureGates
	}
	return o.FeatureGates
}

// waitForCloudProfileAPIs waits until discovery lists both cloud-profile resources.
func waitForCloudProfileAPIs(ctx context.Context, cfg *rest.Config) error {
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return err
	}
	gv := gardencorev1beta1.SchemeGroupVersion.String()
	want := []string{"cloudprofiles", "namespacedcloudprofiles"}
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	err = wait.PollUntilContextCancel(ctx, 200*time.Millisecond, true, func(context.Context) (bool, error) {
		list, err := dc.ServerResourcesForGroupVersion(gv)
		if err != nil {
			return false, nil
		}
		served := 0
		for _, r := range list.APIResources {
			if slices.Contains(want, r.Name) {
				served++
			}
		}
		return served == len(want), nil
	})
	if err != nil {
		return fmt.Errorf("waiting for %s %v: %w", gv, want, err)
	}
	return nil
}
