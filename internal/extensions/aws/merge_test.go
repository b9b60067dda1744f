package aws

import (
	"testing"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon/exttest"
)

func TestMergeProviderConfig(t *testing.T) {
	parent := cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","regions":[{"name":"eu-west-1","ami":"ami-1"}]},{"version":"2.0.0","regions":[{"name":"eu-west-1","ami":"ami-2","architecture":"arm64"}]}]}`)
	exttest.CheckMerge(t, MergeProviderConfig, []exttest.MergeCase{
		{Name: "a version of the parent's image is replaced, its other versions stay (architecture defaulted)",
			Spec:   cfg(`{"name":"ubuntu","versions":[{"version":"2.0.0","regions":[{"name":"eu-west-1","ami":"ami-x"}]}]}`),
			Status: parent,
			Want: `{` + apiVersion + `,"machineImages":[{"name":"ubuntu","versions":[` +
				`{"version":"1.0.0","regions":[{"name":"eu-west-1","ami":"ami-1","architecture":"amd64"}]},` +
				`{"version":"2.0.0","regions":[{"name":"eu-west-1","ami":"ami-x","architecture":"amd64"}]}]}]}`},
		{Name: "a new version is added to the parent's image",
			Spec:   cfg(`{"name":"ubuntu","versions":[{"version":"3.0.0","regions":[{"name":"us-east-1","ami":"ami-3","architecture":"arm64"}]}]}`),
			Status: cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","regions":[{"name":"eu-west-1","ami":"ami-1"}]}]}`),
			Want: `{` + apiVersion + `,"machineImages":[{"name":"ubuntu","versions":[` +
				`{"version":"1.0.0","regions":[{"name":"eu-west-1","ami":"ami-1","architecture":"amd64"}]},` +
				`{"version":"3.0.0","regions":[{"name":"us-east-1","ami":"ami-3","architecture":"arm64"}]}]}]}`},
		{Name: "an image the parent lacks is added whole; flavor regions keep no architecture",
			Spec:   cfg(`{"name":"custom","versions":[{"version":"1","capabilityFlavors":[{"capabilities":{"architecture":["arm64"]},"regions":[{"name":"r","ami":"ami-c"}]}]}]}`),
			Status: cfg(`{"name":"ubuntu","versions":[]}`),
			Want: `{` + apiVersion + `,"machineImages":[{"name":"ubuntu","versions":[]},` +
				`{"name":"custom","versions":[{"version":"1","capabilityFlavors":[{"regions":[{"name":"r","ami":"ami-c"}],"capabilities":{"architecture":["arm64"]}}]}]}]}`},
		{Name: "of an image named twice in the spec the later entry counts",
			Spec:   cfg(`{"name":"custom","versions":[{"version":"1","regions":[{"name":"r","ami":"first"}]}]},{"name":"custom","versions":[{"version":"2","regions":[{"name":"r","ami":"second"}]}]}`),
			Status: cfg(``),
			Want: `{` + apiVersion + `,"machineImages":[` +
				`{"name":"custom","versions":[{"version":"2","regions":[{"name":"r","ami":"second","architecture":"amd64"}]}]}]}`},
		{Name: "an undecodable spec fails the status write", Spec: `{"kind":"Other"}`, Status: parent},
	})
}

// TestProviderImages: region mappings give their AMI per region and architecture (amd64 when
// unset), capability flavors per region for the flavor's architecture; an undecodable config none.
func TestProviderImages(t *testing.T) {
	config := cfg(`{"name":"gardenlinux","versions":[` +
		`{"version":"1.0.0","regions":[{"name":"eu-west-1","ami":"ami-1"},{"name":"eu-west-1","ami":"ami-2","architecture":"arm64"}]},` +
		`{"version":"2.0.0","capabilityFlavors":[{"capabilities":{"architecture":["arm64"]},"regions":[{"name":"us-east-1","ami":"ami-3"}]}]}]}`)
	exttest.CheckProviderImages(t, ProviderImages(capSpec(config)),
		`map[gardenlinux:map[1.0.0:[{eu-west-1 amd64 ami-1} {eu-west-1 arm64 ami-2}] 2.0.0:[{us-east-1 arm64 ami-3}]]]`)
	exttest.CheckProviderImages(t, ProviderImages(spec(`{"kind":"Other"}`)), `map[]`)
}
