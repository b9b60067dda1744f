package provider

import (
	"context"
	"slices"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/ptr"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/tfvalue"
)

// plannedSpecOf plans config against prior with the provider's server and returns the planned
// spec and the prior spec.
func plannedSpecOf(t *testing.T, config, prior gardencorev1beta1.CloudProfileSpec) (planned, priorSpec tftypes.Value) {
	t.Helper()
	ls := largeSchemaOf(newCloudProfileResource())
	planned, _ = tfvalue.At(planOf(t, config, &prior), specLargePath)
	priorSpec, _ = tfvalue.At(cloudProfileResourceValue(t, ls.Type(), prior, true), specLargePath)
	return planned, priorSpec
}

// machineTypesOf returns the machine type entries of a spec value, by name.
func machineTypesOf(t *testing.T, spec tftypes.Value) map[string]tftypes.Value {
	t.Helper()
	var types map[string]tftypes.Value
	if err := tfvalue.Attribute(spec, "machine_types").As(&types); err != nil {
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
	for name := range was {
		if !got[name].Equal(was[name]) {
			t.Errorf("machine type %s: planned %v, prior %v", name, got[name], was[name])
		}
	}
	if usable := tfvalue.Attribute(got["t3.micro"], "usable"); !usable.Equal(tftypes.NewValue(tftypes.Bool, true)) {
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
	if architecture := stringAttribute(got["m6g.large"], "architecture"); architecture != "arm64" {
		t.Errorf("the changed machine type's architecture comes from its capabilities, arm64; got %q", architecture)
	}
	for _, name := range []string{"m5.large", "c5.xlarge", "p3.2xlarge"} {
		if !got[name].Equal(was[name]) {
			t.Errorf("untouched machine type %s changed: %v -> %v", name, was[name], got[name])
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
	if capabilities := tfvalue.Attribute(machineTypesOf(t, planned)["c5.xlarge"], "capabilities"); !capabilities.Equal(want) {
		t.Errorf("an untouched machine type's capabilities are stored anew from its architecture: got %v", capabilities)
	}
}

// proposedLikeTerraform is the value Terraform proposes for an attribute a: the configuration,
// with every Computed value it leaves null taken from the prior value at the same place. Entries
// of maps are paired by key and entries of lists by index, as Terraform pairs them; an entry the
// prior value lacks is the configuration's alone.
func proposedLikeTerraform(a rschema.Attribute, prior, config tftypes.Value) tftypes.Value {
	if config.IsNull() {
		if a != nil && a.IsComputed() && prior.IsKnown() {
			return prior
		}
		return config
	}
	attrs := tfvalue.NestedAttributes(a)
	if attrs == nil || !config.IsKnown() || !prior.IsKnown() || prior.IsNull() {
		return config
	}
	object := func(priorObject, configObject tftypes.Value) tftypes.Value {
		var p, c map[string]tftypes.Value
		_ = priorObject.As(&p)
		_ = configObject.As(&c)
		out := make(map[string]tftypes.Value, len(c))
		for name, value := range c {
			out[name] = proposedLikeTerraform(attrs[name], p[name], value)
		}
		return tftypes.NewValue(configObject.Type(), out)
	}
	if _, isMap := a.(rschema.MapNestedAttribute); isMap {
		var p, c map[string]tftypes.Value
		_ = prior.As(&p)
		_ = config.As(&c)
		out := make(map[string]tftypes.Value, len(c))
		for key, entry := range c {
			out[key] = entry
			if priorEntry, ok := p[key]; ok && entry.IsKnown() && !entry.IsNull() {
				out[key] = object(priorEntry, entry)
			}
		}
		return tftypes.NewValue(config.Type(), out)
	}
	if _, isList := a.(rschema.ListNestedAttribute); !isList {
		return object(prior, config)
	}
	var p, c []tftypes.Value
	_ = prior.As(&p)
	_ = config.As(&c)
	out := make([]tftypes.Value, len(c))
	for i := range c {
		out[i] = c[i]
		if i < len(p) && c[i].IsKnown() && !c[i].IsNull() {
			out[i] = object(p[i], c[i])
		}
	}
	return tftypes.NewValue(config.Type(), out)
}

// planInsertedEntries plans config against the prior state of the stored form of priorConfig,
// with the proposed new state Terraform sends, and returns the planned spec and the spec Gardener
// stores for config.
func planInsertedEntries(t *testing.T, priorConfig, config gardencorev1beta1.CloudProfileSpec) (planned, want tftypes.Value) {
	t.Helper()
	ctx := context.Background()
	opts := cloudprofile.OptionsWithAllGates(time.Now())
	old, _ := cloudprofile.StoredCloudProfile(&gardencorev1beta1.CloudProfile{Spec: priorConfig}, nil, opts)
	stored, _ := cloudprofile.StoredCloudProfile(&gardencorev1beta1.CloudProfile{Spec: config}, old, opts)
	ls := largeSchemaOf(newCloudProfileResource())
	configValue := cloudProfileResourceValue(t, ls.Type(), config, false)
	priorValue := cloudProfileResourceValue(t, ls.Type(), old.Spec, true)
	configSpec, _ := tfvalue.At(configValue, specLargePath)
	priorSpec, _ := tfvalue.At(priorValue, specLargePath)
	proposed, err := tfvalue.Replace(configValue, specLargePath, proposedLikeTerraform(ls.Attribute(specLargePath), priorSpec, configSpec))
	if err != nil {
		t.Fatal(err)
	}
	shim, err := NewProtocol6Server(New("test"))()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := shim.PlanResourceChange(ctx, planRequest(t, ls.Type(), configValue, priorValue, proposed))
	if err != nil {
		t.Fatal(err)
	}
	state, err := resp.PlannedState.Unmarshal(ls.Type())
	if err != nil {
		t.Fatal(err)
	}
	planned, _ = tfvalue.At(state, specLargePath)
	want, diags := flattenSpecTerraform(cloudProfileSpecRoot, stored.Spec)
	requireNoDiags(t, diags)
	return planned, want
}

// TestPlan_InsertedEntriesNeverTakeTheirNeighboursDefaults: Terraform proposes the values an
// inserted entry leaves to Gardener from the prior entry at its index. A machine type inserted
// before an arm64 one that is not usable, an image version inserted before a multi-architecture
// one and an image inserted before one with update strategy minor are planned with Gardener's own
// defaults (amd64, usable, ["amd64"], major), exactly as Gardener stores them, and the entries
// they displaced keep their values.
func TestPlan_InsertedEntriesNeverTakeTheirNeighboursDefaults(t *testing.T) {
	priorConfig := plainCloudProfileSpec()
	priorConfig.MachineTypes = append(priorConfig.MachineTypes, gardencorev1beta1.MachineType{
		Name: "m6g.large", CPU: resource.MustParse("2"), GPU: resource.MustParse("0"), Memory: resource.MustParse("8Gi"),
		Architecture: ptr.To("arm64"), Usable: ptr.To(false),
	})
	priorConfig.MachineTypes[0], priorConfig.MachineTypes[1] = priorConfig.MachineTypes[1], priorConfig.MachineTypes[0]
	priorConfig.MachineImages[0].UpdateStrategy = ptr.To(gardencorev1beta1.UpdateStrategyMinor)
	priorConfig.MachineImages[0].Versions[0].Architectures = []string{"amd64", "arm64"}

	config := *priorConfig.DeepCopy()
	config.MachineTypes = slices.Insert(config.MachineTypes, 0, gardencorev1beta1.MachineType{
		Name: "t3.large", CPU: resource.MustParse("2"), GPU: resource.MustParse("0"), Memory: resource.MustParse("8Gi"),
	})
	config.MachineTypes = slices.Insert(config.MachineTypes, 2, gardencorev1beta1.MachineType{
		Name: "t3.xlarge", CPU: resource.MustParse("4"), GPU: resource.MustParse("0"), Memory: resource.MustParse("16Gi"),
	})
	config.MachineImages[0].Versions = slices.Insert(config.MachineImages[0].Versions, 0, gardencorev1beta1.MachineImageVersion{
		ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1877.4.0"},
	})
	config.MachineImages = slices.Insert(config.MachineImages, 0, gardencorev1beta1.MachineImage{Name: "ubuntu", Versions: []gardencorev1beta1.MachineImageVersion{
		{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "24.4.0"}},
	}})

	planned, want := planInsertedEntries(t, priorConfig, config)
	if !planned.Equal(want) {
		diffs, _ := planned.Diff(want)
		t.Fatalf("the planned spec differs from what Gardener stores at %v", firstDiffs(diffs))
	}
	types := machineTypesOf(t, planned)
	if got := stringAttribute(types["t3.large"], "architecture"); got != "amd64" {
		t.Errorf("t3.large inserted before m6g.large (arm64): architecture %q, want Gardener's default amd64", got)
	}
	if got := tfvalue.Attribute(types["t3.large"], "usable"); !got.Equal(tftypes.NewValue(tftypes.Bool, true)) {
		t.Errorf("t3.large inserted before m6g.large (not usable): usable %v, want Gardener's default true", got)
	}
}
