package azure

import (
	"fmt"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon/exttest"
)

func TestMutateCloudProfile(t *testing.T) {
	config := cfg(`{"name":"ubuntu","versions":[
		{"version":"1.0.0","urn":"a:b:c:d","architecture":"arm64","acceleratedNetworking":true},{"version":"1.0.0","urn":"a:b:c:e"},{"version":"1.0.0","urn":"a:b:c:f","acceleratedNetworking":true},
		{"version":"2.0.0","capabilityFlavors":[{"capabilities":{"architecture":["arm64"]},"urn":"a:b:c:g"}]}]}`)
	images := []gardencorev1beta1.MachineImage{exttest.Image("ubuntu", exttest.Version("1.0.0"), exttest.Version("2.0.0"), exttest.FlavorVersion("3.0.0", "amd64"))}
	got := MutateCloudProfile(capSpec(config, images...)).MachineImages[0].Versions
	for i, want := range []string{
		"[{map[architecture:[amd64] azure-networking:[basic]]} {map[architecture:[amd64]]} {map[architecture:[arm64]]}]",
		"[{map[architecture:[arm64]]}]",
		"[{map[architecture:[amd64]]}]",
	} {
		if s := fmt.Sprint(got[i].CapabilityFlavors); s != want {
			t.Errorf("version %s: flavors %s, want %s", got[i].Version, s, want)
		}
	}
	if got := MutateCloudProfile(spec(config, images...)).MachineImages[0].Versions[0]; len(got.CapabilityFlavors) != 0 {
		t.Errorf("without capability definitions nothing changes, got %v", got.CapabilityFlavors)
	}
}

func TestAdmissionChain(t *testing.T) {
	s := capSpec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.FlavorVersion("1.0.0", "amd64", "arm64")))
	if ps := ValidateCloudProfile("p", s); len(ps) != 0 {
		t.Errorf("the mutating webhook takes the providerConfig's flavors, got %v", ps)
	}
	bad := ncp(`{"apiVersion":"azure.provider.extensions.gardener.cloud/v1alpha1","kind":"CloudProfileConfig","bogus":1}`)
	ps := ValidateNamespacedCloudProfile("n", bad, spec(cfg(ubuntuAMD64)))
	if len(ps) != 1 || ps[0].Detail != `could not decode providerConfig of namespacedCloudProfile spec: strict decoding error: unknown field "bogus"` {
		t.Errorf("got %v", ps)
	}
}
