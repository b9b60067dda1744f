package cloudprofile

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Table tests of the validation of the merged status (M rules), named after Gardener's admission
// tests (admission_test.go, "simulated NamespacedCloudProfile status"). Besides Gardener's field paths they check
// the Terraform attribute each finding is mapped to: the spec entry that produced the merged
// element, or spec.parent for inherited data.

// simulatedStatus is Gardener's ValidateSimulatedNamespacedCloudProfileStatus: only the merged
// status is validated, without the override rules L-1 … L-10.
func simulatedStatus(parent *gardencorev1beta1.CloudProfile, ncp *gardencorev1beta1.NamespacedCloudProfile, opts Options) Problems {
	spec := TransformToParentFormat(ncp.Spec, parent.Spec.MachineCapabilities)
	a := admission{ncp: ncp, spec: &spec, parent: parent, opts: opts}
	return a.validateMergedStatus()
}

// simParent and simNCP are the fixtures of the admission tests' "simulated NamespacedCloudProfile status".
func simParent() *gardencorev1beta1.CloudProfile {
	return withDefaults(&gardencorev1beta1.CloudProfile{
		ObjectMeta: metav1.ObjectMeta{Name: "cloudprofile1"},
		Spec: gardencorev1beta1.CloudProfileSpec{
			Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: []ev{{Version: "1.11.4"}}},
			MachineImages: []gardencorev1beta1.MachineImage{{Name: "test-image", Versions: []gardencorev1beta1.MachineImageVersion{
				{ExpirableVersion: ev{Version: "1.0.0"}}, {ExpirableVersion: ev{Version: "1.1.2"}},
			}}},
		},
	})
}

func simNCP() *gardencorev1beta1.NamespacedCloudProfile {
	return &gardencorev1beta1.NamespacedCloudProfile{
		ObjectMeta: metav1.ObjectMeta{Name: "namespaced-profile", Namespace: "garden-test"},
		Spec: gardencorev1beta1.NamespacedCloudProfileSpec{
			Parent:        gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: "cloudprofile1"},
			Kubernetes:    &gardencorev1beta1.KubernetesSettings{Versions: []ev{{Version: "1.11.4"}}},
			MachineImages: []gardencorev1beta1.MachineImage{{Name: "test-image", Versions: []gardencorev1beta1.MachineImageVersion{{ExpirableVersion: ev{Version: "1.0.0"}}}}},
			MachineTypes: []gardencorev1beta1.MachineType{{Name: "machine-type-1", CPU: resource.MustParse("2"), GPU: resource.MustParse("0"),
				Memory: resource.MustParse("100Gi"), Architecture: ptrTo("amd64")}},
			VolumeTypes: []gardencorev1beta1.VolumeType{{Name: "volume-type-1", Class: "super-premium"}},
		},
	}
}

// inheritedNote is the part of the Detail that marks a finding on parent data.
const inheritedNote = `inherited from the parent CloudProfile`

func expectInherited(t *testing.T, ps Problems) {
	t.Helper()
	for _, p := range ps {
		if p.Path.Attribute() != "spec.parent" || !strings.Contains(p.Detail, inheritedNote) {
			t.Errorf("want %s on spec.parent, marked as inherited; got attr %s, detail %q", p.Path.Field(), p.Path.Attribute(), p.Detail)
		}
	}
}

func TestRuleM0_SimulatedStatusFixtureIsValid(t *testing.T) {
	t.Run("should not return any errors", func(t *testing.T) {
		expectNoProblems(t, simulatedStatus(simParent(), simNCP(), gateOff()))
	})
}

func TestRuleM1_MergedKubernetesVersions(t *testing.T) {
	t.Run("should enforce that at least one version has been defined", func(t *testing.T) {
		parent, ncp := simParent(), simNCP()
		parent.Spec.Kubernetes.Versions = []ev{}
		ncp.Spec.Kubernetes.Versions = []ev{}
		ps := simulatedStatus(parent, ncp, gateOff())
		expectProblems(t, ps,
			want{rule: "M-1/C-1", typ: Required, field: "status.cloudProfileSpec.kubernetes.versions", attr: "spec.parent"},
			want{rule: "M-1/C-2", typ: Invalid, field: "status.cloudProfileSpec.kubernetes.versions", attr: "spec.parent"})
		expectInherited(t, ps)
	})
	t.Run("should not allow creating a (Namespaced)CloudProfile if the resulting Kubernetes versions are empty", func(t *testing.T) {
		parent := admParent()
		parent.Spec.Kubernetes.Versions = []ev{}
		ps := admit(admNCP(), nil, parent)
		expectProblems(t, ps,
			want{rule: "M-1/C-1", field: "status.cloudProfileSpec.kubernetes.versions", detail: "~must provide at least one Kubernetes version"},
			want{rule: "M-1/C-2", field: "status.cloudProfileSpec.kubernetes.versions"})
	})
	t.Run("should forbid expiration date on latest kubernetes version", func(t *testing.T) {
		parent, ncp := simParent(), simNCP()
		parent.Spec.Kubernetes.Versions = []ev{{Version: "1.1.0", Classification: cls(supported)}, {Version: "1.2.0", Classification: cls(deprecated)}}
		ncp.Spec.Kubernetes.Versions = []ev{{Version: "1.1.0", Classification: cls(supported)}, {Version: "1.2.0", Classification: cls(deprecated), ExpirationDate: at(day)}}
		expectProblems(t, simulatedStatus(parent, ncp, gateOff()),
			want{rule: "M-1/C-3", typ: Invalid, field: "status.cloudProfileSpec.kubernetes.versions[].expirationDate",
				attr: "spec.kubernetes.versions[1].expiration_date", detail: "expiration date of latest kubernetes version ('1.2.0') must not be set"})
	})
	t.Run("should fail if the latest Kubernetes version has an expiration date", func(t *testing.T) {
		ncp := admNCP()
		ncp.Spec.Kubernetes = &gardencorev1beta1.KubernetesSettings{Versions: []ev{{Version: "1.32.0", ExpirationDate: at(day)}}}
		expectProblems(t, admit(ncp, nil, admParent()),
			want{rule: "M-1/C-3", field: "status.cloudProfileSpec.kubernetes.versions[].expirationDate", attr: "spec.kubernetes.versions[0].expiration_date",
				detail: "expiration date of latest kubernetes version ('1.32.0') must not be set"})
	})
	t.Run("only allow one supported version per minor version", func(t *testing.T) {
		parent, ncp := simParent(), simNCP()
		parent.Spec.Kubernetes.Versions = []ev{{Version: "1.1.0", Classification: cls(supported)}, {Version: "1.1.1", Classification: cls(supported)}}
		ncp.Spec.Kubernetes.Versions = []ev{{Version: "1.1.0", Classification: cls(supported)}, {Version: "1.1.1", Classification: cls(supported)}}
		ps := simulatedStatus(parent, ncp, gateOff())
		expectProblems(t, ps,
			want{rule: "M-1/C-8", typ: Forbidden, field: "status.cloudProfileSpec.kubernetes.versions[1]", attr: "spec.parent"},
			want{rule: "M-1/C-8", typ: Forbidden, field: "status.cloudProfileSpec.kubernetes.versions[0]", attr: "spec.parent"})
		expectInherited(t, ps)
	})
}

func TestRuleM2_MergedMachineImages(t *testing.T) {
	t.Run("should allow an empty list of machine images", func(t *testing.T) {
		ncp := simNCP()
		ncp.Spec.MachineImages = []gardencorev1beta1.MachineImage{}
		expectNoProblems(t, simulatedStatus(simParent(), ncp, gateOff()))
	})
	t.Run("should allow expiration date on latest machine image version within NamespacedCloudProfile spec", func(t *testing.T) {
		ncp := simNCP()
		ncp.Spec.MachineImages = []gardencorev1beta1.MachineImage{
			{Name: "test-image", Versions: []gardencorev1beta1.MachineImageVersion{
				{ExpirableVersion: ev{Version: "0.1.2", ExpirationDate: at(day), Classification: cls(preview)}, CRI: criContainerd(), Architectures: []string{"amd64"}},
				{ExpirableVersion: ev{Version: "1.0.0"}},
			}},
			{Name: "xy", UpdateStrategy: ptrTo(gardencorev1beta1.UpdateStrategyMajor), Versions: []gardencorev1beta1.MachineImageVersion{
				{ExpirableVersion: ev{Version: "0.1.1", ExpirationDate: at(day), Classification: cls(supported)}, CRI: criContainerd(), Architectures: []string{"amd64"}},
			}},
		}
		expectNoProblems(t, simulatedStatus(simParent(), ncp, gateOff()))
	})
	t.Run("a new version of a parent image needs a cri, reported on the spec entry (M-2/F-7)", func(t *testing.T) {
		ncp := admNCP()
		ncp.Spec.MachineImages = []gardencorev1beta1.MachineImage{{Name: "test-image", Versions: []gardencorev1beta1.MachineImageVersion{
			{ExpirableVersion: ev{Version: "1.0.0", ExpirationDate: at(day)}},
			{ExpirableVersion: ev{Version: "1.2.0"}},
		}}}
		expectProblems(t, admit(ncp, nil, admParent()),
			want{rule: "M-2/F-7", typ: Required, field: "status.cloudProfileSpec.machineImages[0].versions[1].cri",
				attr: "spec.machine_images[0].versions[1].cri", detail: "must provide at least one supported container runtime"})
	})
	t.Run("a new image needs an update strategy, reported on the spec entry (M-2/E-6)", func(t *testing.T) {
		ncp := admNCP()
		ncp.Spec.MachineImages = []gardencorev1beta1.MachineImage{{Name: "another-image", Versions: []gardencorev1beta1.MachineImageVersion{
			{ExpirableVersion: ev{Version: "1.0.0"}, CRI: criContainerd(), Architectures: []string{"amd64"}},
		}}}
		expectProblems(t, admit(ncp, nil, admParent()),
			want{rule: "M-2/E-6", typ: Required, field: "status.cloudProfileSpec.machineImages[1].updateStrategy",
				attr: "spec.machine_images[0].update_strategy", detail: "must provide an update strategy"})
	})
	t.Run("a version replaced wholesale is the spec's, parent versions stay the parent's", func(t *testing.T) {
		parent := admParent()
		parent.Spec.MachineImages[0].Versions = append(parent.Spec.MachineImages[0].Versions,
			gardencorev1beta1.MachineImageVersion{ExpirableVersion: ev{Version: "2.0.0"}, Architectures: []string{"amd64"}, CRI: []gardencorev1beta1.CRI{{Name: "docker"}}})
		ncp := admNCP()
		ncp.Spec.MachineImages = []gardencorev1beta1.MachineImage{{Name: "test-image", Versions: []gardencorev1beta1.MachineImageVersion{
			{ExpirableVersion: ev{Version: "1.0.0", ExpirationDate: at(day)}, KubeletVersionConstraint: ptrTo(">= 1.30"), CRI: []gardencorev1beta1.CRI{{Name: "docker"}}},
		}}}
		ps := simulatedStatus(parent, ncp, gateOff())
		expectProblems(t, ps,
			want{rule: "M-2/F-7", typ: NotSupported, field: "status.cloudProfileSpec.machineImages[0].versions[0].cri[0].name", attr: `spec.machine_images[0].versions[0].cri[0].name`},
			want{rule: "M-2/F-7", typ: NotSupported, field: "status.cloudProfileSpec.machineImages[0].versions[1].cri[0].name", attr: "spec.parent"})
	})
	t.Run("flavors derived from written architectures are reported on the architectures", func(t *testing.T) {
		parent := admParent()
		parent.Spec.MachineCapabilities = []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"amd64", "arm64"}}}
		parent.Spec.MachineImages[0].Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor("amd64")}
		ncp := admNCP()
		ncp.Spec.MachineImages = []gardencorev1beta1.MachineImage{{Name: "test-image", Versions: []gardencorev1beta1.MachineImageVersion{
			{ExpirableVersion: ev{Version: "1.1.0"}, CRI: criContainerd(), Architectures: []string{"amd64", "amd64"}},
		}}}
		// Two flavors with the same architecture are fine for Gardener; a value outside the
		// definition is not.
		ncp.Spec.MachineImages[0].Versions[0].Architectures = []string{"s390x"}
		expectProblems(t, simulatedStatus(parent, ncp, gateOff()),
			want{rule: "M-2/F-6", typ: NotSupported, field: "status.cloudProfileSpec.machineImages[0].versions[1].capabilityFlavors[0].architecture[0]",
				attr: "spec.machine_images[0].versions[0].architectures"},
			want{rule: "M-2/F-6", typ: NotSupported, field: "status.cloudProfileSpec.machineImages[0].versions[1].architectures[0]",
				attr: "spec.machine_images[0].versions[0].architectures[0]"})
	})
	t.Run("data of a parent that was not defaulted is the parent's", func(t *testing.T) {
		parent := admParent()
		parent.Spec.MachineImages = parentImageVersions("1.0.0")
		ps := simulatedStatus(parent, admNCP(), gateOff())
		expectProblems(t, ps, want{rule: "M-2/E-6", typ: Required, field: "status.cloudProfileSpec.machineImages[0].updateStrategy", attr: "spec.parent"})
		expectInherited(t, ps)
	})
}

func TestRuleM4_MergedMachineTypes(t *testing.T) {
	capabilityParent := func(archs ...string) *gardencorev1beta1.CloudProfile {
		parent := admParent()
		parent.Spec.MachineCapabilities = []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: archs}, {Name: "capability2", Values: []string{"value1", "value2"}}}
		parent.Spec.MachineImages[0].Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor("amd64")}
		return parent
	}
	t.Run("should reject machineTypes if it conflicts with Capabilities.Architecture", func(t *testing.T) {
		ncp := admNCP()
		ncp.Spec.MachineImages = []gardencorev1beta1.MachineImage{}
		ncp.Spec.MachineTypes = []gardencorev1beta1.MachineType{{Name: "my-other-machine", Architecture: ptrTo("amd64"), Capabilities: gardencorev1beta1.Capabilities{"architecture": {"arm64"}}}}
		expectProblems(t, admit(ncp, nil, capabilityParent("amd64", "arm64")),
			want{rule: "M-4/G-5", typ: Invalid, field: "status.cloudProfileSpec.machineTypes[0].architecture", attr: "spec.machine_types[0].architecture",
				detail: "machine type architecture (amd64) conflicts with the capability architecture (arm64)"})
	})
	t.Run("should reject unsupported Capabilities or CapabilityValues in machineTypes", func(t *testing.T) {
		ncp := admNCP()
		ncp.Spec.MachineTypes = []gardencorev1beta1.MachineType{{Name: "my-other-machine", Capabilities: gardencorev1beta1.Capabilities{
			"architecture": {"arm64"}, "capability2": {"value3"}, "not-in-parent": {"value1", "value2"},
		}}}
		ps := admit(ncp, nil, capabilityParent("amd64", "arm64"))
		expectProblems(t, ps,
			want{rule: "M-4/G-5", typ: NotSupported, field: "status.cloudProfileSpec.machineTypes[0].capabilities.capability2[0]", detail: `supported values: "value1", "value2"`},
			want{rule: "M-4/G-5", typ: NotSupported, field: "status.cloudProfileSpec.machineTypes[0].capabilities", bad: "not-in-parent", checkBad: true})
		for _, p := range ps {
			if !strings.HasPrefix(p.Path.Attribute(), "spec.machine_types[0].capabilities") {
				t.Errorf("%s: attribute %s, want spec.machine_types[0].capabilities...", p.Path.Field(), p.Path.Attribute())
			}
		}
	})
	t.Run("should allow machineTypes without Capabilities as architecture defaults to capabilityDefinition", func(t *testing.T) {
		ncp := admNCP()
		ncp.Spec.MachineTypes = []gardencorev1beta1.MachineType{{Name: "my-other-machine"}}
		expectNoProblems(t, admit(ncp, nil, capabilityParent("amd64")))
	})
	t.Run("should allow an empty machine type list", func(t *testing.T) {
		ncp := simNCP()
		ncp.Spec.MachineTypes = []gardencorev1beta1.MachineType{}
		expectNoProblems(t, simulatedStatus(simParent(), ncp, gateOff()))
	})
	t.Run("capabilities derived from a written architecture are reported on the architecture", func(t *testing.T) {
		ncp := admNCP()
		ncp.Spec.MachineTypes = []gardencorev1beta1.MachineType{{Name: "m", Architecture: ptrTo("s390x")}}
		expectProblems(t, simulatedStatus(capabilityParent("amd64", "arm64"), ncp, gateOff()),
			want{rule: "M-4/G-5", typ: NotSupported, field: "status.cloudProfileSpec.machineTypes[0].capabilities.architecture[0]", attr: "spec.machine_types[0].architecture"},
			want{rule: "M-4/G-5", typ: NotSupported, field: "status.cloudProfileSpec.machineTypes[0].architecture", attr: "spec.machine_types[0].architecture"})
	})
	t.Run("a parent machine type without architecture is the parent's problem, an NCP replacement fixes it", func(t *testing.T) {
		parent := admParent()
		parent.Spec.MachineTypes = []gardencorev1beta1.MachineType{{Name: "legacy", Architecture: ptrTo("")}}
		ncp := admNCP()
		// Step 10 turns an empty architecture into amd64, so the parent's value is fine in the
		// merged status; a parent type with capabilities but no definitions is not.
		parent.Spec.MachineTypes[0].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"amd64"}}
		ps := simulatedStatus(parent, ncp, gateOff())
		expectProblems(t, ps, want{rule: "M-4/G-7", typ: Forbidden, field: "status.cloudProfileSpec.machineTypes[0].capabilities", attr: "spec.parent"})
		expectInherited(t, ps)

		ncp.Spec.MachineTypes = []gardencorev1beta1.MachineType{{Name: "legacy"}}
		expectNoProblems(t, simulatedStatus(parent, ncp, gateOff()))
	})
}

func TestRuleM5_MergedVolumeTypes(t *testing.T) {
	parent := admParent()
	parent.Spec.VolumeTypes = []gardencorev1beta1.VolumeType{{Name: "gp3", Class: "Not a class!"}}
	t.Run("an invalid parent volume type is the parent's problem", func(t *testing.T) {
		ps := simulatedStatus(parent, admNCP(), gateOff())
		expectProblems(t, ps, want{rule: "M-5/H-3", typ: Invalid, field: "status.cloudProfileSpec.volumeTypes[0].class", attr: "spec.parent"})
		expectInherited(t, ps)
	})
	t.Run("a same-named volume type of the NamespacedCloudProfile replaces it", func(t *testing.T) {
		ncp := admNCP()
		ncp.Spec.VolumeTypes = []gardencorev1beta1.VolumeType{{Name: "gp3", Class: "standard"}}
		expectNoProblems(t, simulatedStatus(parent, ncp, gateOff()))
	})
	t.Run("a problem of an appended volume type is on the spec entry", func(t *testing.T) {
		ncp := admNCP()
		ncp.Spec.VolumeTypes = []gardencorev1beta1.VolumeType{{Name: "gp3", Class: "standard"}, {Name: "io2", Class: "premium", MinSize: ptrTo(resource.MustParse("-1"))}}
		expectProblems(t, simulatedStatus(parent, ncp, gateOff()),
			want{rule: "M-5/H-4", typ: Invalid, field: "status.cloudProfileSpec.volumeTypes[1].minSize", attr: "spec.volume_types[1].min_size"})
	})
}

func TestRuleM7_LifecycleFeatureGate(t *testing.T) {
	lifecycleParent := func() *gardencorev1beta1.CloudProfile {
		parent := admParent()
		parent.Spec.MachineImages[0].Versions[0].Lifecycle = lc{stageOpen(supported), stageAt(deprecated, 30*day)}
		return parent
	}
	t.Run("with the gate off a parent version with a lifecycle makes every NamespacedCloudProfile write fail", func(t *testing.T) {
		ps := admit(admNCP(), nil, lifecycleParent())
		expectProblems(t, ps, want{rule: "M-2/D-1", typ: Forbidden, field: "status.cloudProfileSpec.machineImages[0].versions[0].lifecycle", attr: "spec.parent"})
		expectInherited(t, ps)
	})
	t.Run("with the gate on, extending the expiration of a parent version with a lifecycle fails with D-4 on the spec entry", func(t *testing.T) {
		ncp := admNCP()
		ncp.Spec.MachineImages = []gardencorev1beta1.MachineImage{{Name: "test-image", Versions: []gardencorev1beta1.MachineImageVersion{
			{ExpirableVersion: ev{Version: "1.0.0", ExpirationDate: at(60 * day)}},
		}}}
		expectProblems(t, ValidateNamespacedCloudProfileAgainstParent(ncp, nil, lifecycleParent(), gateOn()),
			want{rule: "M-2/D-4", typ: Forbidden, field: "status.cloudProfileSpec.machineImages[0].versions[0]", attr: "spec.machine_images[0].versions[0]",
				detail: "cannot specify `classification` or `expirationDate` in combination with `lifecycle`"})
	})
	t.Run("with the gate on, the parent's lifecycle alone is fine", func(t *testing.T) {
		expectNoProblems(t, ValidateNamespacedCloudProfileAgainstParent(admNCP(), nil, lifecycleParent(), gateOn()))
	})
}
