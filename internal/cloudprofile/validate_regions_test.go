package cloudprofile

import (
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

func TestRuleI1_CapabilitiesNeedFeatureGate(t *testing.T) {
	t.Run("provided capabilities fail with the gate disabled", func(t *testing.T) {
		cp := capabilityCloudProfile()
		cp.Spec.MachineCapabilities = []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"amd64"}}}
		opts := gateOff()
		opts.Gates.CloudProfileCapabilities = false
		expectProblems(t, ValidateCloudProfile(cp, opts), want{rule: "I-1", typ: Forbidden, field: "spec.machineCapabilities", attr: "spec.machine_capabilities",
			detail: "machineCapabilities are not allowed with disabled CloudProfileCapabilities feature gate"})
	})
	t.Run("the other I checks still run", func(t *testing.T) {
		opts := gateOff()
		opts.Gates.CloudProfileCapabilities = false
		ps := validateCapabilityDefinitions([]gardencorev1beta1.CapabilityDefinition{{Name: "foo", Values: []string{"x"}}}, NewPath("spec").Child("machineCapabilities"), opts)
		expectProblems(t, ps, want{rule: "I-1", field: "spec.machineCapabilities"}, want{rule: "I-4", field: "spec.machineCapabilities.architecture"})
	})
}

func TestRuleI2_DuplicateCapabilityNames(t *testing.T) {
	t.Run("a global capability definition with duplicate entries fails", func(t *testing.T) {
		cp := withTwoArchitectures()
		cp.Spec.MachineImages[0].Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor("arm64")}
		cp.Spec.MachineTypes[0].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"arm64"}}
		cp.Spec.MachineCapabilities = []gardencorev1beta1.CapabilityDefinition{
			{Name: "architecture", Values: []string{"arm64", "amd64"}},
			{Name: "architecture", Values: []string{"arm64"}},
		}
		expectProblems(t, ValidateCloudProfile(cp, gateOff()), want{rule: "I-2", typ: Duplicate, field: "spec.machineCapabilities[1].name", attr: "spec.machine_capabilities[1].name", bad: "architecture", checkBad: true})
	})
	t.Run("the later definition's values win", func(t *testing.T) {
		cp := withTwoArchitectures()
		cp.Spec.MachineImages[0].Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor("amd64")}
		cp.Spec.MachineCapabilities = []gardencorev1beta1.CapabilityDefinition{
			{Name: "architecture", Values: []string{"arm64", "amd64"}},
			{Name: "architecture", Values: []string{"arm64"}},
		}
		expectProblems(t, ValidateCloudProfile(cp, gateOff()),
			want{rule: "I-2", field: "spec.machineCapabilities[1].name"},
			want{rule: "F-6", typ: NotSupported, field: "spec.machineImages[0].versions[0].capabilityFlavors[0].architecture[0]", detail: `supported values: "arm64"`})
	})
}

func TestRuleI3_ReservedCapabilityPrefix(t *testing.T) {
	cp := withTwoArchitectures()
	cp.Spec.MachineTypes[0].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"amd64"}}
	cp.Spec.MachineCapabilities = []gardencorev1beta1.CapabilityDefinition{
		{Name: "architecture", Values: []string{"amd64"}},
		{Name: "gardener-update-type", Values: []string{"rolling", "in-place"}},
	}
	expectProblems(t, ValidateCloudProfile(cp, gateOff()), want{rule: "I-3", typ: Forbidden, field: "spec.machineCapabilities[1].name", attr: "spec.machine_capabilities[1].name",
		detail: `the "gardener-" prefix is reserved for Gardener-core capabilities`})
}

func TestRuleI4_ArchitectureCapabilityRequired(t *testing.T) {
	t.Run("invalid architecture capability values fail", func(t *testing.T) {
		cp := withTwoArchitectures()
		cp.Spec.MachineCapabilities = []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"amd64", "custom"}}}
		expectProblems(t, ValidateCloudProfile(cp, gateOff()), want{rule: "I-4", typ: Invalid, field: "spec.machineCapabilities.architecture",
			attr: "spec.machine_capabilities[0].values[1]", bad: "custom", checkBad: true, detail: "allowed architectures are: amd64, arm64"})
	})
	t.Run("a missing architecture definition is required", func(t *testing.T) {
		ps := validateCapabilityDefinitions([]gardencorev1beta1.CapabilityDefinition{{Name: "foo", Values: []string{"x"}}}, NewPath("spec").Child("machineCapabilities"), gateOff())
		expectProblems(t, ps, want{rule: "I-4", typ: Required, field: "spec.machineCapabilities.architecture", attr: "spec.machine_capabilities", detail: "architecture capability is required", bad: "", checkBad: true})
	})
}

func TestRuleI5_CapabilityNamesAndValues(t *testing.T) {
	t.Run("capabilities with empty keys or values fail", func(t *testing.T) {
		cp := withTwoArchitectures()
		cp.Spec.MachineImages[0].Versions[0].CapabilityFlavors = nil
		cp.Spec.MachineCapabilities = []gardencorev1beta1.CapabilityDefinition{
			{Name: "", Values: gardencorev1beta1.CapabilityValues{}},
			{Name: "hasNoValues", Values: []string{}},
			{Name: "hasEmptyValues", Values: []string{""}},
		}
		expectProblems(t, ValidateCloudProfile(cp, gateOff()),
			want{rule: "I-4", typ: Required, field: "spec.machineCapabilities.architecture", bad: "", checkBad: true, detail: "architecture capability is required"},
			want{rule: "I-5", typ: Required, field: "spec.machineCapabilities.hasNoValues", attr: "spec.machine_capabilities[1].values", bad: "", checkBad: true, detail: "capability values must not be empty"},
			want{rule: "I-5", typ: Required, field: "spec.machineCapabilities.hasEmptyValues[0]", attr: "spec.machine_capabilities[2].values[0]", bad: "", checkBad: true, detail: "capability values must not be empty"},
			want{rule: "I-5", typ: Required, field: "spec.machineCapabilities", attr: "spec.machine_capabilities[0].name", bad: "", checkBad: true, detail: "capability keys must not be empty"},
			want{rule: "I-5", typ: Required, field: "spec.machineCapabilities[]", attr: "spec.machine_capabilities[0].values", bad: "", checkBad: true, detail: "capability values must not be empty"})
	})
	t.Run("keys or values not passing the qualified name check fail", func(t *testing.T) {
		cp := withTwoArchitectures()
		cp.Spec.MachineCapabilities = []gardencorev1beta1.CapabilityDefinition{
			{Name: "architecture", Values: []string{"amd64"}},
			{Name: "🪴", Values: []string{"ℹ️", "no spaces", "correct_value"}},
		}
		cp.Spec.MachineTypes[0].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"amd64"}}
		expectProblems(t, ValidateCloudProfile(cp, gateOff()),
			want{rule: "I-5", typ: Invalid, field: "spec.machineCapabilities", attr: "spec.machine_capabilities[1].name", bad: "🪴", checkBad: true, detail: "~capability key must be qualified name"},
			want{rule: "I-5", typ: Invalid, field: "spec.machineCapabilities.🪴[0]", bad: "ℹ️", checkBad: true, detail: "~capability value must be qualified name"},
			want{rule: "I-5", typ: Invalid, field: "spec.machineCapabilities.🪴[1]", attr: "spec.machine_capabilities[1].values[1]", bad: "no spaces", checkBad: true, detail: "~capability value must be qualified name"})
	})
}

func TestRuleI6_DuplicateCapabilityValuesAccepted(t *testing.T) {
	cp := withTwoArchitectures()
	cp.Spec.MachineCapabilities[1].Values = []string{"value1", "value1"}
	expectNoProblems(t, ValidateCloudProfile(cp, gateOff()))
}

func TestRuleJ1_AtLeastOneRegion(t *testing.T) {
	cp := validCloudProfile()
	cp.Spec.Regions = nil
	expectProblems(t, ValidateCloudProfile(cp, gateOff()), want{rule: "J-1", typ: Required, field: "spec.regions", attr: "spec.regions", detail: "must provide at least one region"})
}

func TestRuleJ2_RegionNames(t *testing.T) {
	t.Run("regions with unsupported name values are forbidden", func(t *testing.T) {
		cp := validCloudProfile()
		cp.Spec.Regions = []gardencorev1beta1.Region{{Name: "", Zones: []gardencorev1beta1.AvailabilityZone{{Name: ""}}}}
		expectProblems(t, ValidateCloudProfile(cp, gateOff()),
			want{rule: "J-2", typ: Required, field: "spec.regions[0].name", attr: "spec.regions[0].name", detail: "must provide a region name"},
			want{rule: "J-3", typ: Required, field: "spec.regions[0].zones[0].name", attr: "spec.regions[0].zones[0].name", detail: "zone name cannot be empty"})
	})
	t.Run("duplicated region names are forbidden", func(t *testing.T) {
		cp := validCloudProfile()
		cp.Spec.Regions = append(cp.Spec.Regions, cp.Spec.Regions[0])
		expectProblems(t, ValidateCloudProfile(cp, gateOff()), want{rule: "J-2", typ: Duplicate, field: "spec.regions[1].name", bad: "region1", checkBad: true})
	})
	t.Run("any region name format is accepted", func(t *testing.T) {
		cp := validCloudProfile()
		cp.Spec.Regions[0].Name = "Region With Spaces/x"
		expectNoProblems(t, ValidateCloudProfile(cp, gateOff()))
	})
}

func TestRuleJ3_ZoneNames(t *testing.T) {
	t.Run("duplicated zone names are forbidden", func(t *testing.T) {
		cp := validCloudProfile()
		cp.Spec.Regions[0].Zones = append(cp.Spec.Regions[0].Zones, gardencorev1beta1.AvailabilityZone{Name: "zone1"})
		expectProblems(t, ValidateCloudProfile(cp, gateOff()), want{rule: "J-3", typ: Duplicate, field: "spec.regions[0].zones[1].name", attr: "spec.regions[0].zones[1].name"})
	})
	t.Run("the same zone name in two regions is allowed", func(t *testing.T) {
		cp := validCloudProfile()
		cp.Spec.Regions = append(cp.Spec.Regions, gardencorev1beta1.Region{Name: "region2", Zones: []gardencorev1beta1.AvailabilityZone{{Name: "zone1"}}})
		expectNoProblems(t, ValidateCloudProfile(cp, gateOff()))
	})
}

func TestRuleJ4_RegionLabels(t *testing.T) {
	cp := validCloudProfile()
	cp.Spec.Regions[0].Labels = map[string]string{
		"this-is-not-allowed": "?*&!@",
		"toolongtoolongtoolongtoolongtoolongtoolongtoolongtoolongtoolongtoolongtoolong": "toolongtoolongtoolongtoolongtoolongtoolongtoolongtoolongtoolongtoolongtoolong",
	}
	w := want{rule: "J-4", typ: Invalid, field: "spec.regions[0].labels", attr: "spec.regions[0].labels"}
	expectProblems(t, ValidateCloudProfile(cp, gateOff()), w, w, w)
}

func TestRuleJ5_Bastion(t *testing.T) {
	setup := func(bastion *gardencorev1beta1.Bastion, classification *gardencorev1beta1.VersionClassification, archs ...string) *gardencorev1beta1.CloudProfile {
		cp := validCloudProfile()
		cp.Spec.Bastion = bastion
		cp.Spec.MachineImages[0].Versions[0].Classification = classification
		if archs != nil {
			cp.Spec.MachineImages[0].Versions[0].Architectures = archs
		}
		return cp
	}
	image := func(version *string) *gardencorev1beta1.BastionMachineImage {
		return &gardencorev1beta1.BastionMachineImage{Name: "some-machine-image", Version: version}
	}
	knownType := &gardencorev1beta1.BastionMachineType{Name: "machine-type-1"}

	tests := []struct {
		name  string
		cp    *gardencorev1beta1.CloudProfile
		wants []want
	}{
		{"an empty bastion is forbidden", setup(&gardencorev1beta1.Bastion{}, nil),
			[]want{{rule: "J-5", typ: Invalid, field: "spec.bastion", attr: "spec.bastion", detail: "bastion section needs a machine type or machine image"}}},
		{"an unknown machine type is forbidden", setup(&gardencorev1beta1.Bastion{MachineType: &gardencorev1beta1.BastionMachineType{Name: "unknown"}}, nil),
			[]want{{rule: "J-5", typ: Invalid, field: "spec.bastion.machineType.name", attr: "spec.bastion.machine_type.name", detail: "machine type not found in spec.machineTypes"}}},
		{"a known machine type is allowed", setup(&gardencorev1beta1.Bastion{MachineType: knownType}, nil), nil},
		{"an unknown machine image is forbidden", setup(&gardencorev1beta1.Bastion{MachineImage: &gardencorev1beta1.BastionMachineImage{Name: "unknown"}}, nil),
			[]want{{rule: "J-5", typ: Invalid, field: "spec.bastion.machineImage.name", attr: "spec.bastion.machine_image.name", detail: "image name not found in spec.machineImages"}}},
		{"an unknown image version is forbidden", setup(&gardencorev1beta1.Bastion{MachineImage: image(ptrTo("9.9.9"))}, cls(supported)),
			[]want{{rule: "J-5", typ: Invalid, field: "spec.bastion.machineImage.version", attr: "spec.bastion.machine_image.version", detail: "image version not found in spec.machineImages"}}},
		{"a preview image is forbidden", setup(&gardencorev1beta1.Bastion{MachineImage: image(nil)}, cls(preview), "amd64"),
			[]want{{rule: "J-5", typ: Invalid, field: "spec.bastion.machineImage.name", bad: "some-machine-image", checkBad: true, detail: `no image with classification supported and arch "<nil>" found`}}},
		{"an unclassified image is forbidden", setup(&gardencorev1beta1.Bastion{MachineImage: image(nil)}, nil),
			[]want{{rule: "J-5", field: "spec.bastion.machineImage.name"}}},
		{"images with supported classification and architecture are allowed", setup(&gardencorev1beta1.Bastion{MachineImage: image(nil)}, cls(supported), "amd64"), nil},
		{"a matching architecture of machine type and image is allowed", setup(&gardencorev1beta1.Bastion{MachineType: knownType, MachineImage: image(ptrTo("1.2.3"))}, cls(supported), "amd64"), nil},
		{"a different architecture of machine type and image is forbidden", setup(&gardencorev1beta1.Bastion{MachineType: knownType, MachineImage: image(ptrTo("1.2.3"))}, cls(supported), "arm64"),
			[]want{{rule: "J-5", typ: Invalid, field: "spec.bastion.machineImage.version", detail: `no image with classification supported and arch "amd64" found`}}},
		{"any image architecture is allowed if the machine type is nil", setup(&gardencorev1beta1.Bastion{MachineImage: image(ptrTo("1.2.3"))}, cls(supported), "arm64"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			expectProblems(t, ValidateCloudProfile(tt.cp, gateOff()), tt.wants...)
		})
	}

	t.Run("a lifecycle-only supported version never qualifies", func(t *testing.T) {
		cp := setup(&gardencorev1beta1.Bastion{MachineImage: image(nil)}, nil)
		cp.Spec.MachineImages[0].Versions[0].Lifecycle = lc{stageOpen(supported)}
		expectProblems(t, ValidateCloudProfile(cp, gateOn()), want{rule: "J-5", field: "spec.bastion.machineImage.name"})
	})
	t.Run("with capabilities the global architectures count as supported", func(t *testing.T) {
		cp := withTwoArchitectures()
		cp.Spec.MachineTypes[0].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"arm64"}}
		cp.Spec.MachineImages[0].Versions[0].Classification = cls(supported)
		cp.Spec.Bastion = &gardencorev1beta1.Bastion{MachineType: &gardencorev1beta1.BastionMachineType{Name: "machine"}, MachineImage: &gardencorev1beta1.BastionMachineImage{Name: "image"}}
		expectNoProblems(t, ValidateCloudProfile(cp, gateOff()))
	})
}
