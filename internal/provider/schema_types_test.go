package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// derivedObjectType is the type the framework derives for nested attributes from their children.
func derivedObjectType[A interface{ GetType() attr.Type }](attrs map[string]A) types.ObjectType {
	m := make(map[string]attr.Type, len(attrs))
	for name, a := range attrs {
		m[name] = a.GetType()
	}
	return types.ObjectType{AttrTypes: m}
}

// TestNestedAttributesCarryTheirDerivedType: every nested attribute of every resource and data
// source has a CustomType, and it is exactly the type the framework would derive from the
// children, so giving it changes nothing but the cost of asking for it.
func TestNestedAttributesCarryTheirDerivedType(t *testing.T) {
	ctx := context.Background()
	check := func(path string, custom attr.Type, derived attr.Type) {
		t.Helper()
		if custom == nil {
			t.Errorf("%s: no CustomType", path)
			return
		}
		if _, plain := custom.(types.ObjectType); !plain {
			if _, plainList := custom.(types.ListType); !plainList {
				return // a library's own type (timeouts)
			}
		}
		if !custom.Equal(derived) {
			t.Errorf("%s: CustomType %s differs from the derived type %s", path, custom, derived)
		}
	}
	for _, r := range []resource.Resource{newCloudProfileResource(), newNamespacedCloudProfileResource()} {
		var resp resource.SchemaResponse
		r.Schema(ctx, resource.SchemaRequest{}, &resp)
		walkResource("resource", resp.Schema.Attributes, func(p string, a rschema.Attribute) {
			switch a := a.(type) {
			case rschema.SingleNestedAttribute:
				check(p, a.CustomType, derivedObjectType(a.Attributes))
			case rschema.ListNestedAttribute:
				check(p+"[*]", a.NestedObject.CustomType, derivedObjectType(a.NestedObject.Attributes))
				check(p, a.CustomType, types.ListType{ElemType: derivedObjectType(a.NestedObject.Attributes)})
			}
		})
	}
	for _, d := range []datasource.DataSource{newCloudProfileDataSource(), newNamespacedCloudProfileDataSource()} {
		var resp datasource.SchemaResponse
		d.Schema(ctx, datasource.SchemaRequest{}, &resp)
		walkDataSource("data", resp.Schema.Attributes, func(p string, a dschema.Attribute) {
			switch a := a.(type) {
			case dschema.SingleNestedAttribute:
				check(p, a.CustomType, derivedObjectType(a.Attributes))
			case dschema.ListNestedAttribute:
				check(p+"[*]", a.NestedObject.CustomType, derivedObjectType(a.NestedObject.Attributes))
				check(p, a.CustomType, types.ListType{ElemType: derivedObjectType(a.NestedObject.Attributes)})
			}
		})
	}
}
