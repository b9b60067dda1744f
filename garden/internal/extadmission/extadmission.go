// Package extadmission runs a provider extension's admission webhooks inside the local Garden, as the
// extension's admission component does on a real landscape: Gardener's own webhook handlers behind a
// controller-runtime webhook server (TLS, certificates from a CA generated at start), registered with
// the kube-apiserver through ValidatingWebhookConfiguration and MutatingWebhookConfiguration objects
// built by Gardener's extension webhook framework. gardener-apiserver, which serves CloudProfiles and
// NamespacedCloudProfiles, calls them through its admission chain.
//
// Only provider-local's admission is available (Local).
package extadmission

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/webhook"

	extensionswebhook "github.com/gardener/gardener/extensions/pkg/webhook"
	"github.com/gardener/gardener/extensions/pkg/webhook/certificates"
	gardencoreinstall "github.com/gardener/gardener/pkg/apis/core/install"
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	securityinstall "github.com/gardener/gardener/pkg/apis/security/install"
	"github.com/gardener/gardener/pkg/provider-local/admission/mutator"
	"github.com/gardener/gardener/pkg/provider-local/admission/validator"
	localinstall "github.com/gardener/gardener/pkg/provider-local/apis/local/install"
)

const (
	// None runs no extension admission.
	None = "none"
	// Local runs provider-local's admission (CloudProfile and NamespacedCloudProfile validator,
	// NamespacedCloudProfile status mutator).
	Local = "local"

	// LocalName is the component name provider-local's admission registers its webhooks under; the
	// webhook configurations are called gardener-extension-admission-local.
	LocalName = "admission-local"

	startTimeout = 60 * time.Second
)

// Valid reports whether kind is a known --extension-admission value.
func Valid(kind string) bool { return kind == None || kind == Local }

// Server is a running extension admission webhook server with its registration.
type Server struct {
	// URL is the address the webhooks are served at, https://127.0.0.1:PORT.
	URL string
	// Configs are the registered webhook configurations.
	Configs []client.Object

	cancel context.CancelFunc
	done   chan error
	client client.Client
}

// StartLocal serves provider-local's admission webhooks on a free loopback port, with certificates
// written to certDir, and registers them with the API server at cfg. It returns once the server answers
// and the registration exists; Ready tells when gardener-apiserver calls the webhooks.
func StartLocal(ctx context.Context, cfg *rest.Config, certDir string) (*Server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	hostPort := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	// The same helper the extension uses when it runs outside a cluster: a CA and a server certificate
	// for the URL's address, written as tls.crt and tls.key.
	caBundle, err := certificates.GenerateUnmanagedCertificates(LocalName, false, certDir, extensionswebhook.ModeURL, hostPort)
	if err != nil {
		return nil, fmt.Errorf("generating webhook certificates: %w", err)
	}

	scheme := runtime.NewScheme()
	utilruntime.Must(clientgoscheme.AddToScheme(scheme))
	gardencoreinstall.Install(scheme)
	securityinstall.Install(scheme)
	localinstall.Install(scheme)

	mgr, err := manager.New(cfg, manager.Options{
		Scheme:                  scheme,
		Metrics:                 metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress:  "0",
		GracefulShutdownTimeout: ptr.To(10 * time.Second),
		Controller:              config.Controller{SkipNameValidation: ptr.To(true)},
		WebhookServer:           webhook.NewServer(webhook.Options{Host: "127.0.0.1", Port: port, CertDir: certDir}),
		Client: client.Options{Cache: &client.CacheOptions{
			// The NamespacedCloudProfile validator reads the parent CloudProfile. Through a cache it
			// could miss a parent created a moment before; direct reads make results independent of
			// timing, which the differential tests rely on.
			DisableFor: []client.Object{&gardencorev1beta1.CloudProfile{}},
		}},
	})
	if err != nil {
		return nil, fmt.Errorf("creating webhook manager: %w", err)
	}

	var webhooks []*extensionswebhook.Webhook
	for _, factory := range []func(manager.Manager) (*extensionswebhook.Webhook, error){validator.New, mutator.New} {
		wh, err := factory(mgr)
		if err != nil {
			return nil, err
		}
		webhooks = append(webhooks, wh)
		mgr.GetWebhookServer().Register(wh.Path, wh.Webhook)
	}
	configs, _, err := extensionswebhook.BuildWebhookConfigs(webhooks, mgr.GetClient(), "", LocalName, false,
		port, extensionswebhook.ModeURL, hostPort, caBundle, false)
	if err != nil {
		return nil, fmt.Errorf("building webhook configurations: %w", err)
	}

	runCtx, cancel := context.WithCancel(context.Background())
	s := &Server{URL: "https://" + hostPort, cancel: cancel, done: make(chan error, 1), client: mgr.GetClient()}
	go func() { s.done <- mgr.Start(runCtx) }()
	if err := s.waitServing(ctx, mgr); err != nil {
		return nil, errors.Join(err, s.Stop())
	}
	for _, obj := range configs.GetWebhookConfigs() {
		if err := extensionswebhook.ReconcileSeedWebhookConfig(ctx, mgr.GetClient(), obj, "", caBundle); err != nil {
			return nil, errors.Join(fmt.Errorf("registering %s: %w", obj.GetName(), err), s.Stop())
		}
		s.Configs = append(s.Configs, obj)
	}
	return s, nil
}

// waitServing waits until the webhook server accepts TLS connections.
func (s *Server) waitServing(ctx context.Context, mgr manager.Manager) error {
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	check := mgr.GetWebhookServer().StartedChecker()
	for {
		if check(nil) == nil {
			return nil
		}
		select {
		case err := <-s.done:
			s.done <- err
			return errors.Join(errors.New("webhook manager stopped during start-up"), err)
		case <-ctx.Done():
			return fmt.Errorf("waiting for the webhook server: %w", ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// Stop stops the webhook server. The registration stays: the API server goes away with it.
func (s *Server) Stop() error {
	if s == nil || s.cancel == nil {
		return nil
	}
	s.cancel()
	err := <-s.done
	s.cancel = nil
	return err
}

// freePort asks the kernel for a free loopback port. The port is released again before the webhook
// server binds it; another process could take it in between, which start-up then reports.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// WaitActive waits until gardener-apiserver calls the registered webhooks: its admission chain learns
// about webhook configurations through an informer, a little after they are created. The probe is a
// dry-run create of a CloudProfile of type local without providerConfig, which provider-local's
// validator rejects.
func WaitActive(ctx context.Context, c client.Client) error {
	ctx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	probe := &gardencorev1beta1.CloudProfile{
		ObjectMeta: metav1.ObjectMeta{Name: "extension-admission-probe"},
		Spec: gardencorev1beta1.CloudProfileSpec{
			Type:         "local",
			Kubernetes:   gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{{Version: "1.33.0"}}},
			MachineTypes: []gardencorev1beta1.MachineType{{Name: "m1", CPU: resource.MustParse("1"), GPU: resource.MustParse("0"), Memory: resource.MustParse("1Gi")}},
			Regions:      []gardencorev1beta1.Region{{Name: "local"}},
			MachineImages: []gardencorev1beta1.MachineImage{{
				Name: "probe",
				Versions: []gardencorev1beta1.MachineImageVersion{{
					ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1.0.0"},
					CRI:              []gardencorev1beta1.CRI{{Name: gardencorev1beta1.CRINameContainerD}},
				}},
			}},
		},
	}
	var last error
	for {
		last = c.Create(ctx, probe.DeepCopy(), client.DryRunAll)
		if last != nil && strings.Contains(last.Error(), "providerConfig") {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("webhooks not called by gardener-apiserver (last probe result: %v): %w", last, ctx.Err())
		case <-time.After(200 * time.Millisecond):
		}
	}
}
