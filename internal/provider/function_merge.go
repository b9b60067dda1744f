package provider

import (
	"context"
	"errors"
	"fmt"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

var _ function.Function = mergeFunction{}

// mergeFunction is provider::gardener::merge(parent_spec, namespaced_spec).
type mergeFunction struct{}

func newMergeFunction() function.Function { return mergeFunction{} }

// Metadata names the function.
func (mergeFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "merge"
}

// Definition describes the function.
func (mergeFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Merge a NamespacedCloudProfile into its parent",
		MarkdownDescription: "Returns the effective profile of a NamespacedCloudProfile, exactly as Gardener's controller renders " +
			"`status.cloudProfileSpec` (Gardener v1.149's merge; the `gardener_namespaced_cloud_profile` data source runs the same code). " +
			"Both arguments are first defaulted as Gardener's API server does (which changes nothing for specs read from Gardener). The " +
			"parent's Kubernetes versions get the namespaced profile's expiration dates; machine images, machine types and volume types are " +
			"merged by name (namespaced entries replace or extend the parent's); `ca_bundle` is concatenated; `limits.max_nodes_total` of " +
			"the namespaced profile wins; everything else is the parent's. For a parent of a type whose provider extension the provider " +
			"knows (see the Provider extensions guide), the namespaced profile's `provider_config` is merged into the parent's and the capability " +
			"flavors are filled in as that extension's mutating webhook does; for other types `provider_config` is the parent's. Pure: needs no cluster.",
		Parameters: []function.Parameter{
			function.DynamicParameter{Name: "parent_spec", MarkdownDescription: "The parent CloudProfile's spec, an object with the attributes of " +
				"the `gardener_cloud_profile` resource's `spec` (such as `data.gardener_cloud_profile.x.spec`); attributes may be left out."},
			function.DynamicParameter{Name: "namespaced_spec", MarkdownDescription: "The NamespacedCloudProfile's spec, an object with the " +
				"attributes of the `gardener_namespaced_cloud_profile` resource's `spec`; attributes (including `parent`) may be left out."},
		},
		Return: function.ObjectReturn{AttributeTypes: cloudProfileSpecType().AttrTypes},
	}
}

// Run merges the specs.
func (mergeFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var parentArg, ncpArg types.Dynamic
	resp.Error = req.Arguments.Get(ctx, &parentArg, &ncpArg)
	if resp.Error != nil {
		return
	}
	unknownResult := func() { resp.Error = resp.Result.Set(ctx, types.ObjectUnknown(cloudProfileSpecType().AttrTypes)) }

	parentObj, err := conformValue(ctx, parentArg, cloudProfileSpecType(), "", false)
	if errors.Is(err, errUnknownArgument) {
		unknownResult()
		return
	}
	if err != nil {
		resp.Error = argumentError(0, fmt.Errorf("parent_spec: %w", err))
		return
	}
	ncpObj, err := conformValue(ctx, ncpArg, namespacedCloudProfileSpecType(), "", false)
	if errors.Is(err, errUnknownArgument) {
		unknownResult()
		return
	}
	if err != nil {
		resp.Error = argumentError(1, fmt.Errorf("namespaced_spec: %w", err))
		return
	}
	parent, unknown, diags := expandCloudProfileSpec(ctx, parentObj.(types.Object), path.Root("parent_spec"))
	if diags.HasError() {
		resp.Error = argumentError(0, errors.New(diagText(diags)))
		return
	}
	ncp, unknownNCP, diags := expandNamespacedCloudProfileSpec(ctx, ncpObj.(types.Object), path.Root("namespaced_spec"))
	if diags.HasError() {
		resp.Error = argumentError(1, errors.New(diagText(diags)))
		return
	}
	if len(unknown) > 0 || len(unknownNCP) > 0 {
		unknownResult()
		return
	}

	parent = cloudprofile.DefaultedCloudProfile(&gardencorev1beta1.CloudProfile{Spec: parent}).Spec
	ncp = cloudprofile.DefaultedNamespacedCloudProfile(&gardencorev1beta1.NamespacedCloudProfile{Spec: ncp}).Spec
	// The extension's merge names the NamespacedCloudProfile only in errors, after which the
	// provider config stays the parent's, as in the Garden's status.
	merged, _ := mergedNamespacedProfile("", parent, ncp, cloudprofile.MergeOptions{})
	obj, diags := flattenCloudProfileSpec(ctx, merged)
	if diags.HasError() {
		resp.Error = function.NewFuncError(diagText(diags))
		return
	}
	resp.Error = resp.Result.Set(ctx, obj)
}
