package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/gardener-community/terraform-provider-gardener/internal/provider/largevalue"
)

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

// Where the code reads and writes the spec and the merged profile of a NamespacedCloudProfile.
// Which attributes are large is marked on their descriptors only (specField.large);
// TestLargeAttributes checks these paths are among them.
var (
	specLargePath       = largevalue.Path{"spec"}
	statusSpecLargePath = largevalue.Path{"status", "cloud_profile_spec"}
)

// objectRef names an object in diagnostics and import instructions.
type objectRef struct {
	kind     string // CloudProfile or NamespacedCloudProfile
	importID string // name, or namespace/name
}

// importID is the import ID of the object of the namespace (empty for a cluster-scoped object) and
// name: name, or namespace/name.
func importID(namespace, name string) string {
	if namespace == "" {
		return name
	}
	return namespace + "/" + name
}

func (o objectRef) String() string { return fmt.Sprintf("%s %q", o.kind, o.importID) }

// kubectlArgs are the arguments that name the object on a kubectl command line:
// "cloudprofile aws", "namespacedcloudprofile -n garden-team aws-team".
func (o objectRef) kubectlArgs() string {
	if namespace, name, namespaced := strings.Cut(o.importID, "/"); namespaced {
		return fmt.Sprintf("%s -n %s %s", strings.ToLower(o.kind), namespace, name)
	}
	return strings.ToLower(o.kind) + " " + o.importID
}

// profileResource is what both resources hold: the provider's data, and the feature gates and
// gardener_version of the validated provider configuration.
type profileResource struct {
	data      *providerData
	validated *validatedSettings
}

// base is what both kinds hold.
func (r *profileResource) base() *profileResource { return r }

// Configure receives the provider's data.
func (r *profileResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	if data := providerDataOf(req.ProviderData, &resp.Diagnostics); data != nil {
		r.data = data
	}
}
