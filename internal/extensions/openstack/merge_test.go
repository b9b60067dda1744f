package openstack

import (
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon/exttest"
)

func TestMergeProviderConfig(t *testing.T) {
	const encodedBase = `"constraints":{"floatingPools":[{"name":"fip"}],"loadBalancerProviders":[{"name":"amphora"}]},"keystoneURL":"https://keystone"`
	exttest.CheckMerge(t, MergeProviderConfig, []exttest.MergeCase{
		{Name: "a version of the parent's image is replaced, a new one added; the parent's other settings stay",
			Spec:   ncfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","image":"ubuntu-x"},{"version":"2.0.0","regions":[{"name":"rz","id":"id-2","architecture":"arm64"}]}]}`),
			Status: cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","image":"ubuntu-1"},{"version":"0.9.0","image":"ubuntu-0"}]}`),
			Want: `{` + apiVersion + `,` + encodedBase + `,"machineImages":[{"name":"ubuntu","versions":[` +
				`{"version":"1.0.0","image":"ubuntu-x"},{"version":"0.9.0","image":"ubuntu-0"},` +
				`{"version":"2.0.0","regions":[{"name":"rz","id":"id-2","architecture":"arm64"}]}]}]}`},
		{Name: "an image the parent lacks is added whole",
			Spec:   ncfg(`{"name":"custom","versions":[{"version":"1","image":"c"}]}`),
			Status: cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","image":"ubuntu-1"}]}`),
			Want: `{` + apiVersion + `,` + encodedBase + `,"machineImages":[{"name":"ubuntu","versions":[{"version":"1.0.0","image":"ubuntu-1"}]},` +
				`{"name":"custom","versions":[{"version":"1","image":"c"}]}]}`},
		{Name: "an undecodable spec fails the status write", Spec: `{"apiVersion":"openstack.provider.extensions.gardener.cloud/v1"}`, Status: cfg(``)},
	})
}

// TestProviderImages: a version's image name without regions serves every region for amd64;
// region mappings give their id per region and architecture, flavors per region (or by name in
// every region) for the flavor's architecture.
func TestProviderImages(t *testing.T) {
	config := cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","image":"ubuntu-1"},` +
		`{"version":"2.0.0","regions":[{"name":"rz","id":"id-2","architecture":"arm64"}]},` +
		`{"version":"3.0.0","capabilityFlavors":[{"capabilities":{"architecture":["arm64"]},"image":"ubuntu-3"},{"capabilities":{"architecture":["amd64"]},"regions":[{"name":"rz","id":"id-3"}]}]}]}`)
	exttest.CheckProviderImages(t, ProviderImages(gardencorev1beta1.CloudProfileSpec{ProviderConfig: exttest.Raw(config), MachineCapabilities: exttest.ArchDefs("amd64", "arm64")}),
		`map[ubuntu:map[1.0.0:[{ amd64 ubuntu-1}] 2.0.0:[{rz arm64 id-2}] 3.0.0:[{ arm64 ubuntu-3} {rz amd64 id-3}]]]`)
}
