package provider

import (
	"context"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/gardener-community/terraform-provider-gardener/internal/provider/largevalue"
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
		{"cloud profile resource", resourceSchema(&cloudProfileResource{}), (&cloudProfileResource{}).LargeAttributes(),
			[]largevalue.Path{specLargePath, {"status"}}},
		{"namespaced cloud profile resource", resourceSchema(&namespacedCloudProfileResource{}), (&namespacedCloudProfileResource{}).LargeAttributes(),
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
