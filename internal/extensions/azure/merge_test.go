package azure

import (
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon/exttest"
)

func TestMergeProviderConfig(t *testing.T) {
	const encodedDomains = `"countUpdateDomains":[{"region":"westeurope","count":5}],"countFaultDomains":[{"region":"westeurope","count":2}]`
	exttest.CheckMerge(t, MergeProviderConfig, []exttest.MergeCase{
		{Name: "the spec's versions follow the parent's, also of a version both have (architecture defaulted)",
			Spec:   ncfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","id":"/images/arm","architecture":"arm64"}]}`),
			Status: cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","urn":"c:u:22:1.0.0"}]}`),
			Want: `{` + apiVersion + `,` + encodedDomains + `,"machineImages":[{"name":"ubuntu","versions":[` +
				`{"version":"1.0.0","architecture":"amd64","urn":"c:u:22:1.0.0"},` +
				`{"version":"1.0.0","architecture":"arm64","id":"/images/arm"}]}]}`},
		{Name: "machine types only the spec has are added, the parent's stay as they are",
			Spec:   `{` + apiVersion + `,"machineImages":[],"machineTypes":[{"name":"Standard_D2","acceleratedNetworking":false},{"name":"Standard_D4","acceleratedNetworking":true}]}`,
			Status: `{` + apiVersion + `,` + domains + `,"machineImages":[],"machineTypes":[{"name":"Standard_D2","acceleratedNetworking":true}]}`,
			Want: `{` + apiVersion + `,` + encodedDomains + `,"machineImages":null,` +
				`"machineTypes":[{"name":"Standard_D2","acceleratedNetworking":true},{"name":"Standard_D4","acceleratedNetworking":true}]}`},
		{Name: "an image the parent lacks is added whole",
			Spec:   ncfg(`{"name":"custom","versions":[{"version":"1","capabilityFlavors":[{"capabilities":{"architecture":["arm64"]},"id":"/images/c"}]}]}`),
			Status: cfg(``),
			Want: `{` + apiVersion + `,` + encodedDomains + `,"machineImages":[` +
				`{"name":"custom","versions":[{"version":"1","capabilityFlavors":[{"capabilities":{"architecture":["arm64"]},"id":"/images/c"}]}]}]}`},
		{Name: "an undecodable spec fails the status write", Spec: `{"apiVersion":"azure.provider.extensions.gardener.cloud/v1alpha1","unknown":1}`, Status: cfg(``)},
	})
}

// TestProviderImages: Azure images serve every region; each entry gives the one reference it sets
// (URN, id, community or shared gallery image id) for its architecture or its flavor's.
func TestProviderImages(t *testing.T) {
	exttest.CheckProviderImages(t, ProviderImages(gardencorev1beta1.CloudProfileSpec{ProviderConfig: exttest.Raw(cfg(ubuntuBoth))}),
		`map[ubuntu:map[1.0.0:[{ amd64 Canonical:ubuntu:22_04:1.0.0} { arm64 /subscriptions/s/images/arm}]]]`)
	exttest.CheckProviderImages(t, ProviderImages(gardencorev1beta1.CloudProfileSpec{ProviderConfig: exttest.Raw(cfg(ubuntuFlav)), MachineCapabilities: exttest.ArchDefs("amd64", "arm64")}),
		`map[ubuntu:map[1.0.0:[{ amd64 /CommunityGalleries/g/Images/i/versions/1.0.0} { arm64 /SharedGalleries/g/Images/i/Versions/1.0.0}]]]`)
}
