package provider

import (
	"context"
	"testing"

	"github.com/gardener-community/terraform-provider-gardener/internal/provider/largevalue"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"k8s.io/apimachinery/pkg/api/resource"
)

// plannedSpecOf plans config against prior with the provider's server and returns the planned
// spec and the prior spec.
func plannedSpecOf(t *testing.T, config, prior gardencorev1beta1.CloudProfileSpec) (planned, priorSpec tftypes.Value) {
	t.Helper()
	_, ls := largevalue.ResourceSchema(context.Background(), TypeName, newCloudProfileResource())
	planned, _ = largevalue.At(planOf(t, config, &prior), specLargePath)
	priorSpec, _ = largevalue.At(cloudProfileResourceValue(t, ls.Type(), prior, true), specLargePath)
	return planned, priorSpec
}

// machineTypesOf returns the machine type entries of a spec value.
func machineTypesOf(t *testing.T, spec tftypes.Value) []tftypes.Value {
	t.Helper()
	var types []tftypes.Value
	if err := attributeOf(spec, "machine_types").As(&types); err != nil {
		t.Fatal(err)
	}
	return types
}

// TestPlan_UnchangedEntriesKeepTheirPriorValueByKey: a machine type inserted before the others
// is planned with the defaults Gardener gives it, and every other machine type keeps exactly its
// prior value, found by name although its index moved.
func TestPlan_UnchangedEntriesKeepTheirPriorValueByKey(t *testing.T) {
	prior := richCloudProfileSpec()
	config := richCloudProfileSpec()
	config.MachineTypes = append([]gardencorev1beta1.MachineType{{Name: "t3.micro", CPU: resource.MustParse("1"), GPU: resource.MustParse("0"), Memory: resource.MustParse("1Gi")}}, config.MachineTypes...)
	planned, priorSpec := plannedSpecOf(t, config, prior)
	got, was := machineTypesOf(t, planned), machineTypesOf(t, priorSpec)
	if len(got) != len(was)+1 {
		t.Fatalf("planned %d machine types, want %d", len(got), len(was)+1)
	}
	for i := range was {
		if !got[i+1].Equal(was[i]) {
			t.Errorf("machine type %s: planned %v, prior %v", stringAttribute(was[i], "name"), got[i+1], was[i])
		}
	}
	if usable := attributeOf(got[0], "usable"); !usable.Equal(tftypes.NewValue(tftypes.Bool, true)) {
		t.Errorf("the new machine type's usable is Gardener's default true, got %v", usable)
	}
}

// TestPlan_AChangedEntryIsPlannedAsGardenerStoresIt: a machine type whose memory changes and
// whose architecture is left to Gardener is planned with the architecture Gardener derives from
// its capabilities; the untouched ones keep their prior values.
func TestPlan_AChangedEntryIsPlannedAsGardenerStoresIt(t *testing.T) {
	prior := richCloudProfileSpec()
	config := richCloudProfileSpec()
	config.MachineTypes[1].Memory = resource.MustParse("16Gi")
	config.MachineTypes[1].Architecture = nil
	planned, priorSpec := plannedSpecOf(t, config, prior)
	got, was := machineTypesOf(t, planned), machineTypesOf(t, priorSpec)
	if architecture := stringAttribute(got[1], "architecture"); architecture != "arm64" {
		t.Errorf("the changed machine type's architecture comes from its capabilities, arm64; got %q", architecture)
	}
	for _, i := range []int{0, 2, 3} {
		if !got[i].Equal(was[i]) {
			t.Errorf("untouched machine type %d changed: %v -> %v", i, was[i], got[i])
		}
	}
}

// TestPlan_NewCapabilityDefinitionsAreStoredAnew: capability definitions change how Gardener
// stores every entry (capabilities and architectures are synchronised with them), so when they
// change no entry keeps its prior value: each is planned as Gardener will store it.
func TestPlan_NewCapabilityDefinitionsAreStoredAnew(t *testing.T) {
	prior := richCloudProfileSpec()
	prior.MachineTypes[2].Capabilities = nil // as the configuration wrote it, not as Gardener stored it
	config := richCloudProfileSpec()
	config.MachineTypes[2].Capabilities = nil
	config.MachineCapabilities[0].Values = append(config.MachineCapabilities[0].Values, "s390x")
	planned, _ := plannedSpecOf(t, config, prior)
	want := tftypes.NewValue(tftypes.Map{ElementType: tftypes.List{ElementType: tftypes.String}}, map[string]tftypes.Value{
		"architecture": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{tftypes.NewValue(tftypes.String, "amd64")}),
	})
	if capabilities := attributeOf(machineTypesOf(t, planned)[2], "capabilities"); !capabilities.Equal(want) {
		t.Errorf("an untouched machine type's capabilities are stored anew from its architecture: got %v", capabilities)
	}
}
