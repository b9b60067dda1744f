package largevalue

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/gardener-community/terraform-provider-gardener/internal/tfvalue"
)

// server is the Server. Most requests go to the framework's server of the whole provider, which
// it embeds. Validation, plans, applies and reads of resources and data sources go to the
// framework's server of the reduced provider (reduced), whose schemas have placeholders for the
// large attributes; the server converts their values between the two forms, hands the large
// values to the provider's code (Values, found by the request's ticket), plans them as the
// framework would, and puts them back into the response.
type server struct {
	tfprotov6.ProviderServer
	reduced     tfprotov6.ProviderServer
	resources   map[string]largeSchema
	dataSources map[string]largeSchema
	// requests are the large values of the requests being served, by ticket.
	requests sync.Map
	tickets  atomic.Uint64
}

// withLargeAttributes is a resource or data source that names its large attributes.
type withLargeAttributes interface {
	// LargeAttributes are the paths of the attributes the Server keeps from the framework, in the
	// order their planners run.
	LargeAttributes() []Path
}

// largeSchema is what the server needs of a resource or data source type with large attributes.
type largeSchema struct {
	// typ is the type of the whole schema; reduced has placeholders at the paths, and the ticket.
	typ, reduced tftypes.Type
	paths        []Path
	// converted are the paths and the ticket's: where the two forms differ.
	converted []Path
	// version is the schema version (resources only).
	version int64
	// attributes are the schema attributes at the paths, by key (resources only).
	attributes map[string]rschema.Attribute
	// writeOnly are the resource's write-only top-level attributes, whose state is null.
	writeOnly map[string]bool
	// proposal is what Terraform proposes from the configuration under the provider's own schema
	// (resources only; see servedSchema).
	proposal *configured
}

// NewServer is the Server: the framework's server of p (serve) for everything but the large
// attributes of p's resources and data sources (those implementing LargeAttributes() []Path).
func NewServer(ctx context.Context, p provider.Provider, serve func(provider.Provider) (tfprotov6.ProviderServer, error)) (tfprotov6.ProviderServer, error) {
	s := &server{resources: map[string]largeSchema{}, dataSources: map[string]largeSchema{}}
	var err error
	if s.ProviderServer, err = serve(p); err != nil {
		return nil, err
	}
	if s.reduced, err = serve(reducedProvider{p, s}); err != nil {
		return nil, err
	}
	var meta provider.MetadataResponse
	p.Metadata(ctx, provider.MetadataRequest{}, &meta)
	for _, newResource := range p.Resources(ctx) {
		if r, ok := newResource().(largeResource); ok {
			if _, bound := r.WithLargeValues(Values{}).(largeResource); !bound {
				return nil, fmt.Errorf("%T.WithLargeValues does not return a resource with large attributes", r)
			}
			name, ls := resourceSchema(ctx, meta.TypeName, r)
			s.resources[name] = ls
		}
	}
	for _, newDataSource := range p.DataSources(ctx) {
		if d, ok := newDataSource().(largeDataSource); ok {
			name, ls := dataSourceSchema(ctx, meta.TypeName, d)
			s.dataSources[name] = ls
		}
	}
	return s, nil
}

// resourceSchema is the type name and largeSchema of a resource with large attributes.
func resourceSchema(ctx context.Context, providerTypeName string, r largeResource) (string, largeSchema) {
	var meta resource.MetadataResponse
	r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: providerTypeName}, &meta)
	var whole, reduced resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &whole)
	reducedResource{largeResource: r}.Schema(ctx, resource.SchemaRequest{}, &reduced)
	ls := largeSchema{
		typ: whole.Schema.Type().TerraformType(ctx), reduced: reduced.Schema.Type().TerraformType(ctx),
		paths: r.LargeAttributes(), attributes: map[string]rschema.Attribute{}, version: whole.Schema.Version,
	}
	ls.converted = append(slices.Clip(ls.paths), ticketPath)
	for name, a := range whole.Schema.Attributes {
		if a.IsWriteOnly() {
			if ls.writeOnly == nil {
				ls.writeOnly = map[string]bool{}
			}
			ls.writeOnly[name] = true
		}
	}
	for _, p := range ls.paths {
		ls.attributes[p.Key()] = attributeAt(whole.Schema.Attributes, p)
	}
	ls.proposal = newConfigured(whole.Schema.Attributes)
	return meta.TypeName, ls
}

// GetProviderSchema is the provider's schema with the resources with large attributes served with
// every Optional attribute also Computed (servedSchema), so that generated configuration leaves
// out what is null.
func (s *server) GetProviderSchema(ctx context.Context, req *tfprotov6.GetProviderSchemaRequest) (*tfprotov6.GetProviderSchemaResponse, error) {
	resp, err := s.ProviderServer.GetProviderSchema(ctx, req)
	if err != nil || resp == nil {
		return resp, err
	}
	served := *resp
	served.ResourceSchemas = make(map[string]*tfprotov6.Schema, len(resp.ResourceSchemas))
	for name, schema := range resp.ResourceSchemas {
		if _, large := s.resources[name]; large {
			schema = servedSchema(schema)
		}
		served.ResourceSchemas[name] = schema
	}
	return &served, nil
}

// dataSourceSchema is the type name and largeSchema of a data source with large attributes.
func dataSourceSchema(ctx context.Context, providerTypeName string, d largeDataSource) (string, largeSchema) {
	var meta datasource.MetadataResponse
	d.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: providerTypeName}, &meta)
	var whole, reduced datasource.SchemaResponse
	d.Schema(ctx, datasource.SchemaRequest{}, &whole)
	reducedDataSource{largeDataSource: d}.Schema(ctx, datasource.SchemaRequest{}, &reduced)
	paths := d.LargeAttributes()
	return meta.TypeName, largeSchema{
		typ: whole.Schema.Type().TerraformType(ctx), reduced: reduced.Schema.Type().TerraformType(ctx),
		paths: paths, converted: append(slices.Clip(paths), ticketPath),
	}
}

// begin registers the large values of a new request under a new ticket; end forgets them.
func (s *server) begin(ls largeSchema) *values {
	lv := newValues(ls.paths)
	lv.ticket = strconv.FormatUint(s.tickets.Add(1), 10)
	s.requests.Store(lv.ticket, lv)
	return lv
}

// end forgets the request's values and drops them (values.release).
func (s *server) end(lv *values) {
	s.requests.Delete(lv.ticket)
	lv.release()
}

// valuesOf is the large values of the request whose ticket the first of raw that has one holds;
// the zero Values where none has (a request the Server did not reduce).
func (s *server) valuesOf(raw ...tftypes.Value) Values {
	for _, v := range raw {
		ticket, ok := tfvalue.At(v, ticketPath)
		var name string
		if !ok || !ticket.IsKnown() || ticket.IsNull() || ticket.As(&name) != nil {
			continue
		}
		if lv, ok := s.requests.Load(name); ok {
			return Values{lv.(*values)}
		}
	}
	return Values{}
}

// toReduced is v, of the whole schema, in the reduced form: leaf gives the large values'
// placeholders, and the ticket is lv's.
func (lv *values) toReduced(ls largeSchema, v tftypes.Value, leaf leafFunc) (tftypes.Value, error) {
	return convert(v, ls.reduced, ls.converted, func(p Path, before tftypes.Value, t tftypes.Type) tftypes.Value {
		if len(p) == 1 && p[0] == ticketPath[0] {
			return tftypes.NewValue(tftypes.String, lv.ticket)
		}
		return leaf(p, before, t)
	})
}

// toWhole is v, of the reduced schema, in the whole form: leaf gives the large values, and the
// ticket is dropped.
func (ls largeSchema) toWhole(v tftypes.Value, leaf leafFunc) (tftypes.Value, error) {
	return convert(v, ls.typ, ls.converted, leaf)
}

// attributeAt is the schema attribute at the path; nil when there is none.
func attributeAt(attrs map[string]rschema.Attribute, p Path) rschema.Attribute {
	var a rschema.Attribute
	for _, name := range p {
		a = attrs[name]
		attrs = tfvalue.NestedAttributes(a)
	}
	return a
}

// ConfigureProvider configures both framework servers' provider.
func (s *server) ConfigureProvider(ctx context.Context, req *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	resp, err := s.ProviderServer.ConfigureProvider(ctx, req)
	if err != nil || resp == nil || hasError(resp.Diagnostics) {
		return resp, err
	}
	reduced, err := s.reduced.ConfigureProvider(ctx, req)
	if err != nil || reduced == nil {
		return reduced, err
	}
	if hasError(reduced.Diagnostics) {
		resp.Diagnostics = append(resp.Diagnostics, reduced.Diagnostics...)
	}
	return resp, nil
}

// PlanResourceChange plans, from Terraform's proposal as the provider's own schema would have it
// (proposeFromConfig), the large attributes as the framework would plan them
// (markComputedNullsUnknown) and everything else with the framework.
func (s *server) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	ls, ok := s.resources[req.TypeName]
	if !ok {
		return s.reduced.PlanResourceChange(ctx, req)
	}
	config, prior, proposed, err := decodeAll(ls.typ, req.Config, req.PriorState, req.ProposedNewState)
	if err != nil {
		return nil, err
	}
	proposed, _ = ls.proposal.proposeFromConfig(proposed, config)
	proposed = keepPriorStored(ctx, ls, prior, proposed, config)
	lv := s.begin(ls)
	defer s.end(lv)
	reduced := *req
	var reducedPrior tftypes.Value
	if reduced.Config, _, err = lv.reduce(ls, fromConfig, config, nil); err != nil {
		return nil, err
	}
	if reduced.PriorState, reducedPrior, err = lv.reduce(ls, fromPrior, prior, nil); err != nil {
		return nil, err
	}
	if reduced.ProposedNewState, _, err = lv.reduce(ls, fromPlanned, proposed, lv.in[fromPrior]); err != nil {
		return nil, err
	}
	resp, err := s.reduced.PlanResourceChange(ctx, &reduced)
	if err != nil || resp == nil || resp.PlannedState == nil {
		return resp, err
	}
	planned, err := resp.PlannedState.Unmarshal(ls.reduced)
	if err != nil {
		return nil, err
	}
	// The framework marks unknowns only in a plan that changes the resource; the placeholder of a
	// changed large value differs from the prior one, so its decision covers them too.
	changing := !tfvalue.Equal(planned, reducedPrior)
	whole, err := ls.toWhole(planned, func(p Path, held tftypes.Value, t tftypes.Type) tftypes.Value {
		value, ok := lv.in[fromPlanned][p.Key()]
		if !ok {
			value = fromPlaceholder(held, t) // a value the request did not have (a status planned anew)
		}
		if !changing {
			return value
		}
		value, _ = markComputedNullsUnknown(ls.attributes[p.Key()], value, deepestValueAt(config, p))
		if planner := lv.planners[p.Key()]; planner != nil {
			var diags diag.Diagnostics
			value, diags = planner(ls.attributes[p.Key()], value)
			resp.Diagnostics = append(resp.Diagnostics, protocolDiagnostics(diags)...)
		}
		if before, ok := tfvalue.At(prior, p); ok {
			configured, _ := tfvalue.At(config, p)
			value, _ = conformToConfig(ctx, ls.attributes[p.Key()], before, value, configured)
		}
		return value
	})
	if err != nil {
		return nil, err
	}
	if resp.PlannedPrivate, err = withPrivateKeys(resp.PlannedPrivate, lv.private); err != nil {
		return nil, err
	}
	resp.PlannedState, err = encodeValue(ls.typ, whole)
	return resp, err
}

// withPrivateKeys is a private state as the framework encodes it (a JSON object of base64
// values) with the keys set (an empty value removes its key).
func withPrivateKeys(private []byte, keys map[string][]byte) ([]byte, error) {
	if len(keys) == 0 {
		return private, nil
	}
	merged := map[string][]byte{}
	if len(private) > 0 {
		if err := json.Unmarshal(private, &merged); err != nil {
			return nil, fmt.Errorf("decoding the planned private state: %w", err)
		}
	}
	for k, v := range keys {
		if len(v) == 0 {
			delete(merged, k)
			continue
		}
		merged[k] = v
	}
	if len(merged) == 0 {
		return nil, nil
	}
	return json.Marshal(merged)
}

// keepPriorStored returns the proposed state with every part of a large value that stands for what
// the prior state's stands for in the Garden (a quantity "8192Mi" for "8Gi", `[]` for a list left
// out; see the function of the value) replaced by the prior one, so that such a configuration plans
// no change. This goes beyond the framework, which plans the configured form; Terraform accepts a
// planned value equal to the prior one in place of an equivalent configured one.
func keepPriorStored(ctx context.Context, ls largeSchema, prior, proposed, config tftypes.Value) tftypes.Value {
	if !prior.IsKnown() || prior.IsNull() || !proposed.IsKnown() || proposed.IsNull() {
		return proposed
	}
	for _, p := range ls.paths {
		before, hadBefore := tfvalue.At(prior, p)
		next, hasNext := tfvalue.At(proposed, p)
		if !hadBefore || !hasNext || tfvalue.Equal(before, next) {
			continue // Equal allocates nothing: a plan that changes nothing walks no further
		}
		configured, _ := tfvalue.At(config, p)
		if kept, changed := keepPriorStoredValue(ctx, ls.attributes[p.Key()], before, next, configured); changed {
			if replaced, err := tfvalue.Replace(proposed, p, kept); err == nil {
				proposed = replaced
			}
		}
	}
	return proposed
}

// ValidateResourceConfig validates with the framework, which sees the large attributes as unknown,
// and checks below them what its validation would check there (configurationProblems): the
// framework would walk every value of them for validators and deprecations they do not have (the
// provider's TestLargeAttributesHaveNothingTheServerWouldSkip keeps it so). The provider's
// ValidateConfig reads them with Values.Config.
func (s *server) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	ls, ok := s.resources[req.TypeName]
	if !ok {
		return s.reduced.ValidateResourceConfig(ctx, req)
	}
	config, err := decodeValue(ls.typ, req.Config)
	if err != nil {
		return nil, err
	}
	lv := s.begin(ls)
	defer s.end(lv)
	reduced := *req
	if reduced.Config, err = lv.reduceToUnknown(ls, config); err != nil {
		return nil, err
	}
	resp, err := s.reduced.ValidateResourceConfig(ctx, &reduced)
	if err != nil || resp == nil {
		return resp, err
	}
	for _, p := range ls.paths {
		if v, ok := lv.in[fromConfig][p.Key()]; ok {
			resp.Diagnostics = append(resp.Diagnostics, protocolDiagnostics(configurationProblems(ls.attributes[p.Key()], v, p.Framework()))...)
		}
	}
	return resp, nil
}

// reduceToUnknown records the large values of a configuration and returns it reduced, with the
// placeholder of each known one unknown, below which the framework's validation checks nothing.
func (lv *values) reduceToUnknown(ls largeSchema, config tftypes.Value) (*tfprotov6.DynamicValue, error) {
	reduced, err := lv.toReduced(ls, config, func(p Path, real tftypes.Value, _ tftypes.Type) tftypes.Value {
		lv.in[fromConfig][p.Key()] = real
		if real.IsKnown() && !real.IsNull() {
			return tftypes.NewValue(tftypes.String, tftypes.UnknownValue)
		}
		return placeholder(real, false)
	})
	if err != nil {
		return nil, err
	}
	return encodeValue(ls.reduced, reduced)
}

// ReadResource reads with the framework; the large attributes the provider's code read come back
// as written, except where they only write the prior state differently. The new state goes back
// as JSON (see encodeJSON).
func (s *server) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	ls, ok := s.resources[req.TypeName]
	if !ok {
		return s.reduced.ReadResource(ctx, req)
	}
	lv := s.begin(ls)
	defer s.end(lv)
	reduced := *req
	if err := lv.reduceEach(ls, []requestPart{{&reduced.CurrentState, fromPrior}}, fromPrior); err != nil {
		return nil, err
	}
	resp, err := s.reduced.ReadResource(ctx, &reduced)
	if err != nil || resp == nil {
		return resp, err
	}
	resp.NewState, err = lv.restore(ctx, ls, resp.NewState, fromPrior, encodeJSON)
	return resp, err
}

// ApplyResourceChange applies with the framework; as for ReadResource, with the planned state as
// the baseline of semantic equality. A write that failed before the provider's code recorded an
// object answers with the prior state (none for a create).
func (s *server) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	ls, ok := s.resources[req.TypeName]
	if !ok {
		return s.reduced.ApplyResourceChange(ctx, req)
	}
	lv := s.begin(ls)
	defer s.end(lv)
	reduced := *req
	// Create and Update read only the plan: the configuration and the prior state are not kept.
	parts := []requestPart{{&reduced.Config, fromConfig}, {&reduced.PriorState, fromPrior}, {&reduced.PlannedState, fromPlanned}}
	if err := lv.reduceEach(ls, parts, fromPlanned); err != nil {
		return nil, err
	}
	resp, err := s.reduced.ApplyResourceChange(ctx, &reduced)
	if err != nil || resp == nil {
		return resp, err
	}
	if hasError(resp.Diagnostics) && len(lv.out) == 0 {
		// A failed write changes nothing in the state. The framework answers with the prior state
		// (none for a create); restore would put the planned large values, unknowns and all, into
		// it, which Terraform would report as an invalid result and save.
		resp.NewState = req.PriorState
		return resp, nil
	}
	resp.NewState, err = lv.restore(ctx, ls, resp.NewState, fromPlanned, encodeValue)
	return resp, err
}

// hasError tells whether the diagnostics hold an error.
func hasError(diags []*tfprotov6.Diagnostic) bool {
	for _, d := range diags {
		if d != nil && d.Severity == tfprotov6.DiagnosticSeverityError {
			return true
		}
	}
	return false
}

// ReadDataSource reads with the framework and adds the large attributes the provider's code wrote.
func (s *server) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	ls, ok := s.dataSources[req.TypeName]
	if !ok {
		return s.reduced.ReadDataSource(ctx, req)
	}
	lv := s.begin(ls)
	defer s.end(lv)
	reduced := *req
	if err := lv.reduceEach(ls, []requestPart{{&reduced.Config, fromConfig}}, fromConfig); err != nil {
		return nil, err
	}
	resp, err := s.reduced.ReadDataSource(ctx, &reduced)
	if err != nil || resp == nil {
		return resp, err
	}
	resp.State, err = lv.restore(ctx, ls, resp.State, fromConfig, encodeValue)
	return resp, err
}

// requestPart is one value of a request, replaced in place by its reduced form.
type requestPart struct {
	value **tfprotov6.DynamicValue
	role  origin
}

// reduceEach reduces the parts one at a time, keeping the large values of the role keep only, so
// that no more than one whole value of the request is decoded at once.
func (lv *values) reduceEach(ls largeSchema, parts []requestPart, keep origin) error {
	for _, part := range parts {
		v, err := decodeValue(ls.typ, *part.value)
		if err != nil {
			return err
		}
		if *part.value, _, err = lv.reduce(ls, part.role, v, nil); err != nil {
			return err
		}
		if part.role != keep {
			clear(lv.in[part.role])
		}
	}
	return nil
}

// reduce records the large values of one value of the request and returns it reduced, encoded
// and decoded. With baseline, the placeholder of a large value that differs from the baseline's
// says it changed.
func (lv *values) reduce(ls largeSchema, role origin, v tftypes.Value, baseline map[string]tftypes.Value) (*tfprotov6.DynamicValue, tftypes.Value, error) {
	reduced, err := lv.toReduced(ls, v, func(p Path, real tftypes.Value, _ tftypes.Type) tftypes.Value {
		lv.in[role][p.Key()] = real
		before, hadBefore := baseline[p.Key()]
		return placeholder(real, baseline != nil && (!hadBefore || !tfvalue.Equal(before, real)))
	})
	if err != nil {
		return nil, reduced, err
	}
	dv, err := encodeValue(ls.reduced, reduced)
	return dv, reduced, err
}

// restore is a response's reduced state in the whole form, with the large values: what the
// provider's code wrote (keeping the request's value where it is semantically equal), or, where
// the state still holds the request's placeholder (the code wrote nothing, e.g. after an error),
// the request's value; encoded with encode.
func (lv *values) restore(ctx context.Context, ls largeSchema, dv *tfprotov6.DynamicValue, baseline origin, encode func(tftypes.Type, tftypes.Value) (*tfprotov6.DynamicValue, error)) (*tfprotov6.DynamicValue, error) {
	if dv == nil {
		return dv, nil
	}
	state, err := dv.Unmarshal(ls.reduced)
	if err != nil {
		return nil, err
	}
	whole, err := ls.toWhole(state, func(p Path, held tftypes.Value, t tftypes.Type) tftypes.Value {
		before, hadBefore := lv.in[baseline][p.Key()]
		value, written := lv.out[p.Key()]
		switch {
		case written && hadBefore:
			value, _ = keepSemanticallyEqual(ctx, ls.attributes[p.Key()], before, value)
		case written:
		case hadBefore && held.IsKnown() && !held.IsNull():
			value = before
		default:
			value = fromPlaceholder(held, t)
		}
		return value
	})
	if err != nil {
		return nil, err
	}
	return encode(ls.typ, whole)
}

// deepestValueAt is the value at the path or, where the path ends early (a null or unknown
// parent), the last value on the way: what the framework compares a planned value with.
func deepestValueAt(v tftypes.Value, p Path) tftypes.Value {
	for i := range p {
		next, ok := tfvalue.At(v, p[i:i+1])
		if !ok {
			return v
		}
		v = next
	}
	return v
}

func decodeValue(typ tftypes.Type, dv *tfprotov6.DynamicValue) (tftypes.Value, error) {
	if dv == nil {
		return tftypes.NewValue(typ, nil), nil
	}
	return dv.Unmarshal(typ)
}

func decodeAll(typ tftypes.Type, a, b, c *tfprotov6.DynamicValue) (va, vb, vc tftypes.Value, err error) {
	if va, err = decodeValue(typ, a); err != nil {
		return
	}
	if vb, err = decodeValue(typ, b); err != nil {
		return
	}
	vc, err = decodeValue(typ, c)
	return
}

func encodeValue(typ tftypes.Type, v tftypes.Value) (*tfprotov6.DynamicValue, error) {
	dv, err := tfprotov6.NewDynamicValue(typ, v)
	if err != nil {
		return nil, err
	}
	return &dv, nil
}
