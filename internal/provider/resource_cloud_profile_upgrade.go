package provider

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/resource"
)

var _ resource.ResourceWithUpgradeState = (*cloudProfileResource)(nil)

// UpgradeState upgrades the state of earlier schema versions.
func (r *cloudProfileResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{
		0: {StateUpgrader: stateUpgrader("CloudProfile", 0, func(raw []byte) ([]byte, error) {
			v1, err := upgradedCloudProfileStateV0(raw)
			if err != nil {
				return nil, err
			}
			return keyedResourceStateJSON(v1, cloudProfileSpecRoot)
		})},
		1: {StateUpgrader: stateUpgrader("CloudProfile", 1, func(raw []byte) ([]byte, error) { return keyedResourceStateJSON(raw, cloudProfileSpecRoot) })},
	}
}

// upgradedCloudProfileStateV0 converts a version 0 state into version 1: keep_status is false and the status is
// dropped; everything else is kept.
func upgradedCloudProfileStateV0(raw []byte) ([]byte, error) {
	var state map[string]json.RawMessage
	if err := json.Unmarshal(raw, &state); err != nil {
		return nil, err
	}
	state["keep_status"] = json.RawMessage("false")
	state["status"] = json.RawMessage("null")
	return json.Marshal(state)
}
