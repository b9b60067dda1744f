package gcp

import (
	"slices"
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon/exttest"
)

const apiVersion = `"apiVersion":"gcp.provider.extensions.gardener.cloud/v1alpha1","kind":"CloudProfileConfig"`

func cfg(images string) string { return `{` + apiVersion + `,"machineImages":[` + images + `]}` }

const (
	ubuntuAMD64 = `{"name":"ubuntu","versions":[{"version":"1.0.0","image":"projects/u/global/images/u-1"}]}`
	ubuntuBoth  = `{"name":"ubuntu","versions":[{"version":"1.0.0","image":"u-1"},{"version":"1.0.0","image":"u-1-arm","architecture":"arm64"}]}`
	ubuntuFlav  = `{"name":"ubuntu","versions":[{"version":"1.0.0","capabilityFlavors":[{"capabilities":{"architecture":["amd64"]},"image":"u-1"},{"capabilities":{"architecture":["arm64"]},"image":"u-1-arm"}]}]}`
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
		{name: "valid config, two architectures", spec: spec(cfg(ubuntuBoth), exttest.Image("ubuntu", exttest.Version("1.0.0", "amd64", "arm64")))},
		{name: "no mapping needed without versions", spec: spec(cfg(ubuntuAMD64), ubuntu, exttest.Image("suse"))},
		{name: "providerConfig required", spec: spec("", ubuntu), want: []string{"EXT-GCP-1 spec.providerConfig Required"}, detail: "providerConfig must be set for GCP cloud profiles"},
		{name: "unknown apiVersion", spec: spec(`{"apiVersion":"gcp.provider.extensions.gardener.cloud/v2","kind":"CloudProfileConfig"}`, ubuntu),
			want: []string{"EXT-GCP-2 spec.providerConfig Internal"}, detail: `no kind "CloudProfileConfig" is registered for version "gcp.provider.extensions.gardener.cloud/v2"`},
		{name: "unknown field", spec: spec(`{`+apiVersion+`,"machineImages":[{"name":"ubuntu","versions":[{"version":"1","image":"i","region":"x"}]}]}`, ubuntu),
			want: []string{"EXT-GCP-2 spec.providerConfig Internal"}, detail: `unknown field "machineImages[0].versions[0].region"`},
		{name: "duplicate field", spec: spec(`{`+apiVersion+`,"machineImages":[],"machineImages":[]}`, ubuntu),
			want: []string{"EXT-GCP-2 spec.providerConfig Internal"}, detail: `duplicate field "machineImages"`},
		{name: "missing apiVersion", spec: spec(`{"kind":"CloudProfileConfig","machineImages":[]}`, ubuntu),
			want: []string{"EXT-GCP-2 spec.providerConfig Internal"}, detail: `Object 'apiVersion' is missing in '{"kind":"CloudProfileConfig","machineImages":[]}'`},
		{name: "at least one machine image", spec: spec(cfg(""), ubuntu), want: []string{
			"EXT-GCP-3 spec.providerConfig.machineImages Required",
			"EXT-GCP-10 spec.machineImages[0] Required",
		}},
		{name: "image without name and versions", spec: spec(cfg(`{}`)), want: []string{
			"EXT-GCP-4 spec.providerConfig.machineImages[0].name Required",
			"EXT-GCP-4 spec.providerConfig.machineImages[0].versions Required",
		}, detail: `must provide at least one version for machine image ""`},
		{name: "unsupported machine image version configuration", spec: spec(cfg(`{"name":"ubuntu","versions":[{"architecture":"s390x"}]}`)), want: []string{
			"EXT-GCP-5 spec.providerConfig.machineImages[0].versions[0].version Required",
			"EXT-GCP-7 spec.providerConfig.machineImages[0].versions[0].image Required",
			"EXT-GCP-8 spec.providerConfig.machineImages[0].versions[0].architecture NotSupported",
		}, detail: "must provide the image field for image version ubuntu@ and architecture: s390x"},
		{name: "capability flavors without capabilities", spec: spec(cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","image":"i","capabilityFlavors":[{"image":"i"}]}]}`), ubuntu), want: []string{
			"EXT-GCP-6 spec.providerConfig.machineImages[0].versions[0].capabilityFlavors Forbidden",
		}},
		{name: "both formats at once", spec: capSpec(cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","image":"i","capabilityFlavors":[{"capabilities":{"architecture":["amd64"]},"image":"i"}]}]}`)), want: []string{
			"EXT-GCP-6 spec.providerConfig.machineImages[0].versions[0].image Forbidden",
		}},
		{name: "neither format", spec: capSpec(cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0"}]}`)), want: []string{
			"EXT-GCP-6 spec.providerConfig.machineImages[0].versions[0].image Required",
		}, detail: "must provide either image or capabilityFlavors for machine image ubuntu@1.0.0"},
		{name: "flavor without image, architecture next to flavors, undefined capability", spec: capSpec(cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","architecture":"amd64","capabilityFlavors":[{"capabilities":{"architecture":["amd64"],"gpu":["a"]}}]}]}`)), want: []string{
			"EXT-GCP-6 spec.providerConfig.machineImages[0].versions[0].architecture Forbidden",
			"EXT-GCP-7 spec.providerConfig.machineImages[0].versions[0].capabilityFlavors[0].image Required",
			"EXT-GCP-9 spec.providerConfig.machineImages[0].versions[0].capabilityFlavors[0].capabilities NotSupported",
		}, detail: "must provide the image field for image version ubuntu@1.0.0 and capabilityFlavor: {map[architecture:[amd64] gpu:[a]] }"},
		{name: "old format under capabilities with bad architecture", spec: capSpec(cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","image":"i","architecture":"s390x"}]}`)), want: []string{
			"EXT-GCP-8 spec.providerConfig.machineImages[0].versions[0].architecture NotSupported",
		}},
		{name: "mixed formats under capabilities", spec: capSpec(cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","image":"i"},{"version":"2.0.0","capabilityFlavors":[{"capabilities":{"architecture":["arm64"]},"image":"j"}]}]}`), exttest.Image("ubuntu", exttest.FlavorVersion("1.0.0", "amd64"), exttest.FlavorVersion("2.0.0", "arm64")))},
		{name: "valid capability flavors", spec: capSpec(cfg(ubuntuFlav), exttest.Image("ubuntu", exttest.FlavorVersion("1.0.0", "amd64", "arm64")))},
		{name: "old format, two entries, under capabilities", spec: capSpec(cfg(ubuntuBoth), ubuntu)},
		{name: "missing image mapping", spec: spec(cfg(ubuntuAMD64), ubuntu, exttest.Image("suse", exttest.Version("15"))), want: []string{
			"EXT-GCP-10 spec.machineImages[1] Required",
		}, detail: `must provide an image mapping for image "suse" in providerConfig`},
		{name: "missing architecture mapping", spec: spec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.Version("1.0.0", "amd64", "arm64"), exttest.Version("2.0.0"))), want: []string{
			"EXT-GCP-13 spec.machineImages[0].versions[0] Required",
			"EXT-GCP-13 spec.machineImages[0].versions[1] Required",
		}, detail: "machine image version ubuntu@1.0.0 and architecture: arm64 is not defined in the providerConfig"},
		{name: "unsupported spec architecture", spec: spec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.Version("1.0.0", "s390x"))), want: []string{
			"EXT-GCP-12 spec.machineImages[0].versions[0].architectures NotSupported",
			"EXT-GCP-13 spec.machineImages[0].versions[0] Required",
		}},
		{name: "capabilities: version not mapped", spec: capSpec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.FlavorVersion("2.0.0", "amd64"))), want: []string{
			"EXT-GCP-11 spec.machineImages[0].versions[0] Required",
		}, detail: "machine image version ubuntu@2.0.0 is not defined in the providerConfig"},
		{webhookOnly: true, name: "capabilities: old format misses architecture", spec: capSpec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.FlavorVersion("1.0.0", "amd64", "arm64"))), want: []string{
			"EXT-GCP-13 spec.machineImages[0].versions[0].capabilityFlavors[1] Required",
		}, detail: "machine image version ubuntu@1.0.0 and capabilityFlavor map[architecture:[arm64]] is not defined in the providerConfig"},
		{webhookOnly: true, name: "capabilities: a version without flavors gets one per architecture", spec: capSpec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.Version("1.0.0", "arm64"))), want: []string{
			"EXT-GCP-13 spec.machineImages[0].versions[0].capabilityFlavors[0] Required",
		}},
		{name: "capabilities: a version without flavors and architectures maps amd64", spec: capSpec(cfg(ubuntuAMD64), ubuntu)},
		{webhookOnly: true, name: "capabilities: flavor not mapped", spec: capSpec(cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","capabilityFlavors":[{"capabilities":{"architecture":["amd64"]},"image":"i"}]}]}`), exttest.Image("ubuntu", exttest.FlavorVersion("1.0.0", "amd64", "arm64"))), want: []string{
			"EXT-GCP-13 spec.machineImages[0].versions[0].capabilityFlavors[1] Required",
		}},
	}
}

func ncp(config string, images ...gardencorev1beta1.MachineImage) gardencorev1beta1.NamespacedCloudProfileSpec {
	return gardencorev1beta1.NamespacedCloudProfileSpec{Parent: exttest.Parent(), ProviderConfig: exttest.Raw(config), MachineImages: images}
}

func ncpCases() []ncpCase {
	parent := spec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.Version("1.0.0")))
	capParent := capSpec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.FlavorVersion("1.0.0", "amd64")))
	newVersion := `{"name":"ubuntu","versions":[{"version":"2.0.0","image":"u-2"}]}`
	badKind := ncp("")
	badKind.Parent.Kind = "NamespacedCloudProfile"
	return []ncpCase{
		{name: "no providerConfig, nothing new", spec: ncp(""), parent: parent},
		{name: "expiration date only on an inherited version", spec: ncp("", exttest.Image("ubuntu", exttest.Expiring("1.0.0"))), parent: parent},
		{name: "expiration date only, capabilities parent", spec: ncp("", exttest.Image("ubuntu", exttest.Expiring("1.0.0"))), parent: capParent},
		{name: "new version with mapping", spec: ncp(cfg(newVersion), exttest.Image("ubuntu", exttest.Version("2.0.0", "amd64"))), parent: parent},
		{name: "new version, old format with two architectures", spec: ncp(cfg(`{"name":"ubuntu","versions":[{"version":"2.0.0","image":"a"},{"version":"2.0.0","image":"b","architecture":"arm64"}]}`), exttest.Image("ubuntu", exttest.Version("2.0.0", "amd64", "arm64"))), parent: parent},
		{name: "mixed formats under capabilities", spec: ncp(cfg(`{"name":"ubuntu","versions":[{"version":"2.0.0","image":"a"},{"version":"3.0.0","capabilityFlavors":[{"capabilities":{"architecture":["arm64"]},"image":"b"}]}]}`), exttest.Image("ubuntu", exttest.FlavorVersion("2.0.0", "amd64"), exttest.FlavorVersion("3.0.0", "arm64"))), parent: capParent},
		{name: "parent of the wrong kind", spec: badKind, parent: parent, want: []string{"EXT-GCP-14 spec.parent.kind Internal"}},
		{name: "undecodable providerConfig", spec: ncp(`{"apiVersion":"gcp.provider.extensions.gardener.cloud/v1alpha1","kind":"WorkerConfig"}`), parent: parent, want: []string{"EXT-GCP-2 spec.providerConfig Internal"}},
		{name: "new image without mapping", spec: ncp("", exttest.Image("suse", exttest.Version("15", "amd64"))), parent: parent, want: []string{
			"EXT-GCP-15 spec.providerConfig.machineImages Required",
		}, detail: "machine image suse is not defined in the NamespacedCloudProfile providerConfig"},
		{name: "new version without architecture entry", spec: ncp("", exttest.Image("ubuntu", exttest.Version("2.0.0", "amd64"))), parent: parent, want: []string{
			"EXT-GCP-16 spec.providerConfig.machineImages Required",
		}, detail: `machine image version ubuntu@2.0.0 and architecture: "amd64" is not defined in the NamespacedCloudProfile providerConfig`},
		{name: "old format misses an architecture", spec: ncp(cfg(newVersion), exttest.Image("ubuntu", exttest.Version("2.0.0", "amd64", "arm64"))), parent: parent, want: []string{
			"EXT-GCP-16 spec.providerConfig.machineImages Required",
		}},
		{name: "excess architecture entry", spec: ncp(cfg(`{"name":"ubuntu","versions":[{"version":"2.0.0","image":"b","architecture":"arm64"},{"version":"2.0.0","image":"a"}]}`), exttest.Image("ubuntu", exttest.Version("2.0.0", "amd64"))), parent: parent, want: []string{
			"EXT-GCP-16 spec.providerConfig.machineImages Forbidden",
		}, detail: `machine image version ubuntu@2.0.0 has an excess entry for architecture "arm64", which is not defined in the machineImages spec`},
		{name: "capabilities: new version not mapped", spec: ncp("", exttest.Image("ubuntu", exttest.FlavorVersion("2.0.0", "amd64"))), parent: capParent, want: []string{
			"EXT-GCP-15 spec.providerConfig.machineImages Required",
		}, detail: "machine image version ubuntu@2.0.0 is not defined in the NamespacedCloudProfile providerConfig"},
		{webhookOnly: true, name: "capabilities: old format excess and missing", spec: ncp(cfg(`{"name":"ubuntu","versions":[{"version":"2.0.0","image":"a","architecture":"arm64"}]}`), exttest.Image("ubuntu", exttest.FlavorVersion("2.0.0", "amd64"))), parent: capParent, want: []string{
			"EXT-GCP-16 spec.providerConfig.machineImages Forbidden",
			"EXT-GCP-16 spec.providerConfig.machineImages Forbidden",
			"EXT-GCP-16 spec.providerConfig.machineImages Required",
		}, detail: `has an excess architecture "arm64"`},
		{webhookOnly: true, name: "capabilities: flavors excess and missing", spec: ncp(cfg(`{"name":"ubuntu","versions":[{"version":"2.0.0","capabilityFlavors":[{"capabilities":{"architecture":["arm64"]},"image":"b"}]}]}`), exttest.Image("ubuntu", exttest.FlavorVersion("2.0.0", "amd64"))), parent: capParent, want: []string{
			"EXT-GCP-16 spec.providerConfig.machineImages Forbidden",
			"EXT-GCP-16 spec.providerConfig.machineImages Required",
		}, detail: "has an excess capabilityFlavor map[architecture:[arm64]], which is not defined in the NamespacedCloudProfile machineImages spec"},
		{name: "override of a parent version", spec: ncp(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.Version("1.0.0", "amd64"))), parent: parent, want: []string{
			"EXT-GCP-17 spec.providerConfig.machineImages[0].versions[0] Forbidden",
		}},
		{name: "mapping without spec version", spec: ncp(cfg(newVersion), exttest.Image("ubuntu", exttest.Version("3.0.0", "amd64"))), parent: parent, want: []string{
			"EXT-GCP-16 spec.providerConfig.machineImages Forbidden",
			"EXT-GCP-16 spec.providerConfig.machineImages Required",
			"EXT-GCP-18 spec.providerConfig.machineImages[0].versions[0] Invalid",
		}},
		{name: "mapping without spec image", spec: ncp(cfg(`{"name":"suse","versions":[{"version":"15","image":"s"}]}`)), parent: parent, want: []string{
			"EXT-GCP-18 spec.providerConfig.machineImages[0] Required",
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
		return validateNamespaced(extcommon.DefaultedNamespacedSpec(c.spec), extcommon.DefaultedSpec(c.parent))
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
	exttest.CheckCatalogue(t, ".", "EXT-GCP", Rules(), used)
}

// TestProviderConfigDecode_TypeMetaAsTheWebhooks: EXT-GCP-2 reports a providerConfig without kind
// or apiVersion as the validating webhooks do (Gardener's util.Decode requires both), also when a
// mapping is missing too; the mutators' predictions and the merge still fill both in.
func TestProviderConfigDecode_TypeMetaAsTheWebhooks(t *testing.T) {
	newVersion := `{"name":"ubuntu","versions":[{"version":"2.0.0","image":"u-2"}]}`
	parent := capSpec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.FlavorVersion("1.0.0", "amd64")))
	exttest.CheckTypeMeta(t, exttest.TypeMetaCase{
		Extension:          extension(),
		Merge:              MergeProviderConfig,
		Rule:               RuleProviderConfigDecode,
		CloudProfile:       capSpec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.Version("1.0.0"))),
		Namespaced:         ncp(cfg(newVersion), exttest.Image("ubuntu", exttest.Version("2.0.0"))),
		Parent:             parent,
		CloudProfilePrefix: `could not decode providerConfig of CloudProfile "p": `,
		NamespacedPrefix:   ``,
	})
}
