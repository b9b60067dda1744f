package local

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// raw returns a RawExtension holding s.
func raw(s string) *runtime.RawExtension { return &runtime.RawExtension{Raw: []byte(s)} }

// config renders a CloudProfileConfig with the given machineImages JSON.
func config(machineImages string) *runtime.RawExtension {
	return raw(`{"apiVersion":"` + APIVersion + `","kind":"` + Kind + `","machineImages":` + machineImages + `}`)
}

// versions returns spec machine image versions with the given numbers.
func versions(vs ...string) []gardencorev1beta1.MachineImageVersion {
	out := make([]gardencorev1beta1.MachineImageVersion, len(vs))
	for i, v := range vs {
		out[i] = gardencorev1beta1.MachineImageVersion{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: v}}
	}
	return out
}

// archDefs is the capability definition of the given architectures.
func archDefs(archs ...string) []gardencorev1beta1.CapabilityDefinition {
	return []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: archs}}
}

// found renders problems as "RULE field [Type]: detail" lines, sorted.
func found(ps cloudprofile.Problems) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = fmt.Sprintf("%s %s [%s]: %s", p.Rule, p.Path.Field(), p.Type, p.Detail)
	}
	sort.Strings(out)
	return out
}

// expect compares problems with want, given as "RULE field [Type]" prefixes of found lines.
func expect(t *testing.T, ps cloudprofile.Problems, want ...string) {
	t.Helper()
	got := found(ps)
	sort.Strings(want)
	ok := len(got) == len(want)
	for i := 0; ok && i < len(want); i++ {
		ok = strings.HasPrefix(got[i], want[i])
	}
	if !ok {
		t.Errorf("problems:\n  got  %q\n  want %q", got, want)
	}
	for _, p := range ps {
		if a := p.Path.Attribute(); a != wantAttribute(p) {
			t.Errorf("%s: attribute %s, want %s", p.Rule, a, wantAttribute(p))
		}
	}
}

// wantAttribute is the Terraform attribute of a problem: the entry of spec.machine_images that
// lacks a mapping (at the positions Gardener's field path names below spec.providerConfig, where
// it names them), else spec.parent.kind or spec.provider_config.
func wantAttribute(p cloudprofile.Problem) string {
	switch p.Rule {
	case "EXT-LOCAL-10", "EXT-LOCAL-11":
		return strings.Replace(p.Path.Field(), "spec.providerConfig.machineImages", "spec.machine_images", 1)
	case "EXT-LOCAL-13", "EXT-LOCAL-14":
		if a := p.Path.Attribute(); strings.HasPrefix(a, "spec.machine_images[") {
			return a // Gardener names no position; the attribute names the NamespacedCloudProfile's entry
		}
		return "spec.machine_images[…]"
	case "EXT-LOCAL-18":
		return "spec.parent.kind"
	}
	return "spec.provider_config"
}

// mustJSON marshals v.
func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
