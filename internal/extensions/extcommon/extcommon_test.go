package extcommon

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

type testConfig struct {
	APIVersion string   `json:"apiVersion,omitempty"`
	Kind       string   `json:"kind,omitempty"`
	Items      []string `json:"items"`
}

var testCodec = Codec{Group: "test.gardener.cloud", Versions: []string{"v1alpha1"}, Kind: "CloudProfileConfig", Scheme: "test"}

// TestCodecDecode: Decode is the validating webhooks' decoding (Gardener's util.Decode, no target
// type), which requires apiVersion and kind.
func TestCodecDecode(t *testing.T) {
	checkDecode(t, testCodec.Decode, []decodeCase{
		{name: "valid", raw: `{"apiVersion":"test.gardener.cloud/v1alpha1","kind":"CloudProfileConfig","items":["a"]}`, items: 1,
			apiVersion: "test.gardener.cloud/v1alpha1", kind: "CloudProfileConfig"},
		{name: "missing kind", raw: `{"apiVersion":"test.gardener.cloud/v1alpha1","items":["a","b"]}`,
			err: `Object 'Kind' is missing in '{"apiVersion":"test.gardener.cloud/v1alpha1","items":["a","b"]}'`},
		{name: "empty kind", raw: `{"apiVersion":"test.gardener.cloud/v1alpha1","kind":""}`, err: `Object 'Kind' is missing in '`},
		{name: "missing apiVersion", raw: `{"kind":"CloudProfileConfig","items":[]}`,
			err: `Object 'apiVersion' is missing in '{"items":[],"kind":"CloudProfileConfig"}'`},
		{name: "missing both: the kind first", raw: `{"items":[]}`, err: `Object 'Kind' is missing in '{"items":[]}'`},
		{name: "group without version", raw: `{"apiVersion":"test.gardener.cloud/","kind":"CloudProfileConfig"}`, err: `Object 'apiVersion' is missing in '`},
		{name: "version without group", raw: `{"apiVersion":"v1alpha1","kind":"CloudProfileConfig"}`, err: `no kind "CloudProfileConfig" is registered for version "v1alpha1" in scheme "test"`},
		{name: "the internal version named explicitly", raw: `{"apiVersion":"test.gardener.cloud/__internal","kind":"CloudProfileConfig","items":[],"more":1}`,
			err: `strict decoding error: unknown field "items", unknown field "more"`},
		{name: "unknown version", raw: `{"apiVersion":"test.gardener.cloud/v2","kind":"CloudProfileConfig"}`, err: `no kind "CloudProfileConfig" is registered for version "test.gardener.cloud/v2" in scheme "test"`},
		{name: "other group", raw: `{"apiVersion":"v1","kind":"CloudProfileConfig"}`, err: `no kind "CloudProfileConfig" is registered for version "v1"`},
		{name: "other kind", raw: `{"apiVersion":"test.gardener.cloud/v1alpha1","kind":"WorkerConfig"}`, err: `no kind "WorkerConfig" is registered`},
		{name: "malformed apiVersion", raw: `{"apiVersion":"a/b/c"}`, err: "unexpected GroupVersion string: a/b/c"},
		{name: "unknown field", raw: `{"apiVersion":"test.gardener.cloud/v1alpha1","kind":"CloudProfileConfig","items":[],"x":{"y":1}}`, err: `strict decoding error: unknown field "x"`},
		{name: "duplicate field", raw: `{"apiVersion":"test.gardener.cloud/v1alpha1","kind":"CloudProfileConfig","items":[],"items":[]}`, err: `strict decoding error: duplicate field "items"`},
		{name: "case-sensitive names", raw: `{"apiVersion":"test.gardener.cloud/v1alpha1","kind":"CloudProfileConfig","Items":[]}`, err: `unknown field "Items"`},
		{name: "wrong type", raw: `{"apiVersion":"test.gardener.cloud/v1alpha1","kind":"CloudProfileConfig","items":"a"}`, err: "cannot unmarshal string"},
		{name: "not JSON", raw: `{"apiVersion":`, err: "couldn't get version/kind; json parse error: unexpected end of JSON input"},
		{name: "apiVersion not a string", raw: `{"apiVersion":1}`, err: "couldn't get version/kind; json parse error"},
		{name: "empty", raw: ``, err: "couldn't get version/kind; json parse error"},
	})
}

// TestCodecDecodeVersioned: DecodeVersioned is the mutating webhooks' decoding, into the versioned
// type, which fills in a missing kind, and a missing version where the group is missing or the
// extension's; into keeps apiVersion and kind as given.
func TestCodecDecodeVersioned(t *testing.T) {
	checkDecode(t, testCodec.DecodeVersioned, []decodeCase{
		{name: "missing kind", raw: `{"apiVersion":"test.gardener.cloud/v1alpha1","items":["a","b"]}`, items: 2, apiVersion: "test.gardener.cloud/v1alpha1"},
		{name: "missing apiVersion", raw: `{"kind":"CloudProfileConfig","items":["a"]}`, items: 1, kind: "CloudProfileConfig"},
		{name: "missing both", raw: `{"items":["a"]}`, items: 1},
		{name: "the group without version", raw: `{"apiVersion":"test.gardener.cloud/","items":[]}`, apiVersion: "test.gardener.cloud/"},
		{name: "another group without version", raw: `{"apiVersion":"other.gardener.cloud/","items":[]}`, err: `Object 'apiVersion' is missing in '{"apiVersion":"other.gardener.cloud/","items":[]}'`},
		{name: "version without group", raw: `{"apiVersion":"v1alpha1","items":[]}`, err: `no kind "CloudProfileConfig" is registered for version "v1alpha1" in scheme "test"`},
		{name: "other kind", raw: `{"apiVersion":"test.gardener.cloud/v1alpha1","kind":"WorkerConfig"}`, err: `no kind "WorkerConfig" is registered`},
		{name: "unknown field", raw: `{"items":[],"x":1}`, err: `strict decoding error: unknown field "x"`},
	})
}

type decodeCase struct {
	name, raw, err   string
	items            int
	apiVersion, kind string
}

func checkDecode(t *testing.T, decode func([]byte, any) error, cases []decodeCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var cfg testConfig
			err := decode([]byte(c.raw), &cfg)
			switch {
			case c.err == "" && err != nil:
				t.Fatalf("unexpected error %v", err)
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Fatalf("got error %v, want %q", err, c.err)
			case c.err == "" && (len(cfg.Items) != c.items || cfg.APIVersion != c.apiVersion || cfg.Kind != c.kind):
				t.Fatalf("got %+v, want %d items, apiVersion %q, kind %q", cfg, c.items, c.apiVersion, c.kind)
			}
		})
	}
}

// TestCodecDecode_QuotesTheConfigAsTheWebhookReceivesIt: the decoder quotes the providerConfig a
// webhook receives, which after a server-side apply is re-encoded. The want is what provider-local's
// webhook answered in the local Garden to an apply of this configuration.
func TestCodecDecode_QuotesTheConfigAsTheWebhookReceivesIt(t *testing.T) {
	raw := `{ "machineImages": [ {"versions":[{"version":"1.0.0","image":"a<b>&c"}], "name":"gardenlinux"} ],
   "apiVersion": "test.gardener.cloud/v1alpha1", "x": 1.50, "y": 1e3, "z": 12345678901234567890 }`
	want := `Object 'Kind' is missing in '{"apiVersion":"test.gardener.cloud/v1alpha1","machineImages":[{"name":"gardenlinux",` +
		`"versions":[{"image":"a\u003cb\u003e\u0026c","version":"1.0.0"}]}],"x":1.5,"y":1000,"z":12345678901234567000}'`
	if err := testCodec.Decode([]byte(raw), &testConfig{}); err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	long := `{"apiVersion":"test.gardener.cloud/v1alpha1","items":["` + strings.Repeat("x", 1000) + `"]}`
	err := testCodec.Decode([]byte(long), &testConfig{})
	want = `Object 'Kind' is missing in '{"apiVersion":"test.gardener.cloud/v1alpha1","items":["xxx`
	if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(err.Error(), `xxx…' (the providerConfig has 1058 characters)`) ||
		utf8.RuneCountInString(err.Error()) > 600 {
		t.Errorf("a long configuration is quoted by its start: %v", err)
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
	if ps := ValidateCapabilities("R", gardencorev1beta1.Capabilities{"architecture": {"arm64"}, "gpu": {"nvidia"}}, DefineCapabilities(defs), at); len(ps) != 0 {
		t.Errorf("valid capabilities: %v", ps)
	}
	ps := ValidateCapabilities("R", gardencorev1beta1.Capabilities{"architecture": {"amd64", "arm64"}, "gpu": {"amd"}, "disk": {"ssd"}}, DefineCapabilities(defs), at)
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

func TestCapabilitiesEqual_ComparesSetsOfManyValuesAsSets(t *testing.T) {
	many := func(n int, extra ...string) []string {
		out := make([]string, 0, n+len(extra))
		for i := range n {
			out = append(out, "model-"+strconv.Itoa(i))
		}
		return append(out, extra...)
	}
	reversed := slices.Clone(many(100))
	slices.Reverse(reversed)
	cases := []struct {
		name string
		a, b []string
		want bool
	}{
		{"the same values in another order", many(100), reversed, true},
		{"repeated values", append(many(100), "model-3", "model-3"), many(100), true},
		{"one value more", many(100, "model-x"), many(100), false},
		{"one value less", many(99), many(100), false},
		{"one value other", many(99, "model-x"), many(100), false},
		{"no values against many", nil, many(100), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, b := gardencorev1beta1.Capabilities{"gpu": c.a}, gardencorev1beta1.Capabilities{"gpu": c.b}
			if got := CapabilitiesEqual(a, b); got != c.want {
				t.Errorf("CapabilitiesEqual = %v, want %v", got, c.want)
			}
			if got := CapabilitiesEqual(b, a); got != c.want {
				t.Errorf("CapabilitiesEqual the other way round = %v, want %v", got, c.want)
			}
		})
	}
}

// A definition of many values applied as the default on both sides compares in linear time:
// Gardener's pairwise comparison takes about 2·10¹⁰ string comparisons for these 200,000 values
// (minutes), this one a set of them or nothing at all (milliseconds). The deadline only turns a
// regression into a failure instead of a hang.
func TestCapabilitiesEqual_ManyDefinedValuesCompareInLinearTime(t *testing.T) {
	values := make([]string, 200_000)
	for i := range values {
		values[i] = "model-" + strconv.Itoa(i)
	}
	defs := []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"amd64"}}, {Name: "gpu-model", Values: values}}
	defaulted := ImageFlavorsWithDefaults(nil, defs)[0].Capabilities
	copied := gardencorev1beta1.Capabilities{"architecture": {"amd64"}, "gpu-model": slices.Clone(values)}
	done := make(chan [2]bool, 1)
	go func() {
		done <- [2]bool{
			CapabilitiesEqual(defaulted, gardencorev1beta1.GetCapabilitiesWithAppliedDefaults(nil, defs)),
			CapabilitiesEqual(defaulted, copied),
		}
	}()
	select {
	case got := <-done:
		if !got[0] || !got[1] {
			t.Errorf("equal sets compare unequal: defaults on both sides %v, a copy of the values %v", got[0], got[1])
		}
	case <-time.After(30 * time.Second):
		t.Fatal("comparing capabilities of 200,000 values took longer than 30 s: the comparison is not linear")
	}
}

// Checking the capabilities of many flavors against a definition of many values is a lookup per
// value: walking the definition for each value takes about 2·10¹⁰ comparisons here (minutes).
func TestValidateCapabilities_ManyFlavorsOfManyDefinedValuesCheckInLinearTime(t *testing.T) {
	values := make([]string, 200_000)
	for i := range values {
		values[i] = "model-" + strconv.Itoa(i)
	}
	defined := DefineCapabilities([]gardencorev1beta1.CapabilityDefinition{{Name: "gpu-model", Values: values}})
	done := make(chan int, 1)
	go func() {
		problems := 0
		for _, v := range values {
			problems += len(ValidateCapabilities("R", gardencorev1beta1.Capabilities{"gpu-model": {v}}, defined, Config("machineImages")))
		}
		problems += len(ValidateCapabilities("R", gardencorev1beta1.Capabilities{"gpu-model": {"model-x"}}, defined, Config("machineImages")))
		done <- problems
	}()
	select {
	case got := <-done:
		if got != 1 {
			t.Errorf("%d problems, want 1 (for the undefined value model-x)", got)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("checking 200,000 flavors against 200,000 defined values took longer than 30 s: the check is not a lookup")
	}
}
