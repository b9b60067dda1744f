package provider

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/resource"
)

// UpgradeState upgrades the state of earlier schema versions: a version 0 state kept the status
// without a flag to keep it (upgradedStateV0), and a version 1 state held the keyed collections as
// lists (keyedResourceStateJSON).
func (r *profileResourceOf[K, M, O, S]) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	keyed := func(raw []byte) ([]byte, error) { return keyedResourceStateJSON(raw, r.traits.root, r.traits.status) }
	return map[int64]resource.StateUpgrader{
		0: {StateUpgrader: stateUpgrader(r.traits.kind, 0, func(raw []byte) ([]byte, error) {
			v1, err := upgradedStateV0(raw, r.traits.schema.keep)
			if err != nil {
				return nil, err
			}
			return keyed(v1)
		})},
		1: {StateUpgrader: stateUpgrader(r.traits.kind, 1, keyed)},
	}
}

// upgradedStateV0 converts a version 0 state into version 1: the flag keep (keep_status,
// keep_merged_status) is false and the controller's status (for a NamespacedCloudProfile, with
// the copy of the merged parent) is dropped; everything else is kept.
func upgradedStateV0(raw []byte, keep string) ([]byte, error) {
	var state map[string]json.RawMessage
	if err := json.Unmarshal(raw, &state); err != nil {
		return nil, err
	}
	state[keep] = json.RawMessage("false")
	state["status"] = json.RawMessage("null")
	return json.Marshal(state)
}
