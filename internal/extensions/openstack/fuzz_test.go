package openstack

import (
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon/exttest"
)

func FuzzValidateCloudProfileOpenStack(f *testing.F) {
	f.Add([]byte(cfg(ubuntuAMD64)), uint8(0))
	f.Add([]byte(cfg(ubuntuBoth)), uint8(3))
	f.Add([]byte(cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","capabilityFlavors":[{"capabilities":{"architecture":["amd64"],"x":[]},"regions":[{"name":"r","id":"a","architecture":"arm64"}]}]}]}`)), uint8(7))
	f.Add([]byte(`{"apiVersion":"openstack.provider.extensions.gardener.cloud","machineImages":null}`), uint8(1))
	f.Add([]byte(`null`), uint8(2))
	f.Add([]byte(with(`"constraints":{"floatingPools":[{"name":"f","region":"r","loadBalancerClasses":[{"name":"default","floatingSubnetID":"urn:uuid:0ba2dd64-a4d3-4d2c-9d0a-0c7f6cf1f0bb","floatingNetworkID":"{0ba2dd64-a4d3-4d2c-9d0a-0c7f6cf1f0bb}"}]}]},"keystoneURLs":[{"region":"r","url":"u","caCert":"c"}]`)), uint8(0))
	f.Fuzz(func(t *testing.T, raw []byte, shape uint8) {
		images := []gardencorev1beta1.MachineImage{exttest.Image("ubuntu", exttest.Version("1.0.0"), exttest.FlavorVersion("2.0.0", "arm64"), exttest.Expiring("3.0.0"))}
		if shape&1 != 0 {
			images = append(images, exttest.Image("", exttest.Version("")))
		}
		s := gardencorev1beta1.CloudProfileSpec{Type: Type, ProviderConfig: exttest.Raw(string(raw)), MachineImages: images}
		if shape&2 != 0 {
			s.MachineCapabilities = exttest.ArchDefs("amd64", "arm64")
		}
		if shape&4 != 0 {
			s.ProviderConfig = nil
		}
		_ = ValidateCloudProfile("p", s)
		_ = MutateCloudProfile(s)
		n := gardencorev1beta1.NamespacedCloudProfileSpec{Parent: exttest.Parent(), ProviderConfig: exttest.Raw(string(raw)), MachineImages: images}
		_ = ValidateNamespacedCloudProfile("n", n, s)
		_ = MutateNamespacedCloudProfile(n, s)
	})
}
