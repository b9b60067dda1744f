package largevalue

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// upgradeTestType is a resource type with every kind of value a profile's state holds.
var upgradeTestType = tftypes.Object{AttributeTypes: map[string]tftypes.Type{
	"id": tftypes.String,
	"spec": tftypes.Object{AttributeTypes: map[string]tftypes.Type{
		"versions": tftypes.List{ElementType: tftypes.Object{AttributeTypes: map[string]tftypes.Type{
			"version": tftypes.String, "cpu": tftypes.Number, "usable": tftypes.Bool,
		}}},
		"labels":          tftypes.Map{ElementType: tftypes.String},
		"architectures":   tftypes.Set{ElementType: tftypes.String},
		"provider_config": tftypes.DynamicPseudoType,
	}},
}}

func TestConformsTo(t *testing.T) {
	for _, c := range []struct {
		name, json string
		want       bool
	}{
		{"every kind of value", `{"id":"a","spec":{"versions":[{"version":"1.31.2","cpu":2,"usable":true}],"labels":{"a":"b"},"architectures":["amd64"],"provider_config":{"value":{"kind":"X"},"type":["object",{"kind":"string"}]}}}`, true},
		{"nulls and missing attributes", `{"id":null,"spec":{"versions":[{"version":"1.31.2"}],"labels":null}}`, true},
		{"a null object", `null`, true},
		{"an attribute the schema lacks, deep down", `{"spec":{"versions":[{"version":"1.31.2","classification":"supported"}]}}`, false},
		{"an attribute the schema lacks, on top", `{"id":"a","status":{}}`, false},
		{"a number where a string belongs", `{"id":1}`, false},
		{"a string where a number belongs", `{"spec":{"versions":[{"cpu":"2"}]}}`, false},
		{"an object where a list belongs", `{"spec":{"versions":{}}}`, false},
		{"two values", `{"id":"a"} {"id":"b"}`, false},
		{"not JSON", `{"id":`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := conformsTo([]byte(c.json), upgradeTestType, nil); got != c.want {
				t.Errorf("conformsTo = %v, want %v", got, c.want)
			}
		})
	}
}

// TestConformsTo_WriteOnlyAttributesAreNull: a state with a value for a top-level write-only
// attribute (written before the attribute became write-only) does not conform: the framework,
// which makes it null, upgrades it; a null or missing one conforms.
func TestConformsTo_WriteOnlyAttributesAreNull(t *testing.T) {
	writeOnly := map[string]bool{"id": true}
	for json, want := range map[string]bool{
		`{"id":"a","spec":null}`:  false,
		`{"id":false}`:            false,
		`{"id":null,"spec":null}`: true,
		`{"spec":null}`:           true,
		`null`:                    true,
	} {
		if got := conformsTo([]byte(json), upgradeTestType, writeOnly); got != want {
			t.Errorf("conformsTo(%s) = %v, want %v", json, got, want)
		}
	}
}

// frameworkUpgrade stands for the framework's server and records whether it was asked.
type frameworkUpgrade struct {
	tfprotov6.ProviderServer
	called bool
}

func (f *frameworkUpgrade) UpgradeResourceState(context.Context, *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	f.called = true
	return &tfprotov6.UpgradeResourceStateResponse{}, nil
}

// TestServer_UpgradeResourceStatePassesCurrentStatesThrough: a state of the current version that
// conforms to the schema comes back as Terraform sent it, decoding to the same value; any other
// state goes to the framework.
func TestServer_UpgradeResourceStatePassesCurrentStatesThrough(t *testing.T) {
	const current = `{"id":"a","spec":{"versions":[{"version":"1.31.2","cpu":2,"usable":true}]}}`
	for _, c := range []struct {
		name        string
		version     int64
		json        string
		passThrough bool
	}{
		{"current version", 1, current, true},
		{"older version", 0, current, false},
		{"attribute the schema lacks", 1, `{"id":"a","gone":true}`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			framework := &frameworkUpgrade{}
			s := &server{ProviderServer: framework, resources: map[string]largeSchema{"gardener_test": {typ: upgradeTestType, version: 1}}}
			resp, err := s.UpgradeResourceState(context.Background(), &tfprotov6.UpgradeResourceStateRequest{
				TypeName: "gardener_test", Version: c.version, RawState: &tfprotov6.RawState{JSON: []byte(c.json)},
			})
			if err != nil {
				t.Fatal(err)
			}
			if framework.called == c.passThrough {
				t.Fatalf("framework asked = %v, want %v", framework.called, !c.passThrough)
			}
			if !c.passThrough {
				return
			}
			got, err := resp.UpgradedState.Unmarshal(upgradeTestType)
			if err != nil {
				t.Fatal(err)
			}
			want, err := (&tfprotov6.RawState{JSON: []byte(c.json)}).UnmarshalWithOpts(upgradeTestType, tfprotov6.UnmarshalOpts{})
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equal(want) {
				t.Errorf("upgraded state %v, want %v", got, want)
			}
		})
	}
}
