package provider_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/faultproxy"
)

// TestAccSecurity_tlsIsVerifiedByDefault puts a proxy with a self-signed certificate the
// kubeconfig does not trust in front of the local Garden: with insecure unset the provider refuses
// the server with a clear certificate error (not retried: see TestRetry_AnUntrustedCertificateIsNotRetried), nothing is written; with
// insecure = true the same configuration works (the provider warns; the warning itself is
// checked by TestProviderData_InsecureWarns).
func TestAccSecurity_tlsIsVerifiedByDefault(t *testing.T) {
	admin := acctest.Client(t)
	proxy, kubeconfig := startFaultProxy(t, faultproxy.Config{}, false)
	name := acctest.UniqueName("acc-tls")
	config := func(insecure string) string {
		return fmt.Sprintf(`
provider "gardener" {
  config_path = %q
  %s
}

resource "gardener_cloud_profile" "test" {
  metadata = { name = %q }
  spec = {
    type           = "local"
    provider_config = jsonencode({ apiVersion = "local.provider.extensions.gardener.cloud/v1alpha1", kind = "CloudProfileConfig", machineImages = [for image in ["gardenlinux", "ubuntu", "alpine", "suse", "rhel"] : { name = image, versions = [{ version = "1.0.0", image = "local/${image}" }] }] })
    kubernetes     = { versions = { "1.31.2" = {} } }
    machine_images = { "gardenlinux" = { versions = { "1877.3.0" = {} } } }
    machine_types  = { "m5.large" = { cpu = "2", gpu = "0", memory = "8Gi" } }
    regions        = { "local" = {} }
  }
}
`, kubeconfig, insecure, name)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.ProviderFactories(),
		CheckDestroy:             cloudProfileGone(admin, name),
		Steps: []resource.TestStep{
			{
				Config:      config(""),
				ExpectError: regexp.MustCompile(`(?s)Garden cluster unreachable.*certificate\s+signed\s+by\s+unknown\s+authority.*cluster_ca_certificate`),
			},
			{
				PreConfig: func() {
					if _, err := admin.GetCloudProfile(acctest.Context(t), name); err == nil {
						t.Errorf("CloudProfile %s was written through an unverified connection", name)
					}
				},
				Config: config("insecure = true"),
			},
		},
	})
	if proxy.Requests() == 0 {
		t.Fatal("the insecure step did not go through the proxy")
	}
}
