package local

import (
	"encoding/json"
	"fmt"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

func TestMergeProviderConfig(t *testing.T) {
	parent := config(`[{"name":"gardenlinux","versions":[{"version":"1.0.0","image":"a"},{"version":"2.0.0","image":"b"}]}]`)
	for _, c := range []struct {
		name string
		spec string
		defs []gardencorev1beta1.CapabilityDefinition
		want string
	}{
		{"adds a version", `[{"name":"gardenlinux","versions":[{"version":"3.0.0","image":"c"}]}]`, nil,
			`[{"name":"gardenlinux","versions":[{"version":"1.0.0","image":"a","capabilityFlavors":null},{"version":"2.0.0","image":"b","capabilityFlavors":null},{"version":"3.0.0","image":"c","capabilityFlavors":null}]}]`},
		{"replaces a version", `[{"name":"gardenlinux","versions":[{"version":"2.0.0","image":"z"}]}]`, nil,
			`[{"name":"gardenlinux","versions":[{"version":"1.0.0","image":"a","capabilityFlavors":null},{"version":"2.0.0","image":"z","capabilityFlavors":null}]}]`},
		{"adds an image", `[{"name":"custom","versions":[{"version":"1","image":"c"}]}]`, nil,
			`[{"name":"gardenlinux","versions":[{"version":"1.0.0","image":"a","capabilityFlavors":null},{"version":"2.0.0","image":"b","capabilityFlavors":null}]},{"name":"custom","versions":[{"version":"1","image":"c","capabilityFlavors":null}]}]`},
		{"flavors become an image without capabilities", `[{"name":"custom","versions":[{"version":"1","capabilityFlavors":[{"image":"f1"},{"image":"f2"}]}]}]`, nil,
			`[{"name":"gardenlinux","versions":[{"version":"1.0.0","image":"a","capabilityFlavors":null},{"version":"2.0.0","image":"b","capabilityFlavors":null}]},{"name":"custom","versions":[{"version":"1","image":"f1","capabilityFlavors":null}]}]`},
		{"an image becomes a flavor with capabilities", `[{"name":"custom","versions":[{"version":"1","image":"c"}]}]`, archDefs("amd64"),
			`[{"name":"gardenlinux","versions":[{"version":"1.0.0","image":"a","capabilityFlavors":null},{"version":"2.0.0","image":"b","capabilityFlavors":null}]},{"name":"custom","versions":[{"version":"1","capabilityFlavors":[{"image":"c"}]}]}]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := MergeProviderConfig("n", config(c.spec), parent, c.defs)
			if err != nil {
				t.Fatal(err)
			}
			var cfg CloudProfileConfig
			if err := json.Unmarshal(got.Raw, &cfg); err != nil {
				t.Fatal(err)
			}
			if cfg.APIVersion != APIVersion || cfg.Kind != Kind {
				t.Errorf("type %s %s", cfg.APIVersion, cfg.Kind)
			}
			if s := mustJSON(t, cfg.MachineImages); s != c.want {
				t.Errorf("merged\n  got  %s\n  want %s", s, c.want)
			}
		})
	}
	t.Run("without one side the status stays", func(t *testing.T) {
		if got, _ := MergeProviderConfig("n", nil, parent, nil); got != parent {
			t.Error("spec nil")
		}
		if got, _ := MergeProviderConfig("n", parent, nil, nil); got != nil {
			t.Error("status nil")
		}
	})
	t.Run("undecodable configurations fail the status write", func(t *testing.T) {
		if _, err := MergeProviderConfig("n", raw(`{"kind":"Other"}`), parent, nil); err == nil {
			t.Error("spec of another kind")
		}
		if _, err := MergeProviderConfig("n", raw(`{"machineImages":[],"tag":"x"}`), parent, nil); err == nil {
			t.Error("spec with an unknown field")
		}
		if _, err := MergeProviderConfig("n", parent, raw(`[]`), nil); err == nil {
			t.Error("status")
		}
	})
	t.Run("written as the extension writes it", func(t *testing.T) {
		got, err := MergeProviderConfig("n", config(`[]`), config(`[{"name":"g","versions":[{"version":"1","image":"a"}]}]`), nil)
		if err != nil {
			t.Fatal(err)
		}
		want := `{"apiVersion":"` + APIVersion + `","kind":"CloudProfileConfig","machineImages":[{"name":"g","versions":[{"version":"1","image":"a","capabilityFlavors":null}]}],"loadBalancer":{"image":""}}`
		if string(got.Raw) != want {
			t.Errorf("got  %s\nwant %s", got.Raw, want)
		}
	})
}

// TestMergeProviderConfig_WithoutAPIVersionOrKind: the mutator decodes into the versioned type,
// which fills in a missing apiVersion and kind, so a NamespacedCloudProfile's providerConfig without
// them (or a status's) merges as with them; the status keeps the apiVersion and kind it has.
func TestMergeProviderConfig_WithoutAPIVersionOrKind(t *testing.T) {
	images := `"machineImages":[{"name":"gardenlinux","versions":[{"version":"3.0.0","image":"c"}]}]`
	status := config(`[{"name":"gardenlinux","versions":[{"version":"1.0.0","image":"a"}]}]`)
	want, err := MergeProviderConfig("n", config(`[{"name":"gardenlinux","versions":[{"version":"3.0.0","image":"c"}]}]`), status, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, spec := range []string{
		`{"apiVersion":"` + APIVersion + `",` + images + `}`,
		`{"kind":"` + Kind + `",` + images + `}`,
		`{` + images + `}`,
		`{"apiVersion":"local.provider.extensions.gardener.cloud/",` + images + `}`,
	} {
		got, err := MergeProviderConfig("n", raw(spec), status, nil)
		if err != nil {
			t.Errorf("%s: %v", spec, err)
			continue
		}
		if string(got.Raw) != string(want.Raw) {
			t.Errorf("%s:\n  got  %s\n  want %s", spec, got.Raw, want.Raw)
		}
	}
	untyped := raw(`{"machineImages":[{"name":"gardenlinux","versions":[{"version":"1.0.0","image":"a"}]}]}`)
	got, err := MergeProviderConfig("n", raw(`{`+images+`}`), untyped, nil)
	if err != nil {
		t.Fatal(err)
	}
	if w := `{"machineImages":[{"name":"gardenlinux","versions":[{"version":"1.0.0","image":"a","capabilityFlavors":null},{"version":"3.0.0","image":"c","capabilityFlavors":null}]}],"loadBalancer":{"image":""}}`; string(got.Raw) != w {
		t.Errorf("a status without apiVersion and kind stays without them:\n  got  %s\n  want %s", got.Raw, w)
	}
}

func TestRulesCatalogue(t *testing.T) {
	seen := map[string]bool{}
	for i, r := range Rules() {
		if r.ID == "" || r.Summary == "" || r.Gardener == "" || r.Meaning == "" || r.Fix == "" {
			t.Errorf("rule %d (%s) is incomplete", i, r.ID)
		}
		if seen[r.ID] {
			t.Errorf("rule %s twice", r.ID)
		}
		seen[r.ID] = true
	}
	if len(seen) != 18 {
		t.Errorf("%d rules", len(seen))
	}
}

// TestProviderImages: provider-local's images serve every region; a version's image is for every
// architecture of the version in spec.machineImages (amd64 when spec lacks it), a flavor's for the
// flavor's architecture.
func TestProviderImages(t *testing.T) {
	spec := gardencorev1beta1.CloudProfileSpec{
		ProviderConfig: config(`[{"name":"gardenlinux","versions":[{"version":"1.0.0","image":"a"},{"version":"2.0.0","image":"b"},` +
			`{"version":"3.0.0","capabilityFlavors":[{"image":"c","capabilities":{"architecture":["arm64"]}}]}]}]`),
		MachineImages: []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: []gardencorev1beta1.MachineImageVersion{
			{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1.0.0"}, Architectures: []string{"amd64", "arm64"}}}}},
	}
	want := `map[gardenlinux:map[1.0.0:[{ amd64 a} { arm64 a}] 2.0.0:[{ amd64 b}] 3.0.0:[{ arm64 c}]]]`
	if got := fmt.Sprint(ProviderImages(spec)); got != want {
		t.Errorf("provider images\n  got  %s\n  want %s", got, want)
	}
}
