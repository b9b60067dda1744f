package cloudprofile

import (
	"encoding/json"
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// TestTransformToParentFormat mirrors Gardener's tests of TransformSpecToParentFormat (pkg/utils/gardener/namespacedcloudprofile_test.go).
func TestTransformToParentFormat(t *testing.T) {
	archDefs := []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"amd64", "arm64"}}}
	version := func(v string, archs []string, flavors ...gardencorev1beta1.MachineImageFlavor) gardencorev1beta1.MachineImageVersion {
		return gardencorev1beta1.MachineImageVersion{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: v}, Architectures: archs, CapabilityFlavors: flavors}
	}
	machineType := func(name string, arch *string, caps gardencorev1beta1.Capabilities) gardencorev1beta1.MachineType {
		return gardencorev1beta1.MachineType{Name: name, CPU: resource.MustParse("2"), Memory: resource.MustParse("8Gi"), Architecture: arch, Capabilities: caps}
	}
	archCaps := func(values ...string) gardencorev1beta1.Capabilities {
		return gardencorev1beta1.Capabilities{"architecture": values}
	}

	tests := []struct {
		name       string
		defs       []gardencorev1beta1.CapabilityDefinition
		spec       gardencorev1beta1.NamespacedCloudProfileSpec
		wantImages []gardencorev1beta1.MachineImage
		wantTypes  []gardencorev1beta1.MachineType
	}{
		{
			name: "parent uses capabilities: should transform legacy architectures to capability flavors",
			defs: archDefs,
			spec: gardencorev1beta1.NamespacedCloudProfileSpec{
				MachineImages: []gardencorev1beta1.MachineImage{{Name: "ubuntu", Versions: []gardencorev1beta1.MachineImageVersion{version("20.04", []string{"amd64", "arm64"})}}},
				MachineTypes:  []gardencorev1beta1.MachineType{machineType("m5.large", ptrTo("amd64"), nil)},
			},
			wantImages: []gardencorev1beta1.MachineImage{{Name: "ubuntu", Versions: []gardencorev1beta1.MachineImageVersion{
				version("20.04", []string{"amd64", "arm64"}, flavor("amd64"), flavor("arm64")),
			}}},
			wantTypes: []gardencorev1beta1.MachineType{machineType("m5.large", ptrTo("amd64"), archCaps("amd64"))},
		},
		{
			name: "parent uses capabilities: should preserve existing capability flavors when already present",
			defs: archDefs,
			spec: gardencorev1beta1.NamespacedCloudProfileSpec{
				MachineImages: []gardencorev1beta1.MachineImage{{Name: "ubuntu", Versions: []gardencorev1beta1.MachineImageVersion{version("20.04", nil, flavor("amd64"))}}},
				MachineTypes:  []gardencorev1beta1.MachineType{machineType("m5.large", nil, archCaps("amd64"))},
			},
			wantImages: []gardencorev1beta1.MachineImage{{Name: "ubuntu", Versions: []gardencorev1beta1.MachineImageVersion{version("20.04", nil, flavor("amd64"))}}},
			wantTypes:  []gardencorev1beta1.MachineType{machineType("m5.large", nil, archCaps("amd64"))},
		},
		{
			name:      "parent uses capabilities: should default to AMD64 for machine types without architecture",
			defs:      archDefs,
			spec:      gardencorev1beta1.NamespacedCloudProfileSpec{MachineTypes: []gardencorev1beta1.MachineType{machineType("m5.large", nil, nil)}},
			wantTypes: []gardencorev1beta1.MachineType{machineType("m5.large", nil, archCaps("amd64"))},
		},
		{
			name:      "parent uses capabilities: the single defined architecture wins over the architecture field",
			defs:      []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"arm64"}}},
			spec:      gardencorev1beta1.NamespacedCloudProfileSpec{MachineTypes: []gardencorev1beta1.MachineType{machineType("m", ptrTo("amd64"), nil)}},
			wantTypes: []gardencorev1beta1.MachineType{machineType("m", ptrTo("amd64"), archCaps("arm64"))},
		},
		{
			name:      "parent uses capabilities: an explicitly empty architecture stays empty",
			defs:      archDefs,
			spec:      gardencorev1beta1.NamespacedCloudProfileSpec{MachineTypes: []gardencorev1beta1.MachineType{machineType("m", ptrTo(""), nil)}},
			wantTypes: []gardencorev1beta1.MachineType{machineType("m", ptrTo(""), archCaps(""))},
		},
		{
			name: "parent uses capabilities: a version without architectures gets an empty list of flavors",
			defs: archDefs,
			spec: gardencorev1beta1.NamespacedCloudProfileSpec{
				MachineImages: []gardencorev1beta1.MachineImage{{Name: "ubuntu", Versions: []gardencorev1beta1.MachineImageVersion{version("20.04", nil)}}},
			},
			wantImages: []gardencorev1beta1.MachineImage{{Name: "ubuntu", Versions: []gardencorev1beta1.MachineImageVersion{
				{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "20.04"}, CapabilityFlavors: []gardencorev1beta1.MachineImageFlavor{}},
			}}},
		},
		{
			name: "parent doesn't use capabilities: should transform capability flavors to legacy architectures",
			spec: gardencorev1beta1.NamespacedCloudProfileSpec{
				MachineImages: []gardencorev1beta1.MachineImage{{Name: "ubuntu", Versions: []gardencorev1beta1.MachineImageVersion{version("20.04", nil, flavor("amd64"), flavor("arm64"))}}},
				MachineTypes:  []gardencorev1beta1.MachineType{machineType("m5.large", nil, archCaps("amd64"))},
			},
			wantImages: []gardencorev1beta1.MachineImage{{Name: "ubuntu", Versions: []gardencorev1beta1.MachineImageVersion{version("20.04", []string{"amd64", "arm64"})}}},
			wantTypes:  []gardencorev1beta1.MachineType{machineType("m5.large", ptrTo("amd64"), nil)},
		},
		{
			name: "parent doesn't use capabilities: should leave architectures empty for machine image versions with empty capability flavors, to not overwrite images during deepMerge",
			spec: gardencorev1beta1.NamespacedCloudProfileSpec{
				MachineImages: []gardencorev1beta1.MachineImage{{Name: "ubuntu", Versions: []gardencorev1beta1.MachineImageVersion{version("20.04", nil, []gardencorev1beta1.MachineImageFlavor{}...)}}},
			},
			wantImages: []gardencorev1beta1.MachineImage{{Name: "ubuntu", Versions: []gardencorev1beta1.MachineImageVersion{version("20.04", []string{})}}},
		},
		{
			name: "parent doesn't use capabilities: existing architectures win over flavors, which are dropped",
			spec: gardencorev1beta1.NamespacedCloudProfileSpec{
				MachineImages: []gardencorev1beta1.MachineImage{{Name: "ubuntu", Versions: []gardencorev1beta1.MachineImageVersion{version("20.04", []string{"amd64"}, flavor("arm64"))}}},
				MachineTypes:  []gardencorev1beta1.MachineType{machineType("m", ptrTo("amd64"), archCaps("arm64"))},
			},
			wantImages: []gardencorev1beta1.MachineImage{{Name: "ubuntu", Versions: []gardencorev1beta1.MachineImageVersion{version("20.04", []string{"amd64"})}}},
			wantTypes:  []gardencorev1beta1.MachineType{machineType("m", ptrTo("amd64"), nil)},
		},
		{
			name: "should handle multiple machine images and types correctly",
			defs: archDefs,
			spec: gardencorev1beta1.NamespacedCloudProfileSpec{
				MachineImages: []gardencorev1beta1.MachineImage{
					{Name: "ubuntu", Versions: []gardencorev1beta1.MachineImageVersion{version("20.04", []string{"amd64"}), version("22.04", []string{"arm64"})}},
					{Name: "debian", Versions: []gardencorev1beta1.MachineImageVersion{version("11", []string{"amd64", "arm64"})}},
				},
				MachineTypes: []gardencorev1beta1.MachineType{machineType("m5.large", ptrTo("amd64"), nil), machineType("m6g.large", ptrTo("arm64"), nil)},
			},
			wantImages: []gardencorev1beta1.MachineImage{
				{Name: "ubuntu", Versions: []gardencorev1beta1.MachineImageVersion{
					version("20.04", []string{"amd64"}, flavor("amd64")), version("22.04", []string{"arm64"}, flavor("arm64")),
				}},
				{Name: "debian", Versions: []gardencorev1beta1.MachineImageVersion{version("11", []string{"amd64", "arm64"}, flavor("amd64"), flavor("arm64"))}},
			},
			wantTypes: []gardencorev1beta1.MachineType{machineType("m5.large", ptrTo("amd64"), archCaps("amd64")), machineType("m6g.large", ptrTo("arm64"), archCaps("arm64"))},
		},
		{
			name: "should return empty spec for empty input",
			defs: archDefs,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before, _ := json.Marshal(tt.spec)
			got := TransformToParentFormat(tt.spec, tt.defs)
			if after, _ := json.Marshal(tt.spec); string(before) != string(after) {
				t.Fatalf("should not modify the original spec (deep copy behavior): %s became %s", before, after)
			}
			if !reflect.DeepEqual(got.MachineImages, tt.wantImages) {
				t.Errorf("machine images:\n got: %#v\nwant: %#v", got.MachineImages, tt.wantImages)
			}
			if !reflect.DeepEqual(got.MachineTypes, tt.wantTypes) {
				t.Errorf("machine types:\n got: %#v\nwant: %#v", got.MachineTypes, tt.wantTypes)
			}
		})
	}
}

// TestTransformToParentFormat_IsIdempotent: admission transforms the spec and then merges it, which
// transforms it again; the second transformation must not change anything.
func TestTransformToParentFormat_IsIdempotent(t *testing.T) {
	for _, defs := range [][]gardencorev1beta1.CapabilityDefinition{nil, {{Name: "architecture", Values: []string{"amd64", "arm64"}}}} {
		spec := gardencorev1beta1.NamespacedCloudProfileSpec{
			MachineImages: []gardencorev1beta1.MachineImage{{Name: "i", Versions: []gardencorev1beta1.MachineImageVersion{
				{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1"}},
				{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "2"}, Architectures: []string{"arm64"}},
				{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "3"}, CapabilityFlavors: []gardencorev1beta1.MachineImageFlavor{flavor("amd64"), flavor("arm64")}},
			}}},
			MachineTypes: []gardencorev1beta1.MachineType{{Name: "a"}, {Name: "b", Architecture: ptrTo("arm64")}, {Name: "c", Capabilities: gardencorev1beta1.Capabilities{"architecture": {"arm64"}}}},
		}
		once := TransformToParentFormat(spec, defs)
		twice := TransformToParentFormat(once, defs)
		if !reflect.DeepEqual(once, twice) {
			t.Errorf("defs %v: not idempotent:\n once: %#v\ntwice: %#v", defs, once, twice)
		}
	}
}
