package cloudprofile

import (
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Table tests of the parent-aware admission rules (L rules), named after Gardener's admission tests
// (plugin/pkg/namespacedcloudprofile/validator/admission_test.go). Gardener's tests use time.Now(); these use the fixed instant testNow.

// admParent is the parent of Gardener's admission tests: three Kubernetes versions and one image, as served (defaulted).
func admParent() *gardencorev1beta1.CloudProfile {
	cp := &gardencorev1beta1.CloudProfile{
		ObjectMeta: metav1.ObjectMeta{Name: "parent-profile"},
		Spec: gardencorev1beta1.CloudProfileSpec{
			Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{
				{Version: "1.32.0", Classification: cls(preview)},
				{Version: "1.31.0", Classification: cls(supported)},
				{Version: "1.30.0"},
			}},
			MachineImages: []gardencorev1beta1.MachineImage{{Name: "test-image", Versions: []gardencorev1beta1.MachineImageVersion{
				{ExpirableVersion: ev{Version: "1.0.0"}, CRI: []gardencorev1beta1.CRI{{Name: gardencorev1beta1.CRINameContainerD}}},
			}}},
		},
	}
	gardencorev1beta1.SetObjectDefaults_CloudProfile(cp)
	return cp
}

func admNCP() *gardencorev1beta1.NamespacedCloudProfile {
	return &gardencorev1beta1.NamespacedCloudProfile{
		ObjectMeta: metav1.ObjectMeta{Name: "profile", Namespace: "garden-test"},
		Spec:       gardencorev1beta1.NamespacedCloudProfileSpec{Parent: gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: "parent-profile"}},
	}
}

func withDefaults(cp *gardencorev1beta1.CloudProfile) *gardencorev1beta1.CloudProfile {
	gardencorev1beta1.SetObjectDefaults_CloudProfile(cp)
	return cp
}

func criContainerd() []gardencorev1beta1.CRI {
	return []gardencorev1beta1.CRI{{Name: gardencorev1beta1.CRINameContainerD}}
}

func parentImageVersions(versions ...string) []gardencorev1beta1.MachineImage {
	image := gardencorev1beta1.MachineImage{Name: "test-image"}
	for _, v := range versions {
		image.Versions = append(image.Versions, gardencorev1beta1.MachineImageVersion{ExpirableVersion: ev{Version: v}, CRI: criContainerd()})
	}
	return []gardencorev1beta1.MachineImage{image}
}

func admit(ncp, old *gardencorev1beta1.NamespacedCloudProfile, parent *gardencorev1beta1.CloudProfile) Problems {
	return ValidateNamespacedCloudProfileAgainstParent(ncp, old, parent, gateOff())
}

func TestRuleL0_ParentLookupAndEarlyExit(t *testing.T) {
	t.Run("should not allow creating a NamespacedCloudProfile with an invalid parent reference", func(t *testing.T) {
		ncp := admNCP()
		ncp.Spec.Parent.Name = "idontexist"
		expectProblems(t, admit(ncp, nil, nil),
			want{rule: "L-0", field: "spec.parent.name", attr: "spec.parent.name", detail: "parent CloudProfile could not be found"})
	})
	t.Run("should allow creating a NamespacedCloudProfile with a valid parent reference", func(t *testing.T) {
		expectNoProblems(t, admit(admNCP(), nil, admParent()))
	})

	invalid := admNCP()
	invalid.Spec.Kubernetes = &gardencorev1beta1.KubernetesSettings{Versions: []ev{{Version: "1.25.0", ExpirationDate: at(day)}}}
	t.Run("an update that changes neither spec nor metadata is not checked again", func(t *testing.T) {
		expectNoProblems(t, admit(invalid.DeepCopy(), invalid.DeepCopy(), nil))
	})
	t.Run("a metadata-only change runs every check again", func(t *testing.T) {
		ncp := invalid.DeepCopy()
		ncp.Labels = map[string]string{"team": "a"}
		expectProblems(t, admit(ncp, invalid.DeepCopy(), admParent()), want{rule: "L-1", field: "spec.kubernetes.versions[0].version"})
	})
	t.Run("a metadata change during deletion is not checked", func(t *testing.T) {
		old := invalid.DeepCopy()
		old.DeletionTimestamp = at(0)
		ncp := old.DeepCopy()
		ncp.Finalizers = nil
		expectNoProblems(t, admit(ncp, old, admParent()))
	})
}

func TestRuleL1_KubernetesVersionMustExistInParent(t *testing.T) {
	t.Run("should fail for creating a NamespacedCloudProfile that specifies a Kubernetes version not in the parent CloudProfile", func(t *testing.T) {
		ncp := admNCP()
		ncp.Spec.Kubernetes = &gardencorev1beta1.KubernetesSettings{Versions: []ev{{Version: "1.25.0", ExpirationDate: at(day)}}}
		expectProblems(t, admit(ncp, nil, admParent()), want{
			rule: "L-1", typ: Invalid, field: "spec.kubernetes.versions[0].version", attr: "spec.kubernetes.versions[0].version",
			detail: "invalid kubernetes version specified: '1.25.0' does not exist in parent CloudProfile and thus cannot be overridden",
		})
	})
	t.Run("only the first failing Kubernetes override is reported", func(t *testing.T) {
		ncp := admNCP()
		ncp.Spec.Kubernetes = &gardencorev1beta1.KubernetesSettings{Versions: []ev{{Version: "1.31.0"}, {Version: "1.25.0", ExpirationDate: at(day)}}}
		ncp.Spec.MachineImages = []gardencorev1beta1.MachineImage{{Name: "new-image"}}
		expectProblems(t, admit(ncp, nil, admParent()), want{rule: "L-2", field: "spec.kubernetes.versions[0].expirationDate"})
	})
}

func TestRuleL2_KubernetesOverrideNeedsExpirationDate(t *testing.T) {
	t.Run("should fail for creating a NamespacedCloudProfile that specifies a Kubernetes version without an expiration date", func(t *testing.T) {
		ncp := admNCP()
		ncp.Spec.Kubernetes = &gardencorev1beta1.KubernetesSettings{Versions: []ev{{Version: "1.31.0"}}}
		expectProblems(t, admit(ncp, nil, admParent()), want{
			rule: "L-2", typ: Required, field: "spec.kubernetes.versions[0].expirationDate", attr: "spec.kubernetes.versions[0].expiration_date",
			detail: "specified version '1.31.0' does not set expiration date",
		})
	})
	t.Run("should allow creating a NamespacedCloudProfile that specifies a Kubernetes version from the parent CloudProfile and extends the expiration date", func(t *testing.T) {
		ncp := admNCP()
		ncp.Spec.Kubernetes = &gardencorev1beta1.KubernetesSettings{Versions: []ev{{Version: "1.31.0", ExpirationDate: at(day)}}}
		expectNoProblems(t, admit(ncp, nil, admParent()))
	})
	t.Run("a lifecycle-only override is impossible", func(t *testing.T) {
		ncp := admNCP()
		ncp.Spec.Kubernetes = &gardencorev1beta1.KubernetesSettings{Versions: []ev{{Version: "1.31.0", Lifecycle: lc{stageAt(expired, day)}}}}
		expectProblems(t, ValidateNamespacedCloudProfileAgainstParent(ncp, nil, admParent(), gateOn()), want{rule: "L-2", field: "spec.kubernetes.versions[0].expirationDate"})
	})
}

func TestRuleL3_KubernetesExpirationMayNotMoveIntoThePast(t *testing.T) {
	t.Run("should allow creation with past expiration dates", func(t *testing.T) {
		ncp := admNCP()
		ncp.Spec.Kubernetes = &gardencorev1beta1.KubernetesSettings{Versions: []ev{{Version: "1.31.0", ExpirationDate: at(-day)}}}
		expectNoProblems(t, admit(ncp, nil, admParent()))
	})

	old := admNCP()
	old.Spec.Kubernetes = &gardencorev1beta1.KubernetesSettings{Versions: []ev{{Version: "1.30.0", ExpirationDate: at(-day)}}}
	old.Status.CloudProfileSpec.Kubernetes.Versions = []ev{{Version: "1.30.0", ExpirationDate: at(-day)}, {Version: "1.31.0"}, {Version: "1.32.0"}}

	t.Run("should allow updates to a NamespacedCloudProfile even if one unchanged overridden Kubernetes version is already expired", func(t *testing.T) {
		ncp := old.DeepCopy()
		ncp.Spec.Kubernetes.Versions = []ev{{Version: "1.30.0", ExpirationDate: at(-day)}, {Version: "1.31.0", ExpirationDate: at(day)}}
		expectNoProblems(t, admit(ncp, old, admParent()))
	})
	t.Run("should fail for updating a expiration date to a still invalid value", func(t *testing.T) {
		ncp := old.DeepCopy()
		ncp.Spec.Kubernetes.Versions = []ev{{Version: "1.30.0", ExpirationDate: at(-30 * time.Minute)}}
		expectProblems(t, admit(ncp, old, admParent()), want{
			rule: "L-3", typ: Invalid, field: "spec.kubernetes.versions[0].expirationDate", attr: "spec.kubernetes.versions[0].expiration_date",
			detail: `expiration date for version "1.30.0" is in the past`,
		})
	})
	t.Run("an expiration exactly now is not in the past", func(t *testing.T) {
		ncp := old.DeepCopy()
		ncp.Spec.Kubernetes.Versions = []ev{{Version: "1.30.0", ExpirationDate: at(0)}}
		expectNoProblems(t, admit(ncp, old, admParent()))
	})
}

func TestRuleL4_UpdateStrategyOfParentImageIsFrozen(t *testing.T) {
	parent := admParent()
	parent.Spec.MachineImages = parentImageVersions("1.1.0")
	withDefaults(parent)
	old := admNCP()
	old.Spec.MachineImages = []gardencorev1beta1.MachineImage{{Name: "test-image", Versions: []gardencorev1beta1.MachineImageVersion{
		{ExpirableVersion: ev{Version: "1.1.0"}, CRI: criContainerd()},
	}}}

	t.Run("should not allow any changes to a MachineImage in a NamespacedCloudProfile, if it has been added to the parent CloudProfile in the meantime", func(t *testing.T) {
		ncp := old.DeepCopy()
		ncp.Spec.MachineImages[0].UpdateStrategy = ptrTo(gardencorev1beta1.UpdateStrategyMajor)
		ncp.Spec.MachineImages[0].Versions[0].Architectures = []string{"amd64", "arm64"}
		expectProblems(t, admit(ncp, old, parent),
			want{rule: "L-4", typ: Forbidden, field: "spec.machineImages[0].updateStrategy", attr: "spec.machine_images[0].update_strategy",
				detail: `cannot update the machine image update strategy of "test-image", as this version has been added to the parent CloudProfile by now`},
			want{rule: "L-5", typ: Forbidden, field: "spec.machineImages[0].versions[0]", attr: "spec.machine_images[0].versions[0]",
				detail: `cannot update the machine image version spec (except for the expiration date) of "test-image@1.1.0", as this version has been added to the parent CloudProfile by now`})
	})
	t.Run("should allow a NamespacedCloudProfile to specify a MachineImage, if it has been added to the parent CloudProfile only afterwards", func(t *testing.T) {
		old := old.DeepCopy()
		old.Spec.MachineImages[0].Versions[0].Architectures = []string{"amd64", "arm64"}
		ncp := old.DeepCopy()
		ncp.Generation++
		expectNoProblems(t, admit(ncp, old, parent))
	})
}

func TestRuleL5_ParentVersionOverrideIsFrozenButForItsExpiration(t *testing.T) {
	parent := withDefaults(&gardencorev1beta1.CloudProfile{ObjectMeta: metav1.ObjectMeta{Name: "parent-profile"}, Spec: gardencorev1beta1.CloudProfileSpec{
		Kubernetes:    gardencorev1beta1.KubernetesSettings{Versions: []ev{{Version: "1.30.0"}}},
		MachineImages: parentImageVersions("1.0.0"),
	}})
	old := admNCP()
	old.Spec.MachineImages = []gardencorev1beta1.MachineImage{{Name: "test-image", UpdateStrategy: ptrTo(gardencorev1beta1.UpdateStrategyPatch),
		Versions: []gardencorev1beta1.MachineImageVersion{{ExpirableVersion: ev{Version: "1.0.0", ExpirationDate: at(hour)}}}}}

	t.Run("should allow updating a NamespacedCloudProfile that specifies a MachineImage version with an expiration date override by setting a new expiration date", func(t *testing.T) {
		ncp := old.DeepCopy()
		ncp.Spec.MachineImages[0].Versions[0].ExpirationDate = at(2 * hour)
		expectNoProblems(t, admit(ncp, old, parent))
	})
	t.Run("a lifecycle added later is a change of the version spec", func(t *testing.T) {
		ncp := old.DeepCopy()
		ncp.Spec.MachineImages[0].Versions[0].Lifecycle = lc{stageAt(expired, day)}
		expectProblems(t, admit(ncp, old, parent), want{rule: "L-5", field: "spec.machineImages[0].versions[0]"})
	})
}

func TestRuleL6_ExtendedParentVersionMaySetOnlyItsExpiration(t *testing.T) {
	for _, tt := range []struct {
		name               string
		parentCapabilities bool
	}{{"parent without capabilities", false}, {"parent with capabilities", true}} {
		t.Run("should fail for creating a NamespacedCloudProfile that overrides an existing MachineImage version and specifies classification/cri/arch/flavors/kubeletVersionConstraint/inPlaceUpdates: "+tt.name, func(t *testing.T) {
			parent := admParent()
			if tt.parentCapabilities {
				parent.Spec.MachineCapabilities = []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"amd64", "arm64"}}}
			}
			parent.Spec.MachineImages = parentImageVersions("1.1.0", "1.2.0")
			withDefaults(parent)
			ncp := admNCP()
			ncp.Spec.MachineImages = []gardencorev1beta1.MachineImage{{Name: "test-image", Versions: []gardencorev1beta1.MachineImageVersion{{
				ExpirableVersion:         ev{Version: "1.1.0", ExpirationDate: at(-day), Classification: cls(supported)},
				CRI:                      criContainerd(),
				Architectures:            []string{"amd64"},
				CapabilityFlavors:        []gardencorev1beta1.MachineImageFlavor{flavor("amd64")},
				KubeletVersionConstraint: ptrTo(">=1.31.0"),
				InPlaceUpdates:           &gardencorev1beta1.InPlaceUpdates{Supported: true},
			}}}}
			v := "spec.machineImages[0].versions[0]"
			wants := []want{
				{rule: "L-6", typ: Forbidden, field: v + ".cri", detail: "must not provide a cri to an extended machine image in NamespacedCloudProfile"},
				{rule: "L-6", typ: Forbidden, field: v + ".classification", detail: "must not provide a classification to an extended machine image in NamespacedCloudProfile"},
				{rule: "L-6", typ: Forbidden, field: v + ".kubeletVersionConstraint", attr: "spec.machine_images[0].versions[0].kubelet_version_constraint",
					detail: "must not provide a kubelet version constraint to an extended machine image in NamespacedCloudProfile"},
				{rule: "L-6", typ: Forbidden, field: v + ".inPlaceUpdates", detail: "must not provide inPlaceUpdates to an extended machine image in NamespacedCloudProfile"},
				{rule: "L-6", typ: Forbidden, field: v + ".architectures", detail: "must not provide an architecture to an extended machine image in NamespacedCloudProfile"},
			}
			if tt.parentCapabilities {
				// capabilityFlavors are deleted by the transformation to a legacy parent's format.
				wants = append(wants, want{rule: "L-6", typ: Forbidden, field: v + ".capabilityFlavors", detail: "must not provide capabilities to an extended machine image in NamespacedCloudProfile"})
			}
			expectProblems(t, admit(ncp, nil, parent), wants...)
		})
	}

	capabilityParent := admParent()
	capabilityParent.Spec.MachineCapabilities = []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"amd64", "arm64"}}, {Name: "capability2", Values: []string{"value1", "value2"}}}
	capabilityParent.Spec.MachineImages[0].Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor("amd64")}
	extending := admNCP()
	extending.Spec.MachineImages = []gardencorev1beta1.MachineImage{{Name: "test-image", Versions: []gardencorev1beta1.MachineImageVersion{{ExpirableVersion: ev{Version: "1.0.0", ExpirationDate: at(day)}}}}}

	t.Run("should allow to add a machineImage without Capabilities", func(t *testing.T) {
		expectNoProblems(t, admit(extending, nil, capabilityParent))
	})
	t.Run("should NOT allow to add a machineImage with Capabilities", func(t *testing.T) {
		ncp := extending.DeepCopy()
		ncp.Spec.MachineImages[0].Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor("arm64")}
		expectProblems(t, admit(ncp, nil, capabilityParent), want{rule: "L-6", typ: Forbidden, field: "spec.machineImages[0].versions[0].capabilityFlavors",
			attr: "spec.machine_images[0].versions[0].capability_flavors", detail: "~must not provide capabilities to an extended machine image in NamespacedCloudProfile"})
	})
	t.Run("a lifecycle is not forbidden for an extended version", func(t *testing.T) {
		ncp := extending.DeepCopy()
		ncp.Spec.MachineImages[0].Versions[0].Lifecycle = lc{stageAt(expired, day)}
		// L-6 does not forbid it, and the merge ignores it: the merged version only takes the
		// expiration date, so D-4 does not fire either.
		expectNoProblems(t, ValidateNamespacedCloudProfileAgainstParent(ncp, nil, capabilityParent, gateOn()))
	})
}

func TestRuleL7_ExtendedParentVersionNeedsExpirationDate(t *testing.T) {
	t.Run("should fail for creating a NamespacedCloudProfile that overrides an existing MachineImage version without specifying an expiration date", func(t *testing.T) {
		parent := admParent()
		parent.Spec.MachineImages = parentImageVersions("1.2.0", "1.0.0")
		ncp := admNCP()
		ncp.Spec.MachineImages = []gardencorev1beta1.MachineImage{{Name: "test-image", Versions: []gardencorev1beta1.MachineImageVersion{{ExpirableVersion: ev{Version: "1.0.0"}}}}}
		expectProblems(t, admit(ncp, nil, parent), want{rule: "L-7", typ: Invalid, field: "spec.machineImages[0].versions[0].expirationDate",
			attr: "spec.machine_images[0].versions[0].expiration_date", detail: `expiration date for version "1.0.0" must be set`})
	})
}

func TestRuleL8_ImageExpirationMayNotMoveIntoThePast(t *testing.T) {
	parent := admParent()
	parent.Spec.MachineImages = parentImageVersions("1.1.0", "1.2.0")
	expiredOverride := []gardencorev1beta1.MachineImage{{Name: "test-image", Versions: []gardencorev1beta1.MachineImageVersion{{ExpirableVersion: ev{Version: "1.1.0", ExpirationDate: at(-day)}}}}}

	t.Run("should fail for updating a NamespacedCloudProfile that specifies an already expired MachineImage version", func(t *testing.T) {
		old := admNCP()
		ncp := old.DeepCopy()
		ncp.Spec.MachineImages = expiredOverride
		expectProblems(t, admit(ncp, old, parent), want{rule: "L-8", typ: Invalid, field: "spec.machineImages[0].versions[0].expirationDate",
			attr: "spec.machine_images[0].versions[0].expiration_date", detail: `expiration date for version "1.1.0" is in the past`})
	})
	t.Run("should allow creating a NamespacedCloudProfile that specifies an already expired MachineImage version", func(t *testing.T) {
		ncp := admNCP()
		ncp.Spec.MachineImages = expiredOverride
		expectNoProblems(t, admit(ncp, nil, withDefaults(parent.DeepCopy())))
	})
	t.Run("an unchanged expired override that the old status has is allowed", func(t *testing.T) {
		old := admNCP()
		old.Spec.MachineImages = expiredOverride
		old.Status.CloudProfileSpec = MergeNamespacedCloudProfile(withDefaults(parent.DeepCopy()).Spec, old.Spec, MergeOptions{})
		ncp := old.DeepCopy()
		ncp.Labels = map[string]string{"changed": "true"}
		expectNoProblems(t, admit(ncp, old, withDefaults(parent.DeepCopy())))
	})
}

func TestRuleL9_NewVersionOfParentImage(t *testing.T) {
	t.Run("should succeed for creating a NamespacedCloudProfile that specifies a new version to an existing MachineImage from the parent CloudProfile", func(t *testing.T) {
		ncp := admNCP()
		ncp.Spec.MachineImages = []gardencorev1beta1.MachineImage{{Name: "test-image", Versions: []gardencorev1beta1.MachineImageVersion{
			{ExpirableVersion: ev{Version: "1.2.0", ExpirationDate: at(0)}, CRI: criContainerd(), Architectures: []string{"amd64"}},
		}}}
		expectNoProblems(t, admit(ncp, nil, admParent()))
	})

	parent := admParent()
	parent.Spec.MachineCapabilities = []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"amd64", "arm64"}}, {Name: "capability2", Values: []string{"value1", "value2"}}}
	parent.Spec.MachineImages[0].Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor("amd64")}
	newVersion := func(flavors ...gardencorev1beta1.MachineImageFlavor) *gardencorev1beta1.NamespacedCloudProfile {
		ncp := admNCP()
		ncp.Spec.MachineImages = []gardencorev1beta1.MachineImage{{Name: "test-image", Versions: []gardencorev1beta1.MachineImageVersion{
			{ExpirableVersion: ev{Version: "1.0.1"}, CRI: criContainerd(), CapabilityFlavors: flavors},
		}}}
		return ncp
	}
	t.Run("should allow adding a machineImage with Capabilities", func(t *testing.T) {
		expectNoProblems(t, admit(newVersion(flavor("arm64")), nil, parent))
	})
	t.Run("should reject a machineImage with Capabilities or CapabilityValues not in the parent CloudProfile", func(t *testing.T) {
		ncp := newVersion(gardencorev1beta1.MachineImageFlavor{Capabilities: gardencorev1beta1.Capabilities{"capability2": {"value3"}, "not-in-parent": {"value1", "value2"}}})
		expectProblems(t, admit(ncp, nil, parent),
			want{rule: "L-9/F-6", typ: NotSupported, field: "spec.machineImages[0].versions[0].capabilityFlavors[0].capability2[0]", detail: `supported values: "value1", "value2"`},
			want{rule: "L-9/F-6", typ: NotSupported, field: "spec.machineImages[0].versions[0].capabilityFlavors[0]", bad: "not-in-parent", checkBad: true},
			want{rule: "L-9/F-6", typ: Required, field: "spec.machineImages[0].versions[0].capabilityFlavors[0].architecture"})
	})
	t.Run("should allow adding a machineImage without Capabilities as architecture defaults from capabilityDefinition", func(t *testing.T) {
		parent := admParent()
		parent.Spec.MachineCapabilities = []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"amd64"}}, {Name: "capability2", Values: []string{"value1", "value2"}}}
		ncp := admNCP()
		ncp.Spec.MachineImages = []gardencorev1beta1.MachineImage{{Name: "test-image", Versions: []gardencorev1beta1.MachineImageVersion{
			{ExpirableVersion: ev{Version: "1.0.1"}, CRI: criContainerd()},
		}}}
		expectNoProblems(t, admit(ncp, nil, parent))
	})
	t.Run("a new version without flavors needs them when the parent defines several architectures", func(t *testing.T) {
		expectProblems(t, admit(newVersion(), nil, parent),
			want{rule: "L-9/F-6", typ: Required, field: "spec.machineImages[0].versions[0].capabilityFlavors"})
	})
}

func TestRuleL10_NewImage(t *testing.T) {
	parent := admParent()
	t.Run("should allow creating a NamespacedCloudProfile that specifies a new MachineImage entry not in the parent CloudProfile", func(t *testing.T) {
		ncp := admNCP()
		ncp.Spec.MachineImages = []gardencorev1beta1.MachineImage{{Name: "another-image", UpdateStrategy: ptrTo(gardencorev1beta1.UpdateStrategyMajor),
			Versions: []gardencorev1beta1.MachineImageVersion{{ExpirableVersion: ev{Version: "1.0.0", ExpirationDate: at(0)}, CRI: criContainerd(), Architectures: []string{"amd64"}}}}}
		expectNoProblems(t, admit(ncp, nil, parent))
	})
	t.Run("should fail creating a NamespacedCloudProfile that specifies a new MachineImage entry not in the parent CloudProfile without image versions", func(t *testing.T) {
		ncp := admNCP()
		ncp.Spec.MachineImages = []gardencorev1beta1.MachineImage{{Name: "another-image", UpdateStrategy: ptrTo(gardencorev1beta1.UpdateStrategyMajor), Versions: []gardencorev1beta1.MachineImageVersion{}}}
		expectProblems(t, admit(ncp, nil, parent), want{rule: "L-10/E-5", typ: Required, field: "spec.machineImages[0].versions",
			detail: "must provide at least one version for the machine image 'another-image'"})
	})
	t.Run("the CloudProfile-level version rules apply: cri, architectures, lifecycle gate", func(t *testing.T) {
		ncp := admNCP()
		ncp.Spec.MachineImages = []gardencorev1beta1.MachineImage{{Name: "another-image",
			Versions: []gardencorev1beta1.MachineImageVersion{{ExpirableVersion: ev{Version: "1.0.0", Lifecycle: lc{stageOpen(supported)}}}}}}
		expectProblems(t, admit(ncp, nil, parent),
			want{rule: "L-10/F-7", typ: Required, field: "spec.machineImages[0].versions[0].cri"},
			want{rule: "L-10/D-1", typ: Forbidden, field: "spec.machineImages[0].versions[0].lifecycle"},
			want{rule: "L-10/F-10", typ: Required, field: "spec.machineImages[0].versions[0].architectures"})
	})
}

func TestRuleL_MachineTypesVolumeTypesAndLimits(t *testing.T) {
	machineType := gardencorev1beta1.MachineType{Name: "my-machine", Architecture: ptrTo("arm64")}
	t.Run("should allow creating a NamespacedCloudProfile that defines a different machineType than the parent CloudProfile", func(t *testing.T) {
		ncp := admNCP()
		ncp.Spec.MachineTypes = []gardencorev1beta1.MachineType{{Name: "my-other-machine", Architecture: ptrTo("amd64")}}
		expectNoProblems(t, admit(ncp, nil, admParent()))
	})
	t.Run("should allow a same-named machineType when the NamespacedCloudProfile is created first and the parent CloudProfile gains the entry afterwards", func(t *testing.T) {
		ncp := admNCP()
		ncp.Spec.MachineTypes = []gardencorev1beta1.MachineType{machineType}
		expectNoProblems(t, admit(ncp, nil, admParent()))
		parent := admParent()
		parentType := machineType.DeepCopy()
		parentType.Usable = ptrTo(false)
		parent.Spec.MachineTypes = []gardencorev1beta1.MachineType{*parentType}
		old := ncp.DeepCopy()
		ncp.Generation++
		expectNoProblems(t, admit(ncp, old, parent))
	})
	t.Run("should allow a same-named machineType when the parent CloudProfile already contains the entry and the NamespacedCloudProfile adds it afterwards with a differing spec", func(t *testing.T) {
		parent := admParent()
		parentType := machineType.DeepCopy()
		parentType.GPU = resource.MustParse("0")
		parent.Spec.MachineTypes = []gardencorev1beta1.MachineType{*parentType}
		ncp := admNCP()
		ncp.Spec.MachineTypes = []gardencorev1beta1.MachineType{machineType}
		expectNoProblems(t, admit(ncp, nil, parent))
	})
	t.Run("should allow a NamespacedCloudProfile to specify a VolumeType, if it has been added to the parent CloudProfile only afterwards", func(t *testing.T) {
		parent := admParent()
		parent.Spec.VolumeTypes = []gardencorev1beta1.VolumeType{{Name: "volume-type-1", Class: "super-premium"}}
		ncp := admNCP()
		ncp.Spec.VolumeTypes = []gardencorev1beta1.VolumeType{{Name: "volume-type-1", Class: "super-premium"}}
		old := ncp.DeepCopy()
		ncp.Generation++
		expectNoProblems(t, admit(ncp, old, parent))
	})
	for _, tt := range []struct {
		name          string
		parent, limit *int32
		emptyLimits   bool
	}{
		{name: "should allow creating a NamespacedCloudProfile with equal limits as the CloudProfile", parent: ptrTo(int32(5)), limit: ptrTo(int32(5))},
		{name: "should allow creating a NamespacedCloudProfile with nil limits", parent: ptrTo(int32(5))},
		{name: "should allow creating a NamespacedCloudProfile with limits if the parent CloudProfile has nil limits", limit: ptrTo(int32(5))},
		{name: "should allow creating a NamespacedCloudProfile with empty limits", parent: ptrTo(int32(5)), emptyLimits: true},
		{name: "should allow creating a NamespacedCloudProfile with a lower limit than in the CloudProfile", parent: ptrTo(int32(5)), limit: ptrTo(int32(4))},
		{name: "should allow creating a NamespacedCloudProfile with a higher limit than in the CloudProfile", parent: ptrTo(int32(5)), limit: ptrTo(int32(6))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			parent := admParent()
			if tt.parent != nil {
				parent.Spec.Limits = &gardencorev1beta1.Limits{MaxNodesTotal: tt.parent}
			}
			ncp := admNCP()
			if tt.limit != nil || tt.emptyLimits {
				ncp.Spec.Limits = &gardencorev1beta1.Limits{MaxNodesTotal: tt.limit}
			}
			expectNoProblems(t, admit(ncp, nil, parent))
		})
	}
}
