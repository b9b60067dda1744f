package provider_test

import (
	"context"
	"encoding/json"
	"fmt"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	fwprovider "github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tfprotov5"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	k8sschema "k8s.io/apimachinery/pkg/runtime/schema"
	k8stypes "k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"

	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// Stand-ins for the generic Kubernetes providers whose state `moved` blocks take over: each serves
// its resource with the schema of the real one, so that Terraform stores the state in exactly the
// shape it has for users (kubernetes_manifest of hashicorp/kubernetes with its dynamically typed
// manifest and object; kubectl_manifest of alekc/kubectl with flat attributes and YAML).

// fakeProvider serves resources under a provider type name, without configuration.
type fakeProvider struct {
	name      string
	resources []func() resource.Resource
}

func (p *fakeProvider) Metadata(_ context.Context, _ fwprovider.MetadataRequest, resp *fwprovider.MetadataResponse) {
	resp.TypeName = p.name
}

// Schema is empty: the tests never configure the stand-ins.
func (p *fakeProvider) Schema(context.Context, fwprovider.SchemaRequest, *fwprovider.SchemaResponse) {
}

func (p *fakeProvider) Configure(context.Context, fwprovider.ConfigureRequest, *fwprovider.ConfigureResponse) {
}

func (p *fakeProvider) Resources(context.Context) []func() resource.Resource { return p.resources }

func (p *fakeProvider) DataSources(context.Context) []func() datasource.DataSource { return nil }

// manifestProviderFactories serves the stand-ins as protocol 5 providers "kubernetes" and
// "kubectl"; kubectl writes the kubectl_manifest bodies.
func manifestProviderFactories(kubectl kubectlWriter) map[string]func() (tfprotov5.ProviderServer, error) {
	return map[string]func() (tfprotov5.ProviderServer, error){
		"kubernetes": providerserver.NewProtocol5WithError(&fakeProvider{name: "kubernetes", resources: []func() resource.Resource{
			func() resource.Resource { return &fakeKubernetesManifest{} },
		}}),
		"kubectl": providerserver.NewProtocol5WithError(&fakeProvider{name: "kubectl", resources: []func() resource.Resource{
			func() resource.Resource { return &fakeKubectlManifest{writer: kubectl} },
		}}),
	}
}

// fakeKubernetesManifest records a kubernetes_manifest of an object that exists as
// hashicorp/kubernetes v3 does: `object` is the manifest with the fields the API server fills in,
// of which metadata.uid stays null, and the resource identity names the object (api_version,
// kind, name, namespace).
type fakeKubernetesManifest struct{}

func (r *fakeKubernetesManifest) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_manifest"
}

func (r *fakeKubernetesManifest) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	optionalStrings := func(names ...string) map[string]schema.Attribute {
		m := map[string]schema.Attribute{}
		for _, n := range names {
			m[n] = schema.StringAttribute{Optional: true}
		}
		return m
	}
	resp.Schema = schema.Schema{
		Version: 1,
		Attributes: map[string]schema.Attribute{
			"manifest":        schema.DynamicAttribute{Required: true},
			"object":          schema.DynamicAttribute{Optional: true, Computed: true},
			"wait_for":        schema.ObjectAttribute{Optional: true, AttributeTypes: map[string]attr.Type{"fields": types.MapType{ElemType: types.StringType}}},
			"computed_fields": schema.ListAttribute{Optional: true, ElementType: types.StringType},
		},
		Blocks: map[string]schema.Block{
			"timeouts": schema.ListNestedBlock{NestedObject: schema.NestedBlockObject{Attributes: optionalStrings("create", "update", "delete")}},
			"field_manager": schema.ListNestedBlock{NestedObject: schema.NestedBlockObject{Attributes: map[string]schema.Attribute{
				"name": schema.StringAttribute{Optional: true}, "force_conflicts": schema.BoolAttribute{Optional: true},
			}}},
			"wait": schema.ListNestedBlock{NestedObject: schema.NestedBlockObject{
				Attributes: map[string]schema.Attribute{
					"rollout": schema.BoolAttribute{Optional: true},
					"fields":  schema.MapAttribute{Optional: true, ElementType: types.StringType},
				},
				Blocks: map[string]schema.Block{"condition": schema.ListNestedBlock{NestedObject: schema.NestedBlockObject{Attributes: optionalStrings("type", "status")}}},
			}},
		},
	}
}

func (r *fakeKubernetesManifest) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var manifest types.Dynamic
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("manifest"), &manifest)...)
	obj, ok := manifest.UnderlyingValue().(types.Object)
	if resp.Diagnostics.HasError() || !ok {
		resp.Diagnostics.AddError("manifest is not an object", fmt.Sprintf("%T", manifest.UnderlyingValue()))
		return
	}
	attrs := obj.Attributes()
	meta, _ := attrs["metadata"].(types.Object)
	withNullUID := func(o types.Object, key string, v attr.Value) types.Object {
		values, attrTypes := map[string]attr.Value{}, map[string]attr.Type{}
		for k, a := range o.Attributes() {
			values[k], attrTypes[k] = a, a.Type(ctx)
		}
		values[key], attrTypes[key] = v, v.Type(ctx)
		return types.ObjectValueMust(attrTypes, values)
	}
	object := withNullUID(obj, "metadata", withNullUID(meta, "uid", types.StringNull()))
	resp.State.Raw = req.Plan.Raw.Copy()
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("object"), types.DynamicValue(object))...)
	resp.Diagnostics.Append(setManifestIdentity(ctx, obj, resp.Identity)...)
}

// setManifestIdentity sets the identity of the manifest's object.
func setManifestIdentity(ctx context.Context, manifest types.Object, identity *tfsdk.ResourceIdentity) diag.Diagnostics {
	attrs := manifest.Attributes()
	meta, _ := attrs["metadata"].(types.Object)
	coordinates := map[string]attr.Value{"api_version": attrs["apiVersion"], "kind": attrs["kind"], "name": meta.Attributes()["name"], "namespace": meta.Attributes()["namespace"]}
	var diags diag.Diagnostics
	for attribute, value := range coordinates {
		s, _ := value.(types.String)
		diags.Append(identity.SetAttribute(ctx, path.Root(attribute), types.StringValue(s.ValueString()))...)
	}
	return diags
}

// IdentitySchema is the identity hashicorp/kubernetes v3 gives a kubernetes_manifest.
func (r *fakeKubernetesManifest) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{Attributes: map[string]identityschema.Attribute{
		"api_version": identityschema.StringAttribute{RequiredForImport: true},
		"kind":        identityschema.StringAttribute{RequiredForImport: true},
		"name":        identityschema.StringAttribute{RequiredForImport: true},
		"namespace":   identityschema.StringAttribute{OptionalForImport: true},
	}}
}

// Read keeps the state and gives the identity (which Terraform before 1.12 does not keep).
func (r *fakeKubernetesManifest) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var manifest types.Dynamic
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("manifest"), &manifest)...)
	if obj, ok := manifest.UnderlyingValue().(types.Object); ok && resp.Identity != nil {
		resp.Diagnostics.Append(setManifestIdentity(ctx, obj, resp.Identity)...)
	}
}

func (r *fakeKubernetesManifest) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.Diagnostics.AddError("Not supported", "the stand-in kubernetes_manifest only creates")
}

func (r *fakeKubernetesManifest) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {
}

// fakeKubectlManifest applies a kubectl_manifest's YAML (CloudProfile or NamespacedCloudProfile)
// as alekc/kubectl does, and records the attributes the real resource computes. With
// server_side_apply = true that is a server-side apply as field manager "kubectl"; with its default
// false, kubectl's client-side apply, which creates the object with the annotation
// kubectl.kubernetes.io/last-applied-configuration holding the applied object as JSON and a
// newline, as an Update entry of the manager the API server takes from the client's user agent
// ("HashiCorp", from Terraform's "HashiCorp/1.0 Terraform/…").
type fakeKubectlManifest struct {
	writer kubectlWriter
}

// kubectlWriter writes as the stand-in kubectl_manifest: apply for server-side apply (as field
// manager "kubectl"), create (a raw client) for client-side apply (as "HashiCorp").
type kubectlWriter struct {
	apply  *kube.Client
	create dynamic.Interface
}

// clientSideManager is the field manager of kubectl_manifest's client-side apply.
const clientSideManager = "HashiCorp"

// lastAppliedAnnotation is where kubectl's client-side apply records what it applied.
const lastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"

// createClientSide creates the object of a YAML body as kubectl's client-side apply does.
func (w kubectlWriter) createClientSide(ctx context.Context, body string) (*unstructured.Unstructured, error) {
	object := &unstructured.Unstructured{}
	if err := yaml.Unmarshal([]byte(body), &object.Object); err != nil {
		return nil, err
	}
	return createUnstructured(ctx, w.create, object, clientSideManager, true)
}

// createUnstructured creates a cloud profile of either kind with a raw client as the field manager
// (an Update entry, as a plain create or kubectl's client-side apply leaves), with kubectl's
// last-applied annotation (the object as JSON and a newline) when lastApplied.
func createUnstructured(ctx context.Context, client dynamic.Interface, object *unstructured.Unstructured, manager string, lastApplied bool) (*unstructured.Unstructured, error) {
	if lastApplied {
		applied, err := json.Marshal(object.Object)
		if err != nil {
			return nil, err
		}
		annotations := object.GetAnnotations()
		if annotations == nil {
			annotations = map[string]string{}
		}
		annotations[lastAppliedAnnotation] = string(applied) + "\n"
		object.SetAnnotations(annotations)
	}
	resources := map[string]string{"CloudProfile": "cloudprofiles", "NamespacedCloudProfile": "namespacedcloudprofiles"}
	gvr := k8sschema.GroupVersionResource{Group: "core.gardener.cloud", Version: "v1beta1", Resource: resources[object.GetKind()]}
	return client.Resource(gvr).Namespace(object.GetNamespace()).Create(ctx, object, metav1.CreateOptions{FieldManager: manager})
}

func (r *fakeKubectlManifest) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_manifest"
}

func (r *fakeKubectlManifest) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	computed := schema.StringAttribute{Computed: true}
	computedSensitive := schema.StringAttribute{Computed: true, Sensitive: true}
	optionalBool := func(def bool) schema.BoolAttribute {
		return schema.BoolAttribute{Optional: true, Computed: true, Default: booldefault.StaticBool(def)}
	}
	resp.Schema = schema.Schema{
		Version: 1,
		Attributes: map[string]schema.Attribute{
			"id": computed, "uid": computed, "live_uid": computed,
			"yaml_incluster": computedSensitive, "live_manifest_incluster": computedSensitive,
			"api_version": computed, "kind": computed, "name": computed, "namespace": computed,
			"override_namespace": schema.StringAttribute{Optional: true},
			"yaml_body":          schema.StringAttribute{Required: true, Sensitive: true},
			"yaml_body_parsed":   computed,
			"sensitive_fields":   schema.ListAttribute{Optional: true, ElementType: types.StringType},
			"force_new":          optionalBool(false),
			"server_side_apply":  optionalBool(false),
			"field_manager":      schema.StringAttribute{Optional: true, Computed: true, Default: stringdefault.StaticString("kubectl")},
			"force_conflicts":    optionalBool(false),
			"apply_only":         optionalBool(false),
			"ignore_fields":      schema.ListAttribute{Optional: true, ElementType: types.StringType},
			"wait":               schema.BoolAttribute{Optional: true},
			"wait_for_rollout":   optionalBool(true),
			"validate_schema":    optionalBool(true),
		},
		Blocks: map[string]schema.Block{
			"wait_for": schema.ListNestedBlock{NestedObject: schema.NestedBlockObject{Blocks: map[string]schema.Block{
				"field": schema.ListNestedBlock{NestedObject: schema.NestedBlockObject{Attributes: map[string]schema.Attribute{
					"key": schema.StringAttribute{Required: true}, "value": schema.StringAttribute{Required: true},
				}}},
			}}},
		},
	}
}

func (r *fakeKubectlManifest) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var body types.String
	var serverSide types.Bool
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("yaml_body"), &body)...)
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("server_side_apply"), &serverSide)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var head struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if err := yaml.Unmarshal([]byte(body.ValueString()), &head); err != nil {
		resp.Diagnostics.AddError("yaml_body", err.Error())
		return
	}
	var stored interface {
		GetName() string
		GetNamespace() string
		GetUID() k8stypes.UID
	}
	var err error
	switch {
	case !serverSide.ValueBool():
		stored, err = r.writer.createClientSide(ctx, body.ValueString())
	case head.Kind == "CloudProfile":
		var cp gardencorev1beta1.CloudProfile
		if err = yaml.Unmarshal([]byte(body.ValueString()), &cp); err == nil {
			stored, err = r.writer.apply.ApplyCloudProfile(ctx, &cp, kube.ApplyOptions{})
		}
	case head.Kind == "NamespacedCloudProfile":
		var ncp gardencorev1beta1.NamespacedCloudProfile
		if err = yaml.Unmarshal([]byte(body.ValueString()), &ncp); err == nil {
			stored, err = r.writer.apply.ApplyNamespacedCloudProfile(ctx, &ncp, kube.ApplyOptions{})
		}
	default:
		err = fmt.Errorf("the stand-in kubectl_manifest applies only Gardener cloud profiles, not %s", head.Kind)
	}
	if err != nil {
		resp.Diagnostics.AddError("Applying yaml_body", err.Error())
		return
	}
	uid := string(stored.GetUID())
	resp.State.Raw = req.Plan.Raw.Copy()
	for name, value := range map[string]string{
		"id": "/apis/" + head.APIVersion + "/" + stored.GetName(), "uid": uid, "live_uid": uid,
		"yaml_incluster": "fingerprint", "live_manifest_incluster": "fingerprint",
		"api_version": head.APIVersion, "kind": head.Kind, "name": stored.GetName(), "namespace": stored.GetNamespace(),
		"yaml_body_parsed": body.ValueString(),
	} {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(name), types.StringValue(value))...)
	}
}

func (r *fakeKubectlManifest) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

func (r *fakeKubectlManifest) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.Diagnostics.AddError("Not supported", "the stand-in kubectl_manifest only creates")
}

func (r *fakeKubectlManifest) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {
}
