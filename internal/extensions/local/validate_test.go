package local

import (
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"
)

func TestValidateCloudProfile(t *testing.T) {
	gardenlinux := []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: versions("1.0.0", "2.0.0")}}
	twoArch := archDefs("amd64", "arm64")
	flavored := []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: []gardencorev1beta1.MachineImageVersion{{
		ExpirableVersion:  gardencorev1beta1.ExpirableVersion{Version: "1.0.0"},
		CapabilityFlavors: []gardencorev1beta1.MachineImageFlavor{{Capabilities: gardencorev1beta1.Capabilities{"architecture": {"amd64"}}}},
	}}}}
	for _, c := range []struct {
		name   string
		images []gardencorev1beta1.MachineImage
		defs   []gardencorev1beta1.CapabilityDefinition
		cfg    *runtime.RawExtension
		want   []string
	}{
		{"EXT-LOCAL-1 no providerConfig", gardenlinux, nil, nil,
			[]string{"EXT-LOCAL-1 spec.providerConfig [Required]: providerConfig must be set for cloud profiles of provider local"}},
		{"EXT-LOCAL-2 not JSON", gardenlinux, nil, raw(`{`), []string{"EXT-LOCAL-2 spec.providerConfig [Internal]: could not decode providerConfig of CloudProfile \"p\""}},
		{"EXT-LOCAL-2 no kind", gardenlinux, nil, raw(`{"machineImages":[{"name":"gardenlinux","versions":[{"version":"1.0.0","image":"x"},{"version":"2.0.0","image":"y"}]}],"apiVersion":"` + APIVersion + `"}`),
			[]string{`EXT-LOCAL-2 spec.providerConfig [Internal]: could not decode providerConfig of CloudProfile "p": Object 'Kind' is missing in '{"apiVersion":"` + APIVersion +
				`","machineImages":[{"name":"gardenlinux","versions":[{"image":"x","version":"1.0.0"},{"image":"y","version":"2.0.0"}]}]}'`}},
		{"EXT-LOCAL-2 no apiVersion", gardenlinux, nil, raw(`{"kind":"CloudProfileConfig"}`),
			[]string{`EXT-LOCAL-2 spec.providerConfig [Internal]: could not decode providerConfig of CloudProfile "p": Object 'apiVersion' is missing in '{"kind":"CloudProfileConfig"}'`}},
		{"EXT-LOCAL-2 neither: the kind is missing first", gardenlinux, nil, raw(`{"machineImages":[]}`),
			[]string{`EXT-LOCAL-2 spec.providerConfig [Internal]: could not decode providerConfig of CloudProfile "p": Object 'Kind' is missing in '{"machineImages":[]}'`}},
		{"EXT-LOCAL-2 another kind", gardenlinux, nil, raw(`{"apiVersion":"` + APIVersion + `","kind":"WorkerConfig"}`), []string{"EXT-LOCAL-2 spec.providerConfig [Internal]"}},
		{"EXT-LOCAL-2 unknown field", gardenlinux, nil, config(`[{"name":"gardenlinux","versions":[{"version":"1.0.0","image":"x","architecture":"amd64"}]}]`), []string{"EXT-LOCAL-2 spec.providerConfig [Internal]"}},
		{"EXT-LOCAL-2 field in another case", gardenlinux, nil, config(`[{"Name":"gardenlinux","versions":[{"version":"1.0.0","image":"x"}]}]`), []string{"EXT-LOCAL-2 spec.providerConfig [Internal]"}},
		{"EXT-LOCAL-2 repeated field", gardenlinux, nil, config(`[{"name":"gardenlinux","name":"x","versions":[{"version":"1.0.0","image":"x"}]}]`), []string{"EXT-LOCAL-2 spec.providerConfig [Internal]"}},
		{"EXT-LOCAL-2 wrong JSON type", gardenlinux, nil, config(`[{"name":"gardenlinux","versions":"1.0.0"}]`), []string{"EXT-LOCAL-2 spec.providerConfig [Internal]"}},
		{"EXT-LOCAL-3 no images", gardenlinux, nil, config(`[]`),
			[]string{"EXT-LOCAL-3 spec.providerConfig.machineImages [Required]: must provide at least one machine image"}},
		{"EXT-LOCAL-3 machineImages null", gardenlinux, nil, config(`null`), []string{"EXT-LOCAL-3 spec.providerConfig.machineImages [Required]"}},
		{"EXT-LOCAL-4 and EXT-LOCAL-5 an empty entry", gardenlinux, nil, config(`[{}]`), []string{
			"EXT-LOCAL-4 spec.providerConfig.machineImages[0].name [Required]: must provide a name",
			`EXT-LOCAL-5 spec.providerConfig.machineImages[0].versions [Required]: must provide at least one version for machine image ""`,
		}},
		{"EXT-LOCAL-6 and EXT-LOCAL-7 an empty version", gardenlinux, nil, config(`[{"name":"gardenlinux","versions":[{}]}]`), []string{
			"EXT-LOCAL-6 spec.providerConfig.machineImages[0].versions[0].version [Required]: must provide a version",
			"EXT-LOCAL-7 spec.providerConfig.machineImages[0].versions[0].image [Required]: must provide an image",
		}},
		{"EXT-LOCAL-8 flavors without capabilities", gardenlinux, nil, config(`[{"name":"gardenlinux","versions":[{"version":"1.0.0","image":"x","capabilityFlavors":[{"image":"y"}]}]}]`),
			[]string{"EXT-LOCAL-8 spec.providerConfig.machineImages[0].versions[0].capabilityFlavors [Forbidden]"}},
		{"EXT-LOCAL-8 image with capabilities", flavored, twoArch, config(`[{"name":"gardenlinux","versions":[{"version":"1.0.0","image":"x","capabilityFlavors":[{"image":"y","capabilities":{"architecture":["amd64"]}}]}]}]`),
			[]string{"EXT-LOCAL-8 spec.providerConfig.machineImages[0].versions[0].image [Forbidden]"}},
		{"EXT-LOCAL-7 flavor without image", flavored, twoArch, config(`[{"name":"gardenlinux","versions":[{"version":"1.0.0","capabilityFlavors":[{"capabilities":{"architecture":["amd64"]}}]}]}]`),
			[]string{"EXT-LOCAL-7 spec.providerConfig.machineImages[0].versions[0].capabilityFlavors[0].image [Required]"}},
		{"EXT-LOCAL-9 unknown capability and value", flavored, twoArch, config(`[{"name":"gardenlinux","versions":[{"version":"1.0.0","capabilityFlavors":[{"image":"y","capabilities":{"architecture":["s390x"],"gpu":["yes"]}}]}]}]`), []string{
			`EXT-LOCAL-9 spec.providerConfig.machineImages[0].versions[0].capabilityFlavors[0].capabilities [NotSupported]: supported values: "architecture"`,
			`EXT-LOCAL-9 spec.providerConfig.machineImages[0].versions[0].capabilityFlavors[0].capabilities.architecture[0] [NotSupported]: supported values: "amd64", "arm64"`,
		}},
		{"EXT-LOCAL-9 no architecture with two defined", flavored, twoArch, config(`[{"name":"gardenlinux","versions":[{"version":"1.0.0","capabilityFlavors":[{"image":"y"}]}]}]`),
			[]string{"EXT-LOCAL-9 spec.providerConfig.machineImages[0].versions[0].capabilityFlavors[0].capabilities.architecture [Invalid]: must define exactly one architecture"}},
		{"EXT-LOCAL-10 image without mapping", gardenlinux, nil, config(`[{"name":"ubuntu","versions":[{"version":"1.0.0","image":"x"}]}]`),
			[]string{`EXT-LOCAL-10 spec.providerConfig.machineImages[0] [Required]: must provide an image mapping for image "gardenlinux" in providerConfig`}},
		{"EXT-LOCAL-10 uses the position in spec.machineImages", append([]gardencorev1beta1.MachineImage{{Name: "ubuntu", Versions: versions("1")}}, gardenlinux...), nil,
			config(`[{"name":"ubuntu","versions":[{"version":"1","image":"x"}]}]`), []string{"EXT-LOCAL-10 spec.providerConfig.machineImages[1] [Required]"}},
		{"an image without versions needs no mapping", []gardencorev1beta1.MachineImage{{Name: "empty"}}, nil, config(`[{"name":"ubuntu","versions":[{"version":"1.0.0","image":"x"}]}]`), nil},
		{"without capabilities versions need no mapping", gardenlinux, nil, config(`[{"name":"gardenlinux","versions":[{"version":"9.9.9","image":"x"}]}]`), nil},
		{"mapping problems wait for the entries' problems", gardenlinux, nil, config(`[{"name":"ubuntu","versions":[{"version":"1.0.0"}]}]`),
			[]string{"EXT-LOCAL-7 spec.providerConfig.machineImages[0].versions[0].image [Required]"}},
		{"EXT-LOCAL-11 version without mapping", flavored, twoArch, config(`[{"name":"gardenlinux","versions":[{"version":"2.0.0","capabilityFlavors":[{"image":"y","capabilities":{"architecture":["amd64"]}}]}]}]`),
			[]string{"EXT-LOCAL-11 spec.providerConfig.machineImages[0].versions[0] [Required]: machine image version gardenlinux@1.0.0 is not defined in the providerConfig"}},
		{"EXT-LOCAL-12 mapping for another architecture", flavored, twoArch, config(`[{"name":"gardenlinux","versions":[{"version":"1.0.0","capabilityFlavors":[{"image":"y","capabilities":{"architecture":["arm64"]}}]}]}]`),
			[]string{"EXT-LOCAL-12 spec.providerConfig.machineImages[0].versions[0].capabilityFlavors[0] [Required]: missing providerConfig mapping for machine image version gardenlinux@1.0.0 and flavor map[architecture:[amd64]]"}},
		{"EXT-LOCAL-12 a version without flavors has every defined value", []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: versions("1.0.0")}}, archDefs("amd64"),
			config(`[{"name":"gardenlinux","versions":[{"version":"1.0.0","capabilityFlavors":[{"image":"y","capabilities":{"architecture":["amd64"]}}]}]}]`), nil},
		{"EXT-LOCAL-12 defaults on both sides", []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: versions("1.0.0")}}, archDefs("amd64"),
			config(`[{"name":"gardenlinux","versions":[{"version":"1.0.0","capabilityFlavors":[{"image":"y"}]}]}]`), nil},
		{"a correct mapping", gardenlinux, nil, config(`[{"name":"gardenlinux","versions":[{"version":"1.0.0","image":"a"},{"version":"2.0.0","image":"b"}]}]`), nil},
		{"a correct mapping with loadBalancer", gardenlinux, nil, raw(`{"apiVersion":"` + APIVersion + `","kind":"CloudProfileConfig","loadBalancer":{"image":"envoy"},"machineImages":[{"name":"gardenlinux","versions":[{"version":"1.0.0","image":"a"}]}]}`), nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			spec := gardencorev1beta1.CloudProfileSpec{Type: Type, MachineImages: c.images, MachineCapabilities: c.defs, ProviderConfig: c.cfg}
			expect(t, ValidateCloudProfile("p", spec), c.want...)
		})
	}
}

func TestValidateNamespacedCloudProfile(t *testing.T) {
	parent := gardencorev1beta1.CloudProfileSpec{Type: Type, MachineImages: []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: versions("1.0.0")}}}
	ref := gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: "parent"}
	for _, c := range []struct {
		name   string
		images []gardencorev1beta1.MachineImage
		cfg    *runtime.RawExtension
		kind   string
		want   []string
	}{
		{"no providerConfig and nothing new", []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: versions("1.0.0")}}, nil, "", nil},
		{"an inherited version with a new expiration date needs no mapping", []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: versions("1.0.0")}}, config(`[]`), "", nil},
		{"EXT-LOCAL-2 undecodable", nil, raw(`{"kind":"CloudProfileConfig"}`), "",
			[]string{`EXT-LOCAL-2 spec.providerConfig [Internal]: could not decode providerConfig of NamespacedCloudProfile for 'n': Object 'apiVersion' is missing in '{"kind":"CloudProfileConfig"}'`}},
		{"EXT-LOCAL-2 no kind", []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: versions("2.0.0")}},
			raw(`{"apiVersion":"` + APIVersion + `","machineImages":[{"name":"gardenlinux","versions":[{"version":"2.0.0","image":"x"}]}]}`), "",
			[]string{`EXT-LOCAL-2 spec.providerConfig [Internal]: could not decode providerConfig of NamespacedCloudProfile for 'n': Object 'Kind' is missing in '{"apiVersion":"` + APIVersion +
				`","machineImages":[{"name":"gardenlinux","versions":[{"image":"x","version":"2.0.0"}]}]}'`}},
		{"EXT-LOCAL-13 new image without mapping", []gardencorev1beta1.MachineImage{{Name: "custom", Versions: versions("1.0.0")}}, nil, "",
			[]string{"EXT-LOCAL-13 spec.providerConfig.machineImages [Required]: machine image custom is not defined in the NamespacedCloudProfile providerConfig"}},
		{"EXT-LOCAL-14 new version without mapping", []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: versions("1.0.0", "2.0.0")}}, nil, "",
			[]string{"EXT-LOCAL-14 spec.providerConfig.machineImages [Required]: machine image version gardenlinux@2.0.0 is not defined in the NamespacedCloudProfile providerConfig"}},
		{"new version with mapping", []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: versions("2.0.0")}},
			config(`[{"name":"gardenlinux","versions":[{"version":"2.0.0","image":"b"}]}]`), "", nil},
		{"new version mapped by flavor only", []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: versions("2.0.0")}},
			config(`[{"name":"gardenlinux","versions":[{"version":"2.0.0"}]}]`), "", nil},
		{"EXT-LOCAL-15 maps a parent version", []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: versions("1.0.0")}},
			config(`[{"name":"gardenlinux","versions":[{"version":"1.0.0","image":"b"}]}]`), "",
			[]string{"EXT-LOCAL-15 spec.providerConfig.machineImages[0].versions[0] [Forbidden]: machine image version gardenlinux@1.0.0 is already defined in the parent CloudProfile"}},
		{"EXT-LOCAL-16 maps an image not listed", nil, config(`[{"name":"custom","versions":[{"version":"1.0.0","image":"b"}]}]`), "",
			[]string{"EXT-LOCAL-16 spec.providerConfig.machineImages[0] [Required]: machine image custom is not defined in the NamespacedCloudProfile .spec.machineImages"}},
		{"EXT-LOCAL-15 and EXT-LOCAL-16 a parent version of an image not listed", nil, config(`[{"name":"gardenlinux","versions":[{"version":"1.0.0","image":"b"}]}]`), "", []string{
			"EXT-LOCAL-15 spec.providerConfig.machineImages[0].versions[0] [Forbidden]",
			"EXT-LOCAL-16 spec.providerConfig.machineImages[0] [Required]",
		}},
		{"EXT-LOCAL-17 maps a version not listed", []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: versions("2.0.0")}},
			config(`[{"name":"gardenlinux","versions":[{"version":"2.0.0","image":"b"},{"version":"3.0.0","image":"c"}]}]`), "",
			[]string{"EXT-LOCAL-17 spec.providerConfig.machineImages[0].versions[1] [Invalid]: machine image version is not defined in the NamespacedCloudProfile"}},
		{"EXT-LOCAL-18 parent of another kind", nil, nil, "NamespacedCloudProfile",
			[]string{"EXT-LOCAL-18 spec.parent.kind [Invalid]"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := ref
			if c.kind != "" {
				r.Kind = c.kind
			}
			spec := gardencorev1beta1.NamespacedCloudProfileSpec{Parent: r, MachineImages: c.images, ProviderConfig: c.cfg}
			ps := ValidateNamespacedCloudProfile("n", spec, parent)
			expect(t, ps, c.want...)
			for _, p := range ps {
				if p.Rule == "EXT-LOCAL-17" && p.BadValue != "gardenlinux@3.0.0" {
					t.Errorf("bad value %v", p.BadValue)
				}
			}
		})
	}
}

func TestProblemsRenderAsGardener(t *testing.T) {
	spec := gardencorev1beta1.CloudProfileSpec{Type: Type, MachineImages: []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: versions("1.0.0")}},
		ProviderConfig: config(`[{"name":"ubuntu","versions":[{"version":"1","image":"x"}]}]`)}
	ps := ValidateCloudProfile("p", spec)
	want := `spec.providerConfig.machineImages[0]: Required value: must provide an image mapping for image "gardenlinux" in providerConfig`
	if len(ps) != 1 || ps[0].Error() != want {
		t.Fatalf("got %v, want %q", ps, want)
	}
	if a := ps[0].Path.Attribute(); a != "spec.machine_images[0]" {
		t.Errorf("attribute %q, want the image that lacks its mapping", a)
	}
}

func TestAppliesTo(t *testing.T) {
	if !AppliesTo("local") || AppliesTo("aws") || AppliesTo("") {
		t.Error("AppliesTo")
	}
}
