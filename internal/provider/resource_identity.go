package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// cloudProfileIdentity identifies a CloudProfile for Terraform 1.12+ (import blocks by identity).
type cloudProfileIdentity struct {
	Name types.String `tfsdk:"name"`
}

// namespacedCloudProfileIdentity identifies a NamespacedCloudProfile.
type namespacedCloudProfileIdentity struct {
	Namespace types.String `tfsdk:"namespace"`
	Name      types.String `tfsdk:"name"`
}

// setIdentity records the identity where Terraform supports it (identity is nil otherwise).
func setIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, value any) diag.Diagnostics {
	if identity == nil {
		return nil
	}
	return identity.Set(ctx, value)
}

// importNamespacedByIdentity sets the import ID "namespace/name" from an identity.
func importNamespacedByIdentity(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	var id namespacedCloudProfileIdentity
	resp.Diagnostics.Append(req.Identity.Get(ctx, &id)...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id.Namespace.ValueString()+"/"+id.Name.ValueString())...)
}

// namespacedIdentityOf is the identity of the NamespacedCloudProfile.
func namespacedIdentityOf(namespace, name string) namespacedCloudProfileIdentity {
	return namespacedCloudProfileIdentity{Namespace: types.StringValue(namespace), Name: types.StringValue(name)}
}
