package openstack

import (
	"fmt"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon/exttest"
)

func TestMutateCloudProfile(t *testing.T) {
	config := cfg(`{"name":"ubuntu","versions":[
		{"version":"1.0.0","regions":[{"name":"r","id":"a","architecture":"arm64"},{"name":"s","id":"b"}]},
		{"version":"2.0.0","capabilityFlavors":[{"capabilities":{"architecture":["arm64"]},"image":"c"}]},
		{"version":"3.0.0","image":"d"}]}`)
	images := []gardencorev1beta1.MachineImage{exttest.Image("ubuntu",
		exttest.FlavorVersion("1.0.0", "amd64"), exttest.Version("2.0.0"), exttest.FlavorVersion("3.0.0", "amd64"), exttest.FlavorVersion("4.0.0", "arm64"))}
	got := MutateCloudProfile(capSpec(config, images...)).MachineImages[0].Versions
	for i, want := range []string{
		"[{map[architecture:[amd64]]} {map[architecture:[arm64]]}]", // one flavor per region architecture, sorted
		"[{map[architecture:[arm64]]}]",                             // the providerConfig's flavors
		"[]",                                                        // neither: the flavors are removed
		"[{map[architecture:[arm64]]}]",                             // not in the providerConfig: unchanged
	} {
		if s := fmt.Sprint(got[i].CapabilityFlavors); s != want {
			t.Errorf("version %s: flavors %s, want %s", got[i].Version, s, want)
		}
	}
	if got := MutateCloudProfile(spec(config, images...)).MachineImages[0].Versions[2]; len(got.CapabilityFlavors) != 1 {
		t.Errorf("without capability definitions nothing changes, got %v", got.CapabilityFlavors)
	}
}

func TestAdmissionChain(t *testing.T) {
	s := capSpec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.FlavorVersion("1.0.0", "amd64", "arm64")))
	if ps := ValidateCloudProfile("p", s); len(ps) != 0 {
		t.Errorf("the mutating webhook takes the providerConfig's flavors, got %v", ps)
	}
	bad := capSpec(`{"apiVersion":"openstack.provider.extensions.gardener.cloud/v1alpha1","kind":"CloudProfileConfig","bogus":1}`)
	ps := ValidateCloudProfile("p", bad)
	if len(ps) != 1 || ps[0].Detail != `could not decode providerConfig of cloudProfile for 'p': strict decoding error: unknown field "bogus"` {
		t.Errorf("got %v", ps)
	}
}
