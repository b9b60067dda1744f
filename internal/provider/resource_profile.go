package provider

import (
	"context"
	"errors"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	k8stypes "k8s.io/apimachinery/pkg/types"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
	"github.com/gardener-community/terraform-provider-gardener/internal/provider/largevalue"
)

// The two profile resources do most things alike: profileResourceOf does those once, for a kind
// of profile (profileKind) that does the rest its own way: its schema, its plan logic, how it
// names, reaches and records its objects.

// profileObject is one object of a kind in the Garden: how diagnostics name it, its identity (from
// the kind's traits), and the requests that reach it.
type profileObject[O metav1.Object] struct {
	ref      objectRef
	identity any
	get      func(context.Context) (O, error)
	delete   func(context.Context, k8stypes.UID) error
	// users lists the objects that keep Gardener from releasing it (rules ).
	users func(context.Context) (cloudprofile.Users, error)
	// rule is the rule id of Gardener's finalizer condition for this kind.
	rule     string
	requests profileRequests[O]
}

// profilePlan is what the ModifyPlan of both kinds starts from: the configured object (the zero O
// unless known) with its spec and the paths of its unknown values, the rules' options, whether
// the plan creates or changes the resource, and the request's large values.
type profilePlan[O any] struct {
	configured O
	known      bool
	spec       tftypes.Value
	unknown    []path.Path
	opts       cloudprofile.Options
	changing   bool
	// large are the request's large values, of the resource's attributes largeAttributes.
	large           largevalue.Values
	largeAttributes []largevalue.Path
	// configure builds the kind's object of a state's or plan's metadata and spec.
	configure func(context.Context, types.Object, tftypes.Value) (O, []path.Path, diag.Diagnostics)
}

// kindMethods are the methods a profile resource takes from its kind as they are.
type kindMethods interface {
	Configure(context.Context, resource.ConfigureRequest, *resource.ConfigureResponse)
	IdentitySchema(context.Context, resource.IdentitySchemaRequest, *resource.IdentitySchemaResponse)
	ImportState(context.Context, resource.ImportStateRequest, *resource.ImportStateResponse)
}

// profileObjectType is the type of a kind's objects: a *CloudProfile or a *NamespacedCloudProfile.
type profileObjectType interface {
	runtime.Object
	metav1.Object
}

// profileKind is a kind of profile resource, with its model M, objects O and their spec S: what
// it does its own way.
type profileKind[M profileModel, O profileObjectType, S any] interface {
	kindMethods
	// base is what both kinds hold.
	base() *profileResource
	// validated checks a configured object offline as Gardener checks a create of it, and returns it
	// as checked (as the extension's mutating webhook leaves it), with its provider_config.
	validated(o O, opts cloudprofile.Options) (O, *runtime.RawExtension, cloudprofile.Problems)
	// stored is a checked object as Gardener stores it on create, with as much of the status its
	// controller writes as is known offline.
	stored(checked O, opts cloudprofile.Options) runtime.Object
	// namesOf are the namespace (empty for a cluster-scoped kind) and name of a state's object.
	namesOf(m profileResourceModel) (namespace, name string, diags diag.Diagnostics)
	// object is the object of the namespace and name, reached through client.
	object(client *kube.Client, namespace, name string) profileObject[O]
	// writeRejected is a diagnostic of the kind's own for an error of a write of desired, if any.
	writeRejected(desired O, err error) (diag.Diagnostic, bool)
	// ownState is base, with common, as the state records obj: the kind's own attributes, and
	// its own large values. plannedStatus is the plan's status (null on a read).
	ownState(ctx context.Context, base M, common profileResourceModel, obj O, client *kube.Client, plannedStatus tftypes.Value) (M, []largevalue.ValueAtPath, diag.Diagnostics)
	// modifyPlan adds the kind's plan to a plan of a create, update or replacement.
	modifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, plan profilePlan[O])
}

// servedResource is what the framework and largevalue's Server use of a profile resource.
type servedResource interface {
	resource.ResourceWithConfigure
	resource.ResourceWithIdentity
	resource.ResourceWithImportState
	resource.ResourceWithUpgradeState
	resource.ResourceWithMoveState
	resource.ResourceWithValidateConfig
	resource.ResourceWithModifyPlan
}

// profileResourceOf is the resource of a kind of profile.
type profileResourceOf[K profileKind[M, O, S], M profileModel, O profileObjectType, S any] struct {
	kindMethods
	kind   K
	traits kindTraits[O, S]
	// large are the large values of the request the resource serves (WithLargeValues).
	large largevalue.Values
}

// newProfileResource is the resource of the kind with its traits.
func newProfileResource[K profileKind[M, O, S], M profileModel, O profileObjectType, S any](kind K, traits kindTraits[O, S]) *profileResourceOf[K, M, O, S] {
	return &profileResourceOf[K, M, O, S]{kindMethods: kind, kind: kind, traits: traits}
}

// Metadata names the resource.
func (r *profileResourceOf[K, M, O, S]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + r.traits.typeName
}

// Schema describes the resource.
func (r *profileResourceOf[K, M, O, S]) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = r.traits.resourceSchema(ctx)
}

// LargeAttributes are the attributes largevalue's Server keeps from the framework.
func (r *profileResourceOf[K, M, O, S]) LargeAttributes() []largevalue.Path {
	return r.traits.largeAttributes()
}

// WithLargeValues is the resource serving a request of largevalue's Server with its large values.
func (r *profileResourceOf[K, M, O, S]) WithLargeValues(v largevalue.Values) resource.Resource {
	bound := *r
	bound.large = v
	return &bound
}

// ValidateConfig checks the timeouts, the keys of provider_config, the size of the object, and
// the configuration against Gardener's validation of a create (the kind's validated), offline.
// Parts that are unknown until apply are left out of the check.
func (r *profileResourceOf[K, M, O, S]) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	configured, spec, unknown, ok := configuredForValidation(ctx, req, r.large, r.traits.root, r.traits.configured, &resp.Diagnostics)
	if !ok {
		return
	}
	base := r.kind.base()
	opts := validationOptions(ctx, base.data, base.validated, &resp.Diagnostics)
	checked, providerConfig, problems := r.kind.validated(configured, opts)
	resp.Diagnostics.Append(objectSizeDiagnostics(r.traits.kind, checked, r.kind.stored(checked, opts), providerConfig)...)
	resp.Diagnostics.Append(problemDiagnostics(knownOnly(problems, unknown, spec), spec)...)
}

// Create creates the object; it fails when one of the name exists, unless adopt_existing.
func (r *profileResourceOf[K, M, O, S]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	createProfile(ctx, r, req, resp)
}

// Update applies the changed object to the object of the UID in state.
func (r *profileResourceOf[K, M, O, S]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	updateProfile(ctx, r, req, resp)
}

// apply writes the planned object (see writeMode), its keyed lists in the order the Garden holds
// them (as private records it, see spec_order.go), and records what was stored, also when a failed
// create leaves its object in the Garden (kube.ErrCreatedObjectKept); force_conflicts is the
// configuration's (an argument only writes read).
func (r *profileResourceOf[K, M, O, S]) apply(ctx context.Context, planned tfsdk.Plan, config tfsdk.Config, mode writeMode, state largevalue.StateSetter, identity *tfsdk.ResourceIdentity, private privateState, diags *diag.Diagnostics) {
	var plan M
	diags.Append(largevalue.Get(ctx, planned.Schema, planned.Raw, r.LargeAttributes(), &plan)...)
	// Values still unknown at apply are Computed ones left to Gardener (its defaults); expand
	// leaves them out, which is what applying them means.
	spec := r.large.Planned(planned, specLargePath)
	desired, _, d := r.traits.configured(ctx, plan.common().Metadata, spec)
	diags.Append(d...)
	desired, sentOrders := r.traits.inGardenOrder(ctx, desired, private, diags)
	client, ok := clientAfter(r.kind.base().data, diags)
	if !ok {
		return
	}
	object := r.kind.object(client, desired.GetNamespace(), desired.GetName())
	if !retireEntries(ctx, client, private, diags) {
		return
	}
	var force types.Bool
	diags.Append(config.GetAttribute(ctx, path.Root("force_conflicts"), &force)...)
	stored, err := object.requests.send(ctx, object.ref, desired, mode, force.ValueBool(), plan.common().AdoptExisting.ValueBool(), diags)
	if err != nil {
		if d, rejected := r.kind.writeRejected(desired, err); rejected {
			diags.Append(d)
			return
		}
		existing := func(ctx context.Context) (metav1.Object, error) { return object.get(ctx) }
		diags.Append(writeFailure(ctx, object.ref, mode, "Applying "+object.ref.kind+" "+object.ref.importID, err, spec, sentOrders, existing)...)
		if !errors.Is(err, kube.ErrCreatedObjectKept) {
			return
		}
	}
	diags.Append(clearOwnershipRecords(ctx, private)...)
	desiredSpec := r.traits.of(desired)
	diags.Append(recordKeyOrders(ctx, private, r.traits.root, r.traits.of(stored))...)
	diags.Append(r.record(ctx, state, plan, stored, &desiredSpec, client.FieldManager(), client, r.large.Planned(planned, statusSpecLargePath))...)
	diags.Append(setIdentity(ctx, identity, r.traits.identity(stored.GetNamespace(), stored.GetName()))...)
}

// Read refreshes the state from the cluster; an object deleted out of band leaves the state.
func (r *profileResourceOf[K, M, O, S]) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, client, object, ok := r.stateObject(ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	read, err := object.get(ctx)
	if readEnds(ctx, resp, object.ref, object.identity, uidOf(state.common().Metadata), read, err) {
		return
	}
	resp.Diagnostics.Append(recordTermination(ctx, resp.Private, object.ref, read.GetDeletionTimestamp(), object.rule)...)
	resp.Diagnostics.Append(recordOwnershipOnRead(ctx, resp.Private, read, client.FieldManager())...)
	prior := priorSpec(req.State, r.large, r.traits.expand, &resp.Diagnostics)
	resp.Diagnostics.Append(recordKeyOrders(ctx, resp.Private, r.traits.root, r.traits.of(read))...)
	resp.Diagnostics.Append(r.record(ctx, &resp.State, state, read, prior, client.FieldManager(), client, tftypes.NewValue(cloudProfileSpecRoot.tfType, nil))...)
	resp.Diagnostics.Append(setIdentity(ctx, resp.Identity, object.identity)...)
}

// record writes the state of obj as the provider sees it: what its field manager owns, with the
// versions Gardener dropped from desired (the spec a write desired or the state held; nil: none)
// put back, and the kind's own (see ownState), which may read through client. base is the model
// of the plan or state.
func (r *profileResourceOf[K, M, O, S]) record(ctx context.Context, state largevalue.StateSetter, base M, obj O, desired *S, manager string, client *kube.Client, plannedStatus tftypes.Value) diag.Diagnostics {
	var diags diag.Diagnostics
	owned := obj
	if r.traits.owned != nil {
		owned = r.traits.owned(obj)
	}
	view, ok := ownedViewOf(owned, manager, desired, &diags)
	if !ok {
		return diags
	}
	spec := r.traits.of(view)
	if desired != nil {
		spec = r.traits.dropped(spec, *desired, r.kind.base().data.now())
	}
	common, d := base.common().recorded(ctx, importID(obj.GetNamespace(), obj.GetName()), view, owned)
	diags.Append(d...)
	specValue, d := flattenSpecTerraform(r.traits.root, spec)
	diags.Append(d...)
	out, large, d := r.kind.ownState(ctx, base, common, obj, client, plannedStatus)
	diags.Append(d...)
	if diags.HasError() {
		return diags
	}
	large = append(large, largevalue.ValueAtPath{Path: specLargePath, Value: specValue})
	return append(diags, r.large.SetState(ctx, state, r.LargeAttributes(), &out, large...)...)
}

// stateObject reads the model of a state and the object it names, reached through the provider's
// client; false where either cannot be read (diags say why).
func (r *profileResourceOf[K, M, O, S]) stateObject(ctx context.Context, state tfsdk.State, diags *diag.Diagnostics) (M, *kube.Client, profileObject[O], bool) {
	var m M
	diags.Append(largevalue.Get(ctx, state.Schema, state.Raw, r.LargeAttributes(), &m)...)
	client, ok := clientAfter(r.kind.base().data, diags)
	if !ok {
		return m, nil, profileObject[O]{}, false
	}
	object, ok := r.objectOf(client, m.common(), diags)
	return m, client, object, ok
}

// objectOf is the object a state's model names; false when it names none.
func (r *profileResourceOf[K, M, O, S]) objectOf(client *kube.Client, m profileResourceModel, diags *diag.Diagnostics) (profileObject[O], bool) {
	namespace, name, d := r.kind.namesOf(m)
	diags.Append(d...)
	if d.HasError() {
		return profileObject[O]{}, false
	}
	object := r.kind.object(client, namespace, name)
	object.identity = r.traits.identity(namespace, name)
	return object, true
}

// Delete deletes the object and waits until Gardener has released it (profileDeletion).
func (r *profileResourceOf[K, M, O, S]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, _, object, ok := r.stateObject(ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	timeout, d := state.common().Timeouts.Delete(ctx, defaultDeleteTimeout)
	resp.Diagnostics.Append(d...)
	if d.HasError() {
		return
	}
	uid := uidOf(state.common().Metadata)
	deletion := profileDeletion{
		ref:    object.ref,
		delete: func(ctx context.Context) error { return object.delete(ctx, uid) },
		get:    lookupOf(object.ref, object.get, uid),
		users:  object.users,
		rule:   object.rule,
	}
	resp.Diagnostics.Append(deletion.run(ctx, timeout)...)
}

// ModifyPlan plans what both kinds plan alike (the replacement of an object Gardener is deleting,
// the resource version of an update) and hands the plan of a create, update or replacement to the
// kind, with the configured object.
func (r *profileResourceOf[K, M, O, S]) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	planConfiguredEmptyMaps(req, resp) // before the replacement's unknown uid, which it would take back
	planReplacementOfTerminating(ctx, req, resp)
	resp.Diagnostics.Append(resp.Private.SetKey(ctx, setBackKey, nil)...) // the server check records this plan's
	resp.Diagnostics.Append(planResourceVersionOfUpdate(ctx, req, resp)...)
	data := r.kind.base().data
	plan := profilePlan[O]{
		opts: data.options(ctx, data.now(), &resp.Diagnostics), changing: largevalue.Changing(req.Plan, req.State),
		large: r.large, largeAttributes: r.LargeAttributes(), configure: r.traits.configured,
	}
	plan.configured, plan.spec, plan.unknown, plan.known = configuredForPlan[M](ctx, req, r.large, plan.largeAttributes, plan.configure, &resp.Diagnostics)
	r.kind.modifyPlan(ctx, req, resp, plan)
}
