package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// NewProtocol6Server serves the provider over Terraform's plugin protocol 6: the framework's
// server, with the profile specs kept out of the framework (largeValueServer).
func NewProtocol6Server(newProvider func() fwprovider.Provider) func() (tfprotov6.ProviderServer, error) {
	return func() (tfprotov6.ProviderServer, error) {
		framework, err := providerserver.NewProtocol6WithError(newProvider())()
		if err != nil {
			return nil, err
		}
		return newLargeValueServer(context.Background(), framework), nil
	}
}

// largeValueServer passes every request to the framework's server, except that for the resources
// and data sources with large attributes it takes those attributes out of the request first
// (leaving a stand-in of the same type), hands them to the provider's code through the context
// (largeInput, setStateWithValues), plans them itself, and puts them back into the response.
type largeValueServer struct {
	tfprotov6.ProviderServer
	resources   map[string]largeSchema
	dataSources map[string]largeSchema
}

// largeSchema is what the server needs of a resource or data source type with large attributes.
type largeSchema struct {
	typ   tftypes.Type
	paths []largePath
	// attributes are the schema attributes at the paths, by key (resources only).
	attributes map[string]rschema.Attribute
}

// largeResourcePaths and largeDataSourcePaths name the large attributes, by type name without the
// provider's prefix.
var (
	largeResourcePaths = map[string][]largePath{
		"cloud_profile":            {{"spec"}, {"status"}},
		"namespaced_cloud_profile": {{"spec"}, {"status", "cloud_profile_spec"}},
	}
	largeDataSourcePaths = map[string][]largePath{
		"cloud_profile":            {{"spec"}, {"kubernetes_versions"}, {"machine_images"}, {"regions"}, {"conditions"}},
		"namespaced_cloud_profile": {{"merged_spec"}, {"status", "cloud_profile_spec"}, {"kubernetes_versions"}, {"machine_images"}, {"regions"}, {"conditions"}},
	}
)

func newLargeValueServer(ctx context.Context, framework tfprotov6.ProviderServer) *largeValueServer {
	s := &largeValueServer{ProviderServer: framework, resources: map[string]largeSchema{}, dataSources: map[string]largeSchema{}}
	for _, newResource := range []func() resource.Resource{newCloudProfileResource, newNamespacedCloudProfileResource} {
		name, ls := resourceLargeSchema(ctx, newResource())
		s.resources[name] = ls
	}
	for _, newDataSource := range []func() datasource.DataSource{newCloudProfileDataSource, newNamespacedCloudProfileDataSource} {
		name, ls := dataSourceLargeSchema(ctx, newDataSource())
		s.dataSources[name] = ls
	}
	return s
}

func resourceLargeSchema(ctx context.Context, r resource.Resource) (string, largeSchema) {
	var meta resource.MetadataResponse
	r.Metadata(ctx, resource.MetadataRequest{ProviderTypeName: TypeName}, &meta)
	var sch resource.SchemaResponse
	r.Schema(ctx, resource.SchemaRequest{}, &sch)
	ls := largeSchema{typ: sch.Schema.Type().TerraformType(ctx), attributes: map[string]rschema.Attribute{}}
	ls.paths = largeResourcePaths[strings.TrimPrefix(meta.TypeName, TypeName+"_")]
	for _, p := range ls.paths {
		ls.attributes[p.key()] = resourceAttributeAt(sch.Schema.Attributes, p)
	}
	return meta.TypeName, ls
}

func dataSourceLargeSchema(ctx context.Context, d datasource.DataSource) (string, largeSchema) {
	var meta datasource.MetadataResponse
	d.Metadata(ctx, datasource.MetadataRequest{ProviderTypeName: TypeName}, &meta)
	var sch datasource.SchemaResponse
	d.Schema(ctx, datasource.SchemaRequest{}, &sch)
	paths := largeDataSourcePaths[strings.TrimPrefix(meta.TypeName, TypeName+"_")]
	return meta.TypeName, largeSchema{typ: sch.Schema.Type().TerraformType(ctx), paths: paths}
}

// resourceAttributeAt is the schema attribute at the path; nil when there is none.
func resourceAttributeAt(attrs map[string]rschema.Attribute, p largePath) rschema.Attribute {
	var a rschema.Attribute
	for _, name := range p {
		a = attrs[name]
		attrs = nestedAttributes(a)
	}
	return a
}

// PlanResourceChange plans the large attributes as the framework would plan them
// (markComputedNullsUnknown) and everything else with the framework.
func (s *largeValueServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	ls, ok := s.resources[req.TypeName]
	if !ok {
		return s.ProviderServer.PlanResourceChange(ctx, req)
	}
	config, prior, proposed, err := decodeAll(ls.typ, req.Config, req.PriorState, req.ProposedNewState)
	if err != nil {
		return s.ProviderServer.PlanResourceChange(ctx, req)
	}
	lv := newLargeValues(ls.paths)
	defer lv.release()
	reduced := *req
	var reducedPrior tftypes.Value
	var encodeErr error
	reduced.Config, _, encodeErr = lv.reduce(ls, roleConfig, config, nil)
	if encodeErr == nil {
		reduced.PriorState, reducedPrior, encodeErr = lv.reduce(ls, rolePrior, prior, nil)
	}
	if encodeErr == nil {
		reduced.ProposedNewState, _, encodeErr = lv.reduce(ls, rolePlanned, proposed, lv.in[rolePrior])
	}
	if encodeErr != nil {
		return s.ProviderServer.PlanResourceChange(ctx, req)
	}
	resp, err := s.ProviderServer.PlanResourceChange(withLargeValues(ctx, lv), &reduced)
	if err != nil || resp == nil || resp.PlannedState == nil {
		return resp, err
	}
	planned, err := resp.PlannedState.Unmarshal(ls.typ)
	if err != nil || planned.IsNull() {
		return resp, err
	}
	// The framework marks unknowns only in a plan that changes the resource; the stand-in of a
	// changed large value differs from the prior one, so its decision covers them too.
	changing := !sameValue(planned, reducedPrior)
	for _, p := range ls.paths {
		value, ok := lv.in[rolePlanned][p.key()]
		if !ok && changing && lv.planners[p.key()] != nil {
			// A value the request did not have (a status the provider's code planned anew).
			value, ok = valueAt(planned, p)
		}
		if !ok {
			continue
		}
		if changing {
			value, _ = markComputedNullsUnknown(ls.attributes[p.key()], value, deepestValueAt(config, p))
			if p.key() == specLargePath.key() {
				value, _ = keepUnchangedSpecEntries(ls.attributes[p.key()], value, deepestValueAt(config, p), lv.in[rolePrior][p.key()])
			}
			if planner := lv.planners[p.key()]; planner != nil {
				value = planner(ls.attributes[p.key()], value)
			}
		}
		if planned, err = withValueAt(planned, p, value); err != nil {
			return resp, err
		}
	}
	resp.PlannedState, err = encodeValue(ls.typ, planned)
	return resp, err
}

// ReadResource reads with the framework; the large attributes the provider's code read come back
// as written, except where they only write the prior state differently.
func (s *largeValueServer) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	ls, ok := s.resources[req.TypeName]
	if !ok {
		return s.ProviderServer.ReadResource(ctx, req)
	}
	lv := newLargeValues(ls.paths)
	defer lv.release()
	reduced := *req
	if err := lv.reduceEach(ls, []requestPart{{&reduced.CurrentState, rolePrior}}, rolePrior); err != nil {
		return s.ProviderServer.ReadResource(ctx, req)
	}
	resp, err := s.ProviderServer.ReadResource(withLargeValues(ctx, lv), &reduced)
	if err != nil || resp == nil {
		return resp, err
	}
	resp.NewState, err = lv.restore(ctx, ls, resp.NewState, rolePrior)
	return resp, err
}

// ApplyResourceChange applies with the framework; as for ReadResource, with the planned state as
// the baseline of semantic equality. A write that failed before the provider's code recorded an
// object answers with the prior state (none for a create).
func (s *largeValueServer) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	ls, ok := s.resources[req.TypeName]
	if !ok {
		return s.ProviderServer.ApplyResourceChange(ctx, req)
	}
	lv := newLargeValues(ls.paths)
	defer lv.release()
	reduced := *req
	// Create and Update read only the plan: the configuration and the prior state are not kept.
	parts := []requestPart{{&reduced.Config, roleConfig}, {&reduced.PriorState, rolePrior}, {&reduced.PlannedState, rolePlanned}}
	if err := lv.reduceEach(ls, parts, rolePlanned); err != nil {
		return s.ProviderServer.ApplyResourceChange(ctx, req)
	}
	resp, err := s.ProviderServer.ApplyResourceChange(withLargeValues(ctx, lv), &reduced)
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
	resp.NewState, err = lv.restore(ctx, ls, resp.NewState, rolePlanned)
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
func (s *largeValueServer) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	ls, ok := s.dataSources[req.TypeName]
	if !ok {
		return s.ProviderServer.ReadDataSource(ctx, req)
	}
	lv := newLargeValues(ls.paths)
	defer lv.release()
	resp, err := s.ProviderServer.ReadDataSource(withLargeValues(ctx, lv), req)
	if err != nil || resp == nil || resp.State == nil || len(lv.out) == 0 {
		return resp, err
	}
	state, err := resp.State.Unmarshal(ls.typ)
	if err != nil {
		return resp, err
	}
	for _, p := range ls.paths {
		if v, ok := lv.out[p.key()]; ok {
			if state, err = withValueAt(state, p, v); err != nil {
				return resp, err
			}
		}
	}
	resp.State, err = encodeValue(ls.typ, state)
	return resp, err
}

// requestPart is one value of a request, replaced in place by its reduced form.
type requestPart struct {
	value **tfprotov6.DynamicValue
	role  requestRole
}

// reduceEach reduces the parts one at a time, keeping the large values of the role keep only, so
// that no more than one whole value of the request is decoded at once.
func (lv *largeValues) reduceEach(ls largeSchema, parts []requestPart, keep requestRole) error {
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

// reduce records the large values of one value of the request and returns it, encoded and
// decoded, with stand-ins in their place. With baseline, a large value that differs from the
// baseline's gets the stand-in of a change.
func (lv *largeValues) reduce(ls largeSchema, role requestRole, v tftypes.Value, baseline map[string]tftypes.Value) (*tfprotov6.DynamicValue, tftypes.Value, error) {
	for _, p := range ls.paths {
		real, ok := valueAt(v, p)
		if !ok {
			continue
		}
		lv.in[role][p.key()] = real
		before, hadBefore := baseline[p.key()]
		changed := baseline != nil && (!hadBefore || !sameValue(before, real))
		var err error
		if v, err = withValueAt(v, p, standIn(real, changed)); err != nil {
			return nil, v, err
		}
	}
	dv, err := encodeValue(ls.typ, v)
	return dv, v, err
}

// restore puts the large values into a response state: what the provider's code wrote (keeping
// the request's value where it is semantically equal), or, where the state still holds a
// stand-in (the code wrote nothing, e.g. after an error), the request's value.
func (lv *largeValues) restore(ctx context.Context, ls largeSchema, dv *tfprotov6.DynamicValue, baseline requestRole) (*tfprotov6.DynamicValue, error) {
	if dv == nil {
		return dv, nil
	}
	state, err := dv.Unmarshal(ls.typ)
	if err != nil || state.IsNull() {
		return dv, err
	}
	for _, p := range ls.paths {
		before, hadBefore := lv.in[baseline][p.key()]
		value, written := lv.out[p.key()]
		switch {
		case written && hadBefore:
			value, _ = keepSemanticallyEqual(ctx, ls.attributes[p.key()], before, value)
		case !written:
			current, reachable := valueAt(state, p)
			if !hadBefore || !reachable || !current.IsKnown() || current.IsNull() {
				continue
			}
			value = before
		}
		if state, err = withValueAt(state, p, value); err != nil {
			return dv, err
		}
	}
	return encodeValue(ls.typ, state)
}

// deepestValueAt is the value at the path or, where the path ends early (a null or unknown
// parent), the last value on the way: what the framework compares a planned value with.
func deepestValueAt(v tftypes.Value, p largePath) tftypes.Value {
	for i := range p {
		next, ok := valueAt(v, p[i:i+1])
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
