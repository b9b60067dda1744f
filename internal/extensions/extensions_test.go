package extensions

import (
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// TestFor_knowsTheSixExtensionsAndNoOther: the registry holds local, aws, azure, gcp, openstack and
// alicloud, each with its release, checks and rules, and no extension for another type.
func TestFor_knowsTheSixExtensionsAndNoOther(t *testing.T) {
	var types []string
	for _, e := range Known() {
		types = append(types, e.Type)
		if e.Release == "" || e.ValidateCloudProfile == nil || e.ValidateNamespacedCloudProfile == nil || len(e.Rules) == 0 || e.MergeProviderConfig == nil || e.ProviderImages == nil {
			t.Errorf("%s: incomplete", e.Type)
		}
		if got, ok := For(e.Type); !ok || got.Type != e.Type {
			t.Errorf("For(%q) does not find it", e.Type)
		}
	}
	if got := strings.Join(types, ","); got != "alicloud,aws,azure,gcp,local,openstack" {
		t.Errorf("known types %s", got)
	}
	if _, ok := For("hcloud"); ok {
		t.Error("an extension for hcloud, which the provider does not know")
	}
}

// TestRuleOf_findsEveryRuleOfEveryExtension: every rule id is unique across the extensions and
// RuleOf finds it; an id of none is not found.
func TestRuleOf_findsEveryRuleOfEveryExtension(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range Known() {
		for _, r := range e.Rules {
			if seen[r.ID] {
				t.Errorf("rule %s twice", r.ID)
			}
			seen[r.ID] = true
			if ext, got, ok := RuleOf(r.ID); !ok || got.Summary != r.Summary || ext.Type != e.Type {
				t.Errorf("RuleOf(%s) = %s %v, %v", r.ID, ext.Type, got, ok)
			}
		}
	}
	if _, _, ok := RuleOf("C-3"); ok {
		t.Error("a core rule among the extensions' rules")
	}
}

// TestValidate_aProfileWithoutProviderConfigIsRejectedByEveryExtension: each extension requires
// the provider config of a CloudProfile with a machine image.
func TestValidate_aProfileWithoutProviderConfigIsRejectedByEveryExtension(t *testing.T) {
	spec := gardencorev1beta1.CloudProfileSpec{MachineImages: []gardencorev1beta1.MachineImage{{Name: "gardenlinux",
		Versions: []gardencorev1beta1.MachineImageVersion{{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1.0.0"}, Architectures: []string{"amd64"}}}}}}
	for _, e := range Known() {
		spec.Type = e.Type
		if ps := e.ValidateCloudProfile("p", spec); len(ps.Errors()) == 0 {
			t.Errorf("%s: a CloudProfile without providerConfig passes", e.Type)
		}
	}
}
