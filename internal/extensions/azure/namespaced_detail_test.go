package azure

import (
	"slices"
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon/exttest"
)

// TestNamespacedMessages checks the exact messages for a NamespacedCloudProfile that adds three
// versions of a new image: one fully mapped, one mapped with a wrong architecture, and one not
// mapped at all; with and without capability definitions.
func TestNamespacedMessages(t *testing.T) {
	withFlavors := func(v gardencorev1beta1.MachineImageVersion, archs ...string) gardencorev1beta1.MachineImageVersion {
		v.CapabilityFlavors = exttest.FlavorVersion("", archs...).CapabilityFlavors
		return v
	}
	images := []gardencorev1beta1.MachineImage{exttest.Image("image-1",
		withFlavors(exttest.Version("1.1", "amd64", "arm64"), "amd64", "arm64"),
		withFlavors(exttest.Version("1.1-fallback", "arm64"), "arm64"),
		withFlavors(exttest.Version("1.1-missing", "arm64"), "arm64"),
	)}
	parent := spec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.Version("1.0.0")))

	t.Run("image per architecture", func(t *testing.T) {
		config := ncfg(`{"name":"image-1","versions":[
			{"version":"1.1","id":"image-id-1","architecture":"arm64"},
			{"version":"1.1","id":"image-id-2","architecture":"amd64"},
			{"version":"1.1-fallback","id":"image-id-3"}]}`)
		got := exttest.Details(t, "spec.providerConfig.machineImages", ValidateNamespacedCloudProfile("n", ncp(config, images...), parent))
		want := []string{
			`Forbidden: machine image version image-1@1.1-fallback has an excess entry for architecture "amd64", which is not defined in the machineImages spec`,
			`Required: machine image version image-1@1.1-fallback and architecture: "arm64" is not defined in the NamespacedCloudProfile providerConfig`,
			`Required: machine image version image-1@1.1-missing and architecture: "arm64" is not defined in the NamespacedCloudProfile providerConfig`,
		}
		if !slices.Equal(got, want) {
			t.Errorf("got\n%q\nwant\n%q", got, want)
		}
	})

	t.Run("capability flavors", func(t *testing.T) {
		capParent := parent
		capParent.MachineCapabilities = exttest.ArchDefs("amd64", "arm64")
		config := ncfg(`{"name":"image-1","versions":[
			{"version":"1.1","capabilityFlavors":[{"capabilities":{"architecture":["arm64"]},"id":"image-id-1"},{"capabilities":{"architecture":["amd64"]},"id":"image-id-2"}]},
			{"version":"1.1-fallback","capabilityFlavors":[{"capabilities":{"architecture":["amd64"]},"id":"image-id-3"}]}]}`)
		spec := ncp(config, images...)
		// The validating webhook alone, as the extension's validation tests call it.
		got := exttest.Details(t, "spec.providerConfig.machineImages", validateNamespaced("n", extcommon.DefaultedNamespacedSpec(spec), extcommon.DefaultedSpec(capParent)))
		want := []string{
			`Forbidden: machine image version image-1@1.1-fallback has an excess capabilityFlavor map[architecture:[amd64]], which is not defined in the machineImages spec`,
			`Required: machine image version image-1@1.1-fallback and capabilityFlavor map[architecture:[arm64]] is not defined in the NamespacedCloudProfile providerConfig`,
			`Required: machine image version image-1@1.1-missing is not defined in the NamespacedCloudProfile providerConfig`,
		}
		if !slices.Equal(got, want) {
			t.Errorf("got\n%q\nwant\n%q", got, want)
		}
		// The whole admission: the mutating webhook first replaces the spec flavors of every mapped
		// version with the providerConfig's, so only what it cannot fix remains.
		var rest []string
		for _, w := range want {
			if !strings.Contains(w, "1.1-fallback") && !strings.Contains(w, "1.1-old-regions") {
				rest = append(rest, w)
			}
		}
		if got := exttest.Details(t, "spec.providerConfig.machineImages", ValidateNamespacedCloudProfile("n", spec, capParent)); !slices.Equal(got, rest) {
			t.Errorf("whole admission: got\n%q\nwant\n%q", got, rest)
		}
	})

	t.Run("expiration date only, with architectures and flavors", func(t *testing.T) {
		v := withFlavors(exttest.Expiring("1.0.0"), "amd64")
		v.Architectures = []string{"amd64"}
		for _, p := range []gardencorev1beta1.CloudProfileSpec{parent, capSpec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.FlavorVersion("1.0.0", "amd64")))} {
			if ps := ValidateNamespacedCloudProfile("n", ncp(ncfg(""), exttest.Image("ubuntu", v)), p); len(ps) != 0 {
				t.Errorf("got %v", ps)
			}
		}
	})
}
