package aws

import (
	"fmt"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon/exttest"
)

func flavorsOf(v gardencorev1beta1.MachineImageVersion) string {
	return fmt.Sprint(v.CapabilityFlavors)
}

func TestMutateCloudProfile(t *testing.T) {
	config := cfg(`{"name":"ubuntu","versions":[
		{"version":"1.0.0","regions":[{"name":"r","ami":"a","architecture":"arm64"},{"name":"r","ami":"b"},{"name":"s","ami":"c"}]},
		{"version":"2.0.0","capabilityFlavors":[{"capabilities":{"architecture":["arm64"]},"regions":[{"name":"r","ami":"d"}]}]},
		{"version":"3.0.0"}]}`)
	images := []gardencorev1beta1.MachineImage{exttest.Image("ubuntu",
		exttest.FlavorVersion("1.0.0", "amd64"), exttest.Version("2.0.0"), exttest.FlavorVersion("3.0.0", "amd64"), exttest.Version("4.0.0"))}

	got := MutateCloudProfile(capSpec(config, images...)).MachineImages[0].Versions
	for i, want := range []string{
		"[{map[architecture:[amd64]]} {map[architecture:[arm64]]}]", // one flavor per region architecture, sorted
		"[{map[architecture:[arm64]]}]",                             // the providerConfig's flavors
		"[{map[architecture:[amd64]]}]",                             // no regions, no flavors: unchanged
		"[]",                                                        // not in the providerConfig: unchanged
	} {
		if flavorsOf(got[i]) != want {
			t.Errorf("version %s: flavors %s, want %s", got[i].Version, flavorsOf(got[i]), want)
		}
	}

	if got := MutateCloudProfile(spec(config, images...)).MachineImages[0].Versions[1]; len(got.CapabilityFlavors) != 0 {
		t.Errorf("without capability definitions nothing changes, got %v", got.CapabilityFlavors)
	}
	if got := MutateCloudProfile(capSpec(`{"kind":"x"}`, images...)).MachineImages[0].Versions[1]; len(got.CapabilityFlavors) != 0 {
		t.Errorf("an undecodable providerConfig changes nothing, got %v", got.CapabilityFlavors)
	}
	in := capSpec(config, images...)
	_ = MutateCloudProfile(in)
	if len(in.MachineImages[0].Versions[1].CapabilityFlavors) != 0 {
		t.Error("the input was modified")
	}
}

func TestMutateNamespacedCloudProfile(t *testing.T) {
	config := cfg(`{"name":"ubuntu","versions":[{"version":"2.0.0","regions":[{"name":"r","ami":"a","architecture":"arm64"}]}]}`)
	capParent := capSpec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.FlavorVersion("1.0.0", "amd64")))
	got := MutateNamespacedCloudProfile(ncp(config, exttest.Image("ubuntu", exttest.FlavorVersion("2.0.0", "amd64"))), capParent)
	if s := flavorsOf(got.MachineImages[0].Versions[0]); s != "[{map[architecture:[arm64]]}]" {
		t.Errorf("flavors %s", s)
	}
	plain := spec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.Version("1.0.0")))
	got = MutateNamespacedCloudProfile(ncp(config, exttest.Image("ubuntu", exttest.FlavorVersion("2.0.0", "amd64"))), plain)
	if s := flavorsOf(got.MachineImages[0].Versions[0]); s != "[{map[architecture:[amd64]]}]" {
		t.Errorf("without capability definitions in the parent nothing changes, got %s", s)
	}
}

func TestAdmissionChain(t *testing.T) {
	// The spec names flavors the providerConfig does not map; the mutating webhook replaces them,
	// so Gardener accepts the object (and stores the providerConfig's flavors).
	s := capSpec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.FlavorVersion("1.0.0", "amd64", "arm64")))
	if ps := ValidateCloudProfile("p", s); len(ps) != 0 {
		t.Errorf("got %v", ps)
	}
	// The mutating webhook decodes first, into the versioned type: its message wins.
	bad := capSpec(`{"apiVersion":"aws.provider.extensions.gardener.cloud/v1alpha1","kind":"CloudProfileConfig","bogus":1}`, exttest.Image("ubuntu", exttest.Version("1.0.0")))
	ps := ValidateCloudProfile("p", bad)
	if len(ps) != 1 || ps[0].Detail != `could not decode providerConfig of cloudProfile for 'p': strict decoding error: unknown field "bogus"` {
		t.Errorf("got %v", ps)
	}
	// A missing apiVersion passes the mutating webhook (which decodes into v1alpha1) but not the
	// validating one (which decodes without a target type).
	noVersion := capSpec(`{"kind":"CloudProfileConfig","machineImages":[]}`, exttest.Image("ubuntu", exttest.Version("1.0.0")))
	ps = ValidateCloudProfile("p", noVersion)
	if len(ps) != 1 || ps[0].Detail != `could not decode providerConfig of CloudProfile "p": Object 'apiVersion' is missing in '{"kind":"CloudProfileConfig","machineImages":[]}'` {
		t.Errorf("got %v", ps)
	}
}
