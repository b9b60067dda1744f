package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/local"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// The differential tests of package extensions/local: the same objects go to a Garden that runs
// provider-local's admission webhooks (scripts/garden.sh starts them by default) and to the package.
// Every case is valid for Gardener's own rules (the tests check that with package cloudprofile), so
// a rejection is the extension's. With GARDEN_EXTENSION_ADMISSION=none the tests skip.

// localWebhookConfig is the name under which provider-local registers its webhooks.
const localWebhookConfig = "gardener-extension-admission-local"

// requireLocalAdmission fails the test unless the Garden has provider-local's validating webhook
// registered for cloud profiles of type local, which scripts/garden.sh starts by default; it skips
// when the Garden was started without it on purpose (GARDEN_EXTENSION_ADMISSION=none).
func requireLocalAdmission(t *testing.T, s *server) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	raw, err := s.rest.Get().AbsPath("/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations", localWebhookConfig).Do(ctx).Raw()
	if apierrors.IsNotFound(err) && os.Getenv("GARDEN_EXTENSION_ADMISSION") == "none" {
		t.Skip("GARDEN_EXTENSION_ADMISSION=none: the Garden runs no provider-local admission")
	}
	if apierrors.IsNotFound(err) {
		t.Fatalf("the Garden runs no provider-local admission (no ValidatingWebhookConfiguration %s), which scripts/garden.sh starts by default: "+
			"restart it with scripts/garden.sh down && scripts/garden.sh up, or set GARDEN_EXTENSION_ADMISSION=none to skip these tests", localWebhookConfig)
	}
	if err != nil {
		t.Fatalf("reading ValidatingWebhookConfiguration %s: %v", localWebhookConfig, err)
	}
	var cfg struct {
		Webhooks []struct {
			ObjectSelector struct {
				MatchLabels map[string]string `json:"matchLabels"`
			} `json:"objectSelector"`
			Rules []struct {
				Resources []string `json:"resources"`
			} `json:"rules"`
		} `json:"webhooks"`
	}
	if err := json.Unmarshal(raw, &cfg); err != nil {
		t.Fatal(err)
	}
	for _, wh := range cfg.Webhooks {
		if wh.ObjectSelector.MatchLabels["provider.extensions.gardener.cloud/local"] != "true" {
			continue
		}
		for _, r := range wh.Rules {
			if slices.Contains(r.Resources, "cloudprofiles") {
				return
			}
		}
	}
	t.Fatalf("ValidatingWebhookConfiguration %s does not select cloud profiles of type local", localWebhookConfig)
}

// providerConfig encodes a provider-local configuration with the given machineImages.
func providerConfig(images ...local.MachineImage) *runtime.RawExtension {
	cfg := local.CloudProfileConfig{APIVersion: local.APIVersion, Kind: local.Kind, MachineImages: images}
	b, err := json.Marshal(cfg)
	if err != nil {
		panic(err)
	}
	return &runtime.RawExtension{Raw: b}
}

// rawConfig is a providerConfig given as JSON text.
func rawConfig(s string) *runtime.RawExtension { return &runtime.RawExtension{Raw: []byte(s)} }

// configImages is rawConfig with apiVersion and kind around a machineImages JSON list.
func configImages(machineImages string) *runtime.RawExtension {
	return rawConfig(`{"apiVersion":"` + local.APIVersion + `","kind":"` + local.Kind + `","machineImages":` + machineImages + `}`)
}

// completeMapping maps every version of every image of cp: by image without capability
// definitions, otherwise one flavor per flavor of the version (one with the defaults when it lists
// none), each with an image named after image, version and capabilities.
func completeMapping(cp *cpT) *runtime.RawExtension {
	var images []local.MachineImage
	for _, mi := range cp.Spec.MachineImages {
		m := local.MachineImage{Name: mi.Name}
		for _, v := range mi.Versions {
			mv := local.MachineImageVersion{Version: v.Version}
			if len(cp.Spec.MachineCapabilities) == 0 {
				mv.Image = "local/" + mi.Name + ":" + v.Version
			} else {
				flavors := v.CapabilityFlavors
				if len(flavors) == 0 {
					flavors = []gardencorev1beta1.MachineImageFlavor{{}}
				}
				for k, f := range flavors {
					mv.CapabilityFlavors = append(mv.CapabilityFlavors, local.ImageFlavor{
						Image: fmt.Sprintf("local/%s:%s-%d", mi.Name, v.Version, k), Capabilities: f.Capabilities,
					})
				}
			}
			m.Versions = append(m.Versions, mv)
		}
		images = append(images, m)
	}
	return providerConfig(images...)
}

// mapped returns a CloudProfile case's base with the complete mapping, then mutates it.
func mapped(base func(string) *cpT, mutate func(cp *cpT)) func(string) *cpT {
	return func(name string) *cpT {
		cp := base(name)
		cp.Spec.Type = local.Type
		cp.Spec.ProviderConfig = completeMapping(cp)
		if mutate != nil {
			mutate(cp)
		}
		return cp
	}
}

type extCPCase struct {
	name  string
	build func(name string) *cpT
	post  bool // sent as a plain create (JSON that server-side apply would not carry verbatim)
}

func extCloudProfileCases() []extCPCase {
	setConfig := func(c *runtime.RawExtension) func(*cpT) { return func(cp *cpT) { cp.Spec.ProviderConfig = c } }
	amd := map[string][]string{"architecture": {"amd64"}}
	arm := map[string][]string{"architecture": {"arm64"}}
	return []extCPCase{
		{"legacy complete mapping", mapped(legacyProfile, nil), false},
		{"capability complete mapping", mapped(capabilityProfile, nil), false},
		{"EXT-LOCAL-1 no providerConfig", mapped(legacyProfile, setConfig(nil)), false},
		{"EXT-LOCAL-1 no providerConfig with capabilities", mapped(capabilityProfile, setConfig(nil)), false},
		{"EXT-LOCAL-2 no kind", mapped(legacyProfile, setConfig(rawConfig(`{"apiVersion":"`+local.APIVersion+`","machineImages":[]}`))), false},
		{"EXT-LOCAL-2 no apiVersion", mapped(legacyProfile, setConfig(rawConfig(`{"kind":"CloudProfileConfig"}`))), false},
		{"EXT-LOCAL-2 another provider's kind", mapped(legacyProfile, setConfig(rawConfig(`{"apiVersion":"aws.provider.extensions.gardener.cloud/v1alpha1","kind":"CloudProfileConfig"}`))), false},
		{"EXT-LOCAL-2 unknown field", mapped(legacyProfile, setConfig(configImages(`[{"name":"gardenlinux","versions":[{"version":"1877.3.0","image":"x","architecture":"amd64"}]}]`))), false},
		{"EXT-LOCAL-2 field in another case", mapped(legacyProfile, setConfig(configImages(`[{"Name":"gardenlinux","versions":[{"version":"1877.3.0","image":"x"}]}]`))), false},
		{"EXT-LOCAL-2 wrong JSON type", mapped(legacyProfile, setConfig(configImages(`[{"name":"gardenlinux","versions":"1877.3.0"}]`))), false},
		{"EXT-LOCAL-2 repeated field", mapped(legacyProfile, setConfig(configImages(`[{"name":"gardenlinux","name":"gardenlinux","versions":[{"version":"1877.3.0","image":"x"}]}]`))), true},
		{"EXT-LOCAL-3 no machine images", mapped(legacyProfile, setConfig(configImages(`[]`))), false},
		{"EXT-LOCAL-4 and 5 an empty entry", mapped(legacyProfile, setConfig(configImages(`[{}]`))), false},
		{"EXT-LOCAL-6 and 7 an empty version", mapped(legacyProfile, setConfig(configImages(`[{"name":"gardenlinux","versions":[{}]}]`))), false},
		{"EXT-LOCAL-7 no image", mapped(legacyProfile, setConfig(configImages(`[{"name":"gardenlinux","versions":[{"version":"1877.3.0"}]}]`))), false},
		{"EXT-LOCAL-8 flavors without capabilities", mapped(legacyProfile, setConfig(configImages(`[{"name":"gardenlinux","versions":[{"version":"1877.3.0","image":"x","capabilityFlavors":[{"image":"y"}]}]}]`))), false},
		{"EXT-LOCAL-10 image without mapping", mapped(legacyProfile, setConfig(providerConfig(local.MachineImage{Name: "ubuntu", Versions: []local.MachineImageVersion{{Version: "1", Image: "x"}}}))), false},
		{"EXT-LOCAL-10 second image without mapping", mapped(legacyProfile, func(cp *cpT) {
			cp.Spec.MachineImages = append(cp.Spec.MachineImages, miT{Name: "ubuntu", Versions: []mivT{{ExpirableVersion: evT{Version: "22.4.1"}}}})
		}), false},
		{"legacy mapping that misses versions is accepted", mapped(legacyProfile, setConfig(configImages(`[{"name":"gardenlinux","versions":[{"version":"1877.3.0","image":"x"}]}]`))), false},
		{"EXT-LOCAL-8 image with capabilities", mapped(capabilityProfile, func(cp *cpT) {
			var cfg local.CloudProfileConfig
			_ = json.Unmarshal(cp.Spec.ProviderConfig.Raw, &cfg)
			cfg.MachineImages[0].Versions[0].Image = "x"
			cp.Spec.ProviderConfig = providerConfig(cfg.MachineImages...)
		}), false},
		{"EXT-LOCAL-7 flavor without image", mapped(capabilityProfile, func(cp *cpT) {
			var cfg local.CloudProfileConfig
			_ = json.Unmarshal(cp.Spec.ProviderConfig.Raw, &cfg)
			cfg.MachineImages[0].Versions[0].CapabilityFlavors[0].Image = ""
			cp.Spec.ProviderConfig = providerConfig(cfg.MachineImages...)
		}), false},
		{"EXT-LOCAL-9 unknown capability", mapped(capabilityProfile, func(cp *cpT) {
			var cfg local.CloudProfileConfig
			_ = json.Unmarshal(cp.Spec.ProviderConfig.Raw, &cfg)
			cfg.MachineImages[0].Versions[0].CapabilityFlavors[0].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"amd64"}, "gpu": {"yes"}}
			cp.Spec.ProviderConfig = providerConfig(cfg.MachineImages...)
		}), false},
		{"EXT-LOCAL-9 unsupported value", mapped(capabilityProfile, func(cp *cpT) {
			var cfg local.CloudProfileConfig
			_ = json.Unmarshal(cp.Spec.ProviderConfig.Raw, &cfg)
			cfg.MachineImages[0].Versions[0].CapabilityFlavors[0].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"s390x"}}
			cp.Spec.ProviderConfig = providerConfig(cfg.MachineImages...)
		}), false},
		{"EXT-LOCAL-9 no architecture among two", mapped(capabilityProfile, func(cp *cpT) {
			var cfg local.CloudProfileConfig
			_ = json.Unmarshal(cp.Spec.ProviderConfig.Raw, &cfg)
			cfg.MachineImages[0].Versions[0].CapabilityFlavors[0].Capabilities = gardencorev1beta1.Capabilities{"network": {"standard"}}
			cp.Spec.ProviderConfig = providerConfig(cfg.MachineImages...)
		}), false},
		{"EXT-LOCAL-11 version without mapping", mapped(capabilityProfile, func(cp *cpT) {
			var cfg local.CloudProfileConfig
			_ = json.Unmarshal(cp.Spec.ProviderConfig.Raw, &cfg)
			cfg.MachineImages[0].Versions = cfg.MachineImages[0].Versions[1:]
			cp.Spec.ProviderConfig = providerConfig(cfg.MachineImages...)
		}), false},
		{"EXT-LOCAL-12 wrong architecture", mapped(capabilityProfile, func(cp *cpT) {
			image(cp).Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor(amd)}
			cfg := completeMapping(cp)
			var c local.CloudProfileConfig
			_ = json.Unmarshal(cfg.Raw, &c)
			c.MachineImages[0].Versions[0].CapabilityFlavors[0].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"arm64"}}
			cp.Spec.ProviderConfig = providerConfig(c.MachineImages...)
		}), false},
		{"EXT-LOCAL-12 one of two flavors unmapped", mapped(capabilityProfile, func(cp *cpT) {
			image(cp).Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor(amd), flavor(arm)}
			cfg := completeMapping(cp)
			var c local.CloudProfileConfig
			_ = json.Unmarshal(cfg.Raw, &c)
			c.MachineImages[0].Versions[0].CapabilityFlavors = c.MachineImages[0].Versions[0].CapabilityFlavors[:1]
			cp.Spec.ProviderConfig = providerConfig(c.MachineImages...)
		}), false},
		{"EXT-LOCAL-12 a version without flavors needs every default", mapped(capabilityProfile, func(cp *cpT) {
			// One architecture, so that a version may list no flavors.
			cp.Spec.MachineCapabilities[0].Values = []string{"amd64"}
			cp.Spec.MachineTypes = cp.Spec.MachineTypes[:1]
			image(cp).Versions[0].CapabilityFlavors = nil
			cfg := completeMapping(cp)
			var c local.CloudProfileConfig
			_ = json.Unmarshal(cfg.Raw, &c)
			c.MachineImages[0].Versions[0].CapabilityFlavors[0].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"amd64"}}
			cp.Spec.ProviderConfig = providerConfig(c.MachineImages...)
		}), false},
		{"flavors mapped with defaults on both sides", mapped(capabilityProfile, func(cp *cpT) {
			image(cp).Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor(map[string][]string{"architecture": {"amd64"}, "network": {"standard", "accelerated"}})}
			cfg := completeMapping(cp)
			var c local.CloudProfileConfig
			_ = json.Unmarshal(cfg.Raw, &c)
			c.MachineImages[0].Versions[0].CapabilityFlavors[0].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"amd64"}}
			cp.Spec.ProviderConfig = providerConfig(c.MachineImages...)
		}), false},
	}
}

// TestDifferential_LocalExtensionCloudProfile compares provider-local's verdict on creating a
// CloudProfile of type local with local.ValidateCloudProfile.
func TestDifferential_LocalExtensionCloudProfile(t *testing.T) {
	s := newServer(t)
	requireLocalAdmission(t, s)
	ctx := testContext(t)
	prefix := acctest.UniqueName("conf-extlocal")
	for i, c := range extCloudProfileCases() {
		t.Run(c.name, func(t *testing.T) {
			cp := c.build(fmt.Sprintf("%s-%d", prefix, i))
			opts := cloudprofile.OptionsWithAllGates(time.Now())
			if core := cloudprofile.ValidateCloudProfileRequest(cp.DeepCopy(), nil, opts).Errors(); len(core) > 0 {
				t.Fatalf("the case breaks Gardener's own rules:\n%s", problemLines(core))
			}
			stored, _ := cloudprofile.StoredCloudProfile(cp.DeepCopy(), nil, opts)
			pkg := local.ValidateCloudProfile(cp.Name, stored.Spec)
			v := s.dryRunCloudProfile(t, ctx, cp, c.post)
			t.Logf("server %s; package: %q", v.summary(), ruleIDs(pkg))
			report(t, compareExtension(pkg, v, "could not decode providerConfig of CloudProfile"), pkg, v)
		})
	}
}

// TestDifferential_LocalExtensionCloudProfileUpdate creates a CloudProfile of type local with
// capabilities and compares provider-local's verdict on changing it with local.ValidateCloudProfile of
// the spec the server would store (the validator ignores the old object).
func TestDifferential_LocalExtensionCloudProfileUpdate(t *testing.T) {
	s := newServer(t)
	requireLocalAdmission(t, s)
	ctx := testContext(t)
	name := acctest.UniqueName("conf-extlocal-update")
	t.Cleanup(func() { deleteCloudProfiles(t, s.client, name) })
	base := mapped(capabilityProfile, nil)
	createCloudProfile(t, ctx, s, base(name))
	old, err := s.client.GetCloudProfile(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	newVersion := mivT{ExpirableVersion: evT{Version: "1900.0.0"}, CapabilityFlavors: []gardencorev1beta1.MachineImageFlavor{archFlavor("amd64")}}
	for _, c := range []struct {
		name   string
		mutate func(cp *cpT)
	}{
		{"unchanged", func(*cpT) {}},
		{"adds a version with mapping", func(cp *cpT) {
			addImageVersion(cp, newVersion)
			cp.Spec.ProviderConfig = completeMapping(cp)
		}},
		{"EXT-LOCAL-11 adds a version without mapping", func(cp *cpT) { addImageVersion(cp, newVersion) }},
		{"EXT-LOCAL-1 removes the providerConfig", func(cp *cpT) { cp.Spec.ProviderConfig = nil }},
		{"EXT-LOCAL-12 adds an arm64 flavor without mapping", func(cp *cpT) {
			image(cp).Versions[1].CapabilityFlavors = append(image(cp).Versions[1].CapabilityFlavors, archFlavor("arm64"))
		}},
		{"EXT-LOCAL-10 adds an image without mapping", func(cp *cpT) {
			cp.Spec.MachineImages = append(cp.Spec.MachineImages, miT{Name: "ubuntu", UpdateStrategy: strategy(gardencorev1beta1.UpdateStrategyMajor), Versions: []mivT{newVersion}})
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cp := base(name)
			c.mutate(cp)
			opts := cloudprofile.OptionsWithAllGates(time.Now())
			if core := cloudprofile.ValidateCloudProfileRequest(cp.DeepCopy(), old.DeepCopy(), opts).Errors(); len(core) > 0 {
				t.Fatalf("the case breaks Gardener's own rules:\n%s", problemLines(core))
			}
			stored, _ := cloudprofile.StoredCloudProfile(cp.DeepCopy(), old.DeepCopy(), opts)
			pkg := local.ValidateCloudProfile(cp.Name, stored.Spec)
			v := s.dryRunCloudProfile(t, ctx, cp, false)
			t.Logf("server %s; package: %q", v.summary(), ruleIDs(pkg))
			report(t, compareExtension(pkg, v, "could not decode providerConfig of CloudProfile"), pkg, v)
		})
	}
}

type extNCPCase struct {
	name   string
	parent string // parentLegacyLocal or parentCapabilityLocal
	mutate func(ncp *ncpT)
}

const (
	parentLegacyLocal     = "legacy"
	parentCapabilityLocal = "capability"
)

func extNamespacedCases() []extNCPCase {
	newVersion := mivT{ExpirableVersion: evT{Version: "1900.0.0", ExpirationDate: at(future)}, CRI: containerd(), Architectures: []string{"amd64"}}
	capVersion := mivT{ExpirableVersion: evT{Version: "1900.0.0", ExpirationDate: at(future)}, CRI: containerd(),
		CapabilityFlavors: []gardencorev1beta1.MachineImageFlavor{archFlavor("amd64")}}
	inherited := func(version string) mivT {
		return mivT{ExpirableVersion: evT{Version: version, ExpirationDate: at(future2)}}
	}
	imgs := func(vs ...mivT) []miT { return []miT{{Name: "gardenlinux", Versions: vs}} }
	withImage := func(version, img string) *runtime.RawExtension {
		return providerConfig(local.MachineImage{Name: "gardenlinux", Versions: []local.MachineImageVersion{{Version: version, Image: img}}})
	}
	customOS := miT{Name: "custom-os", UpdateStrategy: strategy(gardencorev1beta1.UpdateStrategyMajor), Versions: []mivT{{ExpirableVersion: evT{Version: "1.0.0", ExpirationDate: at(future)}, CRI: containerd(), Architectures: []string{"amd64"}}}}
	return []extNCPCase{
		{"no providerConfig, nothing new", parentLegacyLocal, func(*ncpT) {}},
		{"EXT-LOCAL-14 adds a version without mapping", parentLegacyLocal, func(n *ncpT) { n.Spec.MachineImages = imgs(newVersion) }},
		{"adds a version with mapping", parentLegacyLocal, func(n *ncpT) {
			n.Spec.MachineImages = imgs(newVersion)
			n.Spec.ProviderConfig = withImage("1900.0.0", "local/gardenlinux:1900")
		}},
		{"EXT-LOCAL-13 adds an image without mapping", parentLegacyLocal, func(n *ncpT) { n.Spec.MachineImages = []miT{customOS} }},
		{"adds an image with mapping", parentLegacyLocal, func(n *ncpT) {
			n.Spec.MachineImages = []miT{customOS}
			n.Spec.ProviderConfig = providerConfig(local.MachineImage{Name: "custom-os", Versions: []local.MachineImageVersion{{Version: "1.0.0", Image: "local/custom:1"}}})
		}},
		{"only an expiration date on an inherited version passes", parentLegacyLocal, func(n *ncpT) { n.Spec.MachineImages = imgs(inherited("1592.9.0")) }},
		{"EXT-LOCAL-15 maps an inherited version", parentLegacyLocal, func(n *ncpT) {
			n.Spec.MachineImages = imgs(inherited("1592.9.0"))
			n.Spec.ProviderConfig = withImage("1592.9.0", "local/gardenlinux:other")
		}},
		{"EXT-LOCAL-16 maps an image not listed", parentLegacyLocal, func(n *ncpT) {
			n.Spec.ProviderConfig = providerConfig(local.MachineImage{Name: "custom-os", Versions: []local.MachineImageVersion{{Version: "1.0.0", Image: "x"}}})
		}},
		{"EXT-LOCAL-17 maps a version not listed", parentLegacyLocal, func(n *ncpT) {
			n.Spec.MachineImages = imgs(newVersion)
			n.Spec.ProviderConfig = providerConfig(local.MachineImage{Name: "gardenlinux", Versions: []local.MachineImageVersion{
				{Version: "1900.0.0", Image: "a"}, {Version: "1901.0.0", Image: "b"},
			}})
		}},
		{"EXT-LOCAL-2 undecodable", parentLegacyLocal, func(n *ncpT) { n.Spec.ProviderConfig = rawConfig(`{"kind":"CloudProfileConfig"}`) }},
		{"EXT-LOCAL-2 unknown field", parentLegacyLocal, func(n *ncpT) { n.Spec.ProviderConfig = configImages(`[{"name":"gardenlinux","tag":"x"}]`) }},
		{"capability parent: EXT-LOCAL-14 adds a version without mapping", parentCapabilityLocal, func(n *ncpT) { n.Spec.MachineImages = imgs(capVersion) }},
		{"capability parent: adds a version mapped by image", parentCapabilityLocal, func(n *ncpT) {
			n.Spec.MachineImages = imgs(capVersion)
			n.Spec.ProviderConfig = withImage("1900.0.0", "local/gardenlinux:1900")
		}},
		{"capability parent: adds a version mapped by flavor", parentCapabilityLocal, func(n *ncpT) {
			n.Spec.MachineImages = imgs(capVersion)
			n.Spec.ProviderConfig = providerConfig(local.MachineImage{Name: "gardenlinux", Versions: []local.MachineImageVersion{{
				Version: "1900.0.0", CapabilityFlavors: []local.ImageFlavor{{Image: "x", Capabilities: gardencorev1beta1.Capabilities{"architecture": {"amd64"}}}},
			}}})
		}},
		{"capability parent: a mapping for the wrong architecture passes", parentCapabilityLocal, func(n *ncpT) {
			n.Spec.MachineImages = imgs(capVersion)
			n.Spec.ProviderConfig = providerConfig(local.MachineImage{Name: "gardenlinux", Versions: []local.MachineImageVersion{{
				Version: "1900.0.0", CapabilityFlavors: []local.ImageFlavor{{Image: "x", Capabilities: gardencorev1beta1.Capabilities{"architecture": {"arm64"}}}},
			}}})
		}},
	}
}

// localParents creates the parents of the NamespacedCloudProfile cases, with complete mappings, and
// returns them as stored by key.
func localParents(t *testing.T, ctx context.Context, s *server, prefix string) map[string]*cpT {
	t.Helper()
	names := map[string]string{parentLegacyLocal: prefix + "-legacy", parentCapabilityLocal: prefix + "-capability"}
	t.Cleanup(func() { deleteCloudProfiles(t, s.client, names[parentLegacyLocal], names[parentCapabilityLocal]) })
	out := map[string]*cpT{}
	for key, base := range map[string]func(string) *cpT{parentLegacyLocal: legacyProfile, parentCapabilityLocal: capabilityProfile} {
		createCloudProfile(t, ctx, s, mapped(base, nil)(names[key]))
		stored, err := s.client.GetCloudProfile(ctx, names[key])
		if err != nil {
			t.Fatal(err)
		}
		out[key] = stored
	}
	return out
}

// TestDifferential_LocalExtensionNamespacedCloudProfile compares provider-local's verdict on creating
// a NamespacedCloudProfile whose parent is of type local with local.ValidateNamespacedCloudProfile.
func TestDifferential_LocalExtensionNamespacedCloudProfile(t *testing.T) {
	s := newServer(t)
	requireLocalAdmission(t, s)
	ctx := testContext(t)
	prefix := acctest.UniqueName("conf-extlocal-ncp")
	parents := localParents(t, ctx, s, prefix)
	for i, c := range extNamespacedCases() {
		t.Run(c.name, func(t *testing.T) {
			parent := parents[c.parent]
			ncp := namespaced(fmt.Sprintf("%s-%d", prefix, i), parent.Name)
			c.mutate(ncp)
			opts := cloudprofile.OptionsWithAllGates(time.Now())
			core := cloudprofile.ValidateNamespacedCloudProfileRequest(ncp.DeepCopy(), nil, opts).Errors()
			core = append(core, cloudprofile.AdmitNamespacedCloudProfileRequest(ncp.DeepCopy(), nil, parent, opts).Errors()...)
			if len(core) > 0 {
				t.Fatalf("the case breaks Gardener's own rules:\n%s", problemLines(core))
			}
			stored, _ := cloudprofile.StoredNamespacedCloudProfile(ncp.DeepCopy(), nil, opts)
			pkg := local.ValidateNamespacedCloudProfile(ncp.Name, stored.Spec, parent.Spec)
			v := s.dryRunNamespaced(t, ctx, ncp, false)
			t.Logf("server %s; package: %q", v.summary(), ruleIDs(pkg))
			report(t, compareExtension(pkg, v, "could not decode providerConfig of NamespacedCloudProfile"), pkg, v)
		})
	}
}

// TestDifferential_LocalExtensionMergedStatus creates the accepted NamespacedCloudProfile cases that
// carry a providerConfig and compares the providerConfig in their status.cloudProfileSpec, written by
// Gardener's controller and provider-local's mutator, with local.MergeProviderConfig (as sets: the
// extension's order varies).
func TestDifferential_LocalExtensionMergedStatus(t *testing.T) {
	s := newServer(t)
	requireLocalAdmission(t, s)
	ctx := testContext(t)
	prefix := acctest.UniqueName("conf-extlocal-merge")
	parents := localParents(t, ctx, s, prefix)
	var created []mergeCase
	var names []string
	t.Cleanup(func() { deleteNamespacedCloudProfiles(t, s.client, names...) })
	for i, c := range extNamespacedCases() {
		parent := parents[c.parent]
		ncp := namespaced(fmt.Sprintf("%s-%d", prefix, i), parent.Name)
		c.mutate(ncp)
		if ncp.Spec.ProviderConfig == nil || len(local.ValidateNamespacedCloudProfile(ncp.Name, ncp.Spec, parent.Spec)) > 0 {
			continue
		}
		if _, err := s.client.ApplyNamespacedCloudProfile(ctx, ncp, kube.ApplyOptions{}); err != nil {
			t.Fatalf("%s: creating %s: %v", c.name, ncp.Name, err)
		}
		names = append(names, ncp.Name)
		created = append(created, mergeCase{c.name, ncp, parent})
	}
	if len(created) < 4 {
		t.Fatalf("only %d NamespacedCloudProfiles to compare", len(created))
	}
	for _, c := range created {
		t.Run(c.name, func(t *testing.T) { expectMergedAsPredicted(t, s, c) })
	}
}

// mergeCase is a NamespacedCloudProfile created to compare its merged status, with its parent as
// stored.
type mergeCase struct {
	name   string
	ncp    *ncpT
	parent *cpT
}

// expectMergedAsPredicted waits (bounded) until the status of c's NamespacedCloudProfile, for its
// generation, holds the providerConfig local.MergeProviderConfig predicts (images and versions as
// sets), and fails the test when it does not.
func expectMergedAsPredicted(t *testing.T, s *server, c mergeCase) {
	t.Helper()
	want, err := local.MergeProviderConfig(c.ncp.Name, c.ncp.Spec.ProviderConfig, c.parent.Spec.ProviderConfig, c.parent.Spec.MachineCapabilities)
	if err != nil {
		t.Fatal(err)
	}
	var last string
	deadline := time.Now().Add(90 * time.Second)
	for {
		got, err := s.client.GetNamespacedCloudProfile(testContext(t), projectNamespace, c.ncp.Name)
		if err != nil {
			t.Fatal(err)
		}
		if got.Status.ObservedGeneration == got.Generation && got.Status.CloudProfileSpec.ProviderConfig != nil {
			d := configDiff(want.Raw, got.Status.CloudProfileSpec.ProviderConfig.Raw)
			if d == "" {
				t.Logf("status providerConfig as predicted: %s", got.Status.CloudProfileSpec.ProviderConfig.Raw)
				return
			}
			last = d
		} else {
			last = "status not written yet"
		}
		if time.Now().After(deadline) {
			t.Fatalf("status providerConfig differs from the prediction: %s", last)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

// configDiff compares two provider-local configurations with images and versions as sets; it
// returns "" when they are equal.
func configDiff(want, got []byte) string {
	canon := func(b []byte) (string, error) {
		var cfg local.CloudProfileConfig
		if err := json.Unmarshal(b, &cfg); err != nil {
			return "", err
		}
		sort.Slice(cfg.MachineImages, func(i, j int) bool { return cfg.MachineImages[i].Name < cfg.MachineImages[j].Name })
		for _, mi := range cfg.MachineImages {
			sort.Slice(mi.Versions, func(i, j int) bool { return mi.Versions[i].Version < mi.Versions[j].Version })
		}
		out, err := json.Marshal(cfg)
		return string(out), err
	}
	w, err := canon(want)
	if err != nil {
		return "prediction: " + err.Error()
	}
	g, err := canon(got)
	if err != nil {
		return "status: " + err.Error()
	}
	if w != g {
		return fmt.Sprintf("\n  predicted %s\n  status    %s", w, g)
	}
	return ""
}

// ruleIDs lists the rules of problems.
func ruleIDs(ps cloudprofile.Problems) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Rule
	}
	return out
}

// compareExtension compares the package's verdict with the webhook's: both accept, or both reject;
// a rejection must come from provider-local's validator; the field paths in the webhook's message
// must be the package's (compareAdmission); and each problem must appear in the message as Gardener
// renders it, except the decoding error (whose wording is the decoder's; decodePrefix must appear)
// and NotSupported, whose list of values Gardener orders at random.
func compareExtension(pkg cloudprofile.Problems, v verdict, decodePrefix string) []string {
	out := compareAdmission(pkg, v)
	if len(out) > 0 || v.accepted {
		return out
	}
	if !strings.Contains(v.message, `admission webhook "validator.admission-local.extensions.gardener.cloud" denied the request`) {
		out = append(out, "the rejection is not provider-local's validator's")
	}
	for _, p := range pkg {
		switch {
		case p.Rule == "EXT-LOCAL-2":
			if !strings.Contains(v.message, decodePrefix) {
				out = append(out, fmt.Sprintf("the message lacks %q", decodePrefix))
			}
		case p.Type == cloudprofile.NotSupported:
			if !strings.Contains(v.message, p.Path.Field()+": Unsupported value: ") {
				out = append(out, fmt.Sprintf("the message lacks the NotSupported error at %s", p.Path.Field()))
			}
		default:
			if !strings.Contains(v.message, p.Error()) {
				out = append(out, fmt.Sprintf("the message lacks %q", p.Error()))
			}
		}
	}
	return out
}
