package provider

import (
	"context"
	"strings"
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

// TestDataSourceSchemas_KeyedAttributesAreMaps: every data source keys its versions, images and
// types like the resources' spec, so that a shoot module picks an entry by its key
// (kubernetes_versions["1.33.3"]); each entry keeps its computed attributes and its key.
func TestDataSourceSchemas_KeyedAttributesAreMaps(t *testing.T) {
	keyed := map[string]string{ // attribute path → the attribute holding the key in each entry
		"kubernetes_versions": "version", "machine_images": "name", "machine_images.versions": "version",
		"machine_types": "name", "volume_types": "name", "regions": "name", "regions.zones": "name",
	}
	for _, newDS := range []func() datasource.DataSource{newCloudProfileDataSource, newNamespacedCloudProfileDataSource, newEffectiveCloudProfileDataSource} {
		var meta datasource.MetadataResponse
		ds := newDS()
		ds.Metadata(context.Background(), datasource.MetadataRequest{ProviderTypeName: TypeName}, &meta)
		var resp datasource.SchemaResponse
		ds.Schema(context.Background(), datasource.SchemaRequest{}, &resp)
		found := map[string]bool{}
		dsWalkAttributes("", resp.Schema.Attributes, func(p string, a dschema.Attribute) {
			key, ok := keyed[strings.TrimPrefix(p, ".")]
			if !ok {
				return
			}
			found[key+" of "+p] = true
			m, isMap := a.(dschema.MapNestedAttribute)
			switch {
			case !isMap:
				t.Errorf("%s%s is a %T, want a map by %s", meta.TypeName, p, a, key)
			case m.NestedObject.Attributes[key] == nil || m.NestedObject.Attributes["classification"] == nil && strings.Contains(p, "versions"):
				t.Errorf("%s%s: an entry lacks its %s or its classification", meta.TypeName, p, key)
			}
		})
		if len(found) != len(keyed) {
			t.Errorf("%s: found %d of the %d keyed attributes: %v", meta.TypeName, len(found), len(keyed), found)
		}
	}
}
