package cloudprofile

import (
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

func classified(v gardencorev1beta1.MachineImageVersion, c gardencorev1beta1.VersionClassification) gardencorev1beta1.MachineImageVersion {
	v.Classification = cls(c)
	return v
}

func withImages(images ...gardencorev1beta1.MachineImage) *gardencorev1beta1.CloudProfile {
	cp := validCloudProfile()
	cp.Spec.MachineImages = images
	return cp
}

func TestRuleE1_AtLeastOneMachineImage(t *testing.T) {
	t.Run("an empty list of machine images is forbidden", func(t *testing.T) {
		expectProblems(t, ValidateCloudProfile(withImages(), gateOff()),
			want{rule: "E-1", typ: Required, field: "spec.machineImages", attr: "spec.machine_images", detail: "must provide at least one machine image"})
	})
}

func TestRuleE2_LatestMachineImageVersionIsDeterminable(t *testing.T) {
	t.Run("non-semver machine image versions are forbidden", func(t *testing.T) {
		expectProblems(t, ValidateCloudProfile(withImages(
			machineImage("some-machine-image", classified(imageVersion("0.1.2"), supported)),
			machineImage("xy", classified(imageVersion("a.b.c"), supported)),
		), gateOff()),
			want{rule: "E-2", typ: Invalid, field: "spec.machineImages", attr: "spec.machine_images[1].versions[0].version",
				detail: "failed to determine latest machine image version for image 'xy': error while parsing expirable version 'a.b.c': invalid semantic version",
				bad:    map[string]gardencorev1beta1.MachineImageVersion(nil), checkBad: true},
			want{rule: "F-3", typ: Invalid, field: "spec.machineImages[1].versions[0].version"})
	})
	t.Run("only the first failing image is reported", func(t *testing.T) {
		ps := validateLatestMachineImageVersions([]gardencorev1beta1.MachineImage{
			machineImage("a", imageVersion("x")), machineImage("b", imageVersion("y")),
		}, NewPath("spec").Child("machineImages"))
		expectProblems(t, ps, want{rule: "E-2", field: "spec.machineImages", detail: "~image 'a'"})
	})
}

func TestRuleE3_DuplicateMachineImageNames(t *testing.T) {
	t.Run("duplicate names in the list of machine images are forbidden at the element", func(t *testing.T) {
		expectProblems(t, ValidateCloudProfile(withImages(
			machineImage("some-machine-image", classified(imageVersion("3.4.6"), supported)),
			machineImage("some-machine-image", classified(imageVersion("3.4.5"), preview)),
		), gateOff()), want{rule: "E-3", typ: Duplicate, field: "spec.machineImages[1]", attr: "spec.machine_images[1]", bad: "some-machine-image", checkBad: true})
	})
}

func TestRuleE4_MachineImageNames(t *testing.T) {
	fld := NewPath("spec").Child("machineImages")
	for _, tt := range []struct {
		name, image string
		fail        bool
	}{
		{"forbid emoji characters", "🪴", true},
		{"forbid whitespaces", "special image", true},
		{"forbid slashes", "nested/image", true},
		{"pass with dashes", "qualified-name", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ps := validateMachineImageBase(gardencorev1beta1.MachineImage{Name: tt.image}, capabilities{}, map[string]bool{}, map[string]bool{}, true, fld.Index(0))
			if !tt.fail {
				expectNoProblems(t, ps)
				return
			}
			expectProblems(t, ps, want{rule: "E-4", typ: Invalid, field: "spec.machineImages[0].name", attr: "spec.machine_images[0].name", bad: tt.image, checkBad: true, detail: "~machine image name must be a qualified name"})
		})
	}
	t.Run("an empty name is required", func(t *testing.T) {
		ps := validateMachineImageBase(gardencorev1beta1.MachineImage{}, capabilities{}, map[string]bool{}, map[string]bool{}, true, fld.Index(0))
		expectProblems(t, ps, want{rule: "E-4", typ: Required, field: "spec.machineImages[0].name", detail: "machine image name must not be empty"})
	})
}

func TestRuleE5_MachineImageNeedsVersions(t *testing.T) {
	t.Run("machine images with no version are forbidden", func(t *testing.T) {
		expectProblems(t, ValidateCloudProfile(withImages(gardencorev1beta1.MachineImage{Name: "some-machine-image"}), gateOff()),
			want{rule: "E-5", typ: Required, field: "spec.machineImages[0].versions", attr: "spec.machine_images[0].versions", detail: "must provide at least one version for the machine image 'some-machine-image'"},
			want{rule: "E-6", typ: Required, field: "spec.machineImages[0].updateStrategy", detail: "must provide an update strategy"})
	})
	t.Run("empty versions are allowed where the caller allows them", func(t *testing.T) {
		expectNoProblems(t, validateMachineImageBase(gardencorev1beta1.MachineImage{Name: "a"}, capabilities{}, map[string]bool{}, map[string]bool{}, true, NewPath("x")))
	})
}

func TestRuleE6_MachineImageUpdateStrategy(t *testing.T) {
	t.Run("an invalid machine image update strategy is forbidden", func(t *testing.T) {
		image := machineImage("some-machine-image", classified(imageVersion("3.4.6"), supported))
		image.UpdateStrategy = ptrTo(gardencorev1beta1.MachineImageUpdateStrategy("dummy"))
		expectProblems(t, ValidateCloudProfile(withImages(image), gateOff()),
			want{rule: "E-6", typ: NotSupported, field: "spec.machineImages[0].updateStrategy", attr: "spec.machine_images[0].update_strategy",
				detail: `supported values: "major", "minor", "patch"`, bad: gardencorev1beta1.MachineImageUpdateStrategy("dummy"), checkBad: true})
	})
	t.Run("a valid machine image update strategy is allowed", func(t *testing.T) {
		image := machineImage("some-machine-image", classified(imageVersion("3.4.6"), supported))
		image.UpdateStrategy = ptrTo(gardencorev1beta1.UpdateStrategyMinor)
		expectNoProblems(t, ValidateCloudProfile(withImages(image), gateOff()))
	})
	t.Run("a missing update strategy is required on a CloudProfile (defaulting normally sets it)", func(t *testing.T) {
		image := machineImage("a", imageVersion("1.0.0"))
		image.UpdateStrategy = nil
		expectProblems(t, ValidateCloudProfile(withImages(image), gateOff()), want{rule: "E-6", typ: Required, field: "spec.machineImages[0].updateStrategy"})
		expectNoProblems(t, ValidateCloudProfileRequest(withImages(image), nil, gateOff()))
	})
}

func TestRuleF1_DuplicateMachineImageVersions(t *testing.T) {
	t.Run("duplicated machine image versions are forbidden", func(t *testing.T) {
		expectProblems(t, ValidateCloudProfile(withImageVersions(imageVersion("3.4.6"), imageVersion("3.4.6")), gateOff()),
			want{rule: "F-1", typ: Duplicate, field: "spec.machineImages[0].versions[1]", attr: "spec.machine_images[0].versions[1]", bad: "ubuntu-3.4.6", checkBad: true})
	})
	t.Run("the key set is shared across images (collision quirk)", func(t *testing.T) {
		expectProblems(t, ValidateCloudProfile(withImages(
			machineImage("x-1.0.0", imageVersion("1.0.0")),
			machineImage("x", imageVersion("1.0.0-1.0.0")),
		), gateOff()), want{rule: "F-1", typ: Duplicate, field: "spec.machineImages[1].versions[0]", bad: "x-1.0.0-1.0.0", checkBad: true})
	})
}

func TestRuleF2_MachineImageVersionRequired(t *testing.T) {
	t.Run("an empty version is required, invalid, and breaks the latest version", func(t *testing.T) {
		expectProblems(t, ValidateCloudProfile(withImageVersions(imageVersion("")), gateOff()),
			want{rule: "E-2", typ: Invalid, field: "spec.machineImages"},
			want{rule: "F-2", typ: Required, field: "spec.machineImages[0].versions[0].version", attr: "spec.machine_images[0].versions[0].version"},
			want{rule: "F-3", typ: Invalid, field: "spec.machineImages[0].versions[0].version"})
	})
}

func TestRuleF3_MachineImageVersionIsSemver(t *testing.T) {
	for _, tt := range []struct {
		version string
		valid   bool
	}{
		{"1.2.3", true}, {"v1.2", true}, {"1", true}, {"01.02.03", true}, {"1.2.3-inplace", true}, {"1.2.3+meta", true},
		{"a.b.c", false}, {"V1.2.3", false}, {"1.2.3.4", false}, {"1.2.3-01", false}, {"1.2.3-", false}, {" 1.2.3", false},
	} {
		t.Run(tt.version, func(t *testing.T) {
			ps := validateMachineImageVersionBase("img", imageVersion(tt.version), capabilities{}, map[string]bool{}, NewPath("v"))
			if tt.valid {
				expectNoProblems(t, ps)
				return
			}
			expectProblems(t, ps, want{rule: "F-3", typ: Invalid, field: "v.version", bad: tt.version, checkBad: true,
				detail: "could not parse version. Use a semantic version. In case there is no semantic version for this image use the extensibility provider (define mapping in the CloudProfile) to map to the actual non semantic version"})
		})
	}
}

func TestRuleF4_MinVersionForInPlaceUpdateIsSemver(t *testing.T) {
	t.Run("a non-semver min supported version for in-place update is forbidden", func(t *testing.T) {
		v := classified(imageVersion("1.1.2"), supported)
		v.InPlaceUpdates = &gardencorev1beta1.InPlaceUpdates{MinVersionForUpdate: ptrTo("a.b.c")}
		expectProblems(t, ValidateCloudProfile(withImages(
			machineImage("some-machine-image", classified(imageVersion("0.1.2"), supported)),
			machineImage("xy", v),
		), gateOff()), want{rule: "F-4", typ: Invalid, field: "spec.machineImages[1].versions[0].minVersionForInPlaceUpdate",
			attr: "spec.machine_images[1].versions[0].in_place_updates.min_version_for_update", detail: "could not parse version. Use a semantic version.", bad: "a.b.c", checkBad: true})
	})
	t.Run("a semver min version is allowed", func(t *testing.T) {
		v := imageVersion("1.1.2")
		v.InPlaceUpdates = &gardencorev1beta1.InPlaceUpdates{Supported: true, MinVersionForUpdate: ptrTo("1.0.0")}
		expectNoProblems(t, ValidateCloudProfile(withImageVersions(v), gateOff()))
	})
}

func TestRuleF5_KubeletVersionConstraint(t *testing.T) {
	t.Run("valid kubeletVersionConstraints are allowed", func(t *testing.T) {
		var versions []gardencorev1beta1.MachineImageVersion
		for i, c := range []string{"< 1.26", ">= 1.26", ">=1.31.0", "~1.2", "1.2.x", ">= 1.26, < 1.28", "^1.2 || ~2.0", "=1.30.0"} {
			v := imageVersion("0.1." + string(rune('0'+i)))
			v.KubeletVersionConstraint = ptrTo(c)
			versions = append(versions, v)
		}
		expectNoProblems(t, ValidateCloudProfile(withImageVersions(versions...), gateOff()))
	})
	t.Run("invalid kubeletVersionConstraints are forbidden", func(t *testing.T) {
		var versions []gardencorev1beta1.MachineImageVersion
		for i, c := range []string{"", "invalid-version", "==1.30.0"} {
			v := imageVersion("0.1." + string(rune('2'+i)))
			v.KubeletVersionConstraint = ptrTo(c)
			versions = append(versions, v)
		}
		expectProblems(t, ValidateCloudProfile(withImageVersions(versions...), gateOff()),
			want{rule: "F-5", typ: Invalid, field: "spec.machineImages[0].versions[0].kubeletVersionConstraint", attr: "spec.machine_images[0].versions[0].kubelet_version_constraint", detail: `cannot parse the kubeletVersionConstraint: improper constraint: ""`},
			want{rule: "F-5", typ: Invalid, field: "spec.machineImages[0].versions[1].kubeletVersionConstraint"},
			want{rule: "F-5", typ: Invalid, field: "spec.machineImages[0].versions[2].kubeletVersionConstraint", detail: `cannot parse the kubeletVersionConstraint: improper constraint: "==1.30.0"`})
	})
}

func TestRuleF6a_ArchitecturesWithoutCapabilities(t *testing.T) {
	t.Run("valid CPU architectures are allowed", func(t *testing.T) {
		a, b, c := imageVersion("0.1.2"), imageVersion("0.1.3"), imageVersion("0.1.4")
		a.Architectures, c.Architectures = []string{"amd64", "arm64"}, []string{"arm64"}
		expectNoProblems(t, ValidateCloudProfile(withImageVersions(a, b, c), gateOff()))
	})
	t.Run("an invalid CPU architecture is forbidden", func(t *testing.T) {
		v := imageVersion("0.1.2")
		v.Architectures = []string{"foo"}
		expectProblems(t, ValidateCloudProfile(withImageVersions(v), gateOff()),
			want{rule: "F-6", typ: NotSupported, field: "spec.machineImages[0].versions[0].architectures[0]", attr: "spec.machine_images[0].versions[0].architectures[0]", detail: `supported values: "amd64", "arm64"`})
	})
	t.Run("unknown architectures are forbidden for images and machine types", func(t *testing.T) {
		cp := capabilityCloudProfile()
		cp.Spec.MachineImages[0].Versions[0].Architectures = []string{"amd64", "other"}
		cp.Spec.MachineTypes[0].Architecture = ptrTo("other")
		expectProblems(t, ValidateCloudProfile(cp, gateOff()),
			want{rule: "F-6", typ: NotSupported, field: "spec.machineImages[0].versions[0].architectures[1]", bad: "other", checkBad: true, detail: `supported values: "amd64", "arm64"`},
			want{rule: "G-5", typ: NotSupported, field: "spec.machineTypes[0].architecture", attr: "spec.machine_types[0].architecture", bad: "other", checkBad: true, detail: `supported values: "amd64", "arm64"`})
	})
}

// withTwoArchitectures is the "using Capabilities" fixture: architecture [amd64, arm64] plus
// anotherCapability, the image version carrying one amd64 flavor.
func withTwoArchitectures() *gardencorev1beta1.CloudProfile {
	cp := capabilityCloudProfile()
	cp.Spec.MachineCapabilities = []gardencorev1beta1.CapabilityDefinition{
		{Name: "architecture", Values: []string{"amd64", "arm64"}},
		{Name: "anotherCapability", Values: []string{"value1"}},
	}
	cp.Spec.MachineImages[0].Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor("amd64")}
	return cp
}

func TestRuleF6b_ArchitecturesWithCapabilities(t *testing.T) {
	t.Run("neither architectures nor capabilities are needed with one architecture", func(t *testing.T) {
		cp := withTwoArchitectures()
		cp.Spec.MachineCapabilities[0].Values = []string{"arm64"}
		cp.Spec.MachineImages[0].Versions[0].CapabilityFlavors = nil
		expectNoProblems(t, ValidateCloudProfile(cp, gateOff()))
	})
	t.Run("architectures and capabilities set for images and types", func(t *testing.T) {
		cp := withTwoArchitectures()
		cp.Spec.MachineTypes[0].Architecture = ptrTo("arm64")
		cp.Spec.MachineImages[0].Versions[0].Architectures = []string{"arm64"}
		cp.Spec.MachineImages[0].Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor("arm64")}
		cp.Spec.MachineTypes[0].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"arm64"}}
		expectNoProblems(t, ValidateCloudProfile(cp, gateOff()))
	})
	t.Run("machine images without capabilityFlavors fail with several architectures", func(t *testing.T) {
		cp := withTwoArchitectures()
		cp.Spec.MachineImages[0].Versions[0].CapabilityFlavors = nil
		cp.Spec.MachineTypes[0].Architecture = ptrTo("arm64")
		expectProblems(t, ValidateCloudProfile(cp, gateOff()), want{rule: "F-6", typ: Required, field: "spec.machineImages[0].versions[0].capabilityFlavors",
			attr: "spec.machine_images[0].versions[0].capability_flavors", detail: "must provide at least one image flavor when multiple architectures are defined in spec.machineCapabilities"})
	})
	t.Run("a flavor without architecture fails with several architectures", func(t *testing.T) {
		cp := withTwoArchitectures()
		cp.Spec.MachineTypes[0].Architecture = ptrTo("arm64")
		cp.Spec.MachineImages[0].Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{{Capabilities: gardencorev1beta1.Capabilities{"anotherCapability": {"value1"}}}}
		expectProblems(t, ValidateCloudProfile(cp, gateOff()), want{rule: "F-6", typ: Required, field: "spec.machineImages[0].versions[0].capabilityFlavors[0].architecture",
			attr: `spec.machine_images[0].versions[0].capability_flavors[0]["architecture"]`, detail: "must specify one architecture explicitly as multiple architectures are defined in spec.machineCapabilities"})
	})
	t.Run("only architectures set conflicts with the flavors", func(t *testing.T) {
		cp := withTwoArchitectures()
		cp.Spec.MachineImages[0].Versions[0].Architectures = []string{"arm64"}
		cp.Spec.MachineTypes[0].Architecture = ptrTo("arm64")
		expectProblems(t, ValidateCloudProfile(cp, gateOff()), want{rule: "F-6", typ: Invalid, field: "spec.machineImages[0].versions[0].architectures",
			attr: "spec.machine_images[0].versions[0].architectures", bad: []string{"arm64"}, checkBad: true,
			detail: "architecture field values set (arm64) conflict with the capability architectures (amd64)"})
	})
	t.Run("only capabilities set is valid", func(t *testing.T) {
		cp := withTwoArchitectures()
		cp.Spec.MachineImages[0].Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor("arm64"), flavor("amd64")}
		cp.Spec.MachineTypes[0].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"arm64"}}
		expectNoProblems(t, ValidateCloudProfile(cp, gateOff()))
	})
	t.Run("multiple architectures in one flavor are forbidden", func(t *testing.T) {
		cp := withTwoArchitectures()
		cp.Spec.MachineImages[0].Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor("arm64", "amd64")}
		cp.Spec.MachineTypes[0].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"arm64"}}
		expectProblems(t, ValidateCloudProfile(cp, gateOff()), want{rule: "F-6", typ: Invalid, field: "spec.machineImages[0].versions[0].capabilityFlavors[0].architecture",
			bad: gardencorev1beta1.CapabilityValues{"arm64", "amd64"}, checkBad: true, detail: "must not define more than one architecture within an image flavor"})
	})
	t.Run("unknown architecture capability values are forbidden", func(t *testing.T) {
		cp := withTwoArchitectures()
		cp.Spec.MachineImages[0].Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor("amd64"), flavor("other")}
		cp.Spec.MachineTypes[0].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"other"}}
		expectProblems(t, ValidateCloudProfile(cp, gateOff()),
			want{rule: "F-6", typ: NotSupported, field: "spec.machineImages[0].versions[0].capabilityFlavors[1].architecture[0]",
				attr: `spec.machine_images[0].versions[0].capability_flavors[1]["architecture"][0]`, bad: "other", checkBad: true, detail: `supported values: "amd64", "arm64"`},
			want{rule: "G-5", typ: NotSupported, field: "spec.machineTypes[0].capabilities.architecture[0]",
				attr: `spec.machine_types[0].capabilities["architecture"][0]`, bad: "other", checkBad: true, detail: `supported values: "amd64", "arm64"`})
	})
	t.Run("architectures equal to the capabilities succeed", func(t *testing.T) {
		cp := withTwoArchitectures()
		cp.Spec.MachineImages[0].Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor("arm64")}
		cp.Spec.MachineTypes[0].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"arm64"}}
		cp.Spec.MachineImages[0].Versions[0].Architectures = []string{"arm64"}
		cp.Spec.MachineTypes[0].Architecture = ptrTo("arm64")
		expectNoProblems(t, ValidateCloudProfile(cp, gateOff()))
	})
	t.Run("architectures equal to split-up capabilities succeed", func(t *testing.T) {
		cp := withTwoArchitectures()
		cp.Spec.MachineImages[0].Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor("amd64"), flavor("arm64")}
		cp.Spec.MachineTypes[0].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"arm64"}}
		cp.Spec.MachineImages[0].Versions[0].Architectures = []string{"arm64", "amd64"}
		cp.Spec.MachineTypes[0].Architecture = ptrTo("arm64")
		expectNoProblems(t, ValidateCloudProfile(cp, gateOff()))
	})
	t.Run("a subset of the flavors' architectures is enough", func(t *testing.T) {
		cp := withTwoArchitectures()
		cp.Spec.MachineImages[0].Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor("amd64"), flavor("arm64")}
		cp.Spec.MachineImages[0].Versions[0].Architectures = []string{"arm64"}
		expectNoProblems(t, ValidateCloudProfile(cp, gateOff()))
	})
	t.Run("conflicting architectures and capabilities fail for images and types", func(t *testing.T) {
		cp := withTwoArchitectures()
		cp.Spec.MachineImages[0].Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor("arm64")}
		cp.Spec.MachineTypes[0].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"amd64"}}
		cp.Spec.MachineImages[0].Versions[0].Architectures = []string{"amd64", "arm64"}
		cp.Spec.MachineTypes[0].Architecture = ptrTo("arm64")
		expectProblems(t, ValidateCloudProfile(cp, gateOff()),
			want{rule: "F-6", typ: Invalid, field: "spec.machineImages[0].versions[0].architectures", detail: "architecture field values set (amd64,arm64) conflict with the capability architectures (arm64)"},
			want{rule: "G-5", typ: Invalid, field: "spec.machineTypes[0].architecture", bad: "amd64", checkBad: true, detail: "machine type architecture (arm64) conflicts with the capability architecture (amd64)"})
	})
	t.Run("other capability values are validated against the global definition", func(t *testing.T) {
		cp := capabilityCloudProfile()
		cp.Spec.MachineCapabilities = []gardencorev1beta1.CapabilityDefinition{
			{Name: "architecture", Values: []string{"amd64", "arm64"}},
			{Name: "foo", Values: []string{"bar", "baz"}},
		}
		caps := gardencorev1beta1.Capabilities{"architecture": {"arm64"}, "foo": {"bar", "foobar"}, "bar": {"baz"}}
		cp.Spec.MachineImages[0].Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{{Capabilities: caps}}
		cp.Spec.MachineTypes[0].Capabilities = caps
		expectProblems(t, ValidateCloudProfile(cp, gateOff()),
			want{rule: "F-6", typ: NotSupported, field: "spec.machineImages[0].versions[0].capabilityFlavors[0].foo[1]", bad: "foobar", checkBad: true, detail: `supported values: "bar", "baz"`},
			want{rule: "F-6", typ: NotSupported, field: "spec.machineImages[0].versions[0].capabilityFlavors[0]", attr: `spec.machine_images[0].versions[0].capability_flavors[0]["bar"]`,
				bad: "bar", checkBad: true, detail: `supported values: "architecture", "foo"`},
			want{rule: "G-5", typ: NotSupported, field: "spec.machineTypes[0].capabilities.foo[1]", bad: "foobar", checkBad: true, detail: `supported values: "bar", "baz"`},
			want{rule: "G-5", typ: NotSupported, field: "spec.machineTypes[0].capabilities", attr: `spec.machine_types[0].capabilities["bar"]`, bad: "bar", checkBad: true, detail: `supported values: "architecture", "foo"`})
	})
}

func TestRuleF7_ContainerRuntimeInterfaces(t *testing.T) {
	t.Run("no CRI is forbidden", func(t *testing.T) {
		cp := validCloudProfile()
		cp.Spec.MachineImages[0].Versions[0].CRI = nil
		expectProblems(t, ValidateCloudProfile(cp, gateOff()), want{rule: "F-7", typ: Required, field: "spec.machineImages[0].versions[0].cri", attr: "spec.machine_images[0].versions[0].cri", detail: "must provide at least one supported container runtime"})
	})
	t.Run("non-supported container runtime interface names are forbidden", func(t *testing.T) {
		v := imageVersion("0.1.2")
		v.CRI = []gardencorev1beta1.CRI{{Name: "invalid-cri-name"}, {Name: "docker"}}
		expectProblems(t, ValidateCloudProfile(withImages(machineImage("invalid-cri-name", v), machineImage("valid-cri-name", imageVersion("0.1.2"))), gateOff()),
			want{rule: "F-7", typ: NotSupported, field: "spec.machineImages[0].versions[0].cri[0].name", detail: `supported values: "containerd"`},
			want{rule: "F-7", typ: NotSupported, field: "spec.machineImages[0].versions[0].cri[1].name", detail: `supported values: "containerd"`})
	})
	t.Run("duplicated container runtime interface names are forbidden", func(t *testing.T) {
		cp := validCloudProfile()
		cp.Spec.MachineImages[0].Versions[0].CRI = []gardencorev1beta1.CRI{{Name: "containerd"}, {Name: "containerd"}}
		expectProblems(t, ValidateCloudProfile(cp, gateOff()), want{rule: "F-7", typ: Duplicate, field: "spec.machineImages[0].versions[0].cri[1]", bad: gardencorev1beta1.CRINameContainerD, checkBad: true})
	})
	t.Run("duplicated container runtime names are forbidden", func(t *testing.T) {
		cp := validCloudProfile()
		cp.Spec.MachineImages[0].Versions[0].CRI = []gardencorev1beta1.CRI{{Name: "containerd", ContainerRuntimes: []gardencorev1beta1.ContainerRuntime{{Type: "cr1"}, {Type: "cr1"}}}}
		expectProblems(t, ValidateCloudProfile(cp, gateOff()), want{rule: "F-7", typ: Duplicate, field: "spec.machineImages[0].versions[0].cri[0].containerRuntimes[1].type",
			attr: "spec.machine_images[0].versions[0].cri[0].container_runtimes[1].type"})
	})
	t.Run("invalid container runtime types are forbidden", func(t *testing.T) {
		cp := validCloudProfile()
		cp.Spec.MachineImages[0].Versions[0].CRI = []gardencorev1beta1.CRI{{Name: "containerd", ContainerRuntimes: []gardencorev1beta1.ContainerRuntime{{Type: "no-emoji-🪴"}, {Type: "no spaces"}}}}
		expectProblems(t, ValidateCloudProfile(cp, gateOff()),
			want{rule: "F-7", typ: Invalid, field: "spec.machineImages[0].versions[0].cri[0].containerRuntimes[0].type", detail: "~container runtime type must be a qualified name"},
			want{rule: "F-7", typ: Invalid, field: "spec.machineImages[0].versions[0].cri[0].containerRuntimes[1].type", detail: "~container runtime type must be a qualified name"})
	})
}

func TestRuleF8_OneSupportedImageVersionPerMinor(t *testing.T) {
	t.Run("a nil classification with the same semver but a different flavor is allowed", func(t *testing.T) {
		expectNoProblems(t, ValidateCloudProfile(withImageVersions(classified(imageVersion("3.4.6"), supported), imageVersion("3.4.6-flavor")), gateOff()))
	})
	t.Run("multiple lifecycle-only supported versions within the same minor are allowed", func(t *testing.T) {
		expectNoProblems(t, ValidateCloudProfile(withImageVersions(
			lifecycleImageVersion("3.4.6", stageOpen(supported)), lifecycleImageVersion("3.4.7", stageOpen(supported))), gateOn()))
	})
	t.Run("two legacy supported versions of the same minor conflict, pre-releases included", func(t *testing.T) {
		expectProblems(t, ValidateCloudProfile(withImageVersions(
			classified(imageVersion("1877.12.0"), supported), classified(imageVersion("1877.12.0-inplace"), supported)), gateOff()),
			want{rule: "F-8", typ: Forbidden, field: "spec.machineImages[0].versions[0]", attr: "spec.machine_images[0].versions[0]", detail: "~unable to add version \"1877.12.0\""},
			want{rule: "F-8", typ: Forbidden, field: "spec.machineImages[0].versions[1]"})
	})
	t.Run("the check is per image", func(t *testing.T) {
		expectNoProblems(t, ValidateCloudProfile(withImages(
			machineImage("a", classified(imageVersion("1.1.0"), supported)),
			machineImage("b", classified(imageVersion("1.1.1"), supported))), gateOff()))
	})
	t.Run("build metadata makes an equal version that is skipped", func(t *testing.T) {
		expectNoProblems(t, ValidateCloudProfile(withImageVersions(
			classified(imageVersion("1.1.0"), supported), classified(imageVersion("1.1.0+build"), supported)), gateOff()))
	})
}

func TestRuleF9_ExpirableVersionRulesApplyToImageVersions(t *testing.T) {
	v := imageVersion("1.0.0")
	v.Classification = cls(expired)
	expectProblems(t, ValidateCloudProfile(withImageVersions(v), gateOff()),
		want{rule: "D-3", typ: Forbidden, field: "spec.machineImages[0].versions[0].classification", attr: "spec.machine_images[0].versions[0].classification"})
}

func TestRuleF10_LegacyImagesNeedArchitectures(t *testing.T) {
	t.Run("no architectures set fails without capabilities", func(t *testing.T) {
		expectProblems(t, ValidateCloudProfile(capabilityCloudProfile(), gateOff()),
			want{rule: "F-10", typ: Required, field: "spec.machineImages[0].versions[0].architectures", attr: "spec.machine_images[0].versions[0].architectures", detail: "must provide at least one architecture"},
			want{rule: "G-7", typ: Required, field: "spec.machineTypes[0].architecture", detail: "must provide an architecture"})
	})
	t.Run("only capabilities set fails without a global definition", func(t *testing.T) {
		cp := capabilityCloudProfile()
		cp.Spec.MachineImages[0].Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor("arm64")}
		cp.Spec.MachineTypes[0].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"arm64"}}
		expectProblems(t, ValidateCloudProfile(cp, gateOff()),
			want{rule: "F-10", typ: Required, field: "spec.machineImages[0].versions[0].architectures"},
			want{rule: "F-10", typ: Forbidden, field: "spec.machineImages[0].versions[0].capabilityFlavors", detail: "must not provide capabilities without global definition"},
			want{rule: "G-7", typ: Required, field: "spec.machineTypes[0].architecture"},
			want{rule: "G-7", typ: Forbidden, field: "spec.machineTypes[0].capabilities", detail: "must not provide capabilities without global definition"})
	})
	t.Run("only architectures set is valid", func(t *testing.T) {
		cp := capabilityCloudProfile()
		cp.Spec.MachineImages[0].Versions[0].Architectures = []string{"arm64"}
		cp.Spec.MachineTypes[0].Architecture = ptrTo("arm64")
		expectNoProblems(t, ValidateCloudProfile(cp, gateOff()))
	})
	t.Run("images without architectures are forbidden even with a bastion", func(t *testing.T) {
		cp := validCloudProfile()
		cp.Spec.Bastion = &gardencorev1beta1.Bastion{MachineImage: &gardencorev1beta1.BastionMachineImage{Name: "some-machine-image"}}
		cp.Spec.MachineImages[0].Versions[0].Classification = cls(supported)
		cp.Spec.MachineImages[0].Versions[0].Architectures = []string{}
		expectProblems(t, ValidateCloudProfile(cp, gateOff()), want{rule: "F-10", typ: Required, field: "spec.machineImages[0].versions[0].architectures", detail: "must provide at least one architecture"})
	})
}
