// Package garden runs a local Garden: etcd and kube-apiserver as child processes, Gardener's real
// gardener-apiserver in-process (both through Gardener's envtest), and Gardener's own CloudProfile and
// NamespacedCloudProfile controllers in a controller-runtime manager.
package garden

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"
	"sigs.k8s.io/controller-runtime/pkg/client"
	crlog "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/gardener/gardener/pkg/client/kubernetes"
	gardenerenvtest "github.com/gardener/gardener/test/envtest"

	"github.com/gardener-community/terraform-provider-gardener/garden/internal/extadmission"
)

// Options configure a local Garden.
type Options struct {
	// AssetsDir is the folder holding the etcd and kube-apiserver binaries.
	AssetsDir string
	// KubeconfigPath is where the admin kubeconfig is written; project kubeconfigs are written beside it.
	KubeconfigPath string
	// Projects are the names of the projects to prepare (namespace garden-NAME, Project, user).
	Projects []string
	// Controllers says whether the cloud-profile controllers start together with the Garden.
	Controllers bool
	// FeatureGates is gardener-apiserver's --feature-gates value, such as
	// "VersionClassificationLifecycle=false"; empty means DefaultFeatureGates.
	FeatureGates string
	// ExtensionAdmission names the provider extension whose admission webhooks run in this process and
	// are registered with the API server: extadmission.Local or extadmission.None (also when empty).
	ExtensionAdmission string
	// Verbose sends the control plane's output to stderr and raises gardener-apiserver's log level.
	Verbose bool
	// Logf reports progress; nil discards it.
	Logf func(format string, args ...any)
}

// Garden is a running local Garden.
type Garden struct {
	// Config is the admin REST config.
	Config *rest.Config
	// Controllers runs Gardener's cloud-profile controllers; they can be stopped and started again.
	Controllers *Controllers
	// Admission is the extension admission webhook server; nil without --extension-admission.
	Admission *extadmission.Server
	// Kubeconfig is the path of the admin kubeconfig.
	Kubeconfig string
	// ProjectKubeconfigs maps each project name to the path of its user's kubeconfig.
	ProjectKubeconfigs map[string]string
	// GardenerVersion is the release of Gardener the Garden runs and publishes in gardener-info
	// (see info.go).
	GardenerVersion string

	env    *gardenerenvtest.GardenerTestEnvironment
	runDir string
	logf   func(format string, args ...any)
}

// Start starts a local Garden and returns once it serves the cloud-profile APIs and, if asked for, the
// controllers run. It changes process-wide state (TMPDIR, feature gates, klog's logger), so run one
// Garden per process. On error, everything it started is stopped again.
func Start(ctx context.Context, opts Options) (*Garden, error) {
	g := &Garden{ProjectKubeconfigs: map[string]string{}, logf: opts.Logf}
	if g.logf == nil {
		g.logf = func(string, ...any) {}
	}
	if err := g.start(ctx, opts); err != nil {
		return nil, errors.Join(err, g.Stop())
	}
	return g, nil
}

// start runs the start-up steps in order.
func (g *Garden) start(ctx context.Context, opts Options) error {
	if err := g.prepareRunDir(); err != nil {
		return err
	}
	if err := g.startControlPlane(ctx, opts); err != nil {
		return err
	}
	if err := g.publishRelease(ctx); err != nil {
		return err
	}
	if err := g.startAdmission(ctx, opts); err != nil {
		return err
	}
	if err := g.writeAccess(ctx, opts); err != nil {
		return err
	}
	g.Controllers = newControllers(g.Config)
	if !opts.Controllers {
		return nil
	}
	g.logf("starting controllers")
	if err := g.Controllers.Start(ctx); err != nil {
		return fmt.Errorf("starting controllers: %w", err)
	}
	return nil
}

// startControlPlane starts etcd, kube-apiserver and gardener-apiserver and waits for the APIs.
func (g *Garden) startControlPlane(ctx context.Context, opts Options) error {
	env, err := newEnvironment(opts, g.runDir)
	if err != nil {
		return err
	}
	g.env = env
	g.logf("starting etcd, kube-apiserver and gardener-apiserver")
	if g.Config, err = env.Start(); err != nil {
		return fmt.Errorf("starting control plane: %w", err)
	}
	// gardener-apiserver points klog at its own logger, which prints a stack trace with every error;
	// controller-runtime's logger, configured by the caller, is terser.
	klog.SetLogger(crlog.Log.WithName("klog"))
	return waitForCloudProfileAPIs(ctx, g.Config)
}

// startAdmission starts the extension admission webhooks, if asked for, and waits until
// gardener-apiserver calls them.
func (g *Garden) startAdmission(ctx context.Context, opts Options) error {
	switch opts.ExtensionAdmission {
	case "", extadmission.None:
		return nil
	case extadmission.Local:
	default:
		return fmt.Errorf("unknown extension admission %q (want %s or %s)", opts.ExtensionAdmission, extadmission.Local, extadmission.None)
	}
	g.logf("starting provider-local's admission webhooks")
	s, err := extadmission.StartLocal(ctx, g.Config, filepath.Join(g.runDir, "webhook-certs"))
	if err != nil {
		return fmt.Errorf("starting extension admission: %w", err)
	}
	g.Admission = s
	c, err := client.New(g.Config, client.Options{Scheme: kubernetes.GardenScheme})
	if err != nil {
		return err
	}
	if err := extadmission.WaitActive(ctx, c); err != nil {
		return fmt.Errorf("starting extension admission: %w", err)
	}
	if err := registerLocalExtension(ctx, c, g.GardenerVersion); err != nil {
		return fmt.Errorf("registering provider-local: %w", err)
	}
	g.logf("extension admission %s serves at %s", opts.ExtensionAdmission, s.URL)
	return nil
}

// publishRelease publishes the release of the Gardener module this binary runs, as
// gardener-operator does (see info.go).
func (g *Garden) publishRelease(ctx context.Context) error {
	version, err := GardenerVersion()
	if err != nil {
		return fmt.Errorf("publishing gardener-info: %w", err)
	}
	g.GardenerVersion = version
	c, err := client.New(g.Config, client.Options{Scheme: kubernetes.GardenScheme})
	if err != nil {
		return err
	}
	if err := publishInfo(ctx, c, version); err != nil {
		return fmt.Errorf("publishing gardener-info: %w", err)
	}
	g.logf("gardener-info publishes gardener-apiserver %s", version)
	return nil
}

// writeAccess writes the admin kubeconfig and prepares the projects with their users.
func (g *Garden) writeAccess(ctx context.Context, opts Options) error {
	if err := writeKubeconfig(opts.KubeconfigPath, g.Config, adminUser(g.Config), ""); err != nil {
		return fmt.Errorf("writing admin kubeconfig: %w", err)
	}
	g.Kubeconfig = opts.KubeconfigPath
	c, err := client.New(g.Config, client.Options{Scheme: kubernetes.GardenScheme})
	if err != nil {
		return err
	}
	for _, name := range opts.Projects {
		g.logf("preparing project %s", name)
		path, err := setUpProject(ctx, c, g.Config, name, opts.KubeconfigPath)
		if err != nil {
			return fmt.Errorf("preparing project %s: %w", name, err)
		}
		g.ProjectKubeconfigs[name] = path
	}
	return nil
}

// Stop stops the controllers and the control plane and removes the kubeconfigs and temporary files.
// It is safe to call on a partly started Garden.
func (g *Garden) Stop() error {
	var errs []error
	if g.Controllers != nil {
		errs = append(errs, g.Controllers.Stop())
	}
	if g.Admission != nil {
		errs = append(errs, g.Admission.Stop())
	}
	if g.env != nil {
		g.logf("stopping control plane")
		errs = append(errs, g.env.Stop())
	}
	for _, path := range g.ProjectKubeconfigs {
		errs = append(errs, removeIfExists(path))
	}
	if g.Kubeconfig != "" {
		errs = append(errs, removeIfExists(g.Kubeconfig))
	}
	if g.runDir != "" {
		errs = append(errs, os.RemoveAll(g.runDir))
	}
	return errors.Join(errs...)
}

// removeIfExists removes path, ignoring that it may not exist.
func removeIfExists(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}
