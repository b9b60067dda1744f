package provider

import (
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
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
				a.CustomType = a.GetType().(types.ObjectType)
			}
			attrs[name] = a
		case rschema.ListNestedAttribute:
			a.NestedObject.Attributes = withResourceNestedTypes(a.NestedObject.Attributes)
			if a.NestedObject.CustomType == nil {
				a.NestedObject.CustomType = a.NestedObject.Type().(types.ObjectType)
			}
			if a.CustomType == nil {
				a.CustomType = types.ListType{ElemType: a.NestedObject.CustomType}
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
				a.CustomType = a.GetType().(types.ObjectType)
			}
			attrs[name] = a
		case dschema.ListNestedAttribute:
			a.NestedObject.Attributes = withDataSourceNestedTypes(a.NestedObject.Attributes)
			if a.NestedObject.CustomType == nil {
				a.NestedObject.CustomType = a.NestedObject.Type().(types.ObjectType)
			}
			if a.CustomType == nil {
				a.CustomType = types.ListType{ElemType: a.NestedObject.CustomType}
			}
			attrs[name] = a
		case dschema.MapNestedAttribute:
			a.NestedObject.Attributes = withDataSourceNestedTypes(a.NestedObject.Attributes)
			if a.NestedObject.CustomType == nil {
				a.NestedObject.CustomType = a.NestedObject.Type().(types.ObjectType)
			}
			if a.CustomType == nil {
				a.CustomType = types.MapType{ElemType: a.NestedObject.CustomType}
			}
			attrs[name] = a
		}
	}
	return attrs
}
