package provider

import (
	"context"
	"fmt"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	listschema "github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

var (
	_ list.ListResourceWithConfigure = (*cloudProfileListResource)(nil)
	_ list.ListResourceWithConfigure = (*namespacedCloudProfileListResource)(nil)
)

// listPageSize is how many objects one list request asks the Garden for.
const listPageSize = 100

// ListResources lists the provider's list resources, for `terraform query` (Terraform 1.14+).
func (p *gardenerProvider) ListResources(context.Context) []func() list.ListResource {
	return []func() list.ListResource{
		func() list.ListResource { return &cloudProfileListResource{} },
		func() list.ListResource { return &namespacedCloudProfileListResource{} },
	}
}

// cloudProfileListResource lists CloudProfiles.
type cloudProfileListResource struct{ data *providerData }

// namespacedCloudProfileListResource lists NamespacedCloudProfiles.
type namespacedCloudProfileListResource struct{ data *providerData }

// Metadata names the list resource after the resource it lists.
func (r *cloudProfileListResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_cloud_profile"
}

// Metadata names the list resource after the resource it lists.
func (r *namespacedCloudProfileListResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_namespaced_cloud_profile"
}

// listLimitNote is said on both list resources: Terraform's default limit cuts lists silently.
const listLimitNote = "Set the `list` block's `limit` above the number of profiles you expect: without it Terraform " +
	"returns at most 100 and does not say that there are more. See [Onboarding an existing landscape](../guides/onboarding.md)."

func labelSelectorAttribute(kind string) listschema.StringAttribute {
	return listschema.StringAttribute{
		Optional: true,
		MarkdownDescription: "Kubernetes label selector (as in `kubectl get -l`, e.g. `team=a,tier!=test`) the " + kind +
			"s must match; all of them when left out.",
	}
}

// ListResourceConfigSchema describes the arguments of a `list "gardener_cloud_profile"` block.
func (r *cloudProfileListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Lists the CloudProfiles of the Garden for `terraform query` (Terraform 1.14+), by name, with their " +
			"identities and, with `include_resource = true`, their state as an import would read it. " + listLimitNote,
		Attributes: map[string]listschema.Attribute{"label_selector": labelSelectorAttribute("CloudProfile")},
	}
}

// ListResourceConfigSchema describes the arguments of a `list "gardener_namespaced_cloud_profile"`
// block.
func (r *namespacedCloudProfileListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = listschema.Schema{
		MarkdownDescription: "Lists NamespacedCloudProfiles for `terraform query` (Terraform 1.14+), as `namespace/name`, with their " +
			"identities and, with `include_resource = true`, their state as an import would read it. " + listLimitNote,
		Attributes: map[string]listschema.Attribute{
			"namespace": listschema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Project namespace to list (e.g. `garden-myproject`); all namespaces when left out.",
			},
			"label_selector": labelSelectorAttribute("NamespacedCloudProfile"),
		},
	}
}

// Configure receives the provider's data.
func (r *cloudProfileListResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = listProviderData(req, resp)
}

// Configure receives the provider's data.
func (r *namespacedCloudProfileListResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = listProviderData(req, resp)
}

func listProviderData(req resource.ConfigureRequest, resp *resource.ConfigureResponse) *providerData {
	data, ok := req.ProviderData.(*providerData)
	if !ok && req.ProviderData != nil {
		resp.Diagnostics.AddError("Unexpected provider data", fmt.Sprintf("expected *providerData, got %T; this is a bug in the provider", req.ProviderData))
	}
	return data
}

// labelSelector checks a configured label selector; the diagnostic is on label_selector.
func labelSelector(v types.String) (string, diag.Diagnostics) {
	var diags diag.Diagnostics
	s := v.ValueString()
	if _, err := labels.Parse(s); err != nil {
		diags.AddAttributeError(path.Root("label_selector"), "Invalid label selector", fmt.Sprintf("%q is not a Kubernetes label selector: %v.", s, err))
	}
	return s, diags
}

// List streams the CloudProfiles matching the label selector, a page at a time.
func (r *cloudProfileListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	selector, client, diags := listInputs(ctx, req.Config, r.data)
	listed := newProfileResource(&cloudProfileResource{profileResource{data: r.data}}, cloudProfileTraits())
	streamPages(ctx, req, stream, diags, "CloudProfiles", func(page kube.ListPage) ([]gardencorev1beta1.CloudProfile, string, error) {
		return client.CloudProfilesPage(ctx, withSelector(page, selector))
	}, func(cp *gardencorev1beta1.CloudProfile) list.ListResult {
		return listResult(ctx, req, listed, client, cp, storedCloudProfileSpec(r.data.options(ctx, r.data.now(), nil)))
	})
}

// List streams the NamespacedCloudProfiles of the namespace matching the label selector.
func (r *namespacedCloudProfileListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	selector, client, diags := listInputs(ctx, req.Config, r.data)
	var namespace types.String
	diags.Append(req.Config.GetAttribute(ctx, path.Root("namespace"), &namespace)...)
	listed := newProfileResource(&namespacedCloudProfileResource{profileResource{data: r.data}}, namespacedCloudProfileTraits())
	streamPages(ctx, req, stream, diags, listName("NamespacedCloudProfiles", namespace.ValueString()), func(page kube.ListPage) ([]gardencorev1beta1.NamespacedCloudProfile, string, error) {
		return client.NamespacedCloudProfilesPage(ctx, namespace.ValueString(), withSelector(page, selector))
	}, func(ncp *gardencorev1beta1.NamespacedCloudProfile) list.ListResult {
		return listResult(ctx, req, listed, client, ncp, storedNamespacedCloudProfileSpec(r.data.options(ctx, r.data.now(), nil)))
	})
}

// listInputs are what both list resources read of their configuration first: the label selector,
// and the client.
func listInputs(ctx context.Context, config tfsdk.Config, data *providerData) (string, *kube.Client, diag.Diagnostics) {
	var selector types.String
	diags := config.GetAttribute(ctx, path.Root("label_selector"), &selector)
	checked, d := labelSelector(selector)
	diags.Append(d...)
	client, d := clientFrom(data)
	diags.Append(d...)
	return checked, client, diags
}

// streamPages streams the objects the pages of fetch hold (what names them in errors) as results
// (result), a page at a time; with diags that hold an error, it streams those only.
func streamPages[T any](ctx context.Context, req list.ListRequest, stream *list.ListResultsStream, diags diag.Diagnostics, what string, fetch func(kube.ListPage) ([]T, string, error), result func(*T) list.ListResult) {
	if diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	stream.Results = func(push func(list.ListResult) bool) {
		pages(ctx, req.Limit, func(page kube.ListPage) (int, string, bool) {
			items, next, err := fetch(page)
			if err != nil {
				push(errorResult(requestError("Listing "+what, err)))
				return 0, "", false
			}
			for i := range items {
				if !push(result(&items[i])) {
					return i + 1, "", false
				}
			}
			return len(items), next, true
		})
	}
}

func listName(kind, namespace string) string {
	if namespace == "" {
		return kind
	}
	return kind + " in " + namespace
}

func withSelector(page kube.ListPage, selector string) kube.ListPage {
	page.LabelSelector = selector
	return page
}

// pages requests pages until the last one, the limit of results (0: none) or until fetch says
// stop. fetch returns how many results it pushed, the next page's token and whether to go on.
func pages(ctx context.Context, limit int64, fetch func(kube.ListPage) (int, string, bool)) {
	var pushed int64
	page := kube.ListPage{}
	for ctx.Err() == nil {
		page.Limit = listPageSize
		if limit > 0 && limit-pushed < listPageSize {
			page.Limit = limit - pushed
		}
		n, next, more := fetch(page)
		pushed += int64(n)
		if !more || next == "" || (limit > 0 && pushed >= limit) {
			return
		}
		page.Continue = next
	}
}

func errorResult(d diag.Diagnostic) list.ListResult {
	var diags diag.Diagnostics
	diags.Append(d)
	return list.ListResult{Diagnostics: diags}
}

// listResult is one object of a list: its import ID, its identity and, when asked for, the state an
// import of it would read (listResultResource); listed is the resource of the object's kind.
func listResult[K profileKind[M, O, S], M profileModel, O profileObjectType, S any](ctx context.Context, req list.ListRequest, listed *profileResourceOf[K, M, O, S], client *kube.Client, obj O, stored storedSpecOf) list.ListResult {
	res := req.NewListResult(ctx)
	res.DisplayName = importID(obj.GetNamespace(), obj.GetName())
	res.Diagnostics.Append(res.Identity.Set(ctx, listed.traits.identity(obj.GetNamespace(), obj.GetName()))...)
	if req.IncludeResource {
		res.Diagnostics.Append(listResultResource(ctx, res.Resource, listed, obj, client, client.FieldManager(), stored)...)
	}
	return res
}

// listResultResource writes obj as the resource a list result carries, as r's Read records it after
// an import, as configuration a person would write (see asGeneratedConfig).
func listResultResource[K profileKind[M, O, S], M profileModel, O profileObjectType, S any](ctx context.Context, out *tfsdk.Resource, r *profileResourceOf[K, M, O, S], obj O, client *kube.Client, manager string, stored storedSpecOf) diag.Diagnostics {
	var imported M
	diags := r.record(ctx, out, imported, obj, nil, manager, client, tftypes.NewValue(cloudProfileSpecRoot.tfType, nil))
	if diags.HasError() {
		return diags
	}
	return append(diags, asGeneratedConfig(out, specAttributeOf(ctx, r), stored, "adopt_existing", "force_conflicts", r.traits.schema.keep)...)
}

// lastAppliedAnnotation is the annotation `kubectl apply` (client-side) leaves on what it writes.
const lastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"

// asGeneratedConfig makes the resource of a list result what a person would write.
// `terraform query -generate-config-out` writes every attribute of it that is set and not
// read-only, so it leaves null: the provider's own arguments named by flags where they are false
// (their default), labels and annotations that are empty, the annotation `kubectl apply` leaves
// behind (the configuration would take it over), and in the spec (of schema attribute specAttr)
// the values Gardener fills in itself (withoutGardenerDefaults). These arguments are Optional and Computed
// with defaults, so the generated configuration plans them as the import reads them; the
// annotation plans as removed from the state, and the apply leaves it on the object.
func asGeneratedConfig(out *tfsdk.Resource, specAttr rschema.Attribute, stored storedSpecOf, flags ...string) diag.Diagnostics {
	var diags diag.Diagnostics
	var attrs map[string]tftypes.Value
	if err := out.Raw.As(&attrs); err != nil || attrs == nil {
		diags.AddError("Generating configuration", fmt.Sprintf("The listed resource is not an object (%v); this is a bug in the provider.", err))
		return diags
	}
	for _, name := range flags {
		v, ok := attrs[name]
		if ok && (v.IsNull() || v.Equal(tftypes.NewValue(tftypes.Bool, false))) {
			attrs[name] = tftypes.NewValue(tftypes.Bool, nil)
		}
	}
	var meta map[string]tftypes.Value
	if m, ok := attrs["metadata"]; ok && m.IsKnown() && !m.IsNull() && m.As(&meta) == nil {
		meta["labels"] = withoutEntries(meta["labels"])
		meta["annotations"] = withoutEntries(meta["annotations"], lastAppliedAnnotation)
		attrs["metadata"] = tftypes.NewValue(m.Type(), meta)
	}
	if spec, ok := attrs["spec"]; ok {
		attrs["spec"] = withoutGardenerDefaults(specAttr, spec, stored)
	}
	out.Raw = tftypes.NewValue(out.Raw.Type(), attrs)
	return diags
}

// withoutEntries is the map without the keys, or null when nothing is left.
func withoutEntries(m tftypes.Value, keys ...string) tftypes.Value {
	var entries map[string]tftypes.Value
	if !m.IsKnown() || m.IsNull() || m.As(&entries) != nil {
		return m
	}
	for _, k := range keys {
		delete(entries, k)
	}
	if len(entries) == 0 {
		return tftypes.NewValue(m.Type(), nil)
	}
	return tftypes.NewValue(m.Type(), entries)
}
