package provider

import (
	"context"
	"reflect"
	"sort"
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// walkResource calls fn for every attribute below attrs, with a dotted path.
func walkResource(prefix string, attrs map[string]rschema.Attribute, fn func(string, rschema.Attribute)) {
	for name, a := range attrs {
		p := prefix + "." + name
		fn(p, a)
		switch x := a.(type) {
		case rschema.SingleNestedAttribute:
			walkResource(p, x.Attributes, fn)
		case rschema.ListNestedAttribute:
			walkResource(p, x.NestedObject.Attributes, fn)
		case rschema.MapNestedAttribute:
			walkResource(p, x.NestedObject.Attributes, fn)
		}
	}
}

func walkDataSource(prefix string, attrs map[string]dschema.Attribute, fn func(string, dschema.Attribute)) {
	for name, a := range attrs {
		p := prefix + "." + name
		fn(p, a)
		switch x := a.(type) {
		case dschema.SingleNestedAttribute:
			walkDataSource(p, x.Attributes, fn)
		case dschema.ListNestedAttribute:
			walkDataSource(p, x.NestedObject.Attributes, fn)
		case dschema.MapNestedAttribute:
			walkDataSource(p, x.NestedObject.Attributes, fn)
		}
	}
}

type specSchemas struct {
	name     string
	resource rschema.SingleNestedAttribute
	data     dschema.SingleNestedAttribute
	typ      attr.Type
}

func allSpecSchemas() []specSchemas {
	return []specSchemas{
		{"CloudProfile", cloudProfileSpecResourceAttribute(), cloudProfileSpecDataSourceAttribute(), cloudProfileSpecType()},
		{"NamespacedCloudProfile", namespacedCloudProfileSpecResourceAttribute(), namespacedCloudProfileSpecDataSourceAttribute(), namespacedCloudProfileSpecType()},
	}
}

func TestSpecSchemaDescriptions(t *testing.T) {
	for _, s := range allSpecSchemas() {
		t.Run(s.name, func(t *testing.T) {
			if strings.TrimSpace(s.resource.MarkdownDescription) == "" || strings.TrimSpace(s.data.MarkdownDescription) == "" {
				t.Errorf("spec has no description")
			}
			n := 0
			walkResource("spec", s.resource.Attributes, func(p string, a rschema.Attribute) {
				n++
				if strings.TrimSpace(a.GetMarkdownDescription()) == "" {
					t.Errorf("resource attribute %s has no MarkdownDescription", p)
				}
			})
			walkDataSource("spec", s.data.Attributes, func(p string, a dschema.Attribute) {
				if strings.TrimSpace(a.GetMarkdownDescription()) == "" {
					t.Errorf("data source attribute %s has no MarkdownDescription", p)
				}
			})
			if n < 40 {
				t.Errorf("only %d attributes walked", n)
			}
		})
	}
}

func TestSpecSchemaResourceAndDataSourceAgree(t *testing.T) {
	ctx := context.Background()
	for _, s := range allSpecSchemas() {
		t.Run(s.name, func(t *testing.T) {
			if !s.resource.GetType().Equal(s.data.GetType()) {
				t.Fatalf("resource and data source types differ:\n%s\n%s", s.resource.GetType(), s.data.GetType())
			}
			if !s.resource.GetType().Equal(s.typ) {
				t.Fatalf("schema type differs from the spec type used by flatten")
			}
			res := map[string]attr.Type{}
			walkResource("spec", s.resource.Attributes, func(p string, a rschema.Attribute) { res[p] = a.GetType() })
			ds := map[string]attr.Type{}
			walkDataSource("spec", s.data.Attributes, func(p string, a dschema.Attribute) {
				ds[p] = a.GetType()
				if !a.IsComputed() || a.IsOptional() || a.IsRequired() {
					t.Errorf("data source attribute %s must be Computed only", p)
				}
			})
			if len(res) != len(ds) {
				t.Errorf("resource has %d attributes, data source %d", len(res), len(ds))
			}
			for p, rt := range res {
				if dt, ok := ds[p]; !ok || !rt.Equal(dt) {
					t.Errorf("%s: resource type %s, data source type %v", p, rt, dt)
				}
			}
			// The framework accepts both schemas.
			rs := rschema.Schema{Attributes: map[string]rschema.Attribute{"spec": s.resource}}
			if d := rs.ValidateImplementation(ctx); d.HasError() {
				t.Errorf("resource schema: %s", describeDiags(d))
			}
			dss := dschema.Schema{Attributes: map[string]dschema.Attribute{"spec": s.data}}
			if d := dss.ValidateImplementation(ctx); d.HasError() {
				t.Errorf("data source schema: %s", describeDiags(d))
			}
		})
	}
}

func TestSpecSchemaFlags(t *testing.T) {
	flags := func(a rschema.Attribute) string {
		switch {
		case a.IsRequired():
			return "required"
		case a.IsOptional() && a.IsComputed():
			return "optional+computed"
		case a.IsOptional():
			return "optional"
		}
		return "computed"
	}
	collect := func(attrs map[string]rschema.Attribute) map[string]string {
		out := map[string]string{}
		walkResource("spec", attrs, func(p string, a rschema.Attribute) { out[p] = flags(a) })
		return out
	}
	cp := collect(cloudProfileSpecResourceAttribute().Attributes)
	ncp := collect(namespacedCloudProfileSpecResourceAttribute().Attributes)

	want := []struct {
		path    string
		cp, ncp string // "" = attribute absent on that kind
	}{
		{"spec.machine_images.update_strategy", "optional+computed", "optional"},
		{"spec.machine_images.versions.cri", "optional+computed", "optional"},
		{"spec.machine_images.versions.architectures", "optional+computed", "optional"},
		{"spec.machine_images.versions.capability_flavors", "optional+computed", "optional+computed"}, // the public extensions fill them on both kinds
		{"spec.machine_types.architecture", "optional+computed", "optional"},
		{"spec.machine_types.capabilities", "optional+computed", "optional"},
		{"spec.machine_types.usable", "optional+computed", "optional+computed"},
		{"spec.volume_types.usable", "optional+computed", "optional+computed"},
		{"spec.machine_types.cpu", "optional+computed", "optional+computed"},
		{"spec.machine_types.gpu", "optional+computed", "optional+computed"},
		{"spec.machine_types.memory", "optional+computed", "optional+computed"},
		// Keyed lists are maps by key: the key is no attribute of its own.
		{"spec.machine_images.name", "", ""},
		{"spec.machine_images.versions", "optional", "optional"},
		{"spec.machine_images.versions.version", "", ""},
		{"spec.machine_images.versions.lifecycle.classification", "required", "required"},
		// Below the server-defaulted cri of a CloudProfile everything is Optional+Computed, so that
		// Terraform keeps the default from the prior state (see resourceAttribute).
		{"spec.machine_images.versions.cri.container_runtimes", "optional+computed", "optional"},
		{"spec.machine_images.versions.cri.container_runtimes.provider_config", "optional+computed", "optional"},
		{"spec.kubernetes.versions.version", "", ""},
		{"spec.kubernetes.versions", "optional", "optional"},
		{"spec.machine_types", "optional", "optional"},
		{"spec.machine_types.name", "", ""},
		{"spec.volume_types.class", "required", "required"},
		{"spec.volume_types.name", "", ""},
		{"spec.regions", "optional", ""},
		{"spec.regions.zones", "optional", ""},
		{"spec.regions.access_restrictions.name", "required", ""},
		{"spec.type", "optional", ""},
		{"spec.provider_config", "optional", "optional"},
		{"spec.parent", "", "required"},
		{"spec.parent.kind", "", "required"},
		{"spec.machine_capabilities.values", "optional", ""},
	}
	for _, w := range want {
		if got := cp[w.path]; got != w.cp {
			t.Errorf("CloudProfile %s: %q, want %q", w.path, got, w.cp)
		}
		if got := ncp[w.path]; got != w.ncp {
			t.Errorf("NamespacedCloudProfile %s: %q, want %q", w.path, got, w.ncp)
		}
	}
	// No list or map is Required: Gardener decides that, and the rules package reports it.
	for _, s := range allSpecSchemas() {
		walkResource("spec", s.resource.Attributes, func(p string, a rschema.Attribute) {
			switch a.(type) {
			case rschema.ListNestedAttribute, rschema.MapNestedAttribute, rschema.ListAttribute, rschema.MapAttribute:
				if a.IsRequired() {
					t.Errorf("%s: collection %s must not be Required", s.name, p)
				}
			}
		})
	}
}

// jsonFields lists the JSON fields of a struct type (inline members flattened) with their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" && (strings.Contains(opts, "inline") || f.Anonymous) {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			for k, v := range jsonFields(ft) {
				out[k] = v
			}
			continue
		}
		out[name] = f.Type
	}
	return out
}

func elemStruct(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		t = t.Elem()
	}
	return t
}

// The descriptors describe exactly the JSON fields of the Go types, with snake_case names.
func TestSpecDescriptorsMatchGoTypes(t *testing.T) {
	var check func(where string, fields []specField, goType reflect.Type)
	check = func(where string, fields []specField, goType reflect.Type) {
		goFields := jsonFields(goType)
		var described []string
		for _, f := range fields {
			described = append(described, f.json)
			if f.attr != cloudprofile.SnakeCase(f.json) {
				t.Errorf("%s.%s: Terraform name %q is not the snake_case of the JSON name", where, f.json, f.attr)
			}
			ft, ok := goFields[f.json]
			if !ok {
				t.Errorf("%s: %q is not a JSON field of %s", where, f.json, goType)
				continue
			}
			if f.kind == kindObject || f.kind == kindObjectList {
				check(where+"."+f.attr, f.children, elemStruct(ft))
			}
		}
		var missing []string
		for name := range goFields {
			found := false
			for _, d := range described {
				found = found || d == name
			}
			if !found {
				missing = append(missing, name)
			}
		}
		sort.Strings(missing)
		if len(missing) > 0 {
			t.Errorf("%s: JSON fields of %s without a descriptor: %v", where, goType, missing)
		}
	}
	check("spec", cloudProfileSpecFields, reflect.TypeOf(gardencorev1beta1.CloudProfileSpec{}))
	check("spec", namespacedCloudProfileSpecFields, reflect.TypeOf(gardencorev1beta1.NamespacedCloudProfileSpec{}))
}

// cloudProfileSpecResourceAttribute is the `spec` attribute of the CloudProfile resource. Element
// keys are Required, fields Gardener fills in on a CloudProfile are Optional+Computed, the rest
// Optional. It carries no plan modifiers.
func cloudProfileSpecResourceAttribute() rschema.SingleNestedAttribute {
	return resourceTreeAttributes([]specField{cloudProfileSpecRoot}, onCloudProfile)["spec"].(rschema.SingleNestedAttribute)
}

// namespacedCloudProfileSpecResourceAttribute is the `spec` attribute of the
// NamespacedCloudProfile resource. Only `usable` (and the zero-serialised quantities of machine
// types) are Optional+Computed there: Gardener defaults nothing else in a NamespacedCloudProfile.
func namespacedCloudProfileSpecResourceAttribute() rschema.SingleNestedAttribute {
	return resourceTreeAttributes([]specField{namespacedCloudProfileSpecRoot}, onNamespacedCloudProfile)["spec"].(rschema.SingleNestedAttribute)
}

// cloudProfileSpecDataSourceAttribute is the `spec` attribute of the CloudProfile data source:
// the same shape as the resource's, every attribute Computed.
func cloudProfileSpecDataSourceAttribute() dschema.SingleNestedAttribute {
	return dataSourceSpecAttribute(cloudProfileSpecRoot)
}

// namespacedCloudProfileSpecDataSourceAttribute is the `spec` attribute of the
// NamespacedCloudProfile data source, every attribute Computed.
func namespacedCloudProfileSpecDataSourceAttribute() dschema.SingleNestedAttribute {
	return dataSourceSpecAttribute(namespacedCloudProfileSpecRoot)
}

// dataSourceSpecAttribute is the data-source attribute of a spec root, as the data sources'
// schemas derive it from their trees.
func dataSourceSpecAttribute(root specField) dschema.SingleNestedAttribute {
	return dataSourceAttribute(root).(dschema.SingleNestedAttribute)
}
