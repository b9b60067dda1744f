package provider

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// namespacedCloudProfileSchemaVersion is the version of the NamespacedCloudProfile resource's
// schema. Version 1 added keep_merged_status and keeps the controller's status only with it.
const namespacedCloudProfileSchemaVersion = 1

var _ resource.ResourceWithUpgradeState = (*namespacedCloudProfileResource)(nil)

// UpgradeState upgrades the state of earlier schema versions.
func (r *namespacedCloudProfileResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{0: {StateUpgrader: upgradeNamespacedStateV0}}
}

// upgradeNamespacedStateV0 upgrades a version 0 state: keep_merged_status is false and the
// controller's status (with the copy of the merged parent) is dropped; everything else is kept.
// It works on the state's JSON, so that no field of version 0 needs to be described again.
func upgradeNamespacedStateV0(_ context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
	if req.RawState == nil || req.RawState.JSON == nil {
		resp.Diagnostics.AddError("Cannot upgrade the state", "The version 0 state of the NamespacedCloudProfile has no JSON form. This is a bug in the provider.")
		return
	}
	upgraded, err := upgradedNamespacedStateV0(req.RawState.JSON)
	if err != nil {
		resp.Diagnostics.AddError("Cannot upgrade the state", fmt.Sprintf("The version 0 state of the NamespacedCloudProfile could not be read: %v. "+
			"Remove it from the state (terraform state rm) and import the object again.", err))
		return
	}
	resp.DynamicValue = &tfprotov6.DynamicValue{JSON: upgraded}
}

// upgradedNamespacedStateV0 is the JSON transformation of upgradeNamespacedStateV0.
func upgradedNamespacedStateV0(raw []byte) ([]byte, error) {
	var state map[string]json.RawMessage
	if err := json.Unmarshal(raw, &state); err != nil {
		return nil, err
	}
	state["keep_merged_status"] = json.RawMessage("false")
	state["status"] = json.RawMessage("null")
	return json.Marshal(state)
}
