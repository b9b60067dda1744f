package gcp

import (
	"testing"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon/exttest"
)

func TestMergeProviderConfig(t *testing.T) {
	exttest.CheckMerge(t, MergeProviderConfig, []exttest.MergeCase{
		{Name: "the spec's versions follow the parent's, also of a version both have (architecture defaulted)",
			Spec:   cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","image":"img-x","architecture":"arm64"},{"version":"2.0.0","image":"img-2"}]}`),
			Status: cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","image":"img-1"}]}`),
			Want: `{` + apiVersion + `,"machineImages":[{"name":"ubuntu","versions":[` +
				`{"version":"1.0.0","image":"img-1","architecture":"amd64"},` +
				`{"version":"1.0.0","image":"img-x","architecture":"arm64"},` +
				`{"version":"2.0.0","image":"img-2","architecture":"amd64"}]}]}`},
		{Name: "an image the parent lacks is added whole; flavored versions get no architecture",
			Spec:   cfg(`{"name":"custom","versions":[{"version":"1","capabilityFlavors":[{"capabilities":{"architecture":["arm64"]},"image":"img-c"}]}]}`),
			Status: cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","image":"img-1"}]}`),
			Want: `{` + apiVersion + `,"machineImages":[{"name":"ubuntu","versions":[{"version":"1.0.0","image":"img-1","architecture":"amd64"}]},` +
				`{"name":"custom","versions":[{"version":"1","image":"","capabilityFlavors":[{"capabilities":{"architecture":["arm64"]},"image":"img-c"}]}]}]}`},
		{Name: "of an image named twice in the parent the later entry counts",
			Spec:   cfg(`{"name":"ubuntu","versions":[]}`),
			Status: cfg(`{"name":"ubuntu","versions":[{"version":"1","image":"first"}]},{"name":"ubuntu","versions":[{"version":"2","image":"second"}]}`),
			Want:   `{` + apiVersion + `,"machineImages":[{"name":"ubuntu","versions":[{"version":"2","image":"second","architecture":"amd64"}]}]}`},
		{Name: "an undecodable status fails the status write", Spec: cfg(``), Status: `[]`},
	})
}
