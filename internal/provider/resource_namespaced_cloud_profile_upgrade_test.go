package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
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
	if s.Version != 1 {
		t.Fatalf("schema version %d, want 1", s.Version)
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
	var specVersion, version, id string
	_ = at("id").As(&id)
	_ = at("metadata", "resource_version").As(&version)
	_ = at("spec", "kubernetes", "versions", 0, "version").As(&specVersion)
	if id != "garden-team/team" || version != "812" || specVersion != "1.31.2" {
		t.Errorf("kept values changed: id %q, resource_version %q, spec version %q", id, version, specVersion)
	}
}
