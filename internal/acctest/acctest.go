// Package acctest connects acceptance tests to the local Garden that `make test` (or
// `make garden-up`) starts: its kubeconfig, a client for setting up objects, and the provider.
package acctest

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
	"github.com/gardener-community/terraform-provider-gardener/internal/provider"
)

// Environment variables the local Garden's scripts export.
const (
	EnvKubeconfig        = "GARDEN_KUBECONFIG"
	EnvProjectKubeconfig = "GARDEN_PROJECT_KUBECONFIG"
)

// Kubeconfig returns the admin kubeconfig of the local Garden. It skips the test when acceptance
// tests are off (TF_ACC unset) and fails it when they are on but no Garden is configured, so that
// a misconfigured run can never pass by skipping.
func Kubeconfig(t testing.TB) string {
	t.Helper()
	return requireEnv(t, EnvKubeconfig)
}

// ProjectKubeconfig returns the kubeconfig of the local Garden's project user, who may only manage
// NamespacedCloudProfiles in the project namespace.
func ProjectKubeconfig(t testing.TB) string {
	t.Helper()
	return requireEnv(t, EnvProjectKubeconfig)
}

func requireEnv(t testing.TB, name string) string {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1 and run against a local Garden (make test)")
	}
	v := os.Getenv(name)
	if v == "" {
		t.Fatalf("TF_ACC is set but %s is not: start the local Garden with 'make garden-up' or run 'make test'", name)
	}
	return v
}

// Client returns a client of the local Garden with the admin kubeconfig.
func Client(t testing.TB) *kube.Client {
	t.Helper()
	return clientFor(t, Kubeconfig(t), "acctest")
}

func clientFor(t testing.TB, kubeconfig, fieldManager string) *kube.Client {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		t.Fatalf("loading %s: %v", kubeconfig, err)
	}
	c, err := kube.NewClient(cfg, fieldManager)
	if err != nil {
		t.Fatalf("building client: %v", err)
	}
	return c
}

// ProviderFactories serves the provider in-process for terraform-plugin-testing. The provider sees
// an empty environment, so only the configuration written by the test counts.
func ProviderFactories() map[string]func() (tfprotov6.ProviderServer, error) {
	noEnv := func(string) (string, bool) { return "", false }
	return map[string]func() (tfprotov6.ProviderServer, error){
		provider.TypeName: provider.NewProtocol6Server(provider.NewWithEnvironment("test", noEnv)),
	}
}

// ProviderBlock is a provider configuration that connects to the local Garden with kubeconfig and
// sets the feature gates the local Garden runs with (GardenFeatureGates; it panics on a malformed
// EnvFeatureGates, a broken test environment). Tests add settings by replacing "config_path = ".
func ProviderBlock(kubeconfig string) string {
	gates, err := GardenFeatureGates()
	if err != nil {
		panic(err)
	}
	return fmt.Sprintf("provider %q {\n  config_path = %q\n  feature_gates = %s\n}\n", provider.TypeName, kubeconfig, featureGatesSetting(gates))
}

// RequiredProviders declares the provider under the address terraform-plugin-testing serves it
// at (TF_ACC_PROVIDER_HOST and TF_ACC_PROVIDER_NAMESPACE, by default registry.terraform.io and
// hashicorp), for a configuration that imports a resource it does not declare: Terraform takes
// such a resource's provider from required_providers, else from hashicorp/<prefix>.
func RequiredProviders() string {
	host, namespace := os.Getenv("TF_ACC_PROVIDER_HOST"), os.Getenv("TF_ACC_PROVIDER_NAMESPACE")
	if host == "" {
		host = "registry.terraform.io"
	}
	if namespace == "" {
		namespace = "hashicorp"
	}
	return fmt.Sprintf("terraform {\n  required_providers {\n    %s = { source = %q }\n  }\n}\n", provider.TypeName, host+"/"+namespace+"/"+provider.TypeName)
}

// Context returns a context for setup and cleanup requests, bounded so a hung server fails the
// test instead of hanging it.
func Context(t testing.TB) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// UniqueName returns a DNS-1123 name unique to the test run, so tests never collide on the
// shared Garden.
func UniqueName(prefix string) string {
	return fmt.Sprintf("%s-%d", prefix, time.Now().UnixNano()%1_000_000_000)
}

// ClientAs returns an admin client of the local Garden that applies as another field manager,
// to play a controller or a colleague changing objects out of band.
func ClientAs(t testing.TB, fieldManager string) *kube.Client {
	t.Helper()
	return clientFor(t, Kubeconfig(t), fieldManager)
}
