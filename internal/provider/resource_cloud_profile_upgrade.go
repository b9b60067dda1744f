package provider

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// cloudProfileSchemaVersion is the version of the CloudProfile resource's schema. Version 1 added
// keep_status and keeps the controller's status only with it.
const cloudProfileSchemaVersion = 1

var _ resource.ResourceWithUpgradeState = (*cloudProfileResource)(nil)

// UpgradeState upgrades the state of earlier schema versions.
func (r *cloudProfileResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{0: {StateUpgrader: upgradeCloudProfileStateV0}}
}

// upgradeCloudProfileStateV0 upgrades a version 0 state: keep_status is false and the status is
// dropped; everything else is kept. It works on the state's JSON, so that no field of version 0
// needs to be described again.
func upgradeCloudProfileStateV0(_ context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
	if req.RawState == nil || req.RawState.JSON == nil {
		resp.Diagnostics.AddError("Cannot upgrade the state", "The version 0 state of the CloudProfile has no JSON form. This is a bug in the provider.")
		return
	}
	upgraded, err := upgradedCloudProfileStateV0(req.RawState.JSON)
	if err != nil {
		resp.Diagnostics.AddError("Cannot upgrade the state", fmt.Sprintf("The version 0 state of the CloudProfile could not be read: %v. "+
			"Remove it from the state (terraform state rm) and import the object again.", err))
		return
	}
	resp.DynamicValue = &tfprotov6.DynamicValue{JSON: upgraded}
}

// upgradedCloudProfileStateV0 is the JSON transformation of upgradeCloudProfileStateV0.
func upgradedCloudProfileStateV0(raw []byte) ([]byte, error) {
	var state map[string]json.RawMessage
	if err := json.Unmarshal(raw, &state); err != nil {
		return nil, err
	}
	state["keep_status"] = json.RawMessage("false")
	state["status"] = json.RawMessage("null")
	return json.Marshal(state)
}
