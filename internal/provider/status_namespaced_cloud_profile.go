package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/gardener-community/terraform-provider-gardener/internal/provider/largevalue"
)

// namespacedCloudProfileStatusType is the type of the status in a model of the resource and the
// data source: without the merged profile, a large attribute, which a model never holds (see
// largevalue.Get).
var namespacedCloudProfileStatusType = types.ObjectType{AttrTypes: map[string]attr.Type{"observed_generation": types.Int64Type}}

// namespacedStatusField describes the status of a NamespacedCloudProfile: the generation the
// controller rendered, and the merged profile (large).
func namespacedStatusField(description, generationDescription, specDescription string) specField {
	return specField{json: "status", attr: "status", kind: kindObject, description: description, children: []specField{
		computedField("observed_generation", kindInt64, generationDescription),
		cloudProfileSpecRoot.named("cloud_profile_spec", specDescription),
	}}
}

// namespacedCloudProfileStatusField describes the read-only status of the resource.
func namespacedCloudProfileStatusField() specField {
	return namespacedStatusField(
		"Null unless `keep_merged_status = true`. Then the merged profile for `metadata.generation`, which the provider "+
			"computes from the parent CloudProfile and this spec as Gardener's controller does. It is planned, so a plan shows how a "+
			"change alters the merged profile, and the apply stores it without waiting for the controller. A change of the parent "+
			"shows at the next refresh. A refresh that cannot read the parent keeps the copy the controller last wrote, with a warning.",
		"The `metadata.generation` that `cloud_profile_spec` is rendered for.",
		"The merged profile: the parent CloudProfile's spec with this profile's overrides applied, as Gardener renders it "+
			"(architecture lists Gardener derives from sets are in order of first occurrence); for a parent of a type whose provider "+
			"extension the provider knows, `provider_config` holds this profile's `provider_config` merged in as the extension's mutator "+
			"merges it (lists it writes in random order are in the parent's order, additions last).")
}

// keptStatus is the status a state keeps: none unless keep_merged_status.
type keptStatus struct {
	kept               bool
	observedGeneration int64
	spec               tftypes.Value
}

// namespacedCloudProfileStatusValue converts the kept status, or null. Its cloud_profile_spec is
// returned as a ready Terraform value (see largevalue.Values.SetState); a null status has none.
func namespacedCloudProfileStatusValue(s keptStatus) (types.Object, []largevalue.ValueAtPath, diag.Diagnostics) {
	if !s.kept {
		return types.ObjectNull(namespacedCloudProfileStatusType.AttrTypes), nil, nil
	}
	obj, diags := types.ObjectValue(namespacedCloudProfileStatusType.AttrTypes, map[string]attr.Value{
		"observed_generation": types.Int64Value(s.observedGeneration),
	})
	return obj, []largevalue.ValueAtPath{{Path: statusSpecLargePath, Value: s.spec}}, diags
}
