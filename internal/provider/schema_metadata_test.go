package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestAbsentMapPlan(t *testing.T) {
	null := types.MapNull(types.StringType)
	empty := types.MapValueMust(types.StringType, map[string]attr.Value{})
	entries := types.MapValueMust(types.StringType, map[string]attr.Value{"team": types.StringValue("a")})
	unknown := types.MapUnknown(types.StringType)
	for _, tc := range []struct {
		name                string
		config, state, want types.Map
	}{
		{"configured entries are Terraform's plan", entries, null, unknown},
		{"configured {} is Terraform's plan", empty, null, unknown},
		{"left out on create plans null", null, null, null},
		{"left out keeps an imported {}", null, empty, empty},
		{"left out keeps a prior null", null, null, null},
		{"left out removes prior entries", null, entries, null},
	} {
		t.Run(tc.name, func(t *testing.T) {
			resp := &planmodifier.MapResponse{PlanValue: unknown}
			absentMapPlan{}.PlanModifyMap(context.Background(), planmodifier.MapRequest{ConfigValue: tc.config, StateValue: tc.state, PlanValue: unknown}, resp)
			if !resp.PlanValue.Equal(tc.want) {
				t.Errorf("plan = %v, want %v", resp.PlanValue, tc.want)
			}
		})
	}
}

func TestImportedStringMapsAreEmptyMaps(t *testing.T) {
	labels, annotations := importedStringMaps()
	for _, m := range []types.Map{labels, annotations} {
		if m.IsNull() || m.IsUnknown() || len(m.Elements()) != 0 {
			t.Errorf("got %v, want an empty map", m)
		}
	}
}
