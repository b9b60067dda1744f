package gcp

import (
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

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

// TestProviderImages: GCP images serve every region; a version entry gives its image for its
// architecture (amd64 when unset), a flavor for the flavor's architectures (every defined one
// when it names none).
func TestProviderImages(t *testing.T) {
	config := cfg(`{"name":"gardenlinux","versions":[{"version":"1.0.0","image":"img-1"},{"version":"1.0.0","image":"img-2","architecture":"arm64"},` +
		`{"version":"2.0.0","capabilityFlavors":[{"image":"img-3"}]}]}`)
	exttest.CheckProviderImages(t, ProviderImages(gardencorev1beta1.CloudProfileSpec{ProviderConfig: exttest.Raw(config), MachineCapabilities: exttest.ArchDefs("amd64", "arm64")}),
		`map[gardenlinux:map[1.0.0:[{ amd64 img-1} { arm64 img-2}] 2.0.0:[{ amd64 img-3} { arm64 img-3}]]]`)
}
