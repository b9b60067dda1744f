package garden

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/utils/clock"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	"github.com/gardener/gardener/pkg/api/indexer"
	controllermanagerconfigv1alpha1 "github.com/gardener/gardener/pkg/apis/config/controllermanager/v1alpha1"
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/gardener/gardener/pkg/client/kubernetes"
	"github.com/gardener/gardener/pkg/controllermanager/controller/cloudprofile"
	"github.com/gardener/gardener/pkg/controllermanager/controller/namespacedcloudprofile"
)

// concurrentSyncs is the number of workers per controller, as in gardener-controller-manager's defaults.
const concurrentSyncs = 5

// Controllers runs Gardener's CloudProfile and NamespacedCloudProfile controllers. A controller-runtime
// manager cannot be started twice, so every Start builds a fresh one.
type Controllers struct {
	config *rest.Config

	mu     sync.Mutex
	cancel context.CancelFunc
	done   chan error
}

// newControllers returns stopped controllers for the API server at cfg.
func newControllers(cfg *rest.Config) *Controllers {
	return &Controllers{config: cfg}
}

// Running reports whether the controllers run.
func (c *Controllers) Running() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cancel != nil
}

// Start starts the controllers and returns once their caches are synced. It does nothing if they run.
func (c *Controllers) Start(ctx context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cancel != nil {
		return nil
	}
	mgr, err := newManager(ctx, c.config)
	if err != nil {
		return err
	}
	runCtx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(runCtx) }()
	if err := waitUntilRunning(ctx, mgr, done); err != nil {
		cancel()
		return errors.Join(err, <-done)
	}
	c.cancel, c.done = cancel, done
	return nil
}

// Stop stops the controllers and waits for them to finish. It does nothing if they do not run.
func (c *Controllers) Stop() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.cancel == nil {
		return nil
	}
	c.cancel()
	err := <-c.done
	c.cancel, c.done = nil, nil
	return err
}

// newManager builds a manager with the field index and the two controllers registered. Informers for
// both kinds are requested up front so that waiting for the cache covers them.
func newManager(ctx context.Context, cfg *rest.Config) (manager.Manager, error) {
	mgr, err := manager.New(cfg, manager.Options{
		Scheme:                  kubernetes.GardenScheme,
		Metrics:                 metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress:  "0",
		GracefulShutdownTimeout: ptr.To(10 * time.Second),
		// Names are registered process-wide; a restarted manager registers them again.
		Controller: config.Controller{SkipNameValidation: ptr.To(true)},
	})
	if err != nil {
		return nil, fmt.Errorf("creating manager: %w", err)
	}
	if err := indexer.AddNamespacedCloudProfileParentRefName(ctx, mgr.GetFieldIndexer()); err != nil {
		return nil, err
	}
	if err := (&cloudprofile.Reconciler{
		Config: controllermanagerconfigv1alpha1.CloudProfileControllerConfiguration{ConcurrentSyncs: ptr.To(concurrentSyncs)},
		Clock:  clock.RealClock{},
	}).AddToManager(mgr); err != nil {
		return nil, err
	}
	if err := (&namespacedcloudprofile.Reconciler{
		Config: controllermanagerconfigv1alpha1.NamespacedCloudProfileControllerConfiguration{ConcurrentSyncs: ptr.To(concurrentSyncs)},
	}).AddToManager(mgr); err != nil {
		return nil, err
	}
	for _, obj := range []client.Object{&gardencorev1beta1.CloudProfile{}, &gardencorev1beta1.NamespacedCloudProfile{}} {
		if _, err := mgr.GetCache().GetInformer(ctx, obj); err != nil {
			return nil, err
		}
	}
	return mgr, nil
}

// waitUntilRunning waits until the manager's caches are synced and its controllers are started.
func waitUntilRunning(ctx context.Context, mgr manager.Manager, done <-chan error) error {
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	synced := make(chan bool, 1)
	go func() { synced <- mgr.GetCache().WaitForCacheSync(ctx) }()
	select {
	case err := <-done:
		return errors.Join(errors.New("manager stopped during start-up"), err)
	case ok := <-synced:
		if !ok {
			return fmt.Errorf("waiting for the controllers' caches: %w", ctx.Err())
		}
	}
	select {
	case err := <-done:
		return errors.Join(errors.New("manager stopped during start-up"), err)
	case <-mgr.Elected():
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
