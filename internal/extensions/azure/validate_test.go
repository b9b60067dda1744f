package azure

import (
	"slices"
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon/exttest"
)

const apiVersion = `"apiVersion":"azure.provider.extensions.gardener.cloud/v1alpha1","kind":"CloudProfileConfig"`

const domains = `"countFaultDomains":[{"region":"westeurope","count":2}],"countUpdateDomains":[{"region":"westeurope","count":5}]`

func cfg(images string) string {
	return `{` + apiVersion + `,` + domains + `,"machineImages":[` + images + `]}`
}

// ncfg is a NamespacedCloudProfile providerConfig without domain counts.
func ncfg(images string) string { return `{` + apiVersion + `,"machineImages":[` + images + `]}` }

const (
	ubuntuAMD64 = `{"name":"ubuntu","versions":[{"version":"1.0.0","urn":"Canonical:ubuntu:22_04:1.0.0"}]}`
	ubuntuBoth  = `{"name":"ubuntu","versions":[{"version":"1.0.0","urn":"Canonical:ubuntu:22_04:1.0.0"},{"version":"1.0.0","id":"/subscriptions/s/images/arm","architecture":"arm64"}]}`
	ubuntuFlav  = `{"name":"ubuntu","versions":[{"version":"1.0.0","capabilityFlavors":[{"capabilities":{"architecture":["amd64"]},"communityGalleryImageID":"/CommunityGalleries/g/Images/i/versions/1.0.0"},{"capabilities":{"architecture":["arm64"]},"sharedGalleryImageID":"/SharedGalleries/g/Images/i/Versions/1.0.0"}]}]}`
)

type cpCase struct {
	// webhookOnly runs the validating webhook alone on the defaulted and canonicalized spec, as
	// the extension's own validation tests do, without its mutating webhook.
	webhookOnly bool
	name        string
	spec        gardencorev1beta1.CloudProfileSpec
	want        []string
	detail      string
}

type ncpCase struct {
	// webhookOnly runs the validating webhook alone, without the extension's mutating webhook.
	webhookOnly bool
	name        string
	spec        gardencorev1beta1.NamespacedCloudProfileSpec
	parent      gardencorev1beta1.CloudProfileSpec
	want        []string
	detail      string
}

func spec(config string, images ...gardencorev1beta1.MachineImage) gardencorev1beta1.CloudProfileSpec {
	return gardencorev1beta1.CloudProfileSpec{Type: Type, ProviderConfig: exttest.Raw(config), MachineImages: images}
}

func capSpec(config string, images ...gardencorev1beta1.MachineImage) gardencorev1beta1.CloudProfileSpec {
	s := spec(config, images...)
	s.MachineCapabilities = exttest.ArchDefs("amd64", "arm64")
	return s
}

func cpCases() []cpCase {
	ubuntu := exttest.Image("ubuntu", exttest.Version("1.0.0"))
	v := func(fields string) string { return `{"name":"ubuntu","versions":[{"version":"1.0.0",` + fields + `}]}` }
	return []cpCase{
		{name: "valid config", spec: spec(cfg(ubuntuAMD64), ubuntu)},
		{name: "valid config, two architectures", spec: spec(cfg(ubuntuBoth), exttest.Image("ubuntu", exttest.Version("1.0.0", "amd64", "arm64")))},
		{name: "valid capability flavors", spec: capSpec(cfg(ubuntuFlav), exttest.Image("ubuntu", exttest.FlavorVersion("1.0.0", "amd64", "arm64")))},
		{name: "old format under capabilities", spec: capSpec(cfg(ubuntuBoth), ubuntu)},
		{name: "providerConfig required", spec: spec("", ubuntu), want: []string{"EXT-AZURE-1 spec.providerConfig Required"}, detail: "providerConfig must be set for Azure cloud profiles"},
		{name: "unknown field", spec: spec(cfg(v(`"urn":"a:b:c:d","offer":"x"`)), ubuntu), want: []string{"EXT-AZURE-2 spec.providerConfig Internal"}, detail: `unknown field "machineImages[0].versions[0].offer"`},
		{name: "unknown apiVersion", spec: spec(`{"apiVersion":"azure.provider.extensions.gardener.cloud/v1","kind":"CloudProfileConfig"}`, ubuntu), want: []string{"EXT-AZURE-2 spec.providerConfig Internal"}},
		{name: "domain counts", spec: spec(`{`+apiVersion+`,"countFaultDomains":[{"region":"","count":-1}],"machineImages":[`+ubuntuAMD64+`]}`, exttest.Image("suse", exttest.Version("1"))), want: []string{
			"EXT-AZURE-3 spec.providerConfig.countFaultDomains[0].count Invalid",
			"EXT-AZURE-3 spec.providerConfig.countFaultDomains[0].region Required",
			"EXT-AZURE-3 spec.providerConfig.countUpdateDomains Required",
		}, detail: "count must not be negative"},
		{name: "at least one machine image; mappings are skipped", spec: spec(cfg(""), ubuntu), want: []string{
			"EXT-AZURE-4 spec.providerConfig.machineImages Required",
		}},
		{name: "image without name and versions", spec: spec(cfg(`{}`)), want: []string{
			"EXT-AZURE-5 spec.providerConfig.machineImages[0].name Required",
			"EXT-AZURE-5 spec.providerConfig.machineImages[0].versions Required",
		}},
		{name: "version without version and image id, bad architecture", spec: spec(cfg(`{"name":"ubuntu","versions":[{"architecture":"s390x"}]}`)), want: []string{
			"EXT-AZURE-6 spec.providerConfig.machineImages[0].versions[0].version Required",
			"EXT-AZURE-8 spec.providerConfig.machineImages[0].versions[0].architecture NotSupported",
			"EXT-AZURE-10 spec.providerConfig.machineImages[0].versions[0] Required",
		}, detail: "must provide either urn, id, sharedGalleryImageID or communityGalleryImageID"},
		{name: "two image ids", spec: spec(cfg(v(`"urn":"a:b:c:d","id":"/x"`)), ubuntu), want: []string{
			"EXT-AZURE-10 spec.providerConfig.machineImages[0].versions[0] Required",
		}},
		{name: "malformed urn", spec: spec(cfg(v(`"urn":"a:b:c"`)), ubuntu), want: []string{
			"EXT-AZURE-11 spec.providerConfig.machineImages[0].versions[0].urn Invalid",
		}, detail: "please use the format `Publisher:Offer:Sku:Version` for the urn"},
		{name: "empty urn", spec: spec(cfg(v(`"urn":""`)), ubuntu), want: []string{"EXT-AZURE-11 spec.providerConfig.machineImages[0].versions[0].urn Required"}},
		{name: "empty id", spec: spec(cfg(v(`"id":""`)), ubuntu), want: []string{"EXT-AZURE-11 spec.providerConfig.machineImages[0].versions[0].id Required"}},
		{name: "community gallery id: parts and prefix", spec: spec(cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","communityGalleryImageID":"/CommunityGalleries/g/Images/i"},{"version":"2.0.0","communityGalleryImageID":"/Galleries/g/Images/i/versions/2"},{"version":"3.0.0","communityGalleryImageID":""}]}`), ubuntu), want: []string{
			"EXT-AZURE-11 spec.providerConfig.machineImages[0].versions[0].communityGalleryImageID Invalid",
			"EXT-AZURE-11 spec.providerConfig.machineImages[0].versions[1].communityGalleryImageID Invalid",
			"EXT-AZURE-11 spec.providerConfig.machineImages[0].versions[2].communityGalleryImageID Required",
		}, detail: "communityGalleryImageID must start with '/CommunityGalleries/' prefix"},
		{name: "shared gallery id: parts and prefix", spec: spec(cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","sharedGalleryImageID":"/SharedGalleries/g"},{"version":"2.0.0","sharedGalleryImageID":"/Galleries/g/Images/i/Versions/2"},{"version":"3.0.0","sharedGalleryImageID":""}]}`), ubuntu), want: []string{
			"EXT-AZURE-11 spec.providerConfig.machineImages[0].versions[0].sharedGalleryImageID Invalid",
			"EXT-AZURE-11 spec.providerConfig.machineImages[0].versions[1].sharedGalleryImageID Invalid",
			"EXT-AZURE-11 spec.providerConfig.machineImages[0].versions[2].sharedGalleryImageID Required",
		}, detail: "SharedGalleryImageID must start with '/SharedGalleries/' prefix"},
		{name: "capability flavors without capabilities", spec: spec(cfg(v(`"urn":"a:b:c:d","capabilityFlavors":[{"urn":"a:b:c:d"}]`)), ubuntu), want: []string{
			"EXT-AZURE-7 spec.providerConfig.machineImages[0].versions[0].capabilityFlavors Forbidden",
		}},
		{name: "image, architecture and accelerated networking next to flavors", spec: capSpec(cfg(v(`"urn":"a:b:c:d","architecture":"amd64","acceleratedNetworking":true,"capabilityFlavors":[{"urn":"a:b:c:d"}]`))), want: []string{
			"EXT-AZURE-7 spec.providerConfig.machineImages[0].versions[0].acceleratedNetworking Forbidden",
			"EXT-AZURE-7 spec.providerConfig.machineImages[0].versions[0].architecture Forbidden",
			"EXT-AZURE-7 spec.providerConfig.machineImages[0].versions[0].image Forbidden",
		}},
		{name: "neither image nor flavors under capabilities", spec: capSpec(cfg(v(`"skipMarketplaceAgreement":true`))), want: []string{
			"EXT-AZURE-7 spec.providerConfig.machineImages[0].versions[0].image Required",
		}, detail: "must provide either image or capabilityFlavors for machine image ubuntu@1.0.0"},
		{name: "flavor: undefined capability, no image id", spec: capSpec(cfg(v(`"capabilityFlavors":[{"capabilities":{"architecture":["amd64"],"gpu":["x"]}}]`))), want: []string{
			"EXT-AZURE-9 spec.providerConfig.machineImages[0].versions[0].capabilityFlavors[0].capabilities NotSupported",
			"EXT-AZURE-10 spec.providerConfig.machineImages[0].versions[0].capabilityFlavors[0] Required",
		}},
		{name: "old format under capabilities with bad architecture", spec: capSpec(cfg(v(`"urn":"a:b:c:d","architecture":"s390x"`))), want: []string{
			"EXT-AZURE-8 spec.providerConfig.machineImages[0].versions[0].architecture NotSupported",
		}},
		{name: "missing image mapping, even without versions", spec: spec(cfg(ubuntuAMD64), ubuntu, exttest.Image("suse")), want: []string{
			"EXT-AZURE-12 spec.machineImages[1] Required",
		}, detail: `must provide a provider image mapping for image "suse"`},
		{name: "missing architecture mapping, unsupported architecture", spec: spec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.Version("1.0.0", "arm64", "s390x"))), want: []string{
			"EXT-AZURE-14 spec.machineImages[0].versions[0].architectures NotSupported",
			"EXT-AZURE-15 spec.machineImages[0].versions[0] Required",
			"EXT-AZURE-15 spec.machineImages[0].versions[0] Required",
		}, detail: "machine image version ubuntu@1.0.0 and architecture: arm64 is not defined in the providerConfig"},
		{name: "capabilities: version not mapped", spec: capSpec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.FlavorVersion("2.0.0", "amd64"))), want: []string{
			"EXT-AZURE-13 spec.machineImages[0].versions[0] Required",
		}},
		{webhookOnly: true, name: "capabilities: old format misses architecture", spec: capSpec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.FlavorVersion("1.0.0", "amd64", "arm64"))), want: []string{
			"EXT-AZURE-15 spec.machineImages[0].versions[0].capabilityFlavors[1] Required",
		}, detail: "machine image version ubuntu@1.0.0 and capabilityFlavor map[architecture:[arm64]] is not defined in the providerConfig"},
		{webhookOnly: true, name: "capabilities: flavor not mapped", spec: capSpec(cfg(v(`"capabilityFlavors":[{"capabilities":{"architecture":["amd64"]},"urn":"a:b:c:d"}]`)), exttest.Image("ubuntu", exttest.FlavorVersion("1.0.0", "amd64", "arm64"))), want: []string{
			"EXT-AZURE-15 spec.machineImages[0].versions[0].capabilityFlavors[1] Required",
		}},
	}
}

func ncp(config string, images ...gardencorev1beta1.MachineImage) gardencorev1beta1.NamespacedCloudProfileSpec {
	return gardencorev1beta1.NamespacedCloudProfileSpec{Parent: exttest.Parent(), ProviderConfig: exttest.Raw(config), MachineImages: images}
}

func ncpCases() []ncpCase {
	parent := spec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.Version("1.0.0")))
	parent.MachineTypes = []gardencorev1beta1.MachineType{{Name: "Standard_D2"}}
	capParent := capSpec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.FlavorVersion("1.0.0", "amd64")))
	newVersion := `{"name":"ubuntu","versions":[{"version":"2.0.0","urn":"a:b:c:2"}]}`
	badKind := ncp("")
	badKind.Parent.Kind = "NamespacedCloudProfile"
	types := ncp(ncfg(newVersion)+"", exttest.Image("ubuntu", exttest.Version("2.0.0", "amd64")))
	types.ProviderConfig = exttest.Raw(`{` + apiVersion + `,"machineImages":[` + newVersion + `],"machineTypes":[{"name":"Standard_D2"},{"name":"Standard_D4"}]}`)
	return []ncpCase{
		{name: "no providerConfig, nothing new", spec: ncp(""), parent: parent},
		{name: "expiration date only on an inherited version", spec: ncp("", exttest.Image("ubuntu", exttest.Expiring("1.0.0"))), parent: parent},
		{name: "expiration date only, capabilities parent", spec: ncp("", exttest.Image("ubuntu", exttest.Expiring("1.0.0"))), parent: capParent},
		{name: "new version of an inherited image needs no mapping without capabilities", spec: ncp("", exttest.Image("ubuntu", exttest.Version("2.0.0", "amd64"))), parent: parent},
		{name: "new version with mapping", spec: ncp(ncfg(newVersion), exttest.Image("ubuntu", exttest.Version("2.0.0", "amd64"))), parent: parent},
		{name: "new version, capabilities", spec: ncp(ncfg(newVersion), exttest.Image("ubuntu", exttest.FlavorVersion("2.0.0", "amd64"))), parent: capParent},
		{name: "parent of the wrong kind", spec: badKind, parent: parent, want: []string{"EXT-AZURE-16 spec.parent.kind Internal"}},
		{name: "undecodable providerConfig", spec: ncp(`{"kind":"CloudProfileConfig","machineImages":[]}`), parent: parent, want: []string{"EXT-AZURE-2 spec.providerConfig Internal"}},
		{name: "cloud configuration and domain counts", spec: ncp(`{` + apiVersion + `,` + domains + `,"cloudConfiguration":{"name":"AzurePublic"}}`), parent: parent, want: []string{
			"EXT-AZURE-17 spec.providerConfig.cloudConfiguration Forbidden",
			"EXT-AZURE-17 spec.providerConfig.countFaultDomains Forbidden",
			"EXT-AZURE-17 spec.providerConfig.countUpdateDomains Forbidden",
		}},
		{name: "new image without mapping", spec: ncp("", exttest.Image("suse", exttest.Version("15", "amd64"))), parent: parent, want: []string{
			"EXT-AZURE-18 spec.providerConfig.machineImages Required",
		}},
		{name: "capabilities: new version without mapping", spec: ncp("", exttest.Image("ubuntu", exttest.FlavorVersion("2.0.0", "amd64"))), parent: capParent, want: []string{
			"EXT-AZURE-18 spec.providerConfig.machineImages Required",
		}, detail: "machine image version ubuntu@2.0.0 is not defined in the NamespacedCloudProfile providerConfig"},
		{name: "new image misses an architecture", spec: ncp(ncfg(`{"name":"suse","versions":[{"version":"15","urn":"a:b:c:d"}]}`), exttest.Image("suse", exttest.Version("15", "amd64", "arm64"))), parent: parent, want: []string{
			"EXT-AZURE-19 spec.providerConfig.machineImages Required",
		}, detail: `machine image version suse@15 and architecture: "arm64" is not defined in the NamespacedCloudProfile providerConfig`},
		{name: "excess architecture entry", spec: ncp(ncfg(`{"name":"ubuntu","versions":[{"version":"2.0.0","urn":"a:b:c:d","architecture":"arm64"}]}`), exttest.Image("ubuntu", exttest.Version("2.0.0", "amd64"))), parent: parent, want: []string{
			"EXT-AZURE-19 spec.providerConfig.machineImages Forbidden",
		}},
		{webhookOnly: true, name: "capabilities: old format excess and missing", spec: ncp(ncfg(`{"name":"ubuntu","versions":[{"version":"2.0.0","urn":"a:b:c:d","architecture":"arm64"}]}`), exttest.Image("ubuntu", exttest.FlavorVersion("2.0.0", "amd64"))), parent: capParent, want: []string{
			"EXT-AZURE-19 spec.providerConfig.machineImages Forbidden",
			"EXT-AZURE-19 spec.providerConfig.machineImages Required",
		}, detail: `has an excess architecture "arm64"`},
		{webhookOnly: true, name: "capabilities: flavors excess and missing", spec: ncp(ncfg(`{"name":"ubuntu","versions":[{"version":"2.0.0","capabilityFlavors":[{"capabilities":{"architecture":["arm64"]},"urn":"a:b:c:d"}]}]}`), exttest.Image("ubuntu", exttest.FlavorVersion("2.0.0", "amd64"))), parent: capParent, want: []string{
			"EXT-AZURE-19 spec.providerConfig.machineImages Forbidden",
			"EXT-AZURE-19 spec.providerConfig.machineImages Required",
		}, detail: "has an excess capabilityFlavor map[architecture:[arm64]], which is not defined in the machineImages spec"},
		{name: "override of a parent version", spec: ncp(ncfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.Version("1.0.0", "amd64"))), parent: parent, want: []string{
			"EXT-AZURE-20 spec.providerConfig.machineImages[0].versions[0] Forbidden",
		}},
		{name: "mapping without spec version", spec: ncp(ncfg(newVersion), exttest.Image("ubuntu", exttest.Version("3.0.0", "amd64"))), parent: parent, want: []string{
			"EXT-AZURE-21 spec.providerConfig.machineImages[0].versions[0] Invalid",
		}},
		{name: "mapping without spec image", spec: ncp(ncfg(`{"name":"suse","versions":[{"version":"15","urn":"a:b:c:d"}]}`)), parent: parent, want: []string{
			"EXT-AZURE-21 spec.providerConfig.machineImages[0] Required",
		}},
		{name: "machine types inherited or not listed", spec: types, parent: parent, want: []string{
			"EXT-AZURE-22 spec.providerConfig.machineTypes[0] Forbidden",
			"EXT-AZURE-22 spec.providerConfig.machineTypes[0] Required",
			"EXT-AZURE-22 spec.providerConfig.machineTypes[1] Required",
		}, detail: "machine type Standard_D2 is already defined in the parent CloudProfile"},
	}
}

func check(t *testing.T, got cloudprofile.Problems, want []string, detail string) {
	t.Helper()
	w := slices.Clone(want)
	slices.Sort(w)
	if g := exttest.Summaries(got); !slices.Equal(g, w) {
		t.Fatalf("problems\n got %q\nwant %q\n%v", g, w, got)
	}
	if detail != "" && !slices.ContainsFunc(got, func(p cloudprofile.Problem) bool { return strings.Contains(p.Detail, detail) }) {
		t.Errorf("no problem has detail %q: %v", detail, got)
	}
	for _, p := range got {
		if p.Path.Attribute() == "" || !strings.HasPrefix(p.Path.Attribute(), "spec.") {
			t.Errorf("problem %v has attribute path %q", p, p.Path.Attribute())
		}
		if strings.HasPrefix(p.Path.Field(), "spec.providerConfig") && p.Path.Attribute() != "spec.provider_config" {
			t.Errorf("problem %v inside providerConfig has attribute path %q", p, p.Path.Attribute())
		}
	}
}

func runCP(c cpCase) cloudprofile.Problems {
	if c.webhookOnly {
		return validateCloudProfile("p", extcommon.DefaultedSpec(c.spec))
	}
	return ValidateCloudProfile("p", c.spec)
}

func runNCP(c ncpCase) cloudprofile.Problems {
	if c.webhookOnly {
		return validateNamespaced("n", extcommon.DefaultedNamespacedSpec(c.spec), extcommon.DefaultedSpec(c.parent))
	}
	return ValidateNamespacedCloudProfile("n", c.spec, c.parent)
}

func TestValidateCloudProfile(t *testing.T) {
	for _, c := range cpCases() {
		t.Run(c.name, func(t *testing.T) { check(t, runCP(c), c.want, c.detail) })
	}
}

func TestValidateNamespacedCloudProfile(t *testing.T) {
	for _, c := range ncpCases() {
		t.Run(c.name, func(t *testing.T) { check(t, runNCP(c), c.want, c.detail) })
	}
}

func TestAttributePaths(t *testing.T) {
	ps := ValidateCloudProfile("p", spec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.Version("1.0.0", "amd64", "arm64"))))
	if len(ps) != 1 || ps[0].Path.Attribute() != "spec.machine_images[0].versions[0]" {
		t.Fatalf("got %v", ps)
	}
}

func TestRuleCatalogue(t *testing.T) {
	used := map[string]bool{}
	for _, c := range cpCases() {
		for _, p := range runCP(c) {
			used[p.Rule] = true
		}
	}
	for _, c := range ncpCases() {
		for _, p := range runNCP(c) {
			used[p.Rule] = true
		}
	}
	exttest.CheckCatalogue(t, ".", "EXT-AZURE", Rules(), used)
}

// TestProviderConfigDecode_TypeMetaAsTheWebhooks: EXT-AZURE-2 reports a providerConfig without kind
// or apiVersion as the validating webhooks do (Gardener's util.Decode requires both), also when a
// mapping is missing too; the mutators' predictions and the merge still fill both in.
func TestProviderConfigDecode_TypeMetaAsTheWebhooks(t *testing.T) {
	newVersion := `{"name":"ubuntu","versions":[{"version":"2.0.0","urn":"a:b:c:2"}]}`
	parent := capSpec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.FlavorVersion("1.0.0", "amd64")))
	exttest.CheckTypeMeta(t, exttest.TypeMetaCase{
		Extension:          extension(),
		Merge:              MergeProviderConfig,
		Rule:               RuleProviderConfigDecode,
		CloudProfile:       capSpec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.Version("1.0.0"))),
		Namespaced:         ncp(ncfg(newVersion), exttest.Image("ubuntu", exttest.Version("2.0.0"))),
		Parent:             parent,
		CloudProfilePrefix: `could not decode providerConfig of CloudProfile "p": `,
		NamespacedPrefix:   `could not decode providerConfig of NamespacedCloudProfile for 'n': `,
	})
}
