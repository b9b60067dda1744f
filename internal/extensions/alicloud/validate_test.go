package alicloud

import (
	"slices"
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon/exttest"
)

const apiVersion = `"apiVersion":"alicloud.provider.extensions.gardener.cloud/v1alpha1","kind":"CloudProfileConfig"`

func cfg(images string) string { return `{` + apiVersion + `,"machineImages":[` + images + `]}` }

const (
	ubuntuAMD64 = `{"name":"ubuntu","versions":[{"version":"1.0.0","regions":[{"name":"eu-central-1","id":"m-1"}]}]}`
	ubuntuFlav  = `{"name":"ubuntu","versions":[{"version":"1.0.0","capabilityFlavors":[{"capabilities":{"architecture":["amd64"]},"regions":[{"name":"eu-central-1","id":"m-1"}]},{"capabilities":{"architecture":["arm64"]},"regions":[{"name":"eu-central-1","id":"m-2"}]}]}]}`
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
	return []cpCase{
		{name: "valid config", spec: spec(cfg(ubuntuAMD64), ubuntu)},
		{name: "architectures are not checked without capabilities", spec: spec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.Version("1.0.0", "arm64", "s390x")))},
		{name: "valid capability flavors", spec: capSpec(cfg(ubuntuFlav), exttest.Image("ubuntu", exttest.FlavorVersion("1.0.0", "amd64", "arm64")))},
		{name: "regions format maps amd64 under capabilities", spec: capSpec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.FlavorVersion("1.0.0", "amd64")))},
		{name: "providerConfig required", spec: spec("", ubuntu), want: []string{"EXT-ALICLOUD-1 spec.providerConfig Required"}, detail: "providerConfig must be set for Alicloud cloud profiles"},
		{name: "architecture is no field of a region", spec: spec(cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","regions":[{"name":"r","id":"m","architecture":"amd64"}]}]}`), ubuntu),
			want: []string{"EXT-ALICLOUD-2 spec.providerConfig Internal"}, detail: `strict decoding error: unknown field "machineImages[0].versions[0].regions[0].architecture"`},
		{name: "unknown apiVersion", spec: spec(`{"apiVersion":"alicloud.provider.extensions.gardener.cloud/v1beta1","kind":"CloudProfileConfig"}`, ubuntu), want: []string{"EXT-ALICLOUD-2 spec.providerConfig Internal"}},
		{name: "at least one machine image", spec: spec(cfg(""), ubuntu), want: []string{
			"EXT-ALICLOUD-3 spec.providerConfig.machineImages Required",
			"EXT-ALICLOUD-9 spec.machineImages[0] Required",
		}},
		{name: "image without name and versions", spec: spec(cfg(`{}`)), want: []string{
			"EXT-ALICLOUD-4 spec.providerConfig.machineImages[0].name Required",
			"EXT-ALICLOUD-4 spec.providerConfig.machineImages[0].versions Required",
		}},
		{name: "version without version and regions", spec: spec(cfg(`{"name":"ubuntu","versions":[{}]}`)), want: []string{
			"EXT-ALICLOUD-5 spec.providerConfig.machineImages[0].versions[0].version Required",
			"EXT-ALICLOUD-7 spec.providerConfig.machineImages[0].versions[0].regions Required",
		}},
		{name: "region without name and id", spec: spec(cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","regions":[{}]}]}`)), want: []string{
			"EXT-ALICLOUD-7 spec.providerConfig.machineImages[0].versions[0].regions[0].id Required",
			"EXT-ALICLOUD-7 spec.providerConfig.machineImages[0].versions[0].regions[0].name Required",
		}, detail: "must provide an id"},
		{name: "capability flavors without capabilities", spec: spec(cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","regions":[{"name":"r","id":"m"}],"capabilityFlavors":[{"regions":[{"name":"r","id":"m"}]}]}]}`), ubuntu), want: []string{
			"EXT-ALICLOUD-6 spec.providerConfig.machineImages[0].versions[0].capabilityFlavors Forbidden",
		}},
		{name: "regions and capability flavors together", spec: capSpec(cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","regions":[{"name":"r","id":"m"}],"capabilityFlavors":[{"regions":[{"name":"r","id":"m"}]}]}]}`)), want: []string{
			"EXT-ALICLOUD-6 spec.providerConfig.machineImages[0].versions[0].regions Forbidden",
		}},
		{name: "flavor with undefined capability and no regions", spec: capSpec(cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","capabilityFlavors":[{"capabilities":{"architecture":["amd64"],"gpu":["x"]}}]}]}`)), want: []string{
			"EXT-ALICLOUD-7 spec.providerConfig.machineImages[0].versions[0].capabilityFlavors[0].regions Required",
			"EXT-ALICLOUD-8 spec.providerConfig.machineImages[0].versions[0].capabilityFlavors[0].capabilities NotSupported",
		}},
		{name: "missing image mapping", spec: spec(cfg(ubuntuAMD64), ubuntu, exttest.Image("suse", exttest.Version("15"))), want: []string{
			"EXT-ALICLOUD-9 spec.machineImages[1] Required",
		}},
		{name: "missing version mapping", spec: spec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.Version("1.0.0"), exttest.Version("2.0.0"))), want: []string{
			"EXT-ALICLOUD-10 spec.machineImages[0].versions[1] Required",
		}},
		{webhookOnly: true, name: "capabilities: regions format cannot map arm64", spec: capSpec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.FlavorVersion("1.0.0", "amd64", "arm64"))), want: []string{
			"EXT-ALICLOUD-11 spec.machineImages[0].versions[0].capabilityFlavors[1] Required",
		}, detail: "missing providerConfig mapping for machine image version ubuntu@1.0.0 and architecture: arm64"},
		{webhookOnly: true, name: "capabilities: a version without flavors gets one per architecture", spec: capSpec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.Version("1.0.0", "arm64"))), want: []string{
			"EXT-ALICLOUD-11 spec.machineImages[0].versions[0].capabilityFlavors[0] Required",
		}},
		{name: "capabilities: a version without flavors and architectures maps amd64", spec: capSpec(cfg(ubuntuAMD64), ubuntu)},
		{webhookOnly: true, name: "capabilities: flavor not mapped", spec: capSpec(cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","capabilityFlavors":[{"capabilities":{"architecture":["amd64"]},"regions":[{"name":"r","id":"m"}]}]}]}`), exttest.Image("ubuntu", exttest.FlavorVersion("1.0.0", "amd64", "arm64"))), want: []string{
			"EXT-ALICLOUD-11 spec.machineImages[0].versions[0].capabilityFlavors[1] Required",
		}, detail: "and capabilitySet map[architecture:[arm64]]"},
		{name: "capabilities: neither regions nor flavors", spec: capSpec(cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0"}]}`), exttest.Image("ubuntu", exttest.FlavorVersion("1.0.0", "amd64"))), want: []string{
			"EXT-ALICLOUD-7 spec.providerConfig.machineImages[0].versions[0].regions Required",
			"EXT-ALICLOUD-11 spec.machineImages[0].versions[0].capabilityFlavors[0] Required",
		}},
	}
}

func ncp(config string, images ...gardencorev1beta1.MachineImage) gardencorev1beta1.NamespacedCloudProfileSpec {
	return gardencorev1beta1.NamespacedCloudProfileSpec{Parent: exttest.Parent(), ProviderConfig: exttest.Raw(config), MachineImages: images}
}

func ncpCases() []ncpCase {
	parent := spec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.Version("1.0.0")))
	capParent := capSpec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.FlavorVersion("1.0.0", "amd64")))
	newVersion := `{"name":"ubuntu","versions":[{"version":"2.0.0","regions":[{"name":"eu-central-1","id":"m-2"}]}]}`
	badKind := ncp("")
	badKind.Parent.Kind = "NamespacedCloudProfile"
	return []ncpCase{
		{name: "no providerConfig, nothing new", spec: ncp(""), parent: parent},
		{name: "expiration date only on an inherited version", spec: ncp("", exttest.Image("ubuntu", exttest.Expiring("1.0.0"))), parent: parent},
		{name: "expiration date only, capabilities parent", spec: ncp("", exttest.Image("ubuntu", exttest.Expiring("1.0.0"))), parent: capParent},
		{name: "new version with mapping", spec: ncp(cfg(newVersion), exttest.Image("ubuntu", exttest.Version("2.0.0", "amd64"))), parent: parent},
		{name: "new version in regions format under capabilities", spec: ncp(cfg(newVersion), exttest.Image("ubuntu", exttest.FlavorVersion("2.0.0", "amd64"))), parent: capParent},
		{name: "parent of the wrong kind", spec: badKind, parent: parent, want: []string{"EXT-ALICLOUD-12 spec.parent.kind Internal"}},
		{name: "undecodable providerConfig", spec: ncp(`[]`), parent: parent, want: []string{"EXT-ALICLOUD-2 spec.providerConfig Internal"}, detail: "couldn't get version/kind; json parse error"},
		{name: "new version without mapping", spec: ncp("", exttest.Image("ubuntu", exttest.Version("2.0.0", "amd64"))), parent: parent, want: []string{
			"EXT-ALICLOUD-13 spec.providerConfig.machineImages Required",
		}},
		{name: "new image without mapping", spec: ncp("", exttest.Image("suse", exttest.Version("15", "amd64"))), parent: parent, want: []string{
			"EXT-ALICLOUD-13 spec.providerConfig.machineImages Required",
		}},
		{webhookOnly: true, name: "capabilities: regions format with arm64 only", spec: ncp(cfg(newVersion), exttest.Image("ubuntu", exttest.FlavorVersion("2.0.0", "arm64"))), parent: capParent, want: []string{
			"EXT-ALICLOUD-14 spec.providerConfig.machineImages Forbidden",
			"EXT-ALICLOUD-14 spec.providerConfig.machineImages Required",
		}, detail: `has an excess architecture "amd64"`},
		{webhookOnly: true, name: "capabilities: flavors excess, missing, region gap", spec: ncp(cfg(`{"name":"ubuntu","versions":[{"version":"2.0.0","capabilityFlavors":[{"capabilities":{"architecture":["amd64"]},"regions":[{"name":"r1","id":"a"}]},{"capabilities":{"architecture":["arm64"]},"regions":[{"name":"r2","id":"b"}]}]}]}`), exttest.Image("ubuntu", exttest.FlavorVersion("2.0.0", "amd64"))), parent: capParent, want: []string{
			"EXT-ALICLOUD-14 spec.providerConfig.machineImages Forbidden",
			"EXT-ALICLOUD-14 spec.providerConfig.machineImages Required",
		}},
		{name: "capabilities: neither regions nor flavors", spec: ncp(cfg(`{"name":"ubuntu","versions":[{"version":"2.0.0"}]}`), exttest.Image("ubuntu", exttest.FlavorVersion("2.0.0", "amd64"))), parent: capParent, want: []string{
			"EXT-ALICLOUD-7 spec.providerConfig.machineImages[0].versions[0].regions Required",
			"EXT-ALICLOUD-14 spec.providerConfig.machineImages Required",
		}},
		{name: "override of a parent version", spec: ncp(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.Version("1.0.0", "amd64"))), parent: parent, want: []string{
			"EXT-ALICLOUD-15 spec.providerConfig.machineImages[0].versions[0] Forbidden",
		}},
		{name: "mapping without spec version", spec: ncp(cfg(newVersion), exttest.Image("ubuntu", exttest.Version("3.0.0", "amd64"))), parent: parent, want: []string{
			"EXT-ALICLOUD-13 spec.providerConfig.machineImages Required",
			"EXT-ALICLOUD-16 spec.providerConfig.machineImages[0].versions[0] Invalid",
		}},
		{name: "mapping without spec image", spec: ncp(cfg(`{"name":"suse","versions":[{"version":"15","regions":[{"name":"r","id":"m"}]}]}`)), parent: parent, want: []string{
			"EXT-ALICLOUD-16 spec.providerConfig.machineImages[0] Required",
		}},
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
		return validateCloudProfile(extcommon.DefaultedSpec(c.spec))
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
	ps := ValidateCloudProfile("p", spec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.Version("2.0.0"))))
	if len(ps) != 1 || ps[0].Path.Attribute() != "spec.machine_images[0].versions[0]" {
		t.Fatalf("got %v", ps)
	}
	want := "spec.machineImages[0].versions[0]: Required value: machine image version ubuntu@2.0.0 is not defined in the providerConfig"
	if ps[0].Error() != want {
		t.Errorf("got %q, want %q", ps[0].Error(), want)
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
	exttest.CheckCatalogue(t, ".", "EXT-ALICLOUD", Rules(), used)
}

// TestProviderConfigDecode_TypeMetaAsTheWebhooks: EXT-ALICLOUD-2 reports a providerConfig without kind
// or apiVersion as the validating webhooks do (Gardener's util.Decode requires both), also when a
// mapping is missing too; the mutators' predictions and the merge still fill both in.
func TestProviderConfigDecode_TypeMetaAsTheWebhooks(t *testing.T) {
	newVersion := `{"name":"ubuntu","versions":[{"version":"2.0.0","regions":[{"name":"eu-central-1","id":"m-2"}]}]}`
	parent := capSpec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.FlavorVersion("1.0.0", "amd64")))
	exttest.CheckTypeMeta(t, exttest.TypeMetaCase{
		Extension:          extension(),
		Merge:              MergeProviderConfig,
		Rule:               RuleProviderConfigDecode,
		CloudProfile:       capSpec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.Version("1.0.0"))),
		Namespaced:         ncp(cfg(newVersion), exttest.Image("ubuntu", exttest.Version("2.0.0"))),
		Parent:             parent,
		CloudProfilePrefix: ``,
		NamespacedPrefix:   `could not decode providerConfig of NamespacedCloudProfile for 'n': `,
	})
}
