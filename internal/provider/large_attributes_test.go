package provider

import (
	"context"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/gardener-community/terraform-provider-gardener/internal/provider/largevalue"
	"github.com/gardener-community/terraform-provider-gardener/internal/tfvalue"
)

// TestLargeAttributes: the large attributes derived from the descriptors' marks are the spec and
// status of the resources, and the spec, merged profile and derived lists of the data sources;
// each is an attribute of the schema, and the paths the code reads large values at are among them.
func TestLargeAttributes(t *testing.T) {
	derived := []largevalue.Path{{"kubernetes_versions"}, {"machine_images"}, {"regions"}, {"conditions"}}
	for _, c := range []struct {
		name  string
		has   hasAttribute
		large []largevalue.Path
		want  []largevalue.Path
	}{
		{"cloud profile resource", resourceSchema(newCloudProfileResource()), cloudProfileTraits().largeAttributes(),
			[]largevalue.Path{specLargePath, {"status"}}},
		{"namespaced cloud profile resource", resourceSchema(newNamespacedCloudProfileResource()), namespacedCloudProfileTraits().largeAttributes(),
			[]largevalue.Path{specLargePath, statusSpecLargePath}},
		{"cloud profile data source", dataSourceSchema(&cloudProfileDataSource{}), (&cloudProfileDataSource{}).LargeAttributes(),
			append([]largevalue.Path{specLargePath}, derived...)},
		{"namespaced cloud profile data source", dataSourceSchema(&namespacedCloudProfileDataSource{}), (&namespacedCloudProfileDataSource{}).LargeAttributes(),
			append([]largevalue.Path{specLargePath, {"merged_spec"}, statusSpecLargePath}, derived...)},
		{"effective cloud profile data source", dataSourceSchema(&effectiveCloudProfileDataSource{}), (&effectiveCloudProfileDataSource{}).modelOmits(),
			append([]largevalue.Path{specLargePath}, derived...)},
	} {
		if !slices.EqualFunc(c.large, c.want, slices.Equal) {
			t.Errorf("%s: large attributes %v, want %v", c.name, c.large, c.want)
		}
		for _, p := range c.large {
			at := path.Root(p[0])
			for _, name := range p[1:] {
				at = at.AtName(name)
			}
			if !c.has(at) {
				t.Errorf("%s: %v is not in the schema", c.name, p)
			}
		}
	}
}

// hasAttribute tells whether a schema has an attribute at a path.
type hasAttribute func(p path.Path) bool

func resourceSchema(r resource.Resource) hasAttribute {
	var resp resource.SchemaResponse
	r.Schema(context.Background(), resource.SchemaRequest{}, &resp)
	return func(p path.Path) bool {
		_, diags := resp.Schema.AttributeAtPath(context.Background(), p)
		return !diags.HasError()
	}
}

func dataSourceSchema(d datasource.DataSource) hasAttribute {
	var resp datasource.SchemaResponse
	d.Schema(context.Background(), datasource.SchemaRequest{}, &resp)
	return func(p path.Path) bool {
		_, diags := resp.Schema.AttributeAtPath(context.Background(), p)
		return !diags.HasError()
	}
}

// largeSchema is a resource's schema as the tests of the large attributes read it: its type name,
// its Terraform type and its large attributes.
type largeSchema struct {
	name   string
	schema rschema.Schema
	large  []largevalue.Path
}

// largeSchemaOf reads the schema of a resource that names large attributes.
func largeSchemaOf(r resource.Resource) largeSchema {
	ctx := context.Background()
	var meta resource.MetadataResponse
	r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: TypeName}, &meta)
	var resp resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &resp)
	return largeSchema{name: meta.TypeName, schema: resp.Schema, large: r.(interface{ LargeAttributes() []largevalue.Path }).LargeAttributes()}
}

// Type is the Terraform type of the resource's values.
func (s largeSchema) Type() tftypes.Type { return s.schema.Type().TerraformType(context.Background()) }

// Attribute is the attribute at the path of attribute names.
func (s largeSchema) Attribute(p largevalue.Path) rschema.Attribute {
	attrs := s.schema.Attributes
	var a rschema.Attribute
	for _, name := range p {
		a = attrs[name]
		attrs = tfvalue.NestedAttributes(a)
	}
	return a
}

// Paths are the paths of the large attributes.
func (s largeSchema) Paths() []largevalue.Path { return s.large }
