package openstack

import (
	"slices"
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon/exttest"
)

// TestNamespacedMessages checks the exact messages for a NamespacedCloudProfile that adds three
// versions: one mapped in two regions with one architecture each, one mapped with a wrong
// architecture, and one not mapped at all; with and without capability definitions (then also a
// version in the regions format that lacks arm64).
func TestNamespacedMessages(t *testing.T) {
	withFlavors := func(v gardencorev1beta1.MachineImageVersion, archs ...string) gardencorev1beta1.MachineImageVersion {
		v.CapabilityFlavors = exttest.FlavorVersion("", archs...).CapabilityFlavors
		return v
	}
	versions := []gardencorev1beta1.MachineImageVersion{
		withFlavors(exttest.Version("1.1-regions", "amd64", "arm64"), "amd64", "arm64"),
		withFlavors(exttest.Version("1.1-fallback", "arm64"), "arm64"),
		withFlavors(exttest.Version("1.1-missing", "arm64"), "arm64"),
	}
	images := []gardencorev1beta1.MachineImage{exttest.Image("image-1", versions...)}
	parent := spec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.Version("1.0.0")))

	t.Run("regions", func(t *testing.T) {
		config := ncfg(`{"name":"image-1","versions":[
			{"version":"1.1-regions","regions":[{"name":"image-region-1","id":"a1","architecture":"arm64"},{"name":"image-region-2","id":"a2","architecture":"amd64"}]},
			{"version":"1.1-fallback","regions":[{"name":"image-region-2","id":"a2"}]}]}`)
		got := exttest.Details(t, "spec.providerConfig.machineImages", ValidateNamespacedCloudProfile("n", ncp(config, images...), parent))
		want := []string{
			`Forbidden: machine image version image-1@1.1-fallback in region "image-region-2" has an excess entry for architecture "amd64", which is not defined in the machineImages spec`,
			`Required: machine image version image-1@1.1-fallback for region "image-region-2" with architecture "arm64" is not defined in the NamespacedCloudProfile providerConfig`,
			`Required: machine image version image-1@1.1-missing is not defined in the NamespacedCloudProfile providerConfig`,
			`Required: machine image version image-1@1.1-regions for region "image-region-1" with architecture "amd64" is not defined in the NamespacedCloudProfile providerConfig`,
			`Required: machine image version image-1@1.1-regions for region "image-region-2" with architecture "arm64" is not defined in the NamespacedCloudProfile providerConfig`,
		}
		if !slices.Equal(got, want) {
			t.Errorf("got\n%q\nwant\n%q", got, want)
		}
	})

	t.Run("capability flavors", func(t *testing.T) {
		capParent := parent
		capParent.MachineCapabilities = exttest.ArchDefs("amd64", "arm64")
		config := ncfg(`{"name":"image-1","versions":[
			{"version":"1.1-regions","capabilityFlavors":[{"capabilities":{"architecture":["arm64"]},"regions":[{"name":"image-region-1","id":"a1"}]},{"capabilities":{"architecture":["amd64"]},"regions":[{"name":"image-region-2","id":"a2"}]}]},
			{"version":"1.1-fallback","capabilityFlavors":[{"capabilities":{"architecture":["amd64"]},"regions":[{"name":"image-region-2","id":"a2"}]}]},
			{"version":"1.1-old-regions","regions":[{"name":"image-region-1","id":"a3","architecture":"amd64"}]}]}`)
		withOld := exttest.Image("image-1", append(slices.Clone(versions), exttest.FlavorVersion("1.1-old-regions", "amd64", "arm64"))...)
		spec := ncp(config, withOld)
		// The validating webhook alone, as the extension's validation tests call it.
		got := exttest.Details(t, "spec.providerConfig.machineImages", validateNamespaced(extcommon.DefaultedNamespacedSpec(spec), extcommon.DefaultedSpec(capParent)))
		want := []string{
			`Forbidden: machine image version image-1@1.1-fallback has an excess capabilityFlavor map[architecture:[amd64]], which is not defined in the machineImages spec`,
			`Required: machine image version image-1@1.1-fallback has a capabilityFlavor map[architecture:[arm64]] not defined in the NamespacedCloudProfile providerConfig`,
			`Required: machine image version image-1@1.1-missing is not defined in the NamespacedCloudProfile providerConfig`,
			`Required: machine image version image-1@1.1-old-regions has a capabilityFlavor map[architecture:[arm64]] not defined in the NamespacedCloudProfile providerConfig`,
			`Required: machine image version image-1@1.1-regions is missing region "image-region-1" in capabilityFlavor map[architecture:[amd64]] in the NamespacedCloudProfile providerConfig`,
			`Required: machine image version image-1@1.1-regions is missing region "image-region-2" in capabilityFlavor map[architecture:[arm64]] in the NamespacedCloudProfile providerConfig`,
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
}
