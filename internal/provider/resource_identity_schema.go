package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
)

var (
	_ resource.ResourceWithIdentity = (*cloudProfileResource)(nil)
	_ resource.ResourceWithIdentity = (*namespacedCloudProfileResource)(nil)
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
