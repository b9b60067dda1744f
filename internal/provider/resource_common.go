package provider

import (
	"context"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// stateSetter is the part of tfsdk.State the resources write through.
type stateSetter interface {
	Set(ctx context.Context, val any) diag.Diagnostics
	SetAttribute(ctx context.Context, p path.Path, val any) diag.Diagnostics
}

// terraformValueAt is a value, ready in Terraform's representation, for the attribute at path.
type terraformValueAt struct {
	path  path.Path
	value tftypes.Value
}

// setStateWithValues writes the model, whose attributes at the given paths are null, and then
// those attributes as ready Terraform values: for a profile with thousands of versions the
// framework's conversion of an object value costs far more than building the value directly
// (flattenSpecTerraform). Large attributes go to the largeValueServer instead of the framework.
func setStateWithValues(ctx context.Context, state stateSetter, model any, values ...terraformValueAt) diag.Diagnostics {
	diags := state.Set(ctx, model)
	large := largeValuesFrom(ctx)
	for _, v := range values {
		if diags.HasError() {
			return diags
		}
		if large.capture(v.path, v.value) {
			continue // the largeValueServer puts it into the response
		}
		diags.Append(state.SetAttribute(ctx, v.path, v.value)...)
	}
	return diags
}

// objectAsOptions let nested objects with unknown or null parts be read into models.
var objectAsOptions = basetypes.ObjectAsOptions{UnhandledNullAsEmpty: true, UnhandledUnknownAsEmpty: true}

// now is the instant the provider evaluates classifications at.
func (d *providerData) now() time.Time {
	if d != nil && d.clock != nil {
		return d.clock()
	}
	return time.Now()
}

// nameOf returns metadata.name, or the import ID while only that is known.
func nameOf(metadata types.Object, id types.String) string {
	if !metadata.IsNull() && !metadata.IsUnknown() {
		if n, ok := metadata.Attributes()["name"].(types.String); ok && n.ValueString() != "" {
			return n.ValueString()
		}
	}
	return id.ValueString()
}

// namespacedNameOf returns metadata's namespace and name, or splits an import ID "namespace/name".
func namespacedNameOf(metadata types.Object, id types.String) (namespace, name string) {
	if !metadata.IsNull() && !metadata.IsUnknown() {
		attrs := metadata.Attributes()
		ns, _ := attrs["namespace"].(types.String)
		n, _ := attrs["name"].(types.String)
		if ns.ValueString() != "" && n.ValueString() != "" {
			return ns.ValueString(), n.ValueString()
		}
	}
	namespace, name, _ = strings.Cut(id.ValueString(), "/")
	return namespace, name
}

func metadataAttrTypes(namespaced bool) map[string]attr.Type {
	m := map[string]attr.Type{
		"name":             types.StringType,
		"labels":           types.MapType{ElemType: types.StringType},
		"annotations":      types.MapType{ElemType: types.StringType},
		"uid":              types.StringType,
		"resource_version": types.StringType,
		"generation":       types.Int64Type,
	}
	if namespaced {
		m["namespace"] = types.StringType
	}
	return m
}

func clusterMetadataType() types.ObjectType {
	return types.ObjectType{AttrTypes: metadataAttrTypes(false)}
}

func namespacedMetadataType() types.ObjectType {
	return types.ObjectType{AttrTypes: metadataAttrTypes(true)}
}

func timeoutsAttrTypes() map[string]attr.Type {
	return map[string]attr.Type{"create": types.StringType, "update": types.StringType, "delete": types.StringType}
}

// Paths of the large attributes the resources read from requests.
var (
	specLargePath       = largePath{"spec"}
	statusSpecLargePath = largePath{"status", "cloud_profile_spec"}
)
