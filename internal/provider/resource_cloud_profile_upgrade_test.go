package provider

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// TestUpgradeCloudProfileStateV0_DropsTheStatus: a version 0 state keeps its spec, metadata and
// settings, gets keep_status = false and loses the controller's status.
func TestUpgradeCloudProfileStateV0_DropsTheStatus(t *testing.T) {
	v0 := `{"id":"aws","metadata":{"name":"aws","uid":"u-1"},"spec":{"type":"aws"},"force_conflicts":false,"adopt_existing":false,"timeouts":null,
	  "status":{"kubernetes_versions":[{"version":"1.33.1","classification":"supported"}],"machine_images":[]}}`
	var resp resource.UpgradeStateResponse
	upgradeCloudProfileStateV0 := newCloudProfileResource().(resource.ResourceWithUpgradeState).UpgradeState(context.Background())[0].StateUpgrader
	upgradeCloudProfileStateV0(context.Background(), resource.UpgradeStateRequest{RawState: &tfprotov6.RawState{JSON: []byte(v0)}}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	var got map[string]any
	if err := json.Unmarshal(resp.DynamicValue.JSON, &got); err != nil {
		t.Fatal(err)
	}
	if got["status"] != nil || got["keep_status"] != false {
		t.Errorf("status %v, keep_status %v: want null and false", got["status"], got["keep_status"])
	}
	if got["spec"].(map[string]any)["type"] != "aws" || got["metadata"].(map[string]any)["uid"] != "u-1" || got["id"] != "aws" {
		t.Errorf("the rest must stay as it was: %v", got)
	}
	var broken resource.UpgradeStateResponse
	upgradeCloudProfileStateV0(context.Background(), resource.UpgradeStateRequest{RawState: &tfprotov6.RawState{JSON: []byte("{")}}, &broken)
	if !broken.Diagnostics.HasError() {
		t.Error("an unreadable state must be an error")
	}
}
