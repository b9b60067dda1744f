package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// metadataModel is the `metadata` attribute of both resources.
type metadataModel struct {
	Name            types.String `tfsdk:"name"`
	Namespace       types.String `tfsdk:"namespace"`
	Labels          types.Map    `tfsdk:"labels"`
	Annotations     types.Map    `tfsdk:"annotations"`
	UID             types.String `tfsdk:"uid"`
	ResourceVersion types.String `tfsdk:"resource_version"`
	Generation      types.Int64  `tfsdk:"generation"`
}

// clusterMetadataModel is the `metadata` of a cluster-scoped object (no namespace).
type clusterMetadataModel struct {
	Name            types.String `tfsdk:"name"`
	Labels          types.Map    `tfsdk:"labels"`
	Annotations     types.Map    `tfsdk:"annotations"`
	UID             types.String `tfsdk:"uid"`
	ResourceVersion types.String `tfsdk:"resource_version"`
	Generation      types.Int64  `tfsdk:"generation"`
}

// metadataAttribute describes `metadata`; namespaced adds the required `namespace`.
func metadataAttribute(kind string, namespaced bool) schema.SingleNestedAttribute {
	attrs := map[string]schema.Attribute{
		"name": schema.StringAttribute{
			Required:            true,
			PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			MarkdownDescription: "Name of the " + kind + ", a DNS-1123 subdomain (lowercase letters, digits, `-` and `.`). Changing it replaces the object.",
		},
		"labels": schema.MapAttribute{
			Optional:      true,
			Computed:      true,
			ElementType:   types.StringType,
			PlanModifiers: []planmodifier.Map{absentMapPlan{}},
			MarkdownDescription: "Labels the provider manages on the object. Labels others set (such as the " +
				"`provider.extensions.gardener.cloud/<type>` label Gardener adds) are left alone and never show as a change. " +
				"Leaving it out and setting it to `{}` both mean that the provider manages no labels.",
		},
		"annotations": schema.MapAttribute{
			Optional:      true,
			Computed:      true,
			ElementType:   types.StringType,
			PlanModifiers: []planmodifier.Map{absentMapPlan{}},
			MarkdownDescription: "Annotations the provider manages on the object. Annotations others set are left alone and never show as a change. " +
				"Leaving it out and setting it to `{}` both mean that the provider manages no annotations.",
		},
		"uid": schema.StringAttribute{
			Computed:            true,
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			MarkdownDescription: "UID the API server gave the object.",
		},
		"resource_version": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "Resource version of the object when it was last read or written.",
		},
		"generation": schema.Int64Attribute{
			Computed:            true,
			MarkdownDescription: "Generation of the object as the API server stores it: a NamespacedCloudProfile's is 1 after create and grows by one with every change of its spec; Gardener never sets a CloudProfile's, so it stays 0. Plans show the coming value.",
		},
	}
	if namespaced {
		attrs["namespace"] = schema.StringAttribute{
			Required:            true,
			PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			MarkdownDescription: "Namespace of the " + kind + ", the project namespace (e.g. `garden-myproject`). Changing it replaces the object.",
		}
	}
	return schema.SingleNestedAttribute{
		Required:            true,
		MarkdownDescription: "Kubernetes metadata of the " + kind + ".",
		Attributes:          attrs,
	}
}

// objectMeta converts the configured metadata into the API's.
// Values not known yet (from variables of other resources at plan time) are left out; unknownPaths
// names them.
func (m metadataModel) objectMeta(_ context.Context) (metav1.ObjectMeta, []path.Path, diag.Diagnostics) {
	om := metav1.ObjectMeta{Name: m.Name.ValueString(), Namespace: m.Namespace.ValueString()}
	root := path.Root("metadata")
	var unknown []path.Path
	for _, u := range []struct {
		v    types.String
		name string
	}{{m.Name, "name"}, {m.Namespace, "namespace"}} {
		if u.v.IsUnknown() {
			unknown = append(unknown, root.AtName(u.name))
		}
	}
	var unknownLabels, unknownAnnotations []path.Path
	om.Labels, unknownLabels = knownStrings(m.Labels, root.AtName("labels"))
	om.Annotations, unknownAnnotations = knownStrings(m.Annotations, root.AtName("annotations"))
	return om, append(append(unknown, unknownLabels...), unknownAnnotations...), nil
}

// knownStrings returns the known entries of a string map, and the paths of unknown ones (or of the
// whole map when it is unknown).
func knownStrings(m types.Map, at path.Path) (map[string]string, []path.Path) {
	if m.IsUnknown() {
		return nil, []path.Path{at}
	}
	if m.IsNull() {
		return nil, nil
	}
	out := make(map[string]string, len(m.Elements()))
	var unknown []path.Path
	for k, v := range m.Elements() {
		s, ok := v.(types.String)
		switch {
		case !ok || s.IsUnknown():
			unknown = append(unknown, at.AtMapKey(k))
		case !s.IsNull():
			out[k] = s.ValueString()
		}
	}
	return out, unknown
}

// fromObjectMeta fills the model from the object as read. Labels and annotations keep the
// configured form: an empty result stays empty if it was configured empty, else it is null.
func (m *metadataModel) fromObjectMeta(ctx context.Context, om metav1.ObjectMeta) diag.Diagnostics {
	var diags, d diag.Diagnostics
	m.Name = types.StringValue(om.Name)
	if om.Namespace != "" {
		m.Namespace = types.StringValue(om.Namespace)
	}
	m.Labels, d = stringMapValue(ctx, om.Labels, m.Labels)
	diags.Append(d...)
	m.Annotations, d = stringMapValue(ctx, om.Annotations, m.Annotations)
	diags.Append(d...)
	m.UID = types.StringValue(string(om.UID))
	m.ResourceVersion = types.StringValue(om.ResourceVersion)
	m.Generation = types.Int64Value(om.Generation)
	return diags
}

// stringMapValue converts a map, keeping null for an empty map unless before was an empty map.
func stringMapValue(ctx context.Context, m map[string]string, before types.Map) (types.Map, diag.Diagnostics) {
	if len(m) == 0 {
		if before.IsNull() || before.IsUnknown() {
			return types.MapNull(types.StringType), nil
		}
		return types.MapValueMust(types.StringType, map[string]attr.Value{}), nil
	}
	return types.MapValueFrom(ctx, types.StringType, m)
}

// importedStringMaps are the labels and annotations a read starts from when the state has no
// metadata yet (an import): an object without them reads as {}, which a configuration setting `{}`
// matches and one leaving them out accepts (absentMapPlan keeps it).
func importedStringMaps() (labels, annotations types.Map) {
	empty := func() types.Map { return types.MapValueMust(types.StringType, map[string]attr.Value{}) }
	return empty(), empty()
}

// absentMapPlan plans labels or annotations the configuration leaves out: an empty prior value ({}
// or null, the same on the object) stays as it is, so neither an import nor a change elsewhere
// shows it as a change; prior entries are planned away (null).
type absentMapPlan struct{}

// Description says what the modifier does.
func (absentMapPlan) Description(context.Context) string {
	return "Left out of the configuration, an empty value stays as it is and entries are removed."
}

// MarkdownDescription says what the modifier does.
func (m absentMapPlan) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

// PlanModifyMap plans the map when the configuration leaves it out.
func (absentMapPlan) PlanModifyMap(_ context.Context, req planmodifier.MapRequest, resp *planmodifier.MapResponse) {
	if !req.ConfigValue.IsNull() {
		return
	}
	if !req.StateValue.IsUnknown() && len(req.StateValue.Elements()) == 0 {
		resp.PlanValue = req.StateValue
		return
	}
	resp.PlanValue = types.MapNull(types.StringType)
}

// planConfiguredEmptyMaps plans labels or annotations configured as {} where the state holds null
// (the same on the object; absentMapPlan keeps the other way round) as no change, when nothing else
// in the plan changes: the plan is then the prior state. Terraform accepts a planned value other
// than a configured one only where it equals the prior value, here metadata unchanged as a whole;
// a plan that changes anything else (its resource version then becomes unknown) keeps the
// configured {}.
func planConfiguredEmptyMaps(req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.State.Raw.IsNull() || resp.Plan.Raw.IsNull() || resp.Plan.Raw.Equal(req.State.Raw) {
		return
	}
	if onlyEmptyMapsOrMarkedDiffer(resp.Plan.Raw, req.State.Raw, req.Config.Raw, "") {
		resp.Plan.Raw = req.State.Raw
	}
}

// onlyEmptyMapsOrMarkedDiffer tells whether the planned value differs from the prior one only by
// labels or annotations configured as {} where the prior value is null, and by values the
// framework marked unknown because of that (unknown where the configuration leaves them out). at is
// the attribute path of the values ("" for the resource).
func onlyEmptyMapsOrMarkedDiffer(planned, prior, config tftypes.Value, at string) bool {
	switch {
	case !planned.IsKnown():
		return config.IsKnown() && config.IsNull()
	case planned.Equal(prior):
		return true
	case at == "metadata.labels" || at == "metadata.annotations":
		var elements map[string]tftypes.Value
		return prior.IsNull() && planned.As(&elements) == nil && len(elements) == 0
	case planned.IsNull() || prior.IsNull() || !planned.Type().Is(tftypes.Object{}):
		return false
	}
	var plannedAttrs, priorAttrs, configAttrs map[string]tftypes.Value
	if planned.As(&plannedAttrs) != nil || prior.As(&priorAttrs) != nil {
		return false
	}
	if config.IsKnown() && !config.IsNull() {
		_ = config.As(&configAttrs)
	}
	for name, value := range plannedAttrs {
		c, ok := configAttrs[name]
		if !ok {
			c = tftypes.NewValue(value.Type(), nil)
		}
		p, ok := priorAttrs[name]
		if !ok || !onlyEmptyMapsOrMarkedDiffer(value, p, c, strings.TrimPrefix(at+"."+name, ".")) {
			return false
		}
	}
	return true
}

// metadataOf reads a metadata object, of either scope, into the model (a cluster-scoped one has a
// null namespace); a null or unknown object, or a part missing, reads as null. It reads the
// attributes directly: the framework's conversion of an object into a struct compiles a regular
// expression for every field, for every object it converts.
func metadataOf(obj types.Object) metadataModel {
	attrs := obj.Attributes()
	str := func(name string) types.String { v, _ := attrs[name].(types.String); return v }
	strMap := func(name string) types.Map {
		if v, ok := attrs[name].(types.Map); ok {
			return v
		}
		return types.MapNull(types.StringType)
	}
	generation, _ := attrs["generation"].(types.Int64)
	return metadataModel{Name: str("name"), Namespace: str("namespace"), Labels: strMap("labels"), Annotations: strMap("annotations"),
		UID: str("uid"), ResourceVersion: str("resource_version"), Generation: generation}
}

func (m metadataModel) clusterScoped() clusterMetadataModel {
	return clusterMetadataModel{Name: m.Name, Labels: m.Labels, Annotations: m.Annotations,
		UID: m.UID, ResourceVersion: m.ResourceVersion, Generation: m.Generation}
}

// object is the metadata as the value of a resource's metadata attribute, of a namespaced or a
// cluster-scoped kind.
func (m metadataModel) object(ctx context.Context, namespaced bool) (types.Object, diag.Diagnostics) {
	if namespaced {
		return types.ObjectValueFrom(ctx, namespacedMetadataType().AttrTypes, m)
	}
	return types.ObjectValueFrom(ctx, clusterMetadataType().AttrTypes, m.clusterScoped())
}
