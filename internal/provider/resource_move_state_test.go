package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// States as Terraform stores them (JSON of the source schema): kubernetes_manifest keeps its
// dynamically typed `manifest` and `object` as {"value", "type"}; kubectl_manifest is flat.
const (
	kubernetesManifestCloudProfile = `{"computed_fields":null,"field_manager":[],"timeouts":[],"wait":[],"wait_for":null,
"manifest":{"value":{"apiVersion":"core.gardener.cloud/v1beta1","kind":"CloudProfile","metadata":{"name":"aws"},"spec":{"type":"aws"}},
  "type":["object",{"apiVersion":"string","kind":"string","metadata":["object",{"name":"string"}],"spec":["object",{"type":"string"}]}]},
"object":{"value":{"apiVersion":"core.gardener.cloud/v1beta1","kind":"CloudProfile","metadata":{"annotations":null,"labels":null,"name":"aws","namespace":null,"uid":"7d1c"},"spec":{"type":"aws"}},
  "type":["object",{"apiVersion":"string","kind":"string","metadata":["object",{"annotations":["map","string"],"labels":["map","string"],"name":"string","namespace":"string","uid":"string"}],"spec":["object",{"type":"string"}]}]}}`
	kubernetesManifestPlannedOnly = `{"manifest":{"value":{"apiVersion":"core.gardener.cloud/v1beta1","kind":"NamespacedCloudProfile","metadata":{"name":"team","namespace":"garden-dev"}},
  "type":["object",{"apiVersion":"string","kind":"string","metadata":["object",{"name":"string","namespace":"string"}]}]},"object":null}`
	kubectlManifestNamespaced = `{"api_version":"core.gardener.cloud/v1beta1","apply_only":false,"field_manager":"kubectl","force_conflicts":false,
"force_new":false,"id":"/apis/core.gardener.cloud/v1beta1/namespaces/garden-dev/namespacedcloudprofiles/team","ignore_fields":null,
"kind":"NamespacedCloudProfile","live_manifest_incluster":"9f2a","live_uid":"51e0","name":"team","namespace":"garden-dev",
"override_namespace":null,"sensitive_fields":null,"server_side_apply":true,"uid":"51e0","validate_schema":true,"wait":null,
"wait_for":[],"wait_for_rollout":true,"yaml_body":"apiVersion: core.gardener.cloud/v1beta1\nkind: NamespacedCloudProfile\n",
"yaml_body_parsed":"apiVersion: core.gardener.cloud/v1beta1\nkind: NamespacedCloudProfile\n","yaml_incluster":"9f2a"}`
	kubectlManifestDeployment = `{"api_version":"apps/v1","kind":"Deployment","name":"web","namespace":"default","uid":"0a0a"}`
)

// moveState runs the resource's state mover on a source state and returns the target state (nil
// when the mover left it unset) and the diagnostics' summaries and details.
func moveState(t *testing.T, r servedResource, sourceType, sourceJSON string) (*tfsdk.State, string) {
	t.Helper()
	ctx := context.Background()
	var sResp resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &sResp)
	var iResp resource.IdentitySchemaResponse
	r.IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &iResp)
	resp := &resource.MoveStateResponse{
		TargetState:    tfsdk.State{Schema: sResp.Schema, Raw: tftypes.NewValue(sResp.Schema.Type().TerraformType(ctx), nil)},
		TargetIdentity: &tfsdk.ResourceIdentity{Schema: iResp.IdentitySchema, Raw: tftypes.NewValue(iResp.IdentitySchema.Type().TerraformType(ctx), nil)},
	}
	req := resource.MoveStateRequest{
		SourceTypeName:        sourceType,
		SourceProviderAddress: "registry.terraform.io/example/source",
		SourceRawState:        &tfprotov6.RawState{JSON: []byte(sourceJSON)},
	}
	r.MoveState(ctx)[0].StateMover(ctx, req, resp)
	var msgs []string
	for _, d := range resp.Diagnostics {
		msgs = append(msgs, d.Summary()+": "+d.Detail())
	}
	if resp.TargetState.Raw.IsNull() {
		return nil, strings.Join(msgs, "\n")
	}
	return &resp.TargetState, strings.Join(msgs, "\n")
}

func stringAt(t *testing.T, s *tfsdk.State, p path.Path) string {
	t.Helper()
	var v types.String
	if d := s.GetAttribute(context.Background(), p, &v); d.HasError() {
		t.Fatalf("reading %s: %v", p, d)
	}
	return v.ValueString()
}

func TestMoveState_kubernetesManifestCloudProfile(t *testing.T) {
	s, diags := moveState(t, newCloudProfileResource().(servedResource), kubernetesManifestType, kubernetesManifestCloudProfile)
	if s == nil || diags != "" {
		t.Fatalf("no state moved: %s", diags)
	}
	meta := path.Root("metadata")
	for p, want := range map[string]string{"id": "aws", "name": "aws", "uid": "7d1c"} {
		at := meta.AtName(p)
		if p == "id" {
			at = path.Root("id")
		}
		if got := stringAt(t, s, at); got != want {
			t.Errorf("%s = %q, want %q", at, got, want)
		}
	}
	var labels types.Map
	s.GetAttribute(context.Background(), meta.AtName("labels"), &labels)
	if labels.IsNull() || len(labels.Elements()) != 0 {
		t.Errorf("labels = %v, want {} (as after an import)", labels)
	}
}

func TestMoveState_kubernetesManifestWithoutObjectUsesManifest(t *testing.T) {
	s, diags := moveState(t, newNamespacedCloudProfileResource().(servedResource), kubernetesManifestType, kubernetesManifestPlannedOnly)
	if s == nil || diags != "" {
		t.Fatalf("no state moved: %s", diags)
	}
	if got := stringAt(t, s, path.Root("id")); got != "garden-dev/team" {
		t.Errorf("id = %q", got)
	}
	var uid types.String
	s.GetAttribute(context.Background(), path.Root("metadata").AtName("uid"), &uid)
	if !uid.IsNull() {
		t.Errorf("uid = %v, want null: the manifest has none", uid)
	}
}

func TestMoveState_kubectlManifestNamespaced(t *testing.T) {
	s, diags := moveState(t, newNamespacedCloudProfileResource().(servedResource), kubectlManifestType, kubectlManifestNamespaced)
	if s == nil || diags != "" {
		t.Fatalf("no state moved: %s", diags)
	}
	meta := path.Root("metadata")
	if got := stringAt(t, s, meta.AtName("namespace")) + "/" + stringAt(t, s, meta.AtName("name")) + " " + stringAt(t, s, meta.AtName("uid")); got != "garden-dev/team 51e0" {
		t.Errorf("metadata = %q", got)
	}
}

func TestMoveState_rejectsOtherObjectsAndScopes(t *testing.T) {
	for _, tc := range []struct {
		name       string
		r          servedResource
		sourceType string
		json       string
		want       string
	}{
		{"a Deployment", newCloudProfileResource().(servedResource), kubectlManifestType, kubectlManifestDeployment, `manages apps/v1 Deployment "web"`},
		{"the other kind", newCloudProfileResource().(servedResource), kubectlManifestType, kubectlManifestNamespaced, "NamespacedCloudProfile \"team\"; this resource manages CloudProfile objects"},
		{"no namespace", newNamespacedCloudProfileResource().(servedResource), kubectlManifestType, strings.Replace(kubectlManifestNamespaced, `"namespace":"garden-dev"`, `"namespace":null`, 1), "names no namespace"},
		{"not JSON", newCloudProfileResource().(servedResource), kubernetesManifestType, `{"manifest":`, "Reading the source state"},
		{"no object", newCloudProfileResource().(servedResource), kubernetesManifestType, `{"manifest":null,"object":null}`, "neither `object` nor `manifest`"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, diags := moveState(t, tc.r, tc.sourceType, tc.json)
			if s != nil || !strings.Contains(diags, tc.want) {
				t.Errorf("state %v, diagnostics %q; want no state and %q", s, diags, tc.want)
			}
		})
	}
}

func TestMoveState_leavesOtherSourceTypesToTerraform(t *testing.T) {
	s, diags := moveState(t, newCloudProfileResource().(servedResource), "null_resource", `{"id":"1"}`)
	if s != nil || diags != "" {
		t.Errorf("state %v, diagnostics %q; want neither", s, diags)
	}
}
