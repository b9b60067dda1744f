package openstack

import (
	"slices"
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon/exttest"
)

const apiVersion = `"apiVersion":"openstack.provider.extensions.gardener.cloud/v1alpha1","kind":"CloudProfileConfig"`

const base = `"constraints":{"floatingPools":[{"name":"fip"}],"loadBalancerProviders":[{"name":"amphora"}]},"keystoneURL":"https://keystone"`

func cfg(images string) string {
	return `{` + apiVersion + `,` + base + `,"machineImages":[` + images + `]}`
}

// ncfg is a NamespacedCloudProfile providerConfig, which may only set machineImages.
func ncfg(images string) string { return `{` + apiVersion + `,"machineImages":[` + images + `]}` }

// with is a CloudProfile providerConfig with ubuntuAMD64 and extra top-level fields.
func with(fields string) string {
	return `{` + apiVersion + `,` + fields + `,"machineImages":[` + ubuntuAMD64 + `]}`
}

const (
	ubuntuAMD64 = `{"name":"ubuntu","versions":[{"version":"1.0.0","regions":[{"name":"eu-1","id":"id-1"}]}]}`
	ubuntuBoth  = `{"name":"ubuntu","versions":[{"version":"1.0.0","regions":[{"name":"eu-1","id":"id-1"},{"name":"eu-1","id":"id-2","architecture":"arm64"}]}]}`
	ubuntuImage = `{"name":"ubuntu","versions":[{"version":"1.0.0","image":"Ubuntu 1.0.0"}]}`
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
	const cert = `-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----`
	const c = `"keystoneURL":"https://k"`
	const lb = `"loadBalancerProviders":[{"name":"amphora"}]`
	return []cpCase{
		{name: "valid config", spec: spec(cfg(ubuntuAMD64), ubuntu)},
		{name: "valid config with arm64", spec: spec(cfg(ubuntuBoth), exttest.Image("ubuntu", exttest.Version("1.0.0", "amd64", "arm64")))},
		{name: "version without regions maps every architecture", spec: spec(cfg(ubuntuImage), exttest.Image("ubuntu", exttest.Version("1.0.0", "amd64", "arm64")))},
		{name: "full valid config", spec: spec(with(`"constraints":{"floatingPools":[{"name":"fip","region":"eu-1","domain":"d","loadBalancerClasses":[{"name":"default","purpose":"default","floatingSubnetID":"0ba2dd64-a4d3-4d2c-9d0a-0c7f6cf1f0bb"},{"name":"internal","purpose":"private"}]},{"name":"fip","region":"eu-2"}],"loadBalancerProviders":[{"name":"amphora","region":"eu-1"},{"name":"amphora","region":"eu-2"}]},"keystoneURLs":[{"region":"eu-1","url":"https://k1"}],"dnsServers":["10.0.0.1","::1"],"dhcpDomain":"nova","serverGroupPolicies":["affinity"],"requestTimeout":"5s","storageClasses":[{"name":"fast","parameters":{"type":"ssd"}}]`), ubuntu)},
		{name: "providerConfig required", spec: spec("", ubuntu), want: []string{"EXT-OPENSTACK-1 spec.providerConfig Required"}, detail: "providerConfig must be set for OpenStack cloud profiles"},
		{name: "unknown kind", spec: spec(`{"apiVersion":"openstack.provider.extensions.gardener.cloud/v1alpha1","kind":"CloudProfileConfiguration"}`, ubuntu),
			want: []string{"EXT-OPENSTACK-2 spec.providerConfig Internal"}, detail: `no kind "CloudProfileConfiguration" is registered for version "openstack.provider.extensions.gardener.cloud/v1alpha1"`},
		{name: "unknown field", spec: spec(with(`"constraints":{"floatingPools":[{"name":"fip","subnet":"x"}]}`), ubuntu),
			want: []string{"EXT-OPENSTACK-2 spec.providerConfig Internal"}, detail: `strict decoding error: unknown field "constraints.floatingPools[0].subnet"`},
		{name: "wrong type", spec: spec(with(`"dnsServers":"10.0.0.1"`), ubuntu), want: []string{"EXT-OPENSTACK-2 spec.providerConfig Internal"}, detail: "cannot unmarshal string"},
		{name: "constraints and keystone required", spec: spec(`{`+apiVersion+`,"machineImages":[`+ubuntuAMD64+`]}`, ubuntu), want: []string{
			"EXT-OPENSTACK-3 spec.providerConfig.constraints.floatingPools Required",
			"EXT-OPENSTACK-5 spec.providerConfig.constraints.loadBalancerProviders Required",
			"EXT-OPENSTACK-17 spec.providerConfig.keyStoneURL Required",
		}, detail: "must provide the URL to KeyStone"},
		{name: "floating pools: name, empty region and domain, duplicate", spec: spec(with(c+`,"constraints":{"floatingPools":[{"name":"","region":"","domain":""},{"name":"","region":"","domain":""}],`+lb+`}`), ubuntu), want: []string{
			"EXT-OPENSTACK-3 spec.providerConfig.constraints.floatingPools[0].domain Required",
			"EXT-OPENSTACK-3 spec.providerConfig.constraints.floatingPools[0].name Required",
			"EXT-OPENSTACK-3 spec.providerConfig.constraints.floatingPools[0].region Required",
			"EXT-OPENSTACK-3 spec.providerConfig.constraints.floatingPools[1].domain Required",
			"EXT-OPENSTACK-3 spec.providerConfig.constraints.floatingPools[1].name Duplicate",
			"EXT-OPENSTACK-3 spec.providerConfig.constraints.floatingPools[1].name Required",
			"EXT-OPENSTACK-3 spec.providerConfig.constraints.floatingPools[1].region Required",
		}},
		{name: "load balancer classes", spec: spec(with(c+`,"constraints":{"floatingPools":[{"name":"fip","loadBalancerClasses":[{"name":"a","purpose":"public","floatingNetworkID":"nope"},{"name":"a","purpose":"default","floatingSubnetID":"0ba2dd64-a4d3-4d2c-9d0a-0c7f6cf1f0bb","floatingSubnetName":"x"},{"name":"default","floatingSubnetName":"{x}","floatingSubnetTags":"t"},{"name":""}]}],`+lb+`}`), ubuntu), want: []string{
			"EXT-OPENSTACK-4 spec.providerConfig.constraints.floatingPools[0].loadBalancerClasses Invalid",
			"EXT-OPENSTACK-4 spec.providerConfig.constraints.floatingPools[0].loadBalancerClasses[0] Invalid",
			"EXT-OPENSTACK-4 spec.providerConfig.constraints.floatingPools[0].loadBalancerClasses[0].floatingNetworkID Invalid",
			"EXT-OPENSTACK-4 spec.providerConfig.constraints.floatingPools[0].loadBalancerClasses[1] Forbidden",
			"EXT-OPENSTACK-4 spec.providerConfig.constraints.floatingPools[0].loadBalancerClasses[1].name Duplicate",
			"EXT-OPENSTACK-4 spec.providerConfig.constraints.floatingPools[0].loadBalancerClasses[2] Forbidden",
			"EXT-OPENSTACK-4 spec.providerConfig.constraints.floatingPools[0].loadBalancerClasses[2].floatingSubnetName Invalid",
			"EXT-OPENSTACK-4 spec.providerConfig.constraints.floatingPools[0].loadBalancerClasses[3].name Required",
		}, detail: "must be a valid UUID: invalid UUID length: 4"},
		{name: "load balancer providers", spec: spec(with(c+`,"constraints":{"floatingPools":[{"name":"fip"}],"loadBalancerProviders":[{"name":"","region":""},{"name":"","region":""}]}`), ubuntu), want: []string{
			"EXT-OPENSTACK-5 spec.providerConfig.constraints.loadBalancerProviders[0].name Required",
			"EXT-OPENSTACK-5 spec.providerConfig.constraints.loadBalancerProviders[0].region Required",
			"EXT-OPENSTACK-5 spec.providerConfig.constraints.loadBalancerProviders[1] Duplicate",
			"EXT-OPENSTACK-5 spec.providerConfig.constraints.loadBalancerProviders[1].name Required",
			"EXT-OPENSTACK-5 spec.providerConfig.constraints.loadBalancerProviders[1].region Required",
		}},
		{name: "keystone URLs and CA certificates", spec: spec(with(`"constraints":{"floatingPools":[{"name":"fip"}],`+lb+`},"keystoneCACert":"`+cert+`","keystoneURLs":[{"region":"","url":"","caCert":"x"},{"region":"","url":"u"}]`), ubuntu), want: []string{
			"EXT-OPENSTACK-17 spec.providerConfig.caCert Invalid",
			"EXT-OPENSTACK-17 spec.providerConfig.keyStoneURLs[0].caCert Invalid",
			"EXT-OPENSTACK-17 spec.providerConfig.keyStoneURLs[0].region Required",
			"EXT-OPENSTACK-17 spec.providerConfig.keyStoneURLs[0].url Required",
			"EXT-OPENSTACK-17 spec.providerConfig.keyStoneURLs[1].region Duplicate",
			"EXT-OPENSTACK-17 spec.providerConfig.keyStoneURLs[1].region Required",
		}, detail: "caCert is not a valid PEM-encoded certificate"},
		{name: "dns servers, dhcp domain, server group policies", spec: spec(with(c+`,"constraints":{"floatingPools":[{"name":"fip"}],`+lb+`},"dnsServers":["10.0.0.256"],"dhcpDomain":"","serverGroupPolicies":[""]`), ubuntu), want: []string{
			"EXT-OPENSTACK-18 spec.providerConfig.dhcpDomain Required",
			"EXT-OPENSTACK-18 spec.providerConfig.dnsServers[0] Invalid",
			"EXT-OPENSTACK-18 spec.providerConfig.serverGroupPolicies[0] Required",
		}},
		{name: "at least one machine image", spec: spec(cfg(""), ubuntu), want: []string{
			"EXT-OPENSTACK-6 spec.providerConfig.machineImages Required",
			"EXT-OPENSTACK-13 spec.machineImages[0] Required",
		}},
		{name: "image without name and versions", spec: spec(cfg(`{}`)), want: []string{
			"EXT-OPENSTACK-7 spec.providerConfig.machineImages[0].name Required",
			"EXT-OPENSTACK-7 spec.providerConfig.machineImages[0].versions Required",
		}},
		{name: "version and region incomplete, bad architecture", spec: spec(cfg(`{"name":"ubuntu","versions":[{"regions":[{"architecture":"s390x"}]}]}`)), want: []string{
			"EXT-OPENSTACK-8 spec.providerConfig.machineImages[0].versions[0].version Required",
			"EXT-OPENSTACK-10 spec.providerConfig.machineImages[0].versions[0].regions[0].id Required",
			"EXT-OPENSTACK-10 spec.providerConfig.machineImages[0].versions[0].regions[0].name Required",
			"EXT-OPENSTACK-11 spec.providerConfig.machineImages[0].versions[0].regions[0].architecture NotSupported",
		}, detail: "must provide an image ID"},
		{name: "capability flavors without capabilities", spec: spec(cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","capabilityFlavors":[{"image":"x"}]}]}`), ubuntu), want: []string{
			"EXT-OPENSTACK-9 spec.providerConfig.machineImages[0].versions[0].capabilityFlavors Forbidden",
		}},
		{name: "regions and capability flavors together", spec: capSpec(cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","regions":[{"name":"r","id":"a"}],"capabilityFlavors":[{"capabilities":{"architecture":["amd64"]}}]}]}`)), want: []string{
			"EXT-OPENSTACK-9 spec.providerConfig.machineImages[0].versions[0] Forbidden",
		}, detail: "must not set both regions and capabilityFlavors on the same version"},
		{name: "capability flavors: architecture in region, undefined capability value", spec: capSpec(cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","capabilityFlavors":[{"capabilities":{"architecture":["s390x"]},"regions":[{"name":"r","id":"a","architecture":"amd64"}]}]}]}`)), want: []string{
			"EXT-OPENSTACK-11 spec.providerConfig.machineImages[0].versions[0].capabilityFlavors[0].regions[0].architecture Forbidden",
			"EXT-OPENSTACK-12 spec.providerConfig.machineImages[0].versions[0].capabilityFlavors[0].capabilities.architecture[0] NotSupported",
		}},
		{name: "valid capability flavors", spec: capSpec(cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","capabilityFlavors":[{"capabilities":{"architecture":["amd64"]},"regions":[{"name":"r","id":"a"}]},{"capabilities":{"architecture":["arm64"]},"image":"u-arm"}]}]}`), exttest.Image("ubuntu", exttest.FlavorVersion("1.0.0", "amd64", "arm64")))},
		{name: "missing image mapping", spec: spec(cfg(ubuntuAMD64), ubuntu, exttest.Image("suse", exttest.Version("15"))), want: []string{
			"EXT-OPENSTACK-13 spec.machineImages[1] Required",
		}},
		{name: "missing version mapping, once per architecture", spec: spec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.Version("2.0.0", "amd64", "arm64"))), want: []string{
			"EXT-OPENSTACK-14 spec.machineImages[0].versions[0] Required",
			"EXT-OPENSTACK-14 spec.machineImages[0].versions[0] Required",
		}},
		{name: "missing architecture mapping, unsupported architecture", spec: spec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.Version("1.0.0", "arm64", "s390x"))), want: []string{
			"EXT-OPENSTACK-15 spec.machineImages[0].versions[0].architectures NotSupported",
			"EXT-OPENSTACK-16 spec.machineImages[0].versions[0] Required",
			"EXT-OPENSTACK-16 spec.machineImages[0].versions[0] Required",
		}, detail: "missing providerConfig mapping for machine image version ubuntu@1.0.0 and architecture: arm64"},
		{name: "capabilities: version not mapped", spec: capSpec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.FlavorVersion("2.0.0", "amd64"))), want: []string{
			"EXT-OPENSTACK-14 spec.machineImages[0].versions[0] Required",
		}},
		{webhookOnly: true, name: "capabilities: regions format misses architecture", spec: capSpec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.FlavorVersion("1.0.0", "amd64", "arm64"))), want: []string{
			"EXT-OPENSTACK-16 spec.machineImages[0].versions[0].capabilityFlavors[1] Required",
		}, detail: "missing providerConfig mapping for machine image version ubuntu@1.0.0 and architecture arm64"},
		{name: "capabilities: image only maps no flavor", spec: capSpec(cfg(ubuntuImage), exttest.Image("ubuntu", exttest.FlavorVersion("1.0.0", "amd64"))), want: []string{
			"EXT-OPENSTACK-16 spec.machineImages[0].versions[0].capabilityFlavors[0] Required",
		}, detail: "and capabilitySet map[architecture:[amd64]]"},
		{webhookOnly: true, name: "capabilities: flavor not mapped", spec: capSpec(cfg(`{"name":"ubuntu","versions":[{"version":"1.0.0","capabilityFlavors":[{"capabilities":{"architecture":["amd64"]},"image":"a"}]}]}`), exttest.Image("ubuntu", exttest.FlavorVersion("1.0.0", "amd64", "arm64"))), want: []string{
			"EXT-OPENSTACK-16 spec.machineImages[0].versions[0].capabilityFlavors[1] Required",
		}},
	}
}

func ncp(config string, images ...gardencorev1beta1.MachineImage) gardencorev1beta1.NamespacedCloudProfileSpec {
	return gardencorev1beta1.NamespacedCloudProfileSpec{Parent: exttest.Parent(), ProviderConfig: exttest.Raw(config), MachineImages: images}
}

func ncpCases() []ncpCase {
	parent := spec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.Version("1.0.0")))
	capParent := capSpec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.FlavorVersion("1.0.0", "amd64")))
	newVersion := `{"name":"ubuntu","versions":[{"version":"2.0.0","regions":[{"name":"eu-1","id":"id-2"}]}]}`
	badKind := ncp("")
	badKind.Parent.Kind = "NamespacedCloudProfile"
	return []ncpCase{
		{name: "no providerConfig, nothing new", spec: ncp(""), parent: parent},
		{name: "expiration date only on an inherited version", spec: ncp("", exttest.Image("ubuntu", exttest.Expiring("1.0.0"))), parent: parent},
		{name: "expiration date only, capabilities parent", spec: ncp("", exttest.Image("ubuntu", exttest.Expiring("1.0.0"))), parent: capParent},
		{name: "new version with mapping", spec: ncp(ncfg(newVersion), exttest.Image("ubuntu", exttest.Version("2.0.0", "amd64"))), parent: parent},
		{name: "empty lists count as unset", spec: ncp(`{`+apiVersion+`,"constraints":{"floatingPools":[]},"dnsServers":[],"machineImages":[`+newVersion+`]}`, exttest.Image("ubuntu", exttest.Version("2.0.0", "amd64"))), parent: parent},
		{name: "new version in regions format under capabilities", spec: ncp(ncfg(newVersion), exttest.Image("ubuntu", exttest.FlavorVersion("2.0.0", "amd64"))), parent: capParent},
		{name: "parent of the wrong kind", spec: badKind, parent: parent, want: []string{"EXT-OPENSTACK-19 spec.parent.kind Internal"}},
		{name: "undecodable providerConfig", spec: ncp(`{"apiVersion":"openstack.provider.extensions.gardener.cloud/v1alpha1","kind":"CloudProfileConfig","machineImages":{}}`), parent: parent, want: []string{"EXT-OPENSTACK-2 spec.providerConfig Internal"}},
		{name: "more than machine images", spec: ncp(cfg(newVersion), exttest.Image("ubuntu", exttest.Version("2.0.0", "amd64"))), parent: parent, want: []string{
			"EXT-OPENSTACK-20 spec.providerConfig Forbidden",
		}, detail: "must only set machineImages"},
		{name: "new version without mapping", spec: ncp("", exttest.Image("ubuntu", exttest.Version("2.0.0", "amd64"))), parent: parent, want: []string{
			"EXT-OPENSTACK-21 spec.providerConfig.machineImages Required",
		}},
		{name: "excess and missing architectures", spec: ncp(ncfg(`{"name":"ubuntu","versions":[{"version":"2.0.0","regions":[{"name":"eu-1","id":"a","architecture":"arm64"},{"name":"eu-2","id":"b"}]}]}`), exttest.Image("ubuntu", exttest.Version("2.0.0", "amd64"))), parent: parent, want: []string{
			"EXT-OPENSTACK-22 spec.providerConfig.machineImages Forbidden",
			"EXT-OPENSTACK-22 spec.providerConfig.machineImages Required",
		}},
		{name: "new version without regions", spec: ncp(ncfg(`{"name":"ubuntu","versions":[{"version":"2.0.0","image":"x"}]}`), exttest.Image("ubuntu", exttest.Version("2.0.0", "amd64"))), parent: parent, want: []string{
			"EXT-OPENSTACK-22 spec.providerConfig.machineImages Required",
		}, detail: `machine image version ubuntu@2.0.0 with architecture "amd64" is not defined in the NamespacedCloudProfile providerConfig`},
		{webhookOnly: true, name: "capabilities: regions format excess and missing", spec: ncp(ncfg(`{"name":"ubuntu","versions":[{"version":"2.0.0","regions":[{"name":"r","id":"a","architecture":"arm64"}]}]}`), exttest.Image("ubuntu", exttest.FlavorVersion("2.0.0", "amd64"))), parent: capParent, want: []string{
			"EXT-OPENSTACK-22 spec.providerConfig.machineImages Forbidden",
			"EXT-OPENSTACK-22 spec.providerConfig.machineImages Required",
		}, detail: `has an excess architecture "arm64" in regions`},
		{webhookOnly: true, name: "capabilities: flavors excess, missing, region gap", spec: ncp(ncfg(`{"name":"ubuntu","versions":[{"version":"2.0.0","capabilityFlavors":[{"capabilities":{"architecture":["amd64"]},"regions":[{"name":"r1","id":"a"}]},{"capabilities":{"architecture":["arm64"]},"regions":[{"name":"r2","id":"b"}]}]}]}`), exttest.Image("ubuntu", exttest.FlavorVersion("2.0.0", "amd64"))), parent: capParent, want: []string{
			"EXT-OPENSTACK-22 spec.providerConfig.machineImages Forbidden",
			"EXT-OPENSTACK-22 spec.providerConfig.machineImages Required",
		}},
		{name: "capabilities: neither regions nor flavors", spec: ncp(ncfg(`{"name":"ubuntu","versions":[{"version":"2.0.0","image":"x"}]}`), exttest.Image("ubuntu", exttest.FlavorVersion("2.0.0", "amd64"))), parent: capParent, want: []string{
			"EXT-OPENSTACK-22 spec.providerConfig.machineImages Required",
		}},
		{name: "override of a parent version", spec: ncp(ncfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.Version("1.0.0", "amd64"))), parent: parent, want: []string{
			"EXT-OPENSTACK-23 spec.providerConfig.machineImages[0].versions[0] Forbidden",
		}},
		{name: "mapping without spec version", spec: ncp(ncfg(newVersion), exttest.Image("ubuntu", exttest.Version("3.0.0", "amd64"))), parent: parent, want: []string{
			"EXT-OPENSTACK-21 spec.providerConfig.machineImages Required",
			"EXT-OPENSTACK-24 spec.providerConfig.machineImages[0].versions[0] Invalid",
		}},
		{name: "mapping without spec image", spec: ncp(ncfg(`{"name":"suse","versions":[{"version":"15","image":"s"}]}`)), parent: parent, want: []string{
			"EXT-OPENSTACK-24 spec.providerConfig.machineImages[0] Required",
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
	exttest.CheckCatalogue(t, ".", "EXT-OPENSTACK", Rules(), used)
}

// TestProviderConfigDecode_TypeMetaAsTheWebhooks: EXT-OPENSTACK-2 reports a providerConfig without kind
// or apiVersion as the validating webhooks do (Gardener's util.Decode requires both), also when a
// mapping is missing too; the mutators' predictions and the merge still fill both in.
func TestProviderConfigDecode_TypeMetaAsTheWebhooks(t *testing.T) {
	newVersion := `{"name":"ubuntu","versions":[{"version":"2.0.0","regions":[{"name":"eu-1","id":"id-2"}]}]}`
	parent := capSpec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.FlavorVersion("1.0.0", "amd64")))
	exttest.CheckTypeMeta(t, exttest.TypeMetaCase{
		Extension:          extension(),
		Merge:              MergeProviderConfig,
		Rule:               RuleProviderConfigDecode,
		CloudProfile:       capSpec(cfg(ubuntuAMD64), exttest.Image("ubuntu", exttest.Version("1.0.0"))),
		Namespaced:         ncp(ncfg(newVersion), exttest.Image("ubuntu", exttest.Version("2.0.0"))),
		Parent:             parent,
		CloudProfilePrefix: ``,
		NamespacedPrefix:   ``,
	})
}
