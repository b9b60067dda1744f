package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Nested attributes get their Terraform type as CustomType, the very type the framework would
// derive. Without one, the framework rebuilds a nested attribute's type from its children each
// time it needs it, and it needs it at every value it walks (several walks per request): for a
// profile with thousands of list elements that was most of the provider's time in a plan. An
// attribute that already has a custom type (timeouts) keeps it.

// withResourceNestedTypes sets the types of the nested resource attributes, at every depth.
func withResourceNestedTypes(attrs map[string]rschema.Attribute) map[string]rschema.Attribute {
	for name, a := range attrs {
		switch a := a.(type) {
		case rschema.SingleNestedAttribute:
			a.Attributes = withResourceNestedTypes(a.Attributes)
			if a.CustomType == nil {
				a.CustomType = newCachedObjectType(a.GetType().(types.ObjectType))
			}
			attrs[name] = a
		case rschema.ListNestedAttribute:
			a.NestedObject.Attributes = withResourceNestedTypes(a.NestedObject.Attributes)
			if a.NestedObject.CustomType == nil {
				a.NestedObject.CustomType = newCachedObjectType(a.NestedObject.Type().(types.ObjectType))
			}
			if a.CustomType == nil {
				a.CustomType = types.ListType{ElemType: a.NestedObject.CustomType}
			}
			attrs[name] = a
		case rschema.MapNestedAttribute:
			a.NestedObject.Attributes = withResourceNestedTypes(a.NestedObject.Attributes)
			if a.NestedObject.CustomType == nil {
				a.NestedObject.CustomType = newCachedObjectType(a.NestedObject.Type().(types.ObjectType))
			}
			if a.CustomType == nil {
				a.CustomType = types.MapType{ElemType: a.NestedObject.CustomType}
			}
			attrs[name] = a
		}
	}
	return attrs
}

// withDataSourceNestedTypes sets the types of the nested data-source attributes, at every depth.
func withDataSourceNestedTypes(attrs map[string]dschema.Attribute) map[string]dschema.Attribute {
	for name, a := range attrs {
		switch a := a.(type) {
		case dschema.SingleNestedAttribute:
			a.Attributes = withDataSourceNestedTypes(a.Attributes)
			if a.CustomType == nil {
				a.CustomType = newCachedObjectType(a.GetType().(types.ObjectType))
			}
			attrs[name] = a
		case dschema.ListNestedAttribute:
			a.NestedObject.Attributes = withDataSourceNestedTypes(a.NestedObject.Attributes)
			if a.NestedObject.CustomType == nil {
				a.NestedObject.CustomType = newCachedObjectType(a.NestedObject.Type().(types.ObjectType))
			}
			if a.CustomType == nil {
				a.CustomType = types.ListType{ElemType: a.NestedObject.CustomType}
			}
			attrs[name] = a
		case dschema.MapNestedAttribute:
			a.NestedObject.Attributes = withDataSourceNestedTypes(a.NestedObject.Attributes)
			if a.NestedObject.CustomType == nil {
				a.NestedObject.CustomType = newCachedObjectType(a.NestedObject.Type().(types.ObjectType))
			}
			if a.CustomType == nil {
				a.CustomType = types.MapType{ElemType: a.NestedObject.CustomType}
			}
			attrs[name] = a
		}
	}
	return attrs
}

// cachedObjectType is the type of a nested attribute's objects with its Terraform type computed
// once: the framework asks for it at every value it walks, and the plain ObjectType builds it anew
// from its attributes each time, for a profile's spec a tree of hundreds of types.
type cachedObjectType struct {
	basetypes.ObjectType
	terraformType tftypes.Type
}

func newCachedObjectType(o types.ObjectType) cachedObjectType {
	return cachedObjectType{ObjectType: o, terraformType: o.TerraformType(context.Background())}
}

// TerraformType returns the Terraform type computed once.
func (t cachedObjectType) TerraformType(context.Context) tftypes.Type { return t.terraformType }

// Equal compares the object types, cached or not.
func (t cachedObjectType) Equal(o attr.Type) bool {
	if c, ok := o.(cachedObjectType); ok {
		return t.ObjectType.Equal(c.ObjectType)
	}
	return t.ObjectType.Equal(o)
}
