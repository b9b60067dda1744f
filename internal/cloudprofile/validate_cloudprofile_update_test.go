package cloudprofile

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// updateCloudProfile is the fixture of Gardener's #ValidateCloudProfileUpdate tests.
func updateCloudProfile() *gardencorev1beta1.CloudProfile {
	cp := validCloudProfile()
	cp.ObjectMeta = metav1.ObjectMeta{Name: "dummy", ResourceVersion: "dummy"}
	cp.Spec.Type = "aws"
	cp.Spec.SeedSelector = nil
	cp.Spec.MachineImages = []gardencorev1beta1.MachineImage{machineImage("some-machine-image", classified(imageVersion("1.2.3"), supported))}
	cp.Spec.Kubernetes.Versions = []ev{{Version: "1.17.2", Classification: cls(deprecated)}}
	return cp
}

func TestRuleU1_MaxNodesTotalCannotDecrease(t *testing.T) {
	limits := func(n *int32) *gardencorev1beta1.Limits { return &gardencorev1beta1.Limits{MaxNodesTotal: n} }
	tests := []struct {
		name     string
		old, new *gardencorev1beta1.Limits
		fail     bool
	}{
		{"adding limits is allowed", nil, limits(ptrTo[int32](100)), false},
		{"removing limits is allowed", limits(ptrTo[int32](100)), nil, false},
		{"adding maxNodesTotal is allowed", limits(nil), limits(ptrTo[int32](100)), false},
		{"removing maxNodesTotal is allowed", limits(ptrTo[int32](100)), limits(nil), false},
		{"an unchanged maxNodesTotal is allowed", limits(ptrTo[int32](100)), limits(ptrTo[int32](100)), false},
		{"increasing maxNodesTotal is allowed", limits(ptrTo[int32](100)), limits(ptrTo[int32](1000)), false},
		{"decreasing maxNodesTotal is forbidden", limits(ptrTo[int32](100)), limits(ptrTo[int32](10)), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			oldCP, newCP := updateCloudProfile(), updateCloudProfile()
			oldCP.Spec.Limits, newCP.Spec.Limits = tt.old, tt.new
			ps := ValidateCloudProfileUpdate(newCP, oldCP, gateOff())
			if !tt.fail {
				expectNoProblems(t, ps)
				return
			}
			expectProblems(t, ps, want{rule: "U-1", typ: Invalid, field: "spec.limits.maxNodesTotal", attr: "spec.limits.max_nodes_total", detail: "maxNodesTotal cannot be decreased", bad: int32(10), checkBad: true})
		})
	}
}

func TestRuleU2_KubernetesVersionCannotTurnUnavailable(t *testing.T) {
	t.Run("a kubernetes version cannot become unavailable when it was already active", func(t *testing.T) {
		oldCP, newCP := updateCloudProfile(), updateCloudProfile()
		oldCP.Spec.Kubernetes.Versions = []ev{{Version: "1.17.2", Lifecycle: lc{stageOpen(supported)}}}
		newCP.Spec.Kubernetes.Versions = []ev{{Version: "1.17.2", Lifecycle: lc{stageAt(supported, hour)}}}
		expectProblems(t, ValidateCloudProfileUpdate(newCP, oldCP, gateOn()), want{rule: "U-2", typ: Forbidden, field: "spec.kubernetes.versions[0]", attr: "spec.kubernetes.versions[0]",
			detail: "a version cannot be turned unavailable if it was already moved into a later lifecycle stage"})
	})
	t.Run("a new unavailable version is not checked", func(t *testing.T) {
		oldCP, newCP := updateCloudProfile(), updateCloudProfile()
		newCP.Spec.Kubernetes.Versions = append(newCP.Spec.Kubernetes.Versions, ev{Version: "1.18.0", Lifecycle: lc{stageAt(preview, hour)}})
		expectNoProblems(t, ValidateCloudProfileUpdate(newCP, oldCP, gateOn()))
	})
	t.Run("a version that stays unavailable is allowed", func(t *testing.T) {
		oldCP, newCP := updateCloudProfile(), updateCloudProfile()
		oldCP.Spec.Kubernetes.Versions = append(oldCP.Spec.Kubernetes.Versions, ev{Version: "1.18.0", Lifecycle: lc{stageAt(preview, hour)}})
		newCP.Spec.Kubernetes.Versions = append(newCP.Spec.Kubernetes.Versions, ev{Version: "1.18.0", Lifecycle: lc{stageAt(preview, 2*hour)}})
		expectNoProblems(t, ValidateCloudProfileUpdate(newCP, oldCP, gateOn()))
	})
}

func TestRuleU3_MachineImageVersionCannotTurnUnavailable(t *testing.T) {
	t.Run("a machine image version cannot become unavailable when it was already active", func(t *testing.T) {
		oldCP, newCP := updateCloudProfile(), updateCloudProfile()
		oldCP.Spec.MachineImages = []gardencorev1beta1.MachineImage{machineImage("ubuntu", lifecycleImageVersion("2135.6.0", stageOpen(preview)))}
		newCP.Spec.MachineImages = []gardencorev1beta1.MachineImage{machineImage("ubuntu", lifecycleImageVersion("2135.6.0", stageAt(supported, hour)))}
		expectProblems(t, ValidateCloudProfileUpdate(newCP, oldCP, gateOn()), want{rule: "U-3", typ: Forbidden, field: "spec.machineImages[0].versions[0]", attr: "spec.machine_images[0].versions[0]",
			detail: "a version cannot be turned unavailable if it was already moved into a later lifecycle stage"})
	})
	t.Run("images are matched by name", func(t *testing.T) {
		oldCP, newCP := updateCloudProfile(), updateCloudProfile()
		oldCP.Spec.MachineImages = []gardencorev1beta1.MachineImage{machineImage("debian", lifecycleImageVersion("2135.6.0", stageOpen(preview)))}
		newCP.Spec.MachineImages = []gardencorev1beta1.MachineImage{machineImage("ubuntu", lifecycleImageVersion("2135.6.0", stageAt(supported, hour)))}
		expectNoProblems(t, ValidateCloudProfileUpdate(newCP, oldCP, gateOn()))
	})
}

func TestRuleU4_RemovingVersionsIsAllowed(t *testing.T) {
	t.Run("deleting kubernetes versions does not return any errors", func(t *testing.T) {
		oldCP, newCP := updateCloudProfile(), updateCloudProfile()
		versions := []ev{
			{Version: "1.17.2", Classification: cls(deprecated)},
			{Version: "1.17.1", Classification: cls(deprecated), ExpirationDate: at(-5 * 365 * day)},
			{Version: "1.17.0", Classification: cls(deprecated), ExpirationDate: at(-5 * 365 * day)},
		}
		oldCP.Spec.Kubernetes.Versions, newCP.Spec.Kubernetes.Versions = versions, versions[:1]
		expectNoProblems(t, ValidateCloudProfileUpdate(newCP, oldCP, gateOff()))
	})
	t.Run("deleting machine image versions does not return any errors", func(t *testing.T) {
		oldCP, newCP := updateCloudProfile(), updateCloudProfile()
		past := at(-5 * 365 * day)
		a, b, c := classified(imageVersion("2135.6.2"), deprecated), classified(imageVersion("2135.6.1"), deprecated), classified(imageVersion("2135.6.0"), deprecated)
		b.ExpirationDate, c.ExpirationDate = past, past
		oldCP.Spec.MachineImages[0].Versions = []gardencorev1beta1.MachineImageVersion{a, b, c}
		newCP.Spec.MachineImages[0].Versions = []gardencorev1beta1.MachineImageVersion{a}
		expectNoProblems(t, ValidateCloudProfileUpdate(newCP, oldCP, gateOff()))
	})
}

func TestRuleU5_CapabilitiesOnUpdate(t *testing.T) {
	base := func() (*gardencorev1beta1.CloudProfile, *gardencorev1beta1.CloudProfile) {
		cp := updateCloudProfile()
		cp.Spec.MachineImages = capabilityCloudProfile().Spec.MachineImages
		cp.Spec.MachineTypes = []gardencorev1beta1.MachineType{{Name: "machine"}}
		return cp, cp.DeepCopy()
	}
	for _, initial := range []bool{true, false} {
		name := "using Capabilities"
		if initial {
			name = "switching to Capabilities"
		}
		t.Run(name, func(t *testing.T) {
			setup := func() (*gardencorev1beta1.CloudProfile, *gardencorev1beta1.CloudProfile) {
				newCP, oldCP := base()
				newCP.Spec.MachineCapabilities = []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"amd64", "arm64"}}}
				newCP.Spec.MachineImages[0].Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor("amd64")}
				if !initial {
					oldCP.Spec.MachineCapabilities = newCP.Spec.MachineCapabilities
				}
				return newCP, oldCP
			}
			t.Run("neither architectures nor capabilities for machine images succeeds", func(t *testing.T) {
				newCP, oldCP := setup()
				newCP.Spec.MachineTypes[0].Architecture = ptrTo("arm64")
				expectNoProblems(t, ValidateCloudProfileUpdate(newCP, oldCP, gateOff()))
			})
			t.Run("only architectures set fails", func(t *testing.T) {
				newCP, oldCP := setup()
				newCP.Spec.MachineImages[0].Versions[0].Architectures = []string{"arm64"}
				newCP.Spec.MachineTypes[0].Architecture = ptrTo("arm64")
				expectProblems(t, ValidateCloudProfileUpdate(newCP, oldCP, gateOff()), want{rule: "F-6", typ: Invalid, field: "spec.machineImages[0].versions[0].architectures",
					detail: "architecture field values set (arm64) conflict with the capability architectures (amd64)"})
			})
			t.Run("only capabilities set succeeds", func(t *testing.T) {
				newCP, oldCP := setup()
				newCP.Spec.MachineImages[0].Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor("arm64")}
				newCP.Spec.MachineTypes[0].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"arm64"}}
				expectNoProblems(t, ValidateCloudProfileUpdate(newCP, oldCP, gateOff()))
			})
			t.Run("multiple architectures for machine type capabilities fail", func(t *testing.T) {
				newCP, oldCP := setup()
				newCP.Spec.MachineTypes[0].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"arm64", "amd64"}}
				expectProblems(t, ValidateCloudProfileUpdate(newCP, oldCP, gateOff()), want{rule: "G-5", typ: Invalid, field: "spec.machineTypes[0].capabilities.architecture", detail: "must not define more than one architecture"})
			})
			t.Run("conflicting architectures and capabilities fail", func(t *testing.T) {
				newCP, oldCP := setup()
				newCP.Spec.MachineImages[0].Versions[0].Architectures = []string{"amd64"}
				newCP.Spec.MachineTypes[0].Architecture = ptrTo("amd64")
				newCP.Spec.MachineImages[0].Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor("arm64")}
				newCP.Spec.MachineTypes[0].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"arm64"}}
				expectProblems(t, ValidateCloudProfileUpdate(newCP, oldCP, gateOff()),
					want{rule: "F-6", field: "spec.machineImages[0].versions[0].architectures", detail: "architecture field values set (amd64) conflict with the capability architectures (arm64)"},
					want{rule: "G-5", field: "spec.machineTypes[0].architecture", detail: "machine type architecture (amd64) conflicts with the capability architecture (arm64)"})
			})
			t.Run("split-up capabilities equal to the architectures succeed", func(t *testing.T) {
				newCP, oldCP := setup()
				newCP.Spec.MachineImages[0].Versions[0].Architectures = []string{"amd64", "arm64"}
				newCP.Spec.MachineTypes[0].Architecture = ptrTo("amd64")
				newCP.Spec.MachineImages[0].Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor("arm64"), flavor("amd64")}
				newCP.Spec.MachineTypes[0].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"amd64"}}
				expectNoProblems(t, ValidateCloudProfileUpdate(newCP, oldCP, gateOff()))
			})
		})
	}
	t.Run("not using Capabilities", func(t *testing.T) {
		setup := func() (*gardencorev1beta1.CloudProfile, *gardencorev1beta1.CloudProfile) {
			newCP, oldCP := base()
			oldCP.Spec.MachineImages[0].Versions[0].Architectures = []string{"arm64"}
			oldCP.Spec.MachineTypes[0].Architecture = ptrTo("arm64")
			return newCP, oldCP
		}
		t.Run("completely removed architectures fail", func(t *testing.T) {
			newCP, _ := setup()
			expectProblems(t, ValidateCloudProfile(newCP, gateOff()),
				want{rule: "F-10", typ: Required, field: "spec.machineImages[0].versions[0].architectures"},
				want{rule: "G-7", typ: Required, field: "spec.machineTypes[0].architecture"})
		})
		t.Run("no architecture changes succeed", func(t *testing.T) {
			newCP, oldCP := setup()
			newCP.Spec.MachineImages[0].Versions[0].Architectures = []string{"arm64"}
			newCP.Spec.MachineTypes[0].Architecture = ptrTo("arm64")
			expectNoProblems(t, ValidateCloudProfileUpdate(newCP, oldCP, gateOff()))
		})
		t.Run("only capabilities fail", func(t *testing.T) {
			newCP, oldCP := setup()
			newCP.Spec.MachineImages[0].Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor("arm64")}
			newCP.Spec.MachineTypes[0].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"arm64"}}
			expectProblems(t, ValidateCloudProfileUpdate(newCP, oldCP, gateOff()),
				want{rule: "F-10", typ: Required, field: "spec.machineImages[0].versions[0].architectures"},
				want{rule: "F-10", typ: Forbidden, field: "spec.machineImages[0].versions[0].capabilityFlavors"},
				want{rule: "G-7", typ: Required, field: "spec.machineTypes[0].architecture"},
				want{rule: "G-7", typ: Forbidden, field: "spec.machineTypes[0].capabilities"})
		})
		t.Run("unknown architectures fail", func(t *testing.T) {
			newCP, oldCP := setup()
			newCP.Spec.MachineImages[0].Versions[0].Architectures = []string{"amd64", "other"}
			newCP.Spec.MachineTypes[0].Architecture = ptrTo("other")
			expectProblems(t, ValidateCloudProfileUpdate(newCP, oldCP, gateOff()),
				want{rule: "F-6", typ: NotSupported, field: "spec.machineImages[0].versions[0].architectures[1]"},
				want{rule: "G-5", typ: NotSupported, field: "spec.machineTypes[0].architecture"})
		})
	})
	t.Run("the request pipeline migrates legacy architectures before validating", func(t *testing.T) {
		oldCP, _ := base()
		oldCP.Spec.MachineImages[0].Versions[0].Architectures = []string{"arm64"}
		oldCP.Spec.MachineTypes[0].Architecture = ptrTo("arm64")
		newCP := oldCP.DeepCopy()
		newCP.Spec.MachineCapabilities = []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"amd64", "arm64"}}}
		// Validated raw, the version lacks flavors; after PrepareForUpdate it has [arm64].
		expectProblems(t, ValidateCloudProfileUpdate(newCP, oldCP, gateOff()), want{rule: "F-6", typ: Required, field: "spec.machineImages[0].versions[0].capabilityFlavors"})
		expectNoProblems(t, ValidateCloudProfileRequest(newCP, oldCP, gateOff()))
	})
	t.Run("the request pipeline allows reverting to a legacy profile", func(t *testing.T) {
		oldCP, _ := base()
		oldCP.Spec.MachineCapabilities = []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"amd64", "arm64"}}}
		oldCP.Spec.MachineImages[0].Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor("arm64")}
		oldCP.Spec.MachineTypes[0].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"arm64"}}
		newCP := oldCP.DeepCopy()
		newCP.Spec.MachineCapabilities = nil
		newCP.Spec.MachineImages[0].Versions[0].Architectures = []string{"arm64"}
		newCP.Spec.MachineTypes[0].Architecture = ptrTo("arm64")
		expectNoProblems(t, ValidateCloudProfileRequest(newCP, oldCP, gateOff()))
	})
}
