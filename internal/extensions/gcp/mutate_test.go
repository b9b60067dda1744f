package gcp

import (
	"fmt"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon/exttest"
)

func TestMutateCloudProfile(t *testing.T) {
	config := cfg(`{"name":"ubuntu","versions":[
		{"version":"1.0.0","image":"a","architecture":"arm64"},{"version":"1.0.0","image":"b"},
		{"version":"2.0.0","capabilityFlavors":[{"capabilities":{"architecture":["arm64"]},"image":"c"}]},
		{"version":"3.0.0"}]}`)
	images := []gardencorev1beta1.MachineImage{exttest.Image("ubuntu",
		exttest.FlavorVersion("1.0.0", "amd64"), exttest.Version("2.0.0"), exttest.FlavorVersion("3.0.0", "amd64"), exttest.Version("4.0.0"))}
	got := MutateCloudProfile(capSpec(config, images...)).MachineImages[0].Versions
	for i, want := range []string{
		"[{map[architecture:[amd64]]} {map[architecture:[arm64]]}]", // one flavor per architecture with an image, sorted
		"[{map[architecture:[arm64]]}]",                             // the providerConfig's flavors
		"[]",                                                        // no image: no flavors (every capability)
		"[]",                                                        // not in the providerConfig: unchanged
	} {
		if s := fmt.Sprint(got[i].CapabilityFlavors); s != want {
			t.Errorf("version %s: flavors %s, want %s", got[i].Version, s, want)
		}
	}
	if got := MutateCloudProfile(spec(config, images...)).MachineImages[0].Versions[0]; fmt.Sprint(got.CapabilityFlavors) != "[{map[architecture:[amd64]]}]" {
		t.Errorf("without capability definitions nothing changes, got %v", got.CapabilityFlavors)
	}
	capParent := capSpec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.FlavorVersion("1.0.0", "amd64")))
	n := MutateNamespacedCloudProfile(ncp(config, images...), capParent)
	if s := fmt.Sprint(n.MachineImages[0].Versions[1].CapabilityFlavors); s != "[{map[architecture:[arm64]]}]" {
		t.Errorf("namespaced: flavors %s", s)
	}
}

func TestAdmissionChain(t *testing.T) {
	s := capSpec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.FlavorVersion("1.0.0", "amd64", "arm64")))
	if ps := ValidateCloudProfile("p", s); len(ps) != 0 {
		t.Errorf("the mutating webhook takes the providerConfig's flavors, got %v", ps)
	}
	bad := ncp(`{"apiVersion":"gcp.provider.extensions.gardener.cloud/v1alpha1","kind":"CloudProfileConfig","bogus":1}`)
	ps := ValidateNamespacedCloudProfile("n", bad, spec(cfg(ubuntuAMD64)))
	if len(ps) != 1 || ps[0].Detail != `could not decode providerConfig of namespacedCloudProfile spec for 'n': strict decoding error: unknown field "bogus"` {
		t.Errorf("got %v", ps)
	}
}
