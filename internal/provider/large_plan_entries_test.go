package provider

import (
	"context"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"k8s.io/apimachinery/pkg/api/resource"
)

// plannedSpecOf plans config against prior with the provider's server and returns the planned
// spec and the prior spec.
func plannedSpecOf(t *testing.T, config, prior gardencorev1beta1.CloudProfileSpec) (planned, priorSpec tftypes.Value) {
	t.Helper()
	ctx := context.Background()
	_, ls := resourceLargeSchema(ctx, newCloudProfileResource())
	configValue := cloudProfileResourceValue(t, ls.typ, config, false)
	priorValue := cloudProfileResourceValue(t, ls.typ, prior, true)
	shim, err := NewProtocol6Server(New("test"))()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := shim.PlanResourceChange(ctx, planRequest(t, ls.typ, configValue, priorValue, configValue))
	if err != nil {
		t.Fatal(err)
	}
	state, err := resp.PlannedState.Unmarshal(ls.typ)
	if err != nil {
		t.Fatal(err)
	}
	planned, _ = valueAt(state, specLargePath)
	priorSpec, _ = valueAt(priorValue, specLargePath)
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
// is planned with its server defaults unknown, and every other machine type keeps exactly its
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
	if usable := attributeOf(got[0], "usable"); usable.IsKnown() {
		t.Errorf("the new machine type's usable is Gardener's default, unknown at plan: %v", usable)
	}
}

// TestPlan_AChangedEntryLeavesItsDefaultsToTheServer: a machine type whose memory changes is
// planned as the framework plans it, with the Computed values it leaves to Gardener unknown; the
// untouched ones keep their prior values.
func TestPlan_AChangedEntryLeavesItsDefaultsToTheServer(t *testing.T) {
	prior := richCloudProfileSpec()
	config := richCloudProfileSpec()
	config.MachineTypes[2].Memory = resource.MustParse("16Gi")
	config.MachineTypes[2].Architecture = nil
	planned, priorSpec := plannedSpecOf(t, config, prior)
	got, was := machineTypesOf(t, planned), machineTypesOf(t, priorSpec)
	if architecture := attributeOf(got[2], "architecture"); architecture.IsKnown() {
		t.Errorf("the changed machine type's architecture is left to Gardener, unknown at plan: %v", architecture)
	}
	for _, i := range []int{0, 1, 3} {
		if !got[i].Equal(was[i]) {
			t.Errorf("untouched machine type %d changed: %v -> %v", i, was[i], got[i])
		}
	}
}

// TestPlan_NewCapabilityDefinitionsLeaveEveryDefaultToTheServer: capability definitions change
// how Gardener stores every entry (capabilities and architectures are synchronised with them), so
// no entry keeps its prior value when they change.
func TestPlan_NewCapabilityDefinitionsLeaveEveryDefaultToTheServer(t *testing.T) {
	prior := richCloudProfileSpec()
	config := richCloudProfileSpec()
	config.MachineCapabilities[0].Values = append(config.MachineCapabilities[0].Values, "s390x")
	planned, _ := plannedSpecOf(t, config, prior)
	if capabilities := attributeOf(machineTypesOf(t, planned)[2], "capabilities"); capabilities.IsKnown() {
		t.Errorf("with new capability definitions an untouched machine type's capabilities are unknown at plan: %v", capabilities)
	}
}
