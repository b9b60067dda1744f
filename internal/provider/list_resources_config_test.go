package provider

import (
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/ptr"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/tfvalue"
)

// TestGeneratedConfig_LeavesOutWhatGardenerFillsIn: the spec of a listed CloudProfile, as Gardener
// stored it, becomes configuration without the values Gardener fills in itself (a machine type's
// architecture amd64 and usable true, an image's update strategy major, a version's architectures
// and container runtime), and keeps every value a person set differently (arm64, not usable,
// update strategy minor, two architectures).
func TestGeneratedConfig_LeavesOutWhatGardenerFillsIn(t *testing.T) {
	opts := cloudprofile.OptionsWithAllGates(time.Date(2026, time.November, 1, 0, 0, 0, 0, time.UTC))
	spec := plainCloudProfileSpec()
	spec.MachineTypes = append(spec.MachineTypes, gardencorev1beta1.MachineType{
		Name: "m6g.large", CPU: resource.MustParse("2"), GPU: resource.MustParse("0"), Memory: resource.MustParse("8Gi"),
		Architecture: ptr.To("arm64"), Usable: ptr.To(false),
	})
	spec.MachineImages = append(spec.MachineImages, gardencorev1beta1.MachineImage{Name: "ubuntu", UpdateStrategy: ptr.To(gardencorev1beta1.UpdateStrategyMinor),
		Versions: []gardencorev1beta1.MachineImageVersion{{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "24.4.0"}, Architectures: []string{"amd64", "arm64"}}}})
	stored, _ := cloudprofile.StoredCloudProfile(&gardencorev1beta1.CloudProfile{Spec: spec}, nil, opts)
	listed, diags := flattenSpecTerraform(cloudProfileSpecRoot, stored.Spec)
	requireNoDiags(t, diags)
	ls := largeSchemaOf(newCloudProfileResource())
	got := withoutGardenerDefaults(ls.Attribute(specLargePath), listed, storedCloudProfileSpec(opts))

	types := machineTypesOf(t, got)
	for _, name := range []string{"architecture", "usable"} {
		if v := tfvalue.Attribute(types["m5.large"], name); !v.IsNull() {
			t.Errorf("m5.large: %s = %v is Gardener's default, want it left out", name, v)
		}
	}
	if got := stringAttribute(types["m6g.large"], "architecture"); got != "arm64" {
		t.Errorf("m6g.large: architecture %q, want arm64 kept", got)
	}
	if got := tfvalue.Attribute(types["m6g.large"], "usable"); !got.Equal(tftypes.NewValue(tftypes.Bool, false)) {
		t.Errorf("m6g.large: usable %v, want false kept", got)
	}
	images := elementsOf(t, tfvalue.Attribute(got, "machine_images"))
	if v := tfvalue.Attribute(images["gardenlinux"], "update_strategy"); !v.IsNull() {
		t.Errorf("gardenlinux: update_strategy %v is Gardener's default, want it left out", v)
	}
	version := elementsOf(t, tfvalue.Attribute(images["gardenlinux"], "versions"))["1877.3.0"]
	for _, name := range []string{"architectures", "cri"} {
		if v := tfvalue.Attribute(version, name); !v.IsNull() {
			t.Errorf("gardenlinux 1877.3.0: %s = %v is Gardener's default, want it left out", name, v)
		}
	}
	if got := stringAttribute(images["ubuntu"], "update_strategy"); got != "minor" {
		t.Errorf("ubuntu: update_strategy %q, want minor kept", got)
	}
	if v := tfvalue.Attribute(elementsOf(t, tfvalue.Attribute(images["ubuntu"], "versions"))["24.4.0"], "architectures"); v.IsNull() {
		t.Error("ubuntu 24.4.0: two architectures are not Gardener's default, want them kept")
	}
	if !got.Equal(withoutGardenerDefaults(ls.Attribute(specLargePath), got, storedCloudProfileSpec(opts))) {
		t.Error("leaving out the defaults twice changes the result")
	}
	back, _ := storedCloudProfileSpec(opts)(got)
	if !back.Equal(listed) {
		diffs, _ := back.Diff(listed)
		t.Errorf("Gardener stores the generated configuration differently from the listed object at %v", firstDiffs(diffs))
	}
}

// elementsOf are the entries of a map value, by key.
func elementsOf(t *testing.T, list tftypes.Value) map[string]tftypes.Value {
	t.Helper()
	var out map[string]tftypes.Value
	if err := list.As(&out); err != nil {
		t.Fatal(err)
	}
	return out
}
