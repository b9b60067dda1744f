package alicloud

import (
	"testing"

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
