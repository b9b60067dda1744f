package cloudprofile

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

func TestRuleG1_AtLeastOneMachineType(t *testing.T) {
	t.Run("at least one machine type has to be defined", func(t *testing.T) {
		cp := validCloudProfile()
		cp.Spec.MachineTypes = []gardencorev1beta1.MachineType{}
		expectProblems(t, ValidateCloudProfile(cp, gateOff()), want{rule: "G-1", typ: Required, field: "spec.machineTypes", attr: "spec.machine_types", detail: "must provide at least one machine type"})
	})
	t.Run("the rule is separate from the element rules", func(t *testing.T) {
		expectNoProblems(t, validateMachineTypes(nil, nil, NewPath("spec").Child("machineTypes"), true))
	})
}

func TestRuleG2_MachineTypeNames(t *testing.T) {
	for _, tt := range []struct {
		name, typeName string
		fail           bool
	}{
		{"forbid emoji characters", "🪴", true},
		{"forbid whitespaces", "special image", true},
		{"forbid slashes", "nested/image", true},
		{"pass with dashes and dots", "a.qualified-name", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cp := validCloudProfile()
			cp.Spec.MachineTypes[0].Name = tt.typeName
			ps := ValidateCloudProfile(cp, gateOff())
			if !tt.fail {
				expectNoProblems(t, ps)
				return
			}
			expectProblems(t, ps, want{rule: "G-2", typ: Invalid, field: "spec.machineTypes[0].name", attr: "spec.machine_types[0].name", bad: tt.typeName, checkBad: true, detail: "~machine type name must be a qualified name"})
		})
	}
}

func TestRuleG3_DuplicateMachineTypeNames(t *testing.T) {
	t.Run("machine type names are unique", func(t *testing.T) {
		cp := validCloudProfile()
		cp.Spec.MachineTypes = append(cp.Spec.MachineTypes, cp.Spec.MachineTypes[0])
		expectProblems(t, ValidateCloudProfile(cp, gateOff()), want{rule: "G-3", typ: Duplicate, field: "spec.machineTypes[1].name", attr: "spec.machine_types[1].name", bad: "machine-type-1", checkBad: true})
	})
	t.Run("the remaining checks of a duplicate are skipped, later elements are still validated", func(t *testing.T) {
		cp := validCloudProfile()
		dup := cp.Spec.MachineTypes[0]
		dup.CPU = resource.MustParse("-1")
		later := validMachineType()
		later.Name, later.GPU = "later", resource.MustParse("-1")
		cp.Spec.MachineTypes = append(cp.Spec.MachineTypes, dup, later)
		expectProblems(t, ValidateCloudProfile(cp, gateOff()),
			want{rule: "G-3", field: "spec.machineTypes[1].name"},
			want{rule: "G-4", field: "spec.machineTypes[2].gpu"})
	})
	t.Run("G-7 still runs for a duplicate", func(t *testing.T) {
		cp := validCloudProfile()
		dup := cp.Spec.MachineTypes[0]
		dup.Architecture = nil
		cp.Spec.MachineTypes = append(cp.Spec.MachineTypes, dup)
		expectProblems(t, ValidateCloudProfile(cp, gateOff()),
			want{rule: "G-3", field: "spec.machineTypes[1].name"},
			want{rule: "G-7", field: "spec.machineTypes[1].architecture"})
	})
}

// invalidMachineTypes are Gardener's four invalid machine types of "should forbid machine types
// with unsupported property values".
func invalidMachineTypes() []gardencorev1beta1.MachineType {
	negative, valid := resource.MustParse("-1"), resource.MustParse("100Gi")
	return []gardencorev1beta1.MachineType{
		{Name: "", CPU: negative, GPU: negative, Memory: resource.MustParse("-100Gi"), Storage: &gardencorev1beta1.MachineTypeStorage{MinSize: &negative}, Architecture: ptrTo("amd64")},
		{Name: "negative-storage-size", CPU: resource.MustParse("2"), GPU: resource.MustParse("0"), Memory: valid, Storage: &gardencorev1beta1.MachineTypeStorage{StorageSize: &negative}, Architecture: ptrTo("amd64")},
		{Name: "min-size-and-storage-size", CPU: resource.MustParse("2"), GPU: resource.MustParse("0"), Memory: valid, Storage: &gardencorev1beta1.MachineTypeStorage{MinSize: &valid, StorageSize: &valid}, Architecture: ptrTo("arm64")},
		{Name: "empty-storage-config", CPU: resource.MustParse("2"), GPU: resource.MustParse("0"), Memory: valid, Storage: &gardencorev1beta1.MachineTypeStorage{}, Architecture: ptrTo("foo")},
	}
}

func TestRuleG4_MachineTypeResourcesNotNegative(t *testing.T) {
	t.Run("negative cpu, gpu and memory are forbidden", func(t *testing.T) {
		ps := validateMachineTypes(invalidMachineTypes()[:1], nil, NewPath("spec").Child("machineTypes"), true)
		expectProblems(t, ps,
			want{rule: "G-2", typ: Required, field: "spec.machineTypes[0].name"},
			want{rule: "G-4", typ: Invalid, field: "spec.machineTypes[0].cpu", attr: "spec.machine_types[0].cpu", bad: "-1", checkBad: true, detail: "must be greater than or equal to 0"},
			want{rule: "G-4", typ: Invalid, field: "spec.machineTypes[0].gpu"},
			want{rule: "G-4", typ: Invalid, field: "spec.machineTypes[0].memory", bad: "-100Gi", checkBad: true},
			want{rule: "G-6", typ: Invalid, field: "spec.machineTypes[0].storage.minSize", attr: "spec.machine_types[0].storage.min_size"})
	})
	t.Run("fractional values are allowed", func(t *testing.T) {
		cp := validCloudProfile()
		cp.Spec.MachineTypes[0].CPU = resource.MustParse("500m")
		expectNoProblems(t, ValidateCloudProfile(cp, gateOff()))
	})
}

func TestRuleG5_MachineTypeArchitectureAndCapabilities(t *testing.T) {
	t.Run("multiple architectures in machine type capabilities are forbidden", func(t *testing.T) {
		cp := withTwoArchitectures()
		cp.Spec.MachineTypes[0].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"arm64", "amd64"}}
		expectProblems(t, ValidateCloudProfile(cp, gateOff()), want{rule: "G-5", typ: Invalid, field: "spec.machineTypes[0].capabilities.architecture",
			attr: `spec.machine_types[0].capabilities["architecture"]`, bad: gardencorev1beta1.CapabilityValues{"arm64", "amd64"}, checkBad: true, detail: "must not define more than one architecture"})
	})
	t.Run("a machine type needs no architecture capability when several are defined", func(t *testing.T) {
		cp := withTwoArchitectures()
		expectNoProblems(t, ValidateCloudProfile(cp, gateOff()))
	})
	t.Run("the architecture field is checked against the global list even with capabilities", func(t *testing.T) {
		cp := withTwoArchitectures()
		cp.Spec.MachineCapabilities[0].Values = []string{"amd64"}
		cp.Spec.MachineTypes[0].Architecture = ptrTo("arm64")
		expectNoProblems(t, ValidateCloudProfile(cp, gateOff()))
	})
	t.Run("an unknown architecture is not supported", func(t *testing.T) {
		expectProblems(t, validateMachineTypes(invalidMachineTypes()[3:], nil, NewPath("spec").Child("machineTypes"), true),
			want{rule: "G-5", typ: NotSupported, field: "spec.machineTypes[0].architecture", bad: "foo", checkBad: true},
			want{rule: "G-6", field: "spec.machineTypes[0].storage"})
	})
}

func TestRuleG6_MachineTypeStorage(t *testing.T) {
	t.Run("unsupported property values of all four machine types", func(t *testing.T) {
		cp := validCloudProfile()
		cp.Spec.MachineTypes = invalidMachineTypes()
		expectProblems(t, ValidateCloudProfile(cp, gateOff()),
			want{rule: "G-2", typ: Required, field: "spec.machineTypes[0].name"},
			want{rule: "G-4", typ: Invalid, field: "spec.machineTypes[0].cpu"},
			want{rule: "G-4", typ: Invalid, field: "spec.machineTypes[0].gpu"},
			want{rule: "G-4", typ: Invalid, field: "spec.machineTypes[0].memory"},
			want{rule: "G-6", typ: Invalid, field: "spec.machineTypes[0].storage.minSize"},
			want{rule: "G-6", typ: Invalid, field: "spec.machineTypes[1].storage.size", attr: "spec.machine_types[1].storage.size"},
			want{rule: "G-6", typ: Invalid, field: "spec.machineTypes[2].storage", detail: `not allowed to configure both "size" and "minSize"`},
			want{rule: "G-6", typ: Invalid, field: "spec.machineTypes[3].storage", attr: "spec.machine_types[3].storage", detail: `must either configure "size" or "minSize"`},
			want{rule: "G-5", typ: NotSupported, field: "spec.machineTypes[3].architecture"})
	})
	t.Run("valid machine types are allowed", func(t *testing.T) {
		cp := validCloudProfile()
		size := resource.MustParse("20Gi")
		cp.Spec.MachineTypes[0].Storage = &gardencorev1beta1.MachineTypeStorage{MinSize: &size}
		expectNoProblems(t, ValidateCloudProfile(cp, gateOff()))
	})
}

func TestRuleG7_LegacyMachineTypesNeedArchitecture(t *testing.T) {
	t.Run("no architecture set fails without capabilities", func(t *testing.T) {
		cp := capabilityCloudProfile()
		cp.Spec.MachineImages[0].Versions[0].Architectures = []string{"amd64"}
		expectProblems(t, ValidateCloudProfile(cp, gateOff()), want{rule: "G-7", typ: Required, field: "spec.machineTypes[0].architecture", attr: "spec.machine_types[0].architecture", detail: "must provide an architecture"})
	})
	t.Run("capabilities without definitions are forbidden", func(t *testing.T) {
		cp := validCloudProfile()
		cp.Spec.MachineTypes[0].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"amd64"}}
		expectProblems(t, ValidateCloudProfile(cp, gateOff()), want{rule: "G-7", typ: Forbidden, field: "spec.machineTypes[0].capabilities", attr: "spec.machine_types[0].capabilities"})
	})
	t.Run("not checked below the CloudProfile level", func(t *testing.T) {
		expectNoProblems(t, validateMachineTypes([]gardencorev1beta1.MachineType{{Name: "x"}}, nil, NewPath("spec").Child("machineTypes"), false))
	})
}

func TestRuleH1_VolumeTypeNames(t *testing.T) {
	for _, tt := range []struct {
		name, volume string
		fail         bool
	}{
		{"forbid emoji characters", "🪴", true},
		{"forbid whitespaces", "special image", true},
		{"forbid slashes", "nested/image", true},
		{"pass with dashes and dots", "a.qualified-name", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cp := validCloudProfile()
			cp.Spec.VolumeTypes[0].Name = tt.volume
			ps := ValidateCloudProfile(cp, gateOff())
			if !tt.fail {
				expectNoProblems(t, ps)
				return
			}
			expectProblems(t, ps, want{rule: "H-1", typ: Invalid, field: "spec.volumeTypes[0].name", attr: "spec.volume_types[0].name", bad: tt.volume, checkBad: true, detail: "~volume type name must be a qualified name"})
		})
	}
}

func TestRuleH2_DuplicateVolumeTypeNames(t *testing.T) {
	t.Run("volume type names are unique", func(t *testing.T) {
		cp := validCloudProfile()
		cp.Spec.VolumeTypes = append(cp.Spec.VolumeTypes, cp.Spec.VolumeTypes[0])
		expectProblems(t, ValidateCloudProfile(cp, gateOff()), want{rule: "H-2", typ: Duplicate, field: "spec.volumeTypes[1].name", attr: "spec.volume_types[1].name"})
	})
	t.Run("the rest of the list is not validated after a duplicate", func(t *testing.T) {
		types := []gardencorev1beta1.VolumeType{{Name: "a", Class: "c"}, {Name: "a", Class: ""}, {Name: "", Class: ""}}
		expectProblems(t, validateVolumeTypes(types, NewPath("spec").Child("volumeTypes")), want{rule: "H-2", field: "spec.volumeTypes[1].name"})
	})
}

func TestRuleH3_VolumeTypeClass(t *testing.T) {
	for _, tt := range []struct {
		name, class string
		fail        bool
	}{
		{"forbid emoji characters", "🪴", true},
		{"forbid whitespaces", "special image", true},
		{"forbid slashes", "nested/image", true},
		{"pass with dashes and dots", "a.qualified-name", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cp := validCloudProfile()
			cp.Spec.VolumeTypes[0].Class = tt.class
			ps := ValidateCloudProfile(cp, gateOff())
			if !tt.fail {
				expectNoProblems(t, ps)
				return
			}
			expectProblems(t, ps, want{rule: "H-3", typ: Invalid, field: "spec.volumeTypes[0].class", attr: "spec.volume_types[0].class", detail: "~volume class must be a qualified name"})
		})
	}
}

func TestRuleH4_VolumeTypeMinSize(t *testing.T) {
	t.Run("unsupported property values of a volume type", func(t *testing.T) {
		negative := resource.MustParse("-1")
		cp := validCloudProfile()
		cp.Spec.VolumeTypes = []gardencorev1beta1.VolumeType{{MinSize: &negative}}
		expectProblems(t, ValidateCloudProfile(cp, gateOff()),
			want{rule: "H-1", typ: Required, field: "spec.volumeTypes[0].name"},
			want{rule: "H-3", typ: Required, field: "spec.volumeTypes[0].class"},
			want{rule: "H-4", typ: Invalid, field: "spec.volumeTypes[0].minSize", attr: "spec.volume_types[0].min_size", detail: "must be greater than or equal to 0"})
	})
	t.Run("a volume type list is never required", func(t *testing.T) {
		cp := validCloudProfile()
		cp.Spec.VolumeTypes = nil
		expectNoProblems(t, ValidateCloudProfile(cp, gateOff()))
	})
}
