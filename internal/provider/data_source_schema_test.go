package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/function"
)

// dsWalkAttributes calls fn for every attribute below attrs, nested ones included.
func dsWalkAttributes(prefix string, attrs map[string]dschema.Attribute, fn func(string, dschema.Attribute)) {
	for name, a := range attrs {
		p := prefix + "." + name
		fn(p, a)
		switch n := a.(type) {
		case dschema.SingleNestedAttribute:
			dsWalkAttributes(p, n.Attributes, fn)
		case dschema.ListNestedAttribute:
			dsWalkAttributes(p, n.NestedObject.Attributes, fn)
		case dschema.MapNestedAttribute:
			dsWalkAttributes(p, n.NestedObject.Attributes, fn)
		}
	}
}

func TestDataSourceSchemas_EveryAttributeHasMarkdownDescription(t *testing.T) {
	for _, newDS := range []func() datasource.DataSource{newCloudProfileDataSource, newNamespacedCloudProfileDataSource, newEffectiveCloudProfileDataSource} {
		var meta datasource.MetadataResponse
		ds := newDS()
		ds.Metadata(context.Background(), datasource.MetadataRequest{ProviderTypeName: TypeName}, &meta)
		var resp datasource.SchemaResponse
		ds.Schema(context.Background(), datasource.SchemaRequest{}, &resp)
		if resp.Diagnostics.HasError() {
			t.Fatalf("%s: %v", meta.TypeName, resp.Diagnostics)
		}
		if resp.Schema.MarkdownDescription == "" {
			t.Errorf("%s has no MarkdownDescription", meta.TypeName)
		}
		if d := resp.Schema.ValidateImplementation(context.Background()); d.HasError() {
			t.Errorf("%s: %v", meta.TypeName, d)
		}
		n := 0
		dsWalkAttributes(meta.TypeName, resp.Schema.Attributes, func(p string, a dschema.Attribute) {
			n++
			if a.GetMarkdownDescription() == "" {
				t.Errorf("%s has no MarkdownDescription", p)
			}
		})
		if n < 50 {
			t.Errorf("%s: only %d attributes walked", meta.TypeName, n)
		}
	}
}

func TestFunctionDefinitions_AreDocumented(t *testing.T) {
	for _, newFn := range []func() function.Function{newClassificationFunction, newNextTransitionFunction, newMergeFunction} {
		f := newFn()
		var meta function.MetadataResponse
		f.Metadata(context.Background(), function.MetadataRequest{}, &meta)
		var def function.DefinitionResponse
		f.Definition(context.Background(), function.DefinitionRequest{}, &def)
		if def.Definition.Summary == "" || def.Definition.MarkdownDescription == "" {
			t.Errorf("%s: summary or description missing", meta.Name)
		}
		for _, p := range def.Definition.Parameters {
			if p.GetName() == "" || p.GetMarkdownDescription() == "" {
				t.Errorf("%s: parameter %q is not documented", meta.Name, p.GetName())
			}
		}
	}
}
