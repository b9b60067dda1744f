package aws

import (
	"slices"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon/exttest"
)

// TestNamespacedMessages checks the exact messages for a NamespacedCloudProfile that adds three
// versions: one mapped in two regions with one architecture each, one mapped with a wrong
// architecture, and one not mapped at all; with and without capability definitions.
func TestNamespacedMessages(t *testing.T) {
	withFlavors := func(v gardencorev1beta1.MachineImageVersion, archs ...string) gardencorev1beta1.MachineImageVersion {
		v.CapabilityFlavors = exttest.FlavorVersion("", archs...).CapabilityFlavors
		return v
	}
	images := []gardencorev1beta1.MachineImage{exttest.Image("image-1",
		withFlavors(exttest.Version("1.1-regions", "amd64", "arm64"), "amd64", "arm64"),
		withFlavors(exttest.Version("1.1-fallback", "arm64"), "arm64"),
		withFlavors(exttest.Version("1.1-missing", "arm64"), "arm64"),
	)}
	parent := spec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.Version("1.0.0")))

	t.Run("regions", func(t *testing.T) {
		config := cfg(`{"name":"image-1","versions":[
			{"version":"1.1-regions","regions":[{"name":"image-region-1","ami":"a1","architecture":"arm64"},{"name":"image-region-2","ami":"a2","architecture":"amd64"}]},
			{"version":"1.1-fallback","regions":[{"name":"image-region-2","ami":"a2"}]}]}`)
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
		config := cfg(`{"name":"image-1","versions":[
			{"version":"1.1-regions","capabilityFlavors":[{"capabilities":{"architecture":["arm64"]},"regions":[{"name":"image-region-1","ami":"a1"}]},{"capabilities":{"architecture":["amd64"]},"regions":[{"name":"image-region-2","ami":"a2"}]}]},
			{"version":"1.1-fallback","capabilityFlavors":[{"capabilities":{"architecture":["amd64"]},"regions":[{"name":"image-region-2","ami":"a2"}]}]}]}`)
		spec := ncp(config, images...)
		// The validating webhook alone, as the extension's validation tests call it.
		got := exttest.Details(t, "spec.providerConfig.machineImages", validateNamespaced("n", extcommon.DefaultedNamespacedSpec(spec), extcommon.DefaultedSpec(capParent)))
		want := []string{
			`Forbidden: machine image version image-1@1.1-fallback has an excess capabilityFlavor map[architecture:[amd64]], which is not defined in the machineImages spec`,
			`Required: machine image version image-1@1.1-fallback has a capabilityFlavor map[architecture:[arm64]] not defined in the NamespacedCloudProfile providerConfig`,
			`Required: machine image version image-1@1.1-missing is not defined in the NamespacedCloudProfile providerConfig`,
			`Required: machine image version image-1@1.1-regions is missing region "image-region-1" in capabilityFlavor map[architecture:[amd64]] in the NamespacedCloudProfile providerConfig`,
			`Required: machine image version image-1@1.1-regions is missing region "image-region-2" in capabilityFlavor map[architecture:[arm64]] in the NamespacedCloudProfile providerConfig`,
		}
		if !slices.Equal(got, want) {
			t.Errorf("got\n%q\nwant\n%q", got, want)
		}
		// The whole admission: the mutating webhook first gives 1.1-fallback the providerConfig's
		// flavors, so only the region gaps and the missing version remain.
		got = exttest.Details(t, "spec.providerConfig.machineImages", ValidateNamespacedCloudProfile("n", spec, capParent))
		if want := want[2:]; !slices.Equal(got, want) {
			t.Errorf("whole admission: got\n%q\nwant\n%q", got, want)
		}
	})
}
