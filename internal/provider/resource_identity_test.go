package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// importWithIdentity runs a resource's ImportState with only an identity, as Terraform 1.12+
// does for an import block with `identity = {...}`, and returns the state's id.
func importWithIdentity(t *testing.T, r resource.ResourceWithImportState, identity map[string]string) string {
	t.Helper()
	ctx := context.Background()
	withIdentity := r.(resource.ResourceWithIdentity)
	var isResp resource.IdentitySchemaResponse
	withIdentity.IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &isResp)
	var sResp resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &sResp)

	idType := isResp.IdentitySchema.Type().TerraformType(ctx)
	values := map[string]tftypes.Value{}
	for k, v := range identity {
		values[k] = tftypes.NewValue(tftypes.String, v)
	}
	id := &tfsdk.ResourceIdentity{Schema: isResp.IdentitySchema, Raw: tftypes.NewValue(idType, values)}
	stateType := sResp.Schema.Type().TerraformType(ctx)
	resp := &resource.ImportStateResponse{
		State:    tfsdk.State{Schema: sResp.Schema, Raw: tftypes.NewValue(stateType, nil)},
		Identity: id,
	}
	r.ImportState(ctx, resource.ImportStateRequest{Identity: id}, resp)
	if resp.Diagnostics.HasError() {
		t.Fatalf("import by identity: %v", resp.Diagnostics)
	}
	var got types.String
	resp.Diagnostics.Append(resp.State.GetAttribute(ctx, path.Root("id"), &got)...)
	return got.ValueString()
}

func TestIdentity_CloudProfileImportsByName(t *testing.T) {
	if got := importWithIdentity(t, newCloudProfileResource().(resource.ResourceWithImportState), map[string]string{"name": "aws"}); got != "aws" {
		t.Fatalf("id %q, want aws", got)
	}
}

func TestIdentity_NamespacedCloudProfileImportsByNamespaceAndName(t *testing.T) {
	got := importWithIdentity(t, newNamespacedCloudProfileResource().(resource.ResourceWithImportState), map[string]string{"namespace": "garden-team", "name": "aws-team"})
	if got != "garden-team/aws-team" {
		t.Fatalf("id %q, want garden-team/aws-team", got)
	}
}

func TestIdentity_SchemasAreValid(t *testing.T) {
	ctx := context.Background()
	for _, r := range []resource.ResourceWithIdentity{newCloudProfileResource().(resource.ResourceWithIdentity), newNamespacedCloudProfileResource().(resource.ResourceWithIdentity)} {
		var resp resource.IdentitySchemaResponse
		r.IdentitySchema(ctx, resource.IdentitySchemaRequest{}, &resp)
		if d := resp.IdentitySchema.ValidateImplementation(ctx); d.HasError() {
			t.Fatalf("%T: %v", r, d)
		}
	}
}
