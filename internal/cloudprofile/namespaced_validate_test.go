package cloudprofile

import (
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Table tests of the static NamespacedCloudProfile rules (K rules), named after Gardener's tests
// (pkg/api/core/validation/namespacedcloudprofile_test.go).

// validNCP is the fixture of Gardener's "tests for invalid NamespacedCloudProfile spec".
func validNCP() *gardencorev1beta1.NamespacedCloudProfile {
	return &gardencorev1beta1.NamespacedCloudProfile{
		ObjectMeta: metav1.ObjectMeta{Name: "profile", Namespace: "default"},
		Spec: gardencorev1beta1.NamespacedCloudProfileSpec{
			Parent:        gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: "unknown"},
			Kubernetes:    &gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{{Version: "1.11.4"}}},
			MachineImages: []gardencorev1beta1.MachineImage{{Name: "some-machine-image", Versions: []gardencorev1beta1.MachineImageVersion{imageVersionOnly("1.2.3", nil)}}},
			MachineTypes:  []gardencorev1beta1.MachineType{validMachineType()},
			VolumeTypes:   []gardencorev1beta1.VolumeType{{Name: "volume-type-1", Class: "super-premium"}},
		},
	}
}

type ncpRuleCase struct {
	name   string
	mutate func(ncp *gardencorev1beta1.NamespacedCloudProfile)
	opts   Options
	wants  []want
}

func runNCPRuleCases(t *testing.T, cases []ncpRuleCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ncp := validNCP()
			if c.mutate != nil {
				c.mutate(ncp)
			}
			opts := c.opts
			if opts.Now.IsZero() {
				opts = gateOff()
			}
			expectProblems(t, ValidateNamespacedCloudProfile(ncp, opts), c.wants...)
		})
	}
}

func TestRuleK0_FixtureIsValid(t *testing.T) {
	runNCPRuleCases(t, []ncpRuleCase{{name: "should not return any errors"}})
}

func TestRuleA_NamespacedCloudProfileMetadata(t *testing.T) {
	runNCPRuleCases(t, []ncpRuleCase{
		{
			name: "should forbid empty NamespacedCloudProfile resources",
			mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) {
				*ncp = gardencorev1beta1.NamespacedCloudProfile{}
			},
			wants: []want{
				{rule: "A-1", typ: Required, field: "metadata.name"},
				{rule: "A-2", typ: Required, field: "metadata.namespace"},
				{rule: "K-1", typ: NotSupported, field: "spec.parent.kind"},
				{rule: "K-2", typ: Required, field: "spec.parent.name"},
			},
		},
		{
			name:   "should forbid namespacedCloudProfile with empty name",
			mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) { ncp.Name = "" },
			wants:  []want{{rule: "A-1", typ: Required, field: "metadata.name", attr: "metadata.name"}},
		},
		{
			name:   "should allow namespacedCloudProfile with '.' in the name",
			mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) { ncp.Name = "profile.test" },
		},
		{
			name:   "should forbid namespacedCloudProfile with '_' in the name (not a DNS-1123 subdomain)",
			mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) { ncp.Name = "profile_test" },
			wants:  []want{{rule: "A-1", typ: Invalid, field: "metadata.name"}},
		},
	})
}

func TestRuleK1_ParentKindIsCloudProfile(t *testing.T) {
	runNCPRuleCases(t, []ncpRuleCase{
		{
			name: "should forbid not specifying a parent",
			mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) {
				ncp.Spec.Parent = gardencorev1beta1.CloudProfileReference{}
			},
			wants: []want{
				{rule: "K-2", typ: Required, field: "spec.parent.name", attr: "spec.parent.name", detail: "must provide a parent name"},
				{rule: "K-1", typ: NotSupported, field: "spec.parent.kind", attr: "spec.parent.kind", detail: `supported values: "CloudProfile"`},
			},
		},
		{
			name: "should forbid specifying an invalid parent kind",
			mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) {
				ncp.Spec.Parent = gardencorev1beta1.CloudProfileReference{Kind: "SomeOtherCloudPofile", Name: "my-profile"}
			},
			wants: []want{{rule: "K-1", typ: NotSupported, field: "spec.parent.kind", detail: `supported values: "CloudProfile"`, bad: "SomeOtherCloudPofile", checkBad: true}},
		},
	})
}

func TestRuleK2_ParentNameIsRequired(t *testing.T) {
	runNCPRuleCases(t, []ncpRuleCase{{
		name:   "an empty parent name is required",
		mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) { ncp.Spec.Parent.Name = "" },
		wants:  []want{{rule: "K-2", typ: Required, field: "spec.parent.name", detail: "must provide a parent name"}},
	}})
}

func TestRuleK3_NoClassificationForKubernetesVersions(t *testing.T) {
	runNCPRuleCases(t, []ncpRuleCase{{
		name: "should forbid providing a classification",
		mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) {
			ncp.Spec.Kubernetes.Versions = []gardencorev1beta1.ExpirableVersion{{Version: "1.1.0", Classification: cls(supported), ExpirationDate: at(24 * hour)}}
		},
		wants: []want{{rule: "K-3", typ: Forbidden, field: "spec.kubernetes.versions[0].classification", attr: "spec.kubernetes.versions[0].classification",
			detail: "must not provide a classification to a Kubernetes version in NamespacedCloudProfile"}},
	}})
}

func TestRuleK4_KubernetesVersions(t *testing.T) {
	runNCPRuleCases(t, []ncpRuleCase{
		{
			name: "should forbid versions of a not allowed pattern",
			mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) {
				ncp.Spec.Kubernetes.Versions = []ev{{Version: "1.11"}}
			},
			wants: []want{{rule: "K-4/C-5", typ: Invalid, field: "spec.kubernetes.versions[0]"}},
		},
		{
			name: "should forbid duplicated kubernetes versions",
			mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) {
				ncp.Spec.Kubernetes.Versions = []ev{{Version: "1.11.4"}, {Version: "1.11.4", ExpirationDate: at(24 * hour)}}
			},
			wants: []want{{rule: "K-4/C-6", typ: Duplicate, field: "spec.kubernetes.versions[1].version"}},
		},
		{
			name: "the expirable version rules apply, a lifecycle needs the feature gate",
			mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) {
				ncp.Spec.Kubernetes.Versions = []ev{{Version: "1.11.4", Lifecycle: lc{stageAt(expired, day)}}}
			},
			wants: []want{{rule: "K-4/D-1", typ: Forbidden, field: "spec.kubernetes.versions[0].lifecycle"}},
		},
		{
			name: "lifecycle and expiration date together are forbidden with the gate on",
			opts: gateOn(),
			mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) {
				ncp.Spec.Kubernetes.Versions = []ev{{Version: "1.11.4", ExpirationDate: at(day), Lifecycle: lc{stageAt(expired, day)}}}
			},
			wants: []want{{rule: "K-4/D-4", typ: Forbidden, field: "spec.kubernetes.versions[0]"}},
		},
		{
			name: "no latest-version check: the only version may expire",
			mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) {
				ncp.Spec.Kubernetes.Versions = []ev{{Version: "1.11.4", ExpirationDate: at(-day)}}
			},
		},
		{
			name:   "the list may be empty",
			mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) { ncp.Spec.Kubernetes.Versions = nil },
		},
	})
}

func TestRuleK5_MachineImages(t *testing.T) {
	runNCPRuleCases(t, []ncpRuleCase{
		{
			name: "should forbid duplicate names in list of machine images",
			mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) {
				ncp.Spec.MachineImages = []gardencorev1beta1.MachineImage{
					{Name: "some-machine-image", Versions: []gardencorev1beta1.MachineImageVersion{imageVersionOnly("3.4.6", nil)}},
					{Name: "some-machine-image", Versions: []gardencorev1beta1.MachineImageVersion{imageVersionOnly("3.4.5", nil)}},
				}
			},
			wants: []want{{rule: "K-5/E-3", typ: Duplicate, field: "spec.machineImages[1]", attr: "spec.machine_images[1]"}},
		},
		{
			name: "should allow machine images that only override the update strategy",
			mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) {
				ncp.Spec.MachineImages = []gardencorev1beta1.MachineImage{{Name: "some-machine-image", UpdateStrategy: ptrTo(gardencorev1beta1.UpdateStrategyMajor)}}
			},
		},
		{
			name: "should allow providing new machine image versions with all fields filled out",
			mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) {
				ncp.Spec.MachineImages = []gardencorev1beta1.MachineImage{{
					Name: "some-machine-image", UpdateStrategy: ptrTo(gardencorev1beta1.UpdateStrategyPatch),
					Versions: []gardencorev1beta1.MachineImageVersion{{
						ExpirableVersion:         ev{Version: "3.4.6", ExpirationDate: at(30 * day), Classification: cls(deprecated)},
						CRI:                      []gardencorev1beta1.CRI{{Name: gardencorev1beta1.CRINameContainerD}},
						Architectures:            []string{"amd64"},
						KubeletVersionConstraint: ptrTo(">= 1.32.0"),
					}},
				}}
			},
		},
		{
			name: "should allow empty additional values",
			mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) {
				ncp.Spec.MachineImages = []gardencorev1beta1.MachineImage{{Name: "some-machine-image", Versions: []gardencorev1beta1.MachineImageVersion{{
					ExpirableVersion: ev{Version: "3.4.6", ExpirationDate: at(30 * day)},
					CRI:              []gardencorev1beta1.CRI{},
					Architectures:    []string{},
				}}}}
			},
		},
		{
			name: "should forbid nonSemVer machine image versions",
			mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) {
				ncp.Spec.MachineImages = []gardencorev1beta1.MachineImage{
					{Name: "some-machine-image", Versions: []gardencorev1beta1.MachineImageVersion{imageVersionOnly("0.1.2", nil)}},
					{Name: "xy", Versions: []gardencorev1beta1.MachineImageVersion{imageVersionOnly("a.b.c", nil)}},
				}
			},
			wants: []want{
				{rule: "K-5/E-2", typ: Invalid, field: "spec.machineImages"},
				{rule: "K-5/F-3", typ: Invalid, field: "spec.machineImages[1].versions[0].version"},
			},
		},
		{
			name: "an unknown update strategy is not supported, a missing one is fine",
			mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) {
				ncp.Spec.MachineImages = []gardencorev1beta1.MachineImage{
					{Name: "a", UpdateStrategy: ptrTo(gardencorev1beta1.MachineImageUpdateStrategy("sometimes"))},
					{Name: "b", Versions: []gardencorev1beta1.MachineImageVersion{imageVersionOnly("1.0.0", nil)}},
				}
			},
			wants: []want{{rule: "K-5/E-6", typ: NotSupported, field: "spec.machineImages[0].updateStrategy"}},
		},
		{
			name: "architectures are checked against amd64 and arm64 (no capability definitions known)",
			mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) {
				v := imageVersionOnly("1.0.0", nil)
				v.Architectures = []string{"arm64", "s390x"}
				v.CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor("riscv")}
				ncp.Spec.MachineImages = []gardencorev1beta1.MachineImage{{Name: "a", Versions: []gardencorev1beta1.MachineImageVersion{v}}}
			},
			wants: []want{{rule: "K-5/F-6", typ: NotSupported, field: "spec.machineImages[0].versions[0].architectures[1]"}},
		},
		{
			name: "the version key is shared across images",
			mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) {
				ncp.Spec.MachineImages = []gardencorev1beta1.MachineImage{
					{Name: "x-1.0.0", Versions: []gardencorev1beta1.MachineImageVersion{imageVersionOnly("1.0.0", nil)}},
					{Name: "x", Versions: []gardencorev1beta1.MachineImageVersion{imageVersionOnly("1.0.0-1.0.0", nil)}},
				}
			},
			wants: []want{{rule: "K-5/F-1", typ: Duplicate, field: "spec.machineImages[1].versions[0]", bad: "x-1.0.0-1.0.0", checkBad: true}},
		},
	})
}

func TestRuleK6_VolumeTypes(t *testing.T) {
	runNCPRuleCases(t, []ncpRuleCase{
		{
			name: "should enforce uniqueness of volume type names",
			mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) {
				ncp.Spec.VolumeTypes = append(ncp.Spec.VolumeTypes, ncp.Spec.VolumeTypes[0])
			},
			wants: []want{{rule: "K-6/H-2", typ: Duplicate, field: "spec.volumeTypes[1].name"}},
		},
		{
			name: "should forbid volume types with unsupported property values",
			mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) {
				ncp.Spec.VolumeTypes = []gardencorev1beta1.VolumeType{{MinSize: ptrTo(resource.MustParse("-1"))}}
			},
			wants: []want{
				{rule: "K-6/H-1", typ: Required, field: "spec.volumeTypes[0].name"},
				{rule: "K-6/H-3", typ: Required, field: "spec.volumeTypes[0].class"},
				{rule: "K-6/H-4", typ: Invalid, field: "spec.volumeTypes[0].minSize"},
			},
		},
	})
}

func TestRuleK7_MachineTypes(t *testing.T) {
	negative := resource.MustParse("-1")
	valid := resource.MustParse("100Gi")
	invalidMachineTypes := []gardencorev1beta1.MachineType{
		{Name: "", CPU: negative, GPU: negative, Memory: resource.MustParse("-100Gi"), Storage: &gardencorev1beta1.MachineTypeStorage{MinSize: &negative}, Architecture: ptrTo("amd64")},
		{Name: "negative-storage-size", CPU: resource.MustParse("2"), Memory: valid, Storage: &gardencorev1beta1.MachineTypeStorage{StorageSize: &negative}, Architecture: ptrTo("amd64")},
		{Name: "min-size-and-storage-size", CPU: resource.MustParse("2"), Memory: valid, Storage: &gardencorev1beta1.MachineTypeStorage{MinSize: &valid, StorageSize: &valid}, Architecture: ptrTo("arm64")},
		{Name: "empty-storage-config", CPU: resource.MustParse("2"), Memory: valid, Storage: &gardencorev1beta1.MachineTypeStorage{}, Architecture: ptrTo("foo")},
	}
	runNCPRuleCases(t, []ncpRuleCase{
		{
			name: "should enforce uniqueness of machine type names",
			mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) {
				ncp.Spec.MachineTypes = append(ncp.Spec.MachineTypes, ncp.Spec.MachineTypes[0])
			},
			wants: []want{{rule: "K-7/G-3", typ: Duplicate, field: "spec.machineTypes[1].name"}},
		},
		{
			name:   "should forbid machine types with unsupported property values",
			mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) { ncp.Spec.MachineTypes = invalidMachineTypes },
			wants: []want{
				{rule: "K-7/G-2", typ: Required, field: "spec.machineTypes[0].name"},
				{rule: "K-7/G-4", typ: Invalid, field: "spec.machineTypes[0].cpu"},
				{rule: "K-7/G-4", typ: Invalid, field: "spec.machineTypes[0].gpu"},
				{rule: "K-7/G-4", typ: Invalid, field: "spec.machineTypes[0].memory"},
				{rule: "K-7/G-6", typ: Invalid, field: "spec.machineTypes[0].storage.minSize"},
				{rule: "K-7/G-6", typ: Invalid, field: "spec.machineTypes[1].storage.size"},
				{rule: "K-7/G-6", typ: Invalid, field: "spec.machineTypes[2].storage"},
				{rule: "K-7/G-6", typ: Invalid, field: "spec.machineTypes[3].storage"},
				{rule: "K-7/G-5", typ: NotSupported, field: "spec.machineTypes[3].architecture"},
			},
		},
		{
			name: "should allow machine types with valid values",
			mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) {
				ncp.Spec.MachineTypes = []gardencorev1beta1.MachineType{validMachineType()}
			},
		},
		{
			name: "no architecture is required and capabilities are not checked",
			mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) {
				ncp.Spec.MachineTypes = []gardencorev1beta1.MachineType{{Name: "m", Capabilities: gardencorev1beta1.Capabilities{"gpu": {"nvidia"}}}}
			},
		},
	})
}

func TestRuleK8_CABundleAndLimits(t *testing.T) {
	runNCPRuleCases(t, []ncpRuleCase{
		{
			name:   "should forbid ca bundles with unsupported format",
			mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) { ncp.Spec.CABundle = ptrTo("unsupported") },
			wants:  []want{{rule: "K-8/B-2", typ: Invalid, field: "spec.caBundle", attr: "spec.ca_bundle"}},
		},
		{name: "should allow unset limits"},
		{name: "should allow empty limits", mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) { ncp.Spec.Limits = &gardencorev1beta1.Limits{} }},
		{
			name: "should allow positive maxNodesTotal",
			mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) {
				ncp.Spec.Limits = &gardencorev1beta1.Limits{MaxNodesTotal: ptrTo(int32(1))}
			},
		},
		{
			name: "should forbid zero maxNodesTotal",
			mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) {
				ncp.Spec.Limits = &gardencorev1beta1.Limits{MaxNodesTotal: ptrTo(int32(0))}
			},
			wants: []want{{rule: "K-8/B-4", typ: Invalid, field: "spec.limits.maxNodesTotal", attr: "spec.limits.max_nodes_total"}},
		},
		{
			name: "should forbid negative maxNodesTotal",
			mutate: func(ncp *gardencorev1beta1.NamespacedCloudProfile) {
				ncp.Spec.Limits = &gardencorev1beta1.Limits{MaxNodesTotal: ptrTo(int32(-1))}
			},
			wants: []want{{rule: "K-8/B-4", typ: Invalid, field: "spec.limits.maxNodesTotal"}},
		},
	})
}

func TestRuleK9_ParentIsImmutable(t *testing.T) {
	t.Run("should not allow a NamespacedCloudProfile to change its parent reference", func(t *testing.T) {
		old := validNCP()
		ncp := validNCP()
		ncp.Spec.Parent.Name = "other-profile-parent"
		expectProblems(t, ValidateNamespacedCloudProfileUpdate(ncp, old, gateOff()),
			want{rule: "K-9", typ: Invalid, field: "spec.parent", attr: "spec.parent", detail: "field is immutable"})
	})
	t.Run("the parent kind is immutable too", func(t *testing.T) {
		old := validNCP()
		ncp := validNCP()
		ncp.Spec.Parent.Kind = "NamespacedCloudProfile"
		expectProblems(t, ValidateNamespacedCloudProfileUpdate(ncp, old, gateOff()),
			want{rule: "K-9", typ: Invalid, field: "spec.parent"},
			want{rule: "K-1", typ: NotSupported, field: "spec.parent.kind"})
	})
	t.Run("name and namespace are immutable", func(t *testing.T) {
		old := validNCP()
		ncp := validNCP()
		ncp.Name, ncp.Namespace = "other", "elsewhere"
		expectProblems(t, ValidateNamespacedCloudProfileUpdate(ncp, old, gateOff()),
			want{rule: "A-3", typ: Invalid, field: "metadata.name"},
			want{rule: "A-3", typ: Invalid, field: "metadata.namespace"})
	})
}

func TestRuleK10_LimitsOnUpdate(t *testing.T) {
	limits := func(n *int32) *gardencorev1beta1.Limits { return &gardencorev1beta1.Limits{MaxNodesTotal: n} }
	for _, tt := range []struct {
		name          string
		oldL, newL    *gardencorev1beta1.Limits
		wantDuplicate bool
	}{
		{name: "should allow adding limits", newL: limits(ptrTo(int32(100)))},
		{name: "should allow removing limits", oldL: limits(ptrTo(int32(100)))},
		{name: "should allow adding maxNodesTotal", oldL: limits(nil), newL: limits(ptrTo(int32(100)))},
		{name: "should allow removing maxNodesTotal", oldL: limits(ptrTo(int32(100))), newL: limits(nil)},
		{name: "should allow unchanged maxNodesTotal", oldL: limits(ptrTo(int32(100))), newL: limits(ptrTo(int32(100)))},
		{name: "should allow increasing maxNodesTotal", oldL: limits(ptrTo(int32(100))), newL: limits(ptrTo(int32(200)))},
		{name: "should allow decreasing maxNodesTotal", oldL: limits(ptrTo(int32(100))), newL: limits(ptrTo(int32(50)))},
		{name: "an invalid maxNodesTotal is reported twice on update", oldL: limits(ptrTo(int32(100))), newL: limits(ptrTo(int32(0))), wantDuplicate: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			old, ncp := validNCP(), validNCP()
			old.Spec.Limits, ncp.Spec.Limits = tt.oldL, tt.newL
			got := ValidateNamespacedCloudProfileUpdate(ncp, old, gateOff())
			if !tt.wantDuplicate {
				expectNoProblems(t, got)
				return
			}
			expectProblems(t, got,
				want{rule: "K-10/B-4", typ: Invalid, field: "spec.limits.maxNodesTotal"},
				want{rule: "K-8/B-4", typ: Invalid, field: "spec.limits.maxNodesTotal"})
		})
	}
	t.Run("deleting version - should not return any errors", func(t *testing.T) {
		old, ncp := validNCP(), validNCP()
		old.Spec.Kubernetes.Versions = []ev{{Version: "1.17.2"}, {Version: "1.17.1", ExpirationDate: at(-day)}}
		ncp.Spec.Kubernetes.Versions = []ev{{Version: "1.17.2"}}
		old.Spec.MachineImages[0].Versions = append(old.Spec.MachineImages[0].Versions, imageVersionOnly("2135.6.1", at(-day)))
		expectNoProblems(t, ValidateNamespacedCloudProfileUpdate(ncp, old, gateOff()))
	})
}

func TestRuleK11_MinimalProfileIsValid(t *testing.T) {
	t.Run("should allow NamespacedCloudProfile resource with only name and parent field", func(t *testing.T) {
		ncp := &gardencorev1beta1.NamespacedCloudProfile{
			ObjectMeta: metav1.ObjectMeta{Name: "profile", Namespace: "default"},
			Spec:       gardencorev1beta1.NamespacedCloudProfileSpec{Parent: gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: "profile-parent"}},
		}
		expectNoProblems(t, ValidateNamespacedCloudProfile(ncp, gateOff()))
	})
}
