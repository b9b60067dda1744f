package provider

import (
	"context"
	"math/big"
	"reflect"
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/ptr"
)

// TestTerraformValueOfMatchesTheFramework: the data sources' lists and maps built by terraformValueOf are
// the values the framework's reflection builds from the same models, nulls, empties and "" included.
func TestTerraformValueOfMatchesTheFramework(t *testing.T) {
	ctx := context.Background()
	fields := map[string]specField{}
	for _, f := range profileOutputRoots {
		fields[f.attr] = f
	}
	stages := []stageModel{{Classification: "supported"}, {Classification: "expired", StartTime: ptr.To("2027-01-15T00:00:00Z")}}
	lists := map[string]any{
		"conditions": []conditionModel{{Type: "VersionsUsable", Status: "True", Severity: ptr.To("Warning"), Reason: "r", Message: "m", LastTransitionTime: "2026-01-01T00:00:00Z"}},
	}
	maps := map[string]any{
		"kubernetes_versions": map[string]versionModel{
			"1.31.2": {Version: "1.31.2", Classification: "supported"},
			"":       {Version: "", Classification: "", Lifecycle: []stageModel{}},
			"1.29.9": {Version: "1.29.9", Classification: "deprecated", StatusClassification: ptr.To("supported"), ExpirationDate: ptr.To("2027-01-15T00:00:00Z"),
				Lifecycle: stages, NextTransition: &transitionModel{At: "2027-01-15T00:00:00Z", Classification: "expired"}},
		},
		"machine_images": map[string]imageModel{
			"gardenlinux": {Name: "gardenlinux", LatestSupportedVersion: ptr.To("1592.1.0"), Versions: map[string]imageVersionModel{
				"1592.1.0": {versionModel: versionModel{Version: "1592.1.0", Classification: "supported"}, Architectures: []string{"amd64", "arm64"}, CRI: []string{}},
				"1443.3.0": {versionModel: versionModel{Version: "1443.3.0", Classification: "expired", Lifecycle: stages}},
			}},
			"empty": {Name: "empty", Versions: map[string]imageVersionModel{}},
		},
		"regions": map[string]regionModel{"eu-west-1": {Name: "eu-west-1", UsableMachineTypes: []string{"m5.large"}, UsableVolumeTypes: []string{},
			Zones: map[string]zoneModel{"eu-west-1a": {Name: "eu-west-1a", UsableMachineTypes: []string{"m5.large"}}}}},
		"machine_types": map[string]machineTypeModel{
			"m5.large": {Name: "m5.large", CPU: big.NewFloat(2), GPU: big.NewFloat(0), Memory: "8Gi", MemoryGiB: big.NewFloat(8), Architecture: "amd64"},
			"g4.xlarge": {Name: "g4.xlarge", CPU: big.NewFloat(0.5), GPU: big.NewFloat(1), Memory: "1536Mi", MemoryGiB: big.NewFloat(1.5), Architecture: "arm64",
				Storage: &machineTypeStorageModel{Class: "standard", Type: "gp3", MinSize: ptr.To("20Gi")}},
		},
		"odd_machine_types": map[string]machineTypeModel{
			"a": newMachineTypeModel(gardencorev1beta1.MachineType{Name: "a", CPU: resource.MustParse("100m"), GPU: resource.MustParse("1e3"), Memory: resource.MustParse("1000Mi")}, nil),
			"b": newMachineTypeModel(gardencorev1beta1.MachineType{Name: "b", CPU: resource.MustParse("333333333333333333333m"), Memory: resource.MustParse("3.3Ti")}, nil),
		},
		"volume_types": map[string]volumeTypeModel{"gp3": {Name: "gp3", Class: "standard"}, "io2": {Name: "io2", Class: "premium", MinSize: ptr.To("20Gi")}},
	}
	for name, value := range lists {
		want, diags := types.ListValueFrom(ctx, profileOutputTypes[name].(types.ListType).ElemType, value)
		requireNoDiags(t, diags)
		wantValue, err := want.ToTerraformValue(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got, diags := terraformValueOf(fields[name], value)
		requireNoDiags(t, diags)
		if !got.Equal(wantValue) {
			t.Errorf("%s: got %s, the framework gives %s", name, got, wantValue)
		}
	}
	for name, value := range maps {
		name = strings.TrimPrefix(name, "odd_")
		want, diags := types.MapValueFrom(ctx, profileOutputTypes[name].(types.MapType).ElemType, value)
		requireNoDiags(t, diags)
		wantValue, err := want.ToTerraformValue(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got, diags := terraformValueOf(fields[name], value)
		requireNoDiags(t, diags)
		if !got.Equal(wantValue) {
			t.Errorf("%s: got %s, the framework gives %s", name, got, wantValue)
		}
	}
}

// TestCloudProfileStatusValue: the resource's status is what the framework's reflection gives for
// the same status, with lists that have no entries empty rather than null.
func TestCloudProfileStatusValue(t *testing.T) {
	ctx := context.Background()
	status := gardencorev1beta1.CloudProfileStatus{
		MachineImages: []gardencorev1beta1.MachineImageStatus{
			{Name: "gardenlinux", Versions: []gardencorev1beta1.ExpirableVersionStatus{{Version: "1592.1.0", Classification: gardencorev1beta1.ClassificationSupported}}},
			{Name: "empty"},
		},
	}
	got, diags := cloudProfileStatusValue(status)
	requireNoDiags(t, diags)
	want, diags := types.ObjectValueFrom(ctx, cloudProfileStatusRoot.typ.(types.ObjectType).AttrTypes, cloudProfileStatusModel{
		KubernetesVersions: []versionStatusModel{},
		MachineImages: []imageStatusModel{
			{Name: "gardenlinux", Versions: []versionStatusModel{{Version: "1592.1.0", Classification: "supported"}}},
			{Name: "empty", Versions: []versionStatusModel{}},
		},
	})
	requireNoDiags(t, diags)
	wantValue, err := want.ToTerraformValue(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Equal(wantValue) {
		t.Errorf("got %s, want %s", got, wantValue)
	}
}

// TestModelTagsAgree: every field of the models terraformValueOf converts has the same json and
// tfsdk name, so that the framework's conversion above checks the JSON names against the
// descriptors too (terraformValueOf leaves an attribute the JSON lacks null).
func TestModelTagsAgree(t *testing.T) {
	for _, m := range []any{stageModel{}, transitionModel{}, versionModel{}, imageVersionModel{}, imageModel{}, zoneModel{},
		regionModel{}, machineTypeModel{}, machineTypeStorageModel{}, volumeTypeModel{}, conditionModel{},
		versionStatusModel{}, imageStatusModel{}, cloudProfileStatusModel{}} {
		typ := reflect.TypeOf(m)
		for i := range typ.NumField() {
			f := typ.Field(i)
			if f.Tag.Get("json") != f.Tag.Get("tfsdk") {
				t.Errorf("%s.%s: json %q, tfsdk %q", typ.Name(), f.Name, f.Tag.Get("json"), f.Tag.Get("tfsdk"))
			}
		}
	}
}
