package largevalue

import (
	"context"
	"testing"

	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
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
