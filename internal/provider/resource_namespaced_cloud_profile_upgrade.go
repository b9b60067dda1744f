package provider

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/resource"
)

var _ resource.ResourceWithUpgradeState = (*namespacedCloudProfileResource)(nil)

// UpgradeState upgrades the state of earlier schema versions.
func (r *namespacedCloudProfileResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{
		0: {StateUpgrader: stateUpgrader("NamespacedCloudProfile", 0, func(raw []byte) ([]byte, error) {
			v1, err := upgradedNamespacedStateV0(raw)
			if err != nil {
				return nil, err
			}
			return keyedResourceStateJSON(v1, namespacedCloudProfileSpecRoot, namespacedCloudProfileStatusField())
		})},
		1: {StateUpgrader: stateUpgrader("NamespacedCloudProfile", 1, func(raw []byte) ([]byte, error) {
			return keyedResourceStateJSON(raw, namespacedCloudProfileSpecRoot, namespacedCloudProfileStatusField())
		})},
	}
}

// upgradedNamespacedStateV0 converts a version 0 state into version 1: keep_merged_status is false and the
// controller's status (with the copy of the merged parent) is dropped; everything else is kept.
func upgradedNamespacedStateV0(raw []byte) ([]byte, error) {
	var state map[string]json.RawMessage
	if err := json.Unmarshal(raw, &state); err != nil {
		return nil, err
	}
	state["keep_merged_status"] = json.RawMessage("false")
	state["status"] = json.RawMessage("null")
	return json.Marshal(state)
}
