package largevalue

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// The framework behind the Server serves a reduced schema: each large attribute is a string
// placeholder there, with the large attribute's Required, Optional and Computed. The framework
// builds and walks every value of a request against its schema's type many times over, and a
// profile's type alone (the spec's and the merged profile's attributes) made that walk most of
// its work; the placeholder's type is one string.

// Placeholder values: null and unknown stand for themselves; a known large value is
// placeholderSame, or placeholderChanged where it differs from the prior state's, so that the
// framework's plan changes exactly where the large value changes.
const (
	placeholderSame    = "="
	placeholderChanged = "~"
)

// ticketPath is the attribute of a reduced schema that names the request (server.begin): the
// framework hands a resource or data source nothing of a request but its values, so the Server
// writes the ticket into each of them, and the wrappers below find the request's large values by it.
var ticketPath = Path{"largevalue_ticket"}

// largeResource is a resource with large attributes, as the Server serves it.
type largeResource interface {
	resource.ResourceWithConfigure
	resource.ResourceWithValidateConfig
	resource.ResourceWithModifyPlan
	resource.ResourceWithIdentity
	withLargeAttributes
	// WithLargeValues is a copy of the resource that reads, writes and plans its large attributes
	// through v; it must be a largeResource again.
	WithLargeValues(v Values) resource.Resource
}

// largeDataSource is a data source with large attributes, as the Server serves it.
type largeDataSource interface {
	datasource.DataSourceWithConfigure
	withLargeAttributes
	// SetLargeValues makes the data source write its large attributes through v. The framework
	// makes a data source for each request, so the one that reads a request is bound to its values.
	SetLargeValues(v Values)
}

// reducedProvider is the provider as the framework behind the Server sees it: its resources and
// data sources with large attributes have placeholders in their place. It serves plans, applies,
// reads and validation of resource configurations; everything else goes to the whole provider.
type reducedProvider struct {
	provider.Provider
	server *server
}

// Resources are the provider's resources, those with large attributes reduced.
func (p reducedProvider) Resources(ctx context.Context) []func() resource.Resource {
	return reducing(p.Provider.Resources(ctx), func(r largeResource) resource.Resource { return reducedResource{r, p.server} })
}

// DataSources are the provider's data sources, those with large attributes reduced.
func (p reducedProvider) DataSources(ctx context.Context) []func() datasource.DataSource {
	return reducing(p.Provider.DataSources(ctx), func(d largeDataSource) datasource.DataSource { return reducedDataSource{d, p.server} })
}

// reducing is the constructors with each one that makes a Large (a resource or data source with
// large attributes) wrapped by reduce.
func reducing[T any, Large any](constructors []func() T, reduce func(Large) T) []func() T {
	out := slices.Clone(constructors)
	for i, construct := range out {
		if _, ok := any(construct()).(Large); ok {
			out[i] = func() T { return reduce(any(construct()).(Large)) }
		}
	}
	return out
}

// reducedResource is a resource whose schema has placeholders for its large attributes, and which
// hands each request's large values to the resource (WithLargeValues).
type reducedResource struct {
	largeResource
	server *server
}

// Schema is the resource's schema with placeholders for its large attributes, and the ticket.
func (r reducedResource) Schema(ctx context.Context, req resource.SchemaRequest, resp *resource.SchemaResponse) {
	r.largeResource.Schema(ctx, req, resp)
	var ticket rschema.Attribute = rschema.StringAttribute{Optional: true, Computed: true}
	reduceSchema(&resp.Schema.Attributes, r.LargeAttributes(), resourcePlaceholder, resourceSingleNested, ticket, &resp.Diagnostics)
}

// bound is the resource with the large values of the request whose values are raw.
func (r reducedResource) bound(raw ...tftypes.Value) largeResource {
	bound, _ := r.WithLargeValues(r.server.valuesOf(raw...)).(largeResource) // checked by NewServer
	return bound
}

// ValidateConfig validates with the request's large values.
func (r reducedResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	r.bound(req.Config.Raw).ValidateConfig(ctx, req, resp)
}

// ModifyPlan plans with the request's large values.
func (r reducedResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	r.bound(req.Config.Raw, req.Plan.Raw, req.State.Raw).ModifyPlan(ctx, req, resp)
}

// Create creates with the request's large values.
func (r reducedResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	r.bound(req.Plan.Raw).Create(ctx, req, resp)
}

// Read reads with the request's large values.
func (r reducedResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	r.bound(req.State.Raw).Read(ctx, req, resp)
}

// Update updates with the request's large values.
func (r reducedResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	r.bound(req.Plan.Raw).Update(ctx, req, resp)
}

// Delete deletes with the request's large values.
func (r reducedResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	r.bound(req.State.Raw).Delete(ctx, req, resp)
}

// reducedDataSource is a data source whose schema has placeholders for its large attributes, and
// which hands each request's large values to the data source (SetLargeValues).
type reducedDataSource struct {
	largeDataSource
	server *server
}

// Schema is the data source's schema with placeholders for its large attributes, and the ticket.
func (d reducedDataSource) Schema(ctx context.Context, req datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	d.largeDataSource.Schema(ctx, req, resp)
	var ticket dschema.Attribute = dschema.StringAttribute{Optional: true, Computed: true}
	reduceSchema(&resp.Schema.Attributes, d.LargeAttributes(), dataSourcePlaceholder, dataSourceSingleNested, ticket, &resp.Diagnostics)
}

// Read reads with the request's large values.
func (d reducedDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	d.SetLargeValues(d.server.valuesOf(req.Config.Raw))
	d.largeDataSource.Read(ctx, req, resp)
}

// reduceSchema puts placeholders at the paths of a schema's attributes (see reduceAttributes) and
// adds the ticket's attribute (ticketPath).
func reduceSchema[A any](attrs *map[string]A, paths []Path, placeholder func(A) (A, bool), singleNested func(A) (map[string]A, func(map[string]A) A, bool), ticket A, diags *diag.Diagnostics) {
	reduced, err := reduceAttributes(*attrs, paths, placeholder, singleNested)
	if err != nil {
		diags.AddError("Reducing the schema", err.Error()+". This is a bug in the provider.")
		return
	}
	reduced[ticketPath[0]] = ticket
	*attrs = reduced
}

// reduceAttributes is a copy of attrs with the attribute at each path replaced (by what replace
// gives, or dropped where it gives false); a path of more than one name leads through single
// nested attributes (singleNested: their attributes and how to copy one with other attributes).
func reduceAttributes[A any](attrs map[string]A, paths []Path, replace func(A) (A, bool), singleNested func(A) (map[string]A, func(map[string]A) A, bool)) (map[string]A, error) {
	out := make(map[string]A, len(attrs))
	for name, a := range attrs {
		out[name] = a
	}
	for name, rest := range byFirstName(paths) {
		a, ok := attrs[name]
		if !ok {
			return nil, fmt.Errorf("the schema has no attribute %q", name)
		}
		if rest == nil {
			if replacement, keep := replace(a); keep {
				out[name] = replacement
			} else {
				delete(out, name)
			}
			continue
		}
		nested, with, ok := singleNested(a)
		if !ok {
			return nil, fmt.Errorf("the attribute %q holds large attributes but is not a single nested attribute", name)
		}
		inner, err := reduceAttributes(nested, rest, replace, singleNested)
		if err != nil {
			return nil, err
		}
		out[name] = with(inner)
	}
	return out, nil
}

// resourcePlaceholder is the placeholder of a resource's large attribute.
func resourcePlaceholder(a rschema.Attribute) (rschema.Attribute, bool) {
	return rschema.StringAttribute{Required: a.IsRequired(), Optional: a.IsOptional(), Computed: a.IsComputed(), Sensitive: a.IsSensitive()}, true
}

// dataSourcePlaceholder is the placeholder of a data source's large attribute.
func dataSourcePlaceholder(a dschema.Attribute) (dschema.Attribute, bool) {
	return dschema.StringAttribute{Required: a.IsRequired(), Optional: a.IsOptional(), Computed: a.IsComputed(), Sensitive: a.IsSensitive()}, true
}

// dropResourceAttribute drops a resource's large attribute (a model's schema).
func dropResourceAttribute(rschema.Attribute) (rschema.Attribute, bool) { return nil, false }

// dropDataSourceAttribute drops a data source's large attribute (a model's schema).
func dropDataSourceAttribute(dschema.Attribute) (dschema.Attribute, bool) { return nil, false }

// resourceSingleNested is the attributes of a resource's single nested attribute and how to copy
// it with others (and without a custom type, which would name the attributes it had).
func resourceSingleNested(a rschema.Attribute) (map[string]rschema.Attribute, func(map[string]rschema.Attribute) rschema.Attribute, bool) {
	n, ok := a.(rschema.SingleNestedAttribute)
	return n.Attributes, func(attrs map[string]rschema.Attribute) rschema.Attribute {
		n.Attributes, n.CustomType = attrs, nil
		return n
	}, ok
}

// dataSourceSingleNested is the attributes of a data source's single nested attribute and how to
// copy it with others (and without a custom type, which would name the attributes it had).
func dataSourceSingleNested(a dschema.Attribute) (map[string]dschema.Attribute, func(map[string]dschema.Attribute) dschema.Attribute, bool) {
	n, ok := a.(dschema.SingleNestedAttribute)
	return n.Attributes, func(attrs map[string]dschema.Attribute) dschema.Attribute {
		n.Attributes, n.CustomType = attrs, nil
		return n
	}, ok
}

// byFirstName groups paths by their first name: the rest of each path, nil for a path of one name.
func byFirstName(paths []Path) map[string][]Path {
	out := map[string][]Path{}
	for _, p := range paths {
		if len(p) == 1 {
			out[p[0]] = nil
			continue
		}
		if rest, seen := out[p[0]]; seen && rest == nil {
			continue // the whole attribute is large
		}
		out[p[0]] = append(out[p[0]], p[1:])
	}
	return out
}

// placeholder is what the framework gets for a large value (see placeholderSame).
func placeholder(v tftypes.Value, changed bool) tftypes.Value {
	switch {
	case !v.IsKnown():
		return tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
	case v.IsNull():
		return tftypes.NewValue(tftypes.String, nil)
	case changed:
		return tftypes.NewValue(tftypes.String, placeholderChanged)
	}
	return tftypes.NewValue(tftypes.String, placeholderSame)
}

// fromPlaceholder is the value of type t that a placeholder stands for when the request had no
// large value there: unknown for unknown, else null.
func fromPlaceholder(p tftypes.Value, t tftypes.Type) tftypes.Value {
	if !p.IsKnown() {
		return tftypes.NewValue(t, tftypes.UnknownValue)
	}
	return tftypes.NewValue(t, nil)
}

// leafFunc gives the value at a large attribute's path p in the converted value: from the value
// there before the conversion, of the type t there after it.
type leafFunc func(p Path, before tftypes.Value, t tftypes.Type) tftypes.Value

// convert is v as a value of the type to, another form (whole, reduced or small) of the same
// schema: equal outside the paths, and at each path whose parent is a known object, what leaf
// gives; an attribute that to does not have is dropped.
func convert(v tftypes.Value, to tftypes.Type, paths []Path, leaf leafFunc) (tftypes.Value, error) {
	return convertAt(v, to, nil, paths, leaf)
}

func convertAt(v tftypes.Value, to tftypes.Type, at Path, paths []Path, leaf leafFunc) (tftypes.Value, error) {
	if !v.IsKnown() {
		return tftypes.NewValue(to, tftypes.UnknownValue), nil
	}
	if v.IsNull() {
		return tftypes.NewValue(to, nil), nil
	}
	obj, ok := to.(tftypes.Object)
	var shared map[string]tftypes.Value
	if !ok || v.As(&shared) != nil {
		return v, fmt.Errorf("%s is not an object in both forms of the schema", at.Key())
	}
	attrs := maps.Clone(shared) // As hands out the value's own map
	for name, rest := range byFirstName(paths) {
		p := append(slices.Clip(at), name)
		var err error
		t, kept := obj.AttributeTypes[name]
		switch {
		case !kept:
			delete(attrs, name)
		case rest == nil:
			attrs[name] = leaf(p, attrs[name], t)
		default:
			if attrs[name], err = convertAt(attrs[name], t, p, rest, leaf); err != nil {
				return v, err
			}
		}
	}
	return newObject(obj, attrs)
}

// newObject is the object value, or an error where an attribute's value does not fit its type
// (tftypes.NewValue panics there).
func newObject(t tftypes.Object, attrs map[string]tftypes.Value) (v tftypes.Value, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("building the value: %v", r)
		}
	}()
	return tftypes.NewValue(t, attrs), nil
}
