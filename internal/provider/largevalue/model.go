package largevalue

import (
	"context"
	"fmt"
	"slices"

	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/gardener-community/terraform-provider-gardener/internal/tfvalue"
)

// A model of a resource or data source has a field for each small top-level attribute only: the
// large ones never become framework values. Get and SetState convert a model with the framework's
// own conversion, against the schema without the large top-level attributes (smallSchema).

// Get reads the small top-level attributes of a config, plan or state (its Schema and Raw) into
// model; large are the paths of the large attributes.
func Get(ctx context.Context, schema any, raw tftypes.Value, large []Path, model any) diag.Diagnostics {
	small, err := smallSchemaOf(ctx, schema, large)
	if err != nil {
		return modelError(err)
	}
	reduced, err := small.reduce(raw)
	if err != nil {
		return modelError(err)
	}
	return small.with(reduced).Get(ctx, model)
}

// StateSetter is what the resources and data sources write: a *tfsdk.State or, for a list
// result, a *tfsdk.Resource.
type StateSetter interface {
	Set(ctx context.Context, val any) diag.Diagnostics
}

// ValueAtPath is a value, ready in Terraform's representation, for the large attribute at path.
type ValueAtPath struct {
	Path  Path
	Value tftypes.Value
}

// SetState writes the model (the small top-level attributes) and the large values, ready
// Terraform values: for a profile with thousands of versions the framework's conversion of an
// object value costs far more than building the value directly. Large attributes without a value
// are null. Through the Server the large values go to the Server instead of the framework.
func (v Values) SetState(ctx context.Context, state StateSetter, large []Path, model any, values ...ValueAtPath) diag.Diagnostics {
	schema, err := schemaOf(state)
	if err != nil {
		return modelError(err)
	}
	small, err := smallSchemaOf(ctx, schema, large)
	if err != nil {
		return modelError(err)
	}
	written := small.with(tftypes.NewValue(small.typ, nil))
	diags := written.Set(ctx, model)
	if diags.HasError() {
		return diags
	}
	whole, err := small.expand(written.Raw)
	for _, value := range values {
		if err != nil {
			break
		}
		if v.lv.capture(value.Path, value.Value) {
			continue // the Server puts it into the response
		}
		whole, err = replaceTyped(whole, value)
	}
	if err != nil {
		return append(diags, modelError(err)...)
	}
	return append(diags, state.Set(ctx, whole)...)
}

// replaceTyped replaces the value at the path, which must be of the value's type.
func replaceTyped(whole tftypes.Value, v ValueAtPath) (tftypes.Value, error) {
	if current, ok := tfvalue.At(whole, v.Path); ok && !current.Type().Equal(v.Value.Type()) {
		return whole, fmt.Errorf("the value for %s is a %s, not a %s", v.Path.Key(), v.Value.Type(), current.Type())
	}
	return tfvalue.Replace(whole, v.Path, v.Value)
}

// smallSchema is a resource or data source schema without its large attributes, at any depth.
type smallSchema struct {
	// empty is a null value of the small attributes with their schema.
	empty tfsdk.State
	typ   tftypes.Object
	// whole is the type of the whole schema; large are the paths of its large attributes.
	whole tftypes.Object
	large []Path
}

// smallSchemaOf is the schema without the attributes at the large paths (and without the request's
// ticket, where the schema is a reduced one).
func smallSchemaOf(ctx context.Context, schema any, large []Path) (smallSchema, error) {
	var out smallSchema
	var err error
	switch s := schema.(type) {
	case rschema.Schema:
		out.whole, out.large = s.Type().TerraformType(ctx).(tftypes.Object), withTicketOf(s.Attributes, large)
		if s.Attributes, err = reduceAttributes(s.Attributes, out.large, dropResourceAttribute, resourceSingleNested); err == nil {
			out.empty, out.typ = tfsdk.State{Schema: s}, s.Type().TerraformType(ctx).(tftypes.Object)
		}
	case dschema.Schema:
		out.whole, out.large = s.Type().TerraformType(ctx).(tftypes.Object), withTicketOf(s.Attributes, large)
		if s.Attributes, err = reduceAttributes(s.Attributes, out.large, dropDataSourceAttribute, dataSourceSingleNested); err == nil {
			out.empty, out.typ = tfsdk.State{Schema: s}, s.Type().TerraformType(ctx).(tftypes.Object)
		}
	default:
		err = fmt.Errorf("%T is neither a resource nor a data source schema", schema)
	}
	return out, err
}

// withTicketOf is the large paths and, where the attributes are a reduced schema's, the ticket's.
func withTicketOf[A any](attrs map[string]A, large []Path) []Path {
	if _, reduced := attrs[ticketPath[0]]; reduced {
		return append(slices.Clip(large), ticketPath)
	}
	return large
}

// with is the small attributes' value v with their schema, converted as a state.
func (s smallSchema) with(v tftypes.Value) tfsdk.State {
	out := s.empty
	out.Raw = v
	return out
}

// reduce is the value of the whole schema without the large attributes.
func (s smallSchema) reduce(whole tftypes.Value) (tftypes.Value, error) {
	if !whole.IsKnown() {
		return tftypes.NewValue(s.typ, nil), nil
	}
	return convert(whole, s.typ, s.large, nil)
}

// expand is the value of the whole schema: the small attributes and null large ones.
func (s smallSchema) expand(small tftypes.Value) (tftypes.Value, error) {
	return convert(small, s.whole, s.large, func(_ Path, _ tftypes.Value, t tftypes.Type) tftypes.Value { return tftypes.NewValue(t, nil) })
}

// schemaOf is the schema of a state or list result.
func schemaOf(state StateSetter) (any, error) {
	switch s := state.(type) {
	case *tfsdk.State:
		return s.Schema, nil
	case *tfsdk.Resource:
		return s.Schema, nil
	}
	return nil, fmt.Errorf("cannot write a model into a %T", state)
}

// modelError reports a failed conversion of a model: a bug in the provider.
func modelError(err error) diag.Diagnostics {
	var diags diag.Diagnostics
	diags.AddError("Converting the model", err.Error()+". This is a bug in the provider.")
	return diags
}
