package cloudprofile

import (
	"runtime"
	"slices"
	"strings"
	"testing"
)

func TestSnakeCase(t *testing.T) {
	for in, want := range map[string]string{"expirationDate": "expiration_date", "kubeletVersionConstraint": "kubelet_version_constraint", "cri": "cri", "caBundle": "ca_bundle"} {
		if got := SnakeCase(in); got != want {
			t.Errorf("SnakeCase(%q) = %q, want %q", in, got, want)
		}
	}
}

// Paths that grow from one prefix are independent values: neither a longer path, nor a path with
// other attribute steps, nor a change to the steps a path returns alters the prefix or a sibling.
func TestPath_GrowingFromOnePrefixLeavesItAsItWas(t *testing.T) {
	types := NewPath("spec").Child("machineTypes")
	first := types.Index(0).Child("cpu")
	second := types.Index(1).ChildAs("usable", "usable_for_workers")
	moved := first.WithAttributeSteps([]Step{{Kind: StepAttribute, Name: "spec"}, {Kind: StepKey, Key: "m1"}})
	extended := types.AttributeOnly(Step{Kind: StepKey, Key: "m2"}, Step{Kind: StepAttribute, Name: "memory"})
	first.Steps()[0].Name = "changed"

	for _, tt := range []struct {
		path             Path
		field, attribute string
	}{
		{types, "spec.machineTypes", "spec.machine_types"},
		{first, "spec.machineTypes[0].cpu", "spec.machine_types[0].cpu"},
		{second, "spec.machineTypes[1].usable", "spec.machine_types[1].usable_for_workers"},
		{moved, "spec.machineTypes[0].cpu", `spec["m1"]`},
		{extended, "spec.machineTypes", `spec.machine_types["m2"].memory`},
		{NewPath("metadata").ChildKey("labels"), "metadata.labels", `metadata["labels"]`},
		{NewPath("spec").FieldOnly("versions[]"), "spec.versions[]", "spec"},
		{Path{}, "", ""},
	} {
		if got := tt.path.Field(); got != tt.field {
			t.Errorf("Field() = %q, want %q", got, tt.field)
		}
		if got := tt.path.Attribute(); got != tt.attribute {
			t.Errorf("Attribute() = %q, want %q", got, tt.attribute)
		}
	}
	if got, want := second.Steps(), []Step{{Name: "spec"}, {Name: "machine_types"}, {Kind: StepIndex, Index: 1}, {Name: "usable_for_workers"}}; !slices.Equal(got, want) {
		t.Errorf("Steps() = %v, want %v", got, want)
	}
}

// A finding's path holds its last step only; the steps before it are its prefix's, however deep:
// thousands of findings under one list take memory in proportion to their number, not to their
// number times their depth.
func TestPath_ChildOfADeepPathTakesMemoryOfOneStep(t *testing.T) {
	deep := NewPath("spec")
	for range 40 {
		deep = deep.Child("a")
	}
	const n = 10_000
	children := make([]Path, n)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range children {
		children[i] = deep.Index(i)
	}
	runtime.ReadMemStats(&after)
	// One step is 64 bytes and the field path's node about as much; a copy of 41 steps would be
	// about 2,000 bytes.
	if perChild := (after.TotalAlloc - before.TotalAlloc) / n; perChild > 400 {
		t.Errorf("a child of a path of 41 steps allocates %d bytes, want at most 400 (the steps before it are shared)", perChild)
	}
	if got := children[n-1].Attribute(); got != "spec"+strings.Repeat(".a", 40)+"[9999]" {
		t.Errorf("Attribute() = %q", got)
	}
}

// Remapping a version's position (from the prepared object's lists to the configured ones) keeps
// Gardener's field path, changes the one index step, and shares the steps before it; a position
// that does not change keeps the path as it is.
func TestPath_WithStepIndexChangesOneStepAndSharesThoseBefore(t *testing.T) {
	p := NewPath("spec").Child("kubernetes").Child("versions").Index(3).Child("version")
	q := p.withStepIndex(3, 7)
	if got := q.Attribute(); got != "spec.kubernetes.versions[7].version" {
		t.Errorf("Attribute() = %q, want the index 7", got)
	}
	if p.Attribute() != "spec.kubernetes.versions[3].version" || q.Field() != p.Field() {
		t.Errorf("the original path %q or the field path %q changed", p.Attribute(), q.Field())
	}
	if q.steps.parent.parent != p.steps.parent.parent {
		t.Error("the steps before the index are copied, not shared")
	}
	if same := p.withStepIndex(3, 3); same.steps != p.steps {
		t.Error("an unchanged index copies the path")
	}
	if short := NewPath("spec").withStepIndex(3, 1); short.Attribute() != "spec" {
		t.Errorf("a path without step 3 became %q", short.Attribute())
	}
}
