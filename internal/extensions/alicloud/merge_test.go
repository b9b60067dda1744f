package alicloud

import (
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon/exttest"
)

func TestMergeProviderConfig(t *testing.T) {
	exttest.CheckMerge(t, MergeProviderConfig, []exttest.MergeCase{
		{Name: "a version of the parent's image is replaced, a new one added",
			Spec:   cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","regions":[{"name":"eu-central-1","id":"m-x"}]},{"version":"2.0.0","regions":[{"name":"cn-shanghai","id":"m-2"}]}]}`),
			Status: cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","regions":[{"name":"eu-central-1","id":"m-1"}]}]}`),
			Want: `{` + apiVersion + `,"machineImages":[{"name":"ubuntu","versions":[` +
				`{"version":"1.0.0","regions":[{"name":"eu-central-1","id":"m-x"}]},{"version":"2.0.0","regions":[{"name":"cn-shanghai","id":"m-2"}]}]}]}`},
		{Name: "an image the parent lacks is added whole",
			Spec:   cfg(`{"name":"custom","versions":[{"version":"1","capabilityFlavors":[{"regions":[{"name":"r","id":"m-c"}],"capabilities":{"architecture":["arm64"]}}]}]}`),
			Status: cfg(``),
			Want:   `{` + apiVersion + `,"machineImages":[{"name":"custom","versions":[{"version":"1","capabilityFlavors":[{"regions":[{"name":"r","id":"m-c"}],"capabilities":{"architecture":["arm64"]}}]}]}]}`},
		{Name: "an undecodable spec fails the status write", Spec: `{"apiVersion":"alicloud.provider.extensions.gardener.cloud/v1alpha1","machineImages":{}}`, Status: cfg(``)},
	})
}

// TestProviderImages: region mappings give their image id per region for amd64, capability
// flavors per region for the flavor's architecture.
func TestProviderImages(t *testing.T) {
	config := cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","regions":[{"name":"eu-central-1","id":"m-1"}]},` +
		`{"version":"2.0.0","capabilityFlavors":[{"capabilities":{"architecture":["arm64"]},"regions":[{"name":"cn-shanghai","id":"m-2"}]}]}]}`)
	exttest.CheckProviderImages(t, ProviderImages(gardencorev1beta1.CloudProfileSpec{ProviderConfig: exttest.Raw(config), MachineCapabilities: exttest.ArchDefs("amd64", "arm64")}),
		`map[ubuntu:map[1.0.0:[{eu-central-1 amd64 m-1}] 2.0.0:[{cn-shanghai arm64 m-2}]]]`)
}
