package openstack

import (
	"testing"

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
