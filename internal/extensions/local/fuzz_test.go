package local

import (
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// FuzzProviderConfig feeds arbitrary provider configurations to both validators and the merge: they
// must not panic, every problem must name a rule of the catalogue and a path under spec.providerConfig
// (or spec.parent), and a configuration that decodes must merge.
func FuzzProviderConfig(f *testing.F) {
	for _, seed := range []string{
		`{}`, `[]`, `null`, `{"apiVersion":"` + APIVersion + `","kind":"CloudProfileConfig"}`,
		string(config(`[{"name":"gardenlinux","versions":[{"version":"1.0.0","image":"a"}]}]`).Raw),
		string(config(`[{"name":"gardenlinux","versions":[{"version":"1.0.0","capabilityFlavors":[{"image":"y","capabilities":{"architecture":["arm64"]}}]}]}]`).Raw),
		string(config(`[{"name":"x","name":"y"}]`).Raw),
	} {
		f.Add(seed, true)
		f.Add(seed, false)
	}
	known := map[string]bool{}
	for _, r := range Rules() {
		known[r.ID] = true
	}
	f.Fuzz(func(t *testing.T, cfg string, capabilities bool) {
		var defs []gardencorev1beta1.CapabilityDefinition
		if capabilities {
			defs = archDefs("amd64", "arm64")
		}
		images := []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: versions("1.0.0", "2.0.0")}}
		spec := gardencorev1beta1.CloudProfileSpec{Type: Type, MachineImages: images, MachineCapabilities: defs, ProviderConfig: raw(cfg)}
		ncp := gardencorev1beta1.NamespacedCloudProfileSpec{
			Parent:         gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: "p"},
			MachineImages:  images,
			ProviderConfig: raw(cfg),
		}
		parent := spec
		parent.MachineImages = []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: versions("1.0.0")}}
		ps := append(ValidateCloudProfile("p", spec), ValidateNamespacedCloudProfile("n", ncp, parent)...)
		for _, p := range ps {
			if !known[p.Rule] {
				t.Errorf("unknown rule %q", p.Rule)
			}
			if !strings.HasPrefix(p.Path.Field(), "spec.providerConfig") {
				t.Errorf("%s: field %s", p.Rule, p.Path.Field())
			}
		}
		if _, err := DecodeCloudProfileConfig([]byte(cfg)); err == nil {
			if _, err := MergeProviderConfig("n", raw(cfg), raw(cfg), defs); err != nil {
				t.Errorf("a decodable configuration does not merge: %v", err)
			}
		}
	})
}
