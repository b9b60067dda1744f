package largevalue

import (
	"context"
	"testing"

	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// TestKeepSemanticallyEqual_EmptyCollectionsForNull: Kubernetes APIs omit empty collections, so
// an empty list or map that comes back null keeps its planned value (no inconsistent result, no
// perpetual diff), while a non-empty one that comes back null stays null.
func TestKeepSemanticallyEqual_EmptyCollectionsForNull(t *testing.T) {
	list := tftypes.List{ElementType: tftypes.String}
	strMap := tftypes.Map{ElementType: tftypes.String}
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"unavailable": list, "labels": strMap}}
	a := rschema.SingleNestedAttribute{Attributes: map[string]rschema.Attribute{
		"unavailable": rschema.ListAttribute{Optional: true},
		"labels":      rschema.MapAttribute{Optional: true},
	}}
	object := func(unavailable, labels tftypes.Value) tftypes.Value {
		return tftypes.NewValue(typ, map[string]tftypes.Value{"unavailable": unavailable, "labels": labels})
	}
	stored := object(tftypes.NewValue(list, nil), tftypes.NewValue(strMap, nil))
	empty := object(tftypes.NewValue(list, []tftypes.Value{}), tftypes.NewValue(strMap, map[string]tftypes.Value{}))
	if got := KeepSemanticallyEqual(context.Background(), a, empty, stored); !got.Equal(empty) {
		t.Errorf("planned empty collections stored as null: got %v, want the planned %v", got, empty)
	}
	nonEmpty := object(tftypes.NewValue(list, []tftypes.Value{tftypes.NewValue(tftypes.String, "m5")}), tftypes.NewValue(strMap, nil))
	if got := KeepSemanticallyEqual(context.Background(), a, nonEmpty, stored); !got.Equal(stored) {
		t.Errorf("a planned non-empty list stored as null: got %v, want null as stored", got)
	}
}

// TestKeepPriorStored_EmptyAndLeftOutPlanNoChange: `[]` or `{}` configured where the prior value
// is null, and the other way round, stand for the same stored value: the whole unchanged value
// plans as the prior one (Terraform accepts it where prior and configuration are both set). When
// the same object changes otherwise, what the configuration leaves out goes back to its
// configured (null) form after the changing plan's steps, as Terraform accepts nothing else there,
// while an unchanged sibling object keeps its prior value.
func TestKeepPriorStored_EmptyAndLeftOutPlanNoChange(t *testing.T) {
	ctx := context.Background()
	list := tftypes.List{ElementType: tftypes.String}
	entry := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"zones": list, "name": tftypes.String}}
	entries := tftypes.Map{ElementType: entry}
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"regions": entries}}
	a := rschema.SingleNestedAttribute{Required: true, Attributes: map[string]rschema.Attribute{
		"regions": rschema.MapNestedAttribute{Optional: true, NestedObject: rschema.NestedAttributeObject{Attributes: map[string]rschema.Attribute{
			"zones": rschema.ListAttribute{Optional: true, ElementType: types.StringType},
			"name":  rschema.StringAttribute{Optional: true},
		}}},
	}}
	zones := func(z ...string) tftypes.Value {
		if z == nil {
			return tftypes.NewValue(list, nil)
		}
		values := []tftypes.Value{}
		for _, s := range z[1:] {
			values = append(values, tftypes.NewValue(tftypes.String, s))
		}
		return tftypes.NewValue(list, values)
	}
	spec := func(aZones, bZones tftypes.Value, bName string) tftypes.Value {
		region := func(z tftypes.Value, name string) tftypes.Value {
			return tftypes.NewValue(entry, map[string]tftypes.Value{"zones": z, "name": tftypes.NewValue(tftypes.String, name)})
		}
		return tftypes.NewValue(typ, map[string]tftypes.Value{"regions": tftypes.NewValue(entries, map[string]tftypes.Value{
			"a": region(aZones, "a"), "b": region(bZones, bName),
		})})
	}
	empty := zones("") // the first argument only marks a list: zones("", "x") is ["x"]
	leftOut := zones()
	for _, c := range []struct {
		name          string
		prior, config tftypes.Value
	}{
		{"[] applied, left out", spec(empty, empty, "b"), spec(leftOut, leftOut, "b")},
		{"left out applied, []", spec(leftOut, leftOut, "b"), spec(empty, empty, "b")},
	} {
		got, _ := keepPriorStoredValue(ctx, a, c.prior, c.config, c.config)
		if !got.Equal(c.prior) {
			t.Errorf("%s: planned %v, want the prior value", c.name, got)
		}
	}
	// Region b changes its name: regions changes as a whole, so its zones and a's take the
	// configured form.
	prior, config := spec(empty, empty, "b"), spec(leftOut, leftOut, "b2")
	proposed, _ := keepPriorStoredValue(ctx, a, prior, config, config)
	planned, _ := conformToConfig(ctx, a, prior, proposed, config)
	if !planned.Equal(config) {
		t.Errorf("an entry that changes otherwise: planned %v, want the configuration %v", planned, config)
	}
	// A plan whose steps kept the prior empties while marking and filling (a changing plan of
	// another attribute) goes back to the prior value as a whole.
	unchanged := spec(leftOut, leftOut, "b")
	if got, _ := conformToConfig(ctx, a, prior, prior, unchanged); !got.Equal(prior) {
		t.Errorf("unchanged but for the form: planned %v, want the prior value", got)
	}
}
