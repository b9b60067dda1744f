package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
)

// IdentitySchema describes the CloudProfile's identity: its name.
func (r *cloudProfileResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{Attributes: map[string]identityschema.Attribute{
		"name": identityschema.StringAttribute{RequiredForImport: true, Description: "Name of the CloudProfile."},
	}}
}

// IdentitySchema describes the NamespacedCloudProfile's identity: namespace and name.
func (r *namespacedCloudProfileResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{Attributes: map[string]identityschema.Attribute{
		"namespace": identityschema.StringAttribute{RequiredForImport: true, Description: "Namespace of the NamespacedCloudProfile."},
		"name":      identityschema.StringAttribute{RequiredForImport: true, Description: "Name of the NamespacedCloudProfile."},
	}}
}

// ImportState imports a CloudProfile by name.
func (r *cloudProfileResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughWithIdentity(ctx, path.Root("id"), path.Root("name"), req, resp)
}

// ImportState imports a NamespacedCloudProfile by "namespace/name".
func (r *namespacedCloudProfileResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if req.ID == "" && req.Identity != nil {
		importNamespacedByIdentity(ctx, req, resp)
		return
	}
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}
