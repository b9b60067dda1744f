package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// cloudProfileSpecType is the Terraform type of a CloudProfile `spec`, e.g. for
// types.ObjectUnknown(cloudProfileSpecType().AttrTypes).
func cloudProfileSpecType() types.ObjectType {
	return specAttrType(cloudProfileSpecRoot).(types.ObjectType)
}

// namespacedCloudProfileSpecType is the Terraform type of a NamespacedCloudProfile `spec`.
func namespacedCloudProfileSpecType() types.ObjectType {
	return specAttrType(namespacedCloudProfileSpecRoot).(types.ObjectType)
}

// resourceTreeAttributes are the resource attributes of descriptor trees: a Required tree (the
// spec) is configured, the others (the status) are read-only.
func resourceTreeAttributes(trees []specField, on profileKinds) map[string]rschema.Attribute {
	m := make(map[string]rschema.Attribute, len(trees))
	for _, f := range trees {
		if f.required {
			m[f.attr] = resourceAttribute(f, on, false)
		} else {
			m[f.attr] = buildResourceAttribute(f, attributeFlags{computed: true}, computedResourceAttributes)
		}
	}
	return m
}

// stringCustomType is the custom string type of a kind, nil for a plain string.
func stringCustomType(k specKind) basetypes.StringTypable {
	switch k {
	case kindQuantity:
		return quantityType
	case kindTimestamp:
		return timestampType
	case kindDuration:
		return durationType
	case kindJSON:
		return jsontypes.NormalizedType{}
	}
	return nil
}

var (
	stringListType     = types.ListType{ElemType: types.StringType}
	stringMapType      = types.MapType{ElemType: types.StringType}
	capabilitiesType   = types.MapType{ElemType: stringListType}
	capabilityListType = types.ListType{ElemType: capabilitiesType}
)

// specAttrType is the Terraform type of a field.
func specAttrType(f specField) attr.Type {
	if f.typ != nil {
		return f.typ
	}
	switch f.kind {
	case kindString:
		return types.StringType
	case kindQuantity, kindTimestamp, kindDuration, kindJSON:
		return stringCustomType(f.kind)
	case kindBool:
		return types.BoolType
	case kindInt32:
		return types.Int32Type
	case kindStringList:
		return stringListType
	case kindStringMap:
		return stringMapType
	case kindCapabilities:
		return capabilitiesType
	case kindCapabilityFlavors:
		return capabilityListType
	case kindObject:
		return objectTypeOf(f.children)
	case kindObjectList:
		return types.ListType{ElemType: objectTypeOf(f.children)}
	case kindNumber:
		return types.NumberType
	case kindInt64:
		return types.Int64Type
	case kindObjectMap, kindKeyedObjects:
		return types.MapType{ElemType: objectTypeOf(f.children)}
	}
	panic(fmt.Sprintf("spec field %q has unknown kind %d", f.attr, f.kind))
}

func objectTypeOf(children []specField) types.ObjectType {
	m := make(map[string]attr.Type, len(children))
	for _, c := range children {
		m[c.attr] = specAttrType(c)
	}
	return types.ObjectType{AttrTypes: m}
}

func resourceAttributes(fields []specField, on profileKinds, underComputed bool) map[string]rschema.Attribute {
	m := make(map[string]rschema.Attribute, len(fields))
	for _, f := range fields {
		m[f.attr] = resourceAttribute(f, on, underComputed)
	}
	return m
}

// attributeFlags are the Required/Optional/Computed flags of a resource attribute.
type attributeFlags struct{ required, optional, computed bool }

// resourceAttribute derives the resource schema attribute of a field for the kind `on`.
//
// Below an Optional+Computed attribute every attribute is Optional+Computed too: Terraform keeps a
// computed nested value from the prior state only when none of its parts is non-computed (else it
// concludes the configuration removed it), so a Required `name` inside a server-defaulted `cri`
// would turn every plan into a change.
func resourceAttribute(f specField, on profileKinds, underComputed bool) rschema.Attribute {
	required := f.required && !underComputed
	flags := attributeFlags{required: required, optional: !required, computed: underComputed || (!required && f.computedOn&on != 0)}
	return buildResourceAttribute(f, flags, func(children []specField) map[string]rschema.Attribute {
		return resourceAttributes(children, on, flags.computed)
	})
}

// buildResourceAttribute makes the resource schema attribute of a field with the given flags;
// nested derives the attributes of its children.
func buildResourceAttribute(f specField, fl attributeFlags, nested func([]specField) map[string]rschema.Attribute) rschema.Attribute {
	d := f.description
	switch f.kind {
	case kindString, kindQuantity, kindTimestamp, kindDuration, kindJSON:
		return rschema.StringAttribute{CustomType: stringCustomType(f.kind), Required: fl.required, Optional: fl.optional, Computed: fl.computed, MarkdownDescription: d}
	case kindBool:
		return rschema.BoolAttribute{Required: fl.required, Optional: fl.optional, Computed: fl.computed, MarkdownDescription: d}
	case kindInt32:
		return rschema.Int32Attribute{Required: fl.required, Optional: fl.optional, Computed: fl.computed, MarkdownDescription: d}
	case kindStringList:
		return rschema.ListAttribute{ElementType: types.StringType, Required: fl.required, Optional: fl.optional, Computed: fl.computed, MarkdownDescription: d}
	case kindStringMap:
		return rschema.MapAttribute{ElementType: types.StringType, Required: fl.required, Optional: fl.optional, Computed: fl.computed, MarkdownDescription: d}
	case kindCapabilities:
		return rschema.MapAttribute{ElementType: stringListType, Required: fl.required, Optional: fl.optional, Computed: fl.computed, MarkdownDescription: d}
	case kindCapabilityFlavors:
		return rschema.ListAttribute{ElementType: capabilitiesType, Required: fl.required, Optional: fl.optional, Computed: fl.computed, MarkdownDescription: d}
	case kindObject:
		return rschema.SingleNestedAttribute{Attributes: nested(f.children), Required: fl.required, Optional: fl.optional, Computed: fl.computed, MarkdownDescription: d}
	case kindObjectList:
		return rschema.ListNestedAttribute{
			NestedObject: rschema.NestedAttributeObject{Attributes: nested(f.children)},
			Required:     fl.required, Optional: fl.optional, Computed: fl.computed, MarkdownDescription: d,
		}
	case kindKeyedObjects:
		return rschema.MapNestedAttribute{
			NestedObject: rschema.NestedAttributeObject{Attributes: nested(f.children)},
			Required:     fl.required, Optional: fl.optional, Computed: fl.computed, MarkdownDescription: d,
		}
	case kindInt64:
		return rschema.Int64Attribute{Required: fl.required, Optional: fl.optional, Computed: fl.computed, MarkdownDescription: d}
	}
	panic(fmt.Sprintf("spec field %q has unknown kind %d", f.attr, f.kind))
}

// computedResourceAttributes derives read-only resource attributes (a resource's status).
func computedResourceAttributes(fields []specField) map[string]rschema.Attribute {
	m := make(map[string]rschema.Attribute, len(fields))
	for _, f := range fields {
		m[f.attr] = buildResourceAttribute(f, attributeFlags{computed: true}, computedResourceAttributes)
	}
	return m
}

func dataSourceAttributes(fields []specField) map[string]dschema.Attribute {
	m := make(map[string]dschema.Attribute, len(fields))
	for _, f := range fields {
		m[f.attr] = dataSourceAttribute(f)
	}
	return m
}

// dataSourceAttribute derives the data-source schema attribute of a field: Computed, same type.
func dataSourceAttribute(f specField) dschema.Attribute {
	d := f.description
	switch f.kind {
	case kindString, kindQuantity, kindTimestamp, kindDuration, kindJSON:
		return dschema.StringAttribute{CustomType: stringCustomType(f.kind), Computed: true, MarkdownDescription: d}
	case kindBool:
		return dschema.BoolAttribute{Computed: true, MarkdownDescription: d}
	case kindInt32:
		return dschema.Int32Attribute{Computed: true, MarkdownDescription: d}
	case kindStringList:
		return dschema.ListAttribute{ElementType: types.StringType, Computed: true, MarkdownDescription: d}
	case kindStringMap:
		return dschema.MapAttribute{ElementType: types.StringType, Computed: true, MarkdownDescription: d}
	case kindCapabilities:
		return dschema.MapAttribute{ElementType: stringListType, Computed: true, MarkdownDescription: d}
	case kindCapabilityFlavors:
		return dschema.ListAttribute{ElementType: capabilitiesType, Computed: true, MarkdownDescription: d}
	case kindObject:
		return dschema.SingleNestedAttribute{Attributes: dataSourceAttributes(f.children), Computed: true, MarkdownDescription: d}
	case kindObjectList:
		return dschema.ListNestedAttribute{
			NestedObject: dschema.NestedAttributeObject{Attributes: dataSourceAttributes(f.children)},
			Computed:     true, MarkdownDescription: d,
		}
	case kindNumber:
		return dschema.NumberAttribute{Computed: true, MarkdownDescription: d}
	case kindInt64:
		return dschema.Int64Attribute{Computed: true, MarkdownDescription: d}
	case kindObjectMap, kindKeyedObjects:
		return dschema.MapNestedAttribute{
			NestedObject: dschema.NestedAttributeObject{Attributes: dataSourceAttributes(f.children)},
			Computed:     true, MarkdownDescription: d,
		}
	}
	panic(fmt.Sprintf("spec field %q has unknown kind %d", f.attr, f.kind))
}

func init() {
	prepareSpecFields(&cloudProfileSpecRoot)
	prepareSpecFields(&namespacedCloudProfileSpecRoot)
}

// prepareSpecFields computes the Terraform types of f and its descendants once, bottom-up.
func prepareSpecFields(f *specField) {
	for i := range f.children {
		prepareSpecFields(&f.children[i])
	}
	f.childIndex = make(map[string]int, len(f.children))
	for i, c := range f.children {
		f.childIndex[c.json] = i
	}
	f.typ = nil
	f.typ = specAttrType(*f)
	f.tfType = f.typ.TerraformType(context.Background())
}

// preparedFields are copies of fields with their Terraform types computed (prepareSpecFields).
func preparedFields(fields []specField) []specField {
	out := make([]specField, len(fields))
	for i, f := range fields {
		out[i] = f
		prepareSpecFields(&out[i])
	}
	return out
}

// typesOf are the Terraform types of prepared fields, by Terraform name.
func typesOf(fields []specField) map[string]attr.Type {
	out := make(map[string]attr.Type, len(fields))
	for _, f := range fields {
		out[f.attr] = f.typ
	}
	return out
}
