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

// cloudProfileListModel is the configuration of a `list "gardener_cloud_profile"` block.
type cloudProfileListModel struct {
	LabelSelector types.String `tfsdk:"label_selector"`
}

// namespacedCloudProfileListModel is the configuration of a `list
// "gardener_namespaced_cloud_profile"` block.
type namespacedCloudProfileListModel struct {
	Namespace     types.String `tfsdk:"namespace"`
	LabelSelector types.String `tfsdk:"label_selector"`
}

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
	var cfg cloudProfileListModel
	diags := req.Config.Get(ctx, &cfg)
	selector, d := labelSelector(cfg.LabelSelector)
	diags.Append(d...)
	client, d := clientFrom(r.data)
	diags.Append(d...)
	if diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	stream.Results = func(push func(list.ListResult) bool) {
		pages(ctx, req.Limit, func(page kube.ListPage) (int, string, bool) {
			items, next, err := client.CloudProfilesPage(ctx, withSelector(page, selector))
			if err != nil {
				push(errorResult(requestError("Listing CloudProfiles", err)))
				return 0, "", false
			}
			for i := range items {
				if !push(r.result(ctx, req, client, &items[i])) {
					return i + 1, "", false
				}
			}
			return len(items), next, true
		})
	}
}

// List streams the NamespacedCloudProfiles of the namespace matching the label selector.
func (r *namespacedCloudProfileListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	var cfg namespacedCloudProfileListModel
	diags := req.Config.Get(ctx, &cfg)
	selector, d := labelSelector(cfg.LabelSelector)
	diags.Append(d...)
	client, d := clientFrom(r.data)
	diags.Append(d...)
	if diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	namespace := cfg.Namespace.ValueString()
	stream.Results = func(push func(list.ListResult) bool) {
		pages(ctx, req.Limit, func(page kube.ListPage) (int, string, bool) {
			items, next, err := client.NamespacedCloudProfilesPage(ctx, namespace, withSelector(page, selector))
			if err != nil {
				push(errorResult(requestError("Listing "+listName("NamespacedCloudProfiles", namespace), err)))
				return 0, "", false
			}
			for i := range items {
				if !push(r.result(ctx, req, client, &items[i])) {
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

// result is one CloudProfile of the list: its name, its identity and, when asked for, the state an
// import of it would read.
func (r *cloudProfileListResource) result(ctx context.Context, req list.ListRequest, client *kube.Client, cp *gardencorev1beta1.CloudProfile) list.ListResult {
	res := req.NewListResult(ctx)
	res.DisplayName = cp.Name
	res.Diagnostics.Append(res.Identity.Set(ctx, cloudProfileIdentity{Name: types.StringValue(cp.Name)})...)
	if req.IncludeResource {
		res.Diagnostics.Append(r.resource(ctx, res.Resource, cp, client.FieldManager())...)
	}
	return res
}

// resource writes the CloudProfile as the resource a list result carries: the state an import
// reads, as configuration a person would write (see asGeneratedConfig).
func (r *cloudProfileListResource) resource(ctx context.Context, out *tfsdk.Resource, cp *gardencorev1beta1.CloudProfile, manager string) diag.Diagnostics {
	rr := &cloudProfileResource{profileResource{data: r.data}}
	diags := rr.setState(ctx, out, cloudProfileModel{}, cp, nil, manager)
	if diags.HasError() {
		return diags
	}
	stored := storedCloudProfileSpec(r.data.options(r.data.now()))
	return append(diags, asGeneratedConfig(out, specAttributeOf(ctx, rr), stored, "adopt_existing", "force_conflicts", "keep_status")...)
}

// result is one NamespacedCloudProfile of the list: `namespace/name`, its identity and, when asked
// for, the state an import of it would read.
func (r *namespacedCloudProfileListResource) result(ctx context.Context, req list.ListRequest, client *kube.Client, ncp *gardencorev1beta1.NamespacedCloudProfile) list.ListResult {
	res := req.NewListResult(ctx)
	res.DisplayName = ncp.Namespace + "/" + ncp.Name
	res.Diagnostics.Append(res.Identity.Set(ctx, namespacedCloudProfileIdentity{
		Namespace: types.StringValue(ncp.Namespace), Name: types.StringValue(ncp.Name),
	})...)
	if req.IncludeResource {
		res.Diagnostics.Append(r.resource(ctx, res.Resource, ncp, client.FieldManager())...)
	}
	return res
}

// resource writes the NamespacedCloudProfile as the resource a list result carries: the state an
// import reads, as configuration a person would write (see asGeneratedConfig).
func (r *namespacedCloudProfileListResource) resource(ctx context.Context, out *tfsdk.Resource, ncp *gardencorev1beta1.NamespacedCloudProfile, manager string) diag.Diagnostics {
	rr := &namespacedCloudProfileResource{profileResource{data: r.data}}
	diags := rr.setState(ctx, out, namespacedCloudProfileModel{}, ncp, nil, keptStatus{}, manager)
	if diags.HasError() {
		return diags
	}
	stored := storedNamespacedCloudProfileSpec(r.data.options(r.data.now()))
	return append(diags, asGeneratedConfig(out, specAttributeOf(ctx, rr), stored, "adopt_existing", "force_conflicts", "keep_merged_status")...)
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
