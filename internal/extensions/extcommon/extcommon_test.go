package extcommon

import (
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

type testConfig struct {
	APIVersion string   `json:"apiVersion,omitempty"`
	Kind       string   `json:"kind,omitempty"`
	Items      []string `json:"items"`
}

var testCodec = Codec{Group: "test.gardener.cloud", Versions: []string{"v1alpha1"}, Kind: "CloudProfileConfig", Scheme: "test"}

func TestCodecDecode(t *testing.T) {
	for _, c := range []struct {
		name, raw, err string
		items          int
	}{
		{name: "valid", raw: `{"apiVersion":"test.gardener.cloud/v1alpha1","kind":"CloudProfileConfig","items":["a"]}`, items: 1},
		{name: "kind defaults to the config kind", raw: `{"apiVersion":"test.gardener.cloud/v1alpha1","items":["a","b"]}`, items: 2},
		{name: "unknown version", raw: `{"apiVersion":"test.gardener.cloud/v2","kind":"CloudProfileConfig"}`, err: `no kind "CloudProfileConfig" is registered for version "test.gardener.cloud/v2" in scheme "test"`},
		{name: "other group", raw: `{"apiVersion":"v1","kind":"CloudProfileConfig"}`, err: `no kind "CloudProfileConfig" is registered for version "v1"`},
		{name: "other kind", raw: `{"apiVersion":"test.gardener.cloud/v1alpha1","kind":"WorkerConfig"}`, err: `no kind "WorkerConfig" is registered`},
		{name: "malformed apiVersion", raw: `{"apiVersion":"a/b/c"}`, err: "unexpected GroupVersion string: a/b/c"},
		{name: "missing apiVersion falls back to the internal version", raw: `{"kind":"CloudProfileConfig","items":[],"more":1}`, err: `strict decoding error: unknown field "items", unknown field "more"`},
		{name: "missing apiVersion, nothing else", raw: `{"kind":"CloudProfileConfig"}`},
		{name: "group without version", raw: `{"apiVersion":"test.gardener.cloud/","items":[]}`, err: `unknown field "items"`},
		{name: "unknown field", raw: `{"apiVersion":"test.gardener.cloud/v1alpha1","items":[],"x":{"y":1}}`, err: `strict decoding error: unknown field "x"`},
		{name: "duplicate field", raw: `{"apiVersion":"test.gardener.cloud/v1alpha1","items":[],"items":[]}`, err: `strict decoding error: duplicate field "items"`},
		{name: "case-sensitive names", raw: `{"apiVersion":"test.gardener.cloud/v1alpha1","Items":[]}`, err: `unknown field "Items"`},
		{name: "wrong type", raw: `{"apiVersion":"test.gardener.cloud/v1alpha1","items":"a"}`, err: "cannot unmarshal string"},
		{name: "not JSON", raw: `{"apiVersion":`, err: "couldn't get version/kind; json parse error: unexpected end of JSON input"},
		{name: "apiVersion not a string", raw: `{"apiVersion":1}`, err: "couldn't get version/kind; json parse error"},
		{name: "empty", raw: ``, err: "couldn't get version/kind; json parse error"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var cfg testConfig
			err := testCodec.Decode([]byte(c.raw), &cfg)
			switch {
			case c.err == "" && err != nil:
				t.Fatalf("unexpected error %v", err)
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Fatalf("got error %v, want %q", err, c.err)
			case c.err == "" && len(cfg.Items) != c.items:
				t.Fatalf("got %d items, want %d", len(cfg.Items), c.items)
			}
		})
	}
}

func TestConfigPath(t *testing.T) {
	p := Config("machineImages").Index(2).Child("versions").Index(0).Child("regions")
	if got, want := p.String(), "spec.providerConfig.machineImages[2].versions[0].regions"; got != want {
		t.Errorf("field %q, want %q", got, want)
	}
	if got := p.Path().Attribute(); got != "spec.provider_config" {
		t.Errorf("attribute %q, want spec.provider_config", got)
	}
	if got := Config().Path().Field(); got != "spec.providerConfig" {
		t.Errorf("root %q", got)
	}
	if got := MachineImagesPath().Index(1).Child("versions").Index(3).Attribute(); got != "spec.machine_images[1].versions[3]" {
		t.Errorf("spec attribute %q", got)
	}
}

func TestProblemRendering(t *testing.T) {
	p := NotSupported("TEST-1", Config("a").Path(), "s390x", ValidArchitectures)
	if got, want := p.Error(), `spec.providerConfig.a: Unsupported value: "s390x": supported values: "amd64", "arm64"`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	f := Failure("TEST-2", ProviderConfigPath(), "could not decode")
	if got, want := f.Error(), "spec.providerConfig: Internal error: could not decode"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	r := Required("TEST-3", SpecPath().Child("x"), "must be set")
	if got, want := r.Error(), "spec.x: Required value: must be set"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestValidateCapabilities(t *testing.T) {
	defs := []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"amd64", "arm64"}}, {Name: "gpu", Values: []string{"none", "nvidia"}}}
	at := Config("f")
	if ps := ValidateCapabilities("R", gardencorev1beta1.Capabilities{"architecture": {"arm64"}, "gpu": {"nvidia"}}, defs, at); len(ps) != 0 {
		t.Errorf("valid capabilities: %v", ps)
	}
	ps := ValidateCapabilities("R", gardencorev1beta1.Capabilities{"architecture": {"amd64", "arm64"}, "gpu": {"amd"}, "disk": {"ssd"}}, defs, at)
	var got []string
	for _, p := range ps {
		got = append(got, p.Path.Field()+" "+string(p.Type))
	}
	want := []string{"spec.providerConfig.f NotSupported", "spec.providerConfig.f.gpu[0] NotSupported", "spec.providerConfig.f.architecture Invalid"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestImageFlavorsAndEquality(t *testing.T) {
	defs := []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"amd64", "arm64"}}, {Name: "gpu", Values: []string{"none"}}}
	fl := ImageFlavorsWithDefaults(nil, defs)
	if len(fl) != 1 || len(fl[0].Capabilities["architecture"]) != 2 || fl[0].Capabilities["gpu"][0] != "none" {
		t.Errorf("no flavors: %v", fl)
	}
	fl = ImageFlavorsWithDefaults([]gardencorev1beta1.MachineImageFlavor{{Capabilities: gardencorev1beta1.Capabilities{"architecture": {"arm64"}}}}, defs)
	if !CapabilitiesEqual(fl[0].Capabilities, gardencorev1beta1.Capabilities{"gpu": {"none"}, "architecture": {"arm64"}}) {
		t.Errorf("defaults not applied: %v", fl)
	}
	if CapabilitiesEqual(gardencorev1beta1.Capabilities{"architecture": {"arm64"}}, gardencorev1beta1.Capabilities{"architecture": {"arm64", "amd64"}}) {
		t.Error("a subset is not equal")
	}
}

func TestImagesLastWins(t *testing.T) {
	type v struct{ version string }
	type img struct {
		name string
		vs   []v
	}
	images := NewImages([]img{{"b", []v{{version: "1"}}}, {"a", nil}, {"b", []v{{version: "2"}}}},
		func(i img) string { return i.name }, func(i img) []v { return i.vs }, func(x v) string { return x.version })
	if _, ok := images.Version("b", "1"); ok {
		t.Error("the earlier entry of b should be shadowed")
	}
	if _, ok := images.Version("b", "2"); !ok {
		t.Error("the later entry of b should win")
	}
	sorted := images.Sorted()
	if len(sorted) != 2 || sorted[0].name != "a" || sorted[1].name != "b" {
		t.Errorf("sorted %v", sorted)
	}
}

func TestDefaultedSpec(t *testing.T) {
	spec := gardencorev1beta1.CloudProfileSpec{MachineImages: []gardencorev1beta1.MachineImage{{Name: "x", Versions: []gardencorev1beta1.MachineImageVersion{{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1"}}}}}}
	d := DefaultedSpec(spec)
	if got := d.MachineImages[0].Versions[0].Architectures; len(got) != 1 || got[0] != "amd64" {
		t.Errorf("architectures %v", got)
	}
	if len(spec.MachineImages[0].Versions[0].Architectures) != 0 {
		t.Error("the input was modified")
	}
}

func TestDefaultedSpecCanonicalizes(t *testing.T) {
	spec := gardencorev1beta1.CloudProfileSpec{
		MachineCapabilities: []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"amd64", "arm64"}}},
		MachineImages: []gardencorev1beta1.MachineImage{{Name: "x", Versions: []gardencorev1beta1.MachineImageVersion{
			{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1"}, Architectures: []string{"amd64", "arm64"}},
		}}},
	}
	flavors := DefaultedSpec(spec).MachineImages[0].Versions[0].CapabilityFlavors
	if len(flavors) != 2 || flavors[0].Capabilities["architecture"][0] != "amd64" || flavors[1].Capabilities["architecture"][0] != "arm64" {
		t.Errorf("flavors %v", flavors)
	}
}
