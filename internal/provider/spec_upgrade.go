package provider

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// Schema version 2 of both resources turned the keyed lists of a spec (spec_fields.go,
// kindKeyedObjects) from lists of objects, each holding its key as an attribute, into maps by key
// whose entries leave the key out. keyedStateJSON converts a state value of an earlier version.

// keyedStateJSON converts the JSON of a value of the object field f in a state written before
// schema version 2 into its version 2 form. Of entries with the same key the last is kept, as
// reading the object from Gardener keeps it; an entry without its key has the key "".
func keyedStateJSON(f specField, raw json.RawMessage) (json.RawMessage, error) {
	if isJSONNull(raw) {
		return raw, nil
	}
	var attrs map[string]json.RawMessage
	if err := json.Unmarshal(raw, &attrs); err != nil {
		return nil, fmt.Errorf("%s: %w", f.attr, err)
	}
	for _, c := range f.children {
		v, ok := attrs[c.attr]
		if !ok || isJSONNull(v) {
			continue
		}
		converted, err := keyedStateValue(c, v)
		if err != nil {
			return nil, fmt.Errorf("%s.%w", f.attr, err)
		}
		attrs[c.attr] = converted
	}
	return json.Marshal(attrs)
}

// keyedStateValue converts the JSON of a value of any field f (see keyedStateJSON).
func keyedStateValue(f specField, raw json.RawMessage) (json.RawMessage, error) {
	switch f.kind {
	case kindObject:
		return keyedStateJSON(f, raw)
	case kindObjectList:
		var elements []json.RawMessage
		if err := json.Unmarshal(raw, &elements); err != nil {
			return nil, fmt.Errorf("%s: %w", f.attr, err)
		}
		for i, e := range elements {
			converted, err := keyedStateJSON(f, e)
			if err != nil {
				return nil, err
			}
			elements[i] = converted
		}
		return json.Marshal(elements)
	case kindKeyedObjects:
		return keyedStateEntries(f, raw)
	}
	return raw, nil
}

// keyedStateEntries converts the list of a keyed list's entries into the map by key.
func keyedStateEntries(f specField, raw json.RawMessage) (json.RawMessage, error) {
	var elements []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &elements); err != nil {
		return nil, fmt.Errorf("%s: %w", f.attr, err)
	}
	out := make(map[string]json.RawMessage, len(elements))
	for _, e := range elements {
		var key string
		if k, ok := e[f.key]; ok && !isJSONNull(k) {
			if err := json.Unmarshal(k, &key); err != nil {
				return nil, fmt.Errorf("%s.%s: %w", f.attr, f.key, err)
			}
		}
		delete(e, f.key)
		entry, err := json.Marshal(e)
		if err == nil {
			entry, err = keyedStateJSON(f, entry)
		}
		if err != nil {
			return nil, err
		}
		out[key] = entry
	}
	return json.Marshal(out)
}

// isJSONNull tells whether raw is JSON null (or empty).
func isJSONNull(raw json.RawMessage) bool {
	return len(raw) == 0 || string(raw) == "null"
}

// keyedResourceStateJSON converts the state of a resource written before schema version 2: its
// spec, and the specs placed at the given attribute paths of its status (a merged profile).
func keyedResourceStateJSON(raw []byte, spec specField, status ...specField) ([]byte, error) {
	var state map[string]json.RawMessage
	if err := json.Unmarshal(raw, &state); err != nil {
		return nil, err
	}
	converted, err := keyedStateJSON(spec, state["spec"])
	if err != nil {
		return nil, err
	}
	state["spec"] = converted
	for _, s := range status {
		if state["status"], err = keyedStateJSON(s, state["status"]); err != nil {
			return nil, err
		}
	}
	return json.Marshal(state)
}

// stateUpgrader returns the upgrader of a state of the given version of a resource of the kind,
// which works on the state's JSON with convert, so that no field of an earlier version needs to be
// described again.
func stateUpgrader(kind string, version int, convert func([]byte) ([]byte, error)) func(context.Context, resource.UpgradeStateRequest, *resource.UpgradeStateResponse) {
	return func(_ context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
		if req.RawState == nil || req.RawState.JSON == nil {
			resp.Diagnostics.AddError("Cannot upgrade the state", fmt.Sprintf("The version %d state of the %s has no JSON form. This is a bug in the provider.", version, kind))
			return
		}
		upgraded, err := convert(req.RawState.JSON)
		if err != nil {
			resp.Diagnostics.AddError("Cannot upgrade the state", fmt.Sprintf("The version %d state of the %s could not be read: %v. "+
				"Remove it from the state (terraform state rm) and import the object again.", version, kind, err))
			return
		}
		resp.DynamicValue = &tfprotov6.DynamicValue{JSON: upgraded}
	}
}

// cloudProfileSchemaVersion is the version of the CloudProfile resource's schema. Version 1 added
// keep_status and keeps the controller's status only with it.
// Version 2 made the keyed lists of the spec maps by key (spec_upgrade.go).
const cloudProfileSchemaVersion = 2

// namespacedCloudProfileSchemaVersion is the version of the NamespacedCloudProfile resource's
// schema. Version 1 added keep_merged_status and keeps the controller's status only with it.
// Version 2 made the keyed lists of the spec maps by key (spec_upgrade.go).
const namespacedCloudProfileSchemaVersion = 2
