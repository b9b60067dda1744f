package provider

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// v0NamespacedState is the state of a NamespacedCloudProfile as schema version 0 stored it: the
// merged parent in status.cloud_profile_spec, no keep_merged_status.
const v0NamespacedState = `{
  "id": "garden-team/team",
  "metadata": {"name": "team", "namespace": "garden-team", "labels": null, "annotations": null,
    "uid": "0b7e3c4e-1111-2222-3333-444455556666", "resource_version": "812", "generation": 2},
  "spec": {"parent": {"kind": "CloudProfile", "name": "parent"},
    "kubernetes": {"versions": [{"version": "1.31.2", "expiration_date": "2031-01-01T00:00:00Z"}]}},
  "status": {"observed_generation": 2,
    "cloud_profile_spec": {"type": "local",
      "kubernetes": {"versions": [{"version": "1.31.2", "expiration_date": "2031-01-01T00:00:00Z"}]},
      "machine_types": [{"name": "m5.large", "cpu": "2", "gpu": "0", "memory": "8Gi"}]}},
  "force_conflicts": false,
  "adopt_existing": false,
  "timeouts": null
}`

func TestNamespacedCloudProfileState_UpgradeFromV0DropsTheMergedStatus(t *testing.T) {
	server, err := providerserver.NewProtocol6WithError(New("test")())()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	schemas, err := server.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	s := schemas.ResourceSchemas["gardener_namespaced_cloud_profile"]
	if s.Version != 2 {
		t.Fatalf("schema version %d, want 2", s.Version)
	}
	resp, err := server.UpgradeResourceState(ctx, &tfprotov6.UpgradeResourceStateRequest{
		TypeName: "gardener_namespaced_cloud_profile", Version: 0, RawState: &tfprotov6.RawState{JSON: []byte(v0NamespacedState)},
	})
	if err != nil || len(resp.Diagnostics) > 0 {
		t.Fatalf("upgrade: %v %v", err, resp.Diagnostics)
	}
	typ := s.ValueType()
	upgraded, err := resp.UpgradedState.Unmarshal(typ)
	if err != nil {
		t.Fatal(err)
	}
	at := func(steps ...any) tftypes.Value {
		p := tftypes.NewAttributePath()
		for _, st := range steps {
			switch st := st.(type) {
			case string:
				p = p.WithAttributeName(st)
			case int:
				p = p.WithElementKeyInt(st)
			case key:
				p = p.WithElementKeyString(string(st))
			}
		}
		v, _, err := tftypes.WalkAttributePath(upgraded, p)
		if err != nil {
			t.Fatalf("%v: %v", p, err)
		}
		return v.(tftypes.Value)
	}
	var keep bool
	if err := at("keep_merged_status").As(&keep); err != nil || keep {
		t.Errorf("keep_merged_status = %v (%v), want false", keep, err)
	}
	if !at("status").IsNull() {
		t.Errorf("status = %v, want null", at("status"))
	}
	var expiration, version, id string
	_ = at("id").As(&id)
	_ = at("metadata", "resource_version").As(&version)
	_ = at("spec", "kubernetes", "versions", key("1.31.2"), "expiration_date").As(&expiration)
	if id != "garden-team/team" || version != "812" || expiration != "2031-01-01T00:00:00Z" {
		t.Errorf("kept values changed: id %q, resource_version %q, expiration of 1.31.2 %q", id, version, expiration)
	}
}

// key is a map key in a path of the test.
type key string

// TestUpgradeState_V1KeyedListsBecomeMapsByKey: a state of schema version 1 (both kinds) has its
// keyed lists as lists of entries holding their key; version 2 has maps by key whose entries leave
// the key out, at every depth, in the spec and in the merged profile of a NamespacedCloudProfile's
// status. Everything else is kept.
func TestUpgradeState_V1KeyedListsBecomeMapsByKey(t *testing.T) {
	spec := `{"type":"local","kubernetes":{"versions":[{"version":"1.31.2","classification":"supported","lifecycle":[{"classification":"supported"}]}]},
	  "machine_images":[{"name":"gardenlinux","update_strategy":"major","versions":[{"version":"1877.3.0","cri":[{"name":"containerd","container_runtimes":[{"type":"gvisor"}]}]}]}],
	  "machine_types":[{"name":"m5.large","cpu":"2"}],"volume_types":[{"name":"gp3","class":"standard"}],
	  "regions":[{"name":"local","zones":[{"name":"local-a"}],"access_restrictions":[{"name":"eu-access-only"}]}],
	  "machine_capabilities":[{"name":"architecture","values":["amd64"]}]}`
	wantSpec := `{"type":"local","kubernetes":{"versions":{"1.31.2":{"classification":"supported","lifecycle":[{"classification":"supported"}]}}},
	  "machine_images":{"gardenlinux":{"update_strategy":"major","versions":{"1877.3.0":{"cri":{"containerd":{"container_runtimes":{"gvisor":{}}}}}}}},
	  "machine_types":{"m5.large":{"cpu":"2"}},"volume_types":{"gp3":{"class":"standard"}},
	  "regions":{"local":{"zones":{"local-a":{}},"access_restrictions":[{"name":"eu-access-only"}]}},
	  "machine_capabilities":[{"name":"architecture","values":["amd64"]}]}`
	ctx := context.Background()
	for _, c := range []struct {
		kind      string
		upgraders map[int64]resource.StateUpgrader
		state     string
		want      string
	}{
		{"CloudProfile", newCloudProfileResource().(resource.ResourceWithUpgradeState).UpgradeState(ctx), `{"id":"x","spec":` + spec + `,"status":null}`,
			`{"id":"x","spec":` + wantSpec + `,"status":null}`},
		{"NamespacedCloudProfile", newNamespacedCloudProfileResource().(resource.ResourceWithUpgradeState).UpgradeState(ctx),
			`{"id":"x","spec":{"parent":{"kind":"CloudProfile","name":"p"},"machine_types":[{"name":"m5.large","cpu":"2"}]},"status":{"observed_generation":2,"cloud_profile_spec":` + spec + `}}`,
			`{"id":"x","spec":{"parent":{"kind":"CloudProfile","name":"p"},"machine_types":{"m5.large":{"cpu":"2"}}},"status":{"observed_generation":2,"cloud_profile_spec":` + wantSpec + `}}`},
	} {
		t.Run(c.kind, func(t *testing.T) {
			var resp resource.UpgradeStateResponse
			c.upgraders[1].StateUpgrader(ctx, resource.UpgradeStateRequest{RawState: &tfprotov6.RawState{JSON: []byte(c.state)}}, &resp)
			if resp.Diagnostics.HasError() {
				t.Fatal(resp.Diagnostics)
			}
			var got, want any
			if err := json.Unmarshal(resp.DynamicValue.JSON, &got); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(c.want), &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("upgraded:\n%s\nwant:\n%s", resp.DynamicValue.JSON, c.want)
			}
		})
	}
}
