package provider

import (
	"context"
	"fmt"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
	"github.com/gardener-community/terraform-provider-gardener/internal/tfvalue"
)

// readKeptStatus computes the status the state keeps with keep_merged_status: the merge of the
// parent with the object's spec, for its generation, as Gardener's controller and the provider
// extension's mutator render it (mergedNamespacedProfile), whose own copy in the cluster lags
// behind until it has reconciled. planned is the merged profile of the plan
// (null on a read): when the merge differs from it (the parent changed since the plan, or a webhook
// changed the stored spec), the state keeps the planned one, and the next refresh shows the change.
func readKeptStatus(ctx context.Context, client *kube.Client, ncp *gardencorev1beta1.NamespacedCloudProfile, keep bool, planned tftypes.Value) (keptStatus, diag.Diagnostics) {
	if !keep {
		return keptStatus{}, nil
	}
	out := keptStatus{kept: true, observedGeneration: ncp.Generation}
	parent, err := client.ParentCloudProfile(ctx, ncp.Spec.Parent.Name)
	var diags diag.Diagnostics
	if err == nil {
		merged, _ := mergedNamespacedProfile(ncp.Name, parent.Spec, ncp.Spec, cloudprofile.MergeOptions{})
		out.spec, diags = flattenSpecTerraform(cloudProfileSpecRoot, merged)
	}
	plannedKnown := planned.IsKnown() && !planned.IsNull()
	switch {
	case plannedKnown && (err != nil || !tfvalue.Equal(planned, out.spec)):
		out.spec = planned
		diags.AddAttributeWarning(path.Root("status"), "Merged profile differs from the plan",
			fmt.Sprintf("The state keeps the merged profile of NamespacedCloudProfile %s/%s as planned, but the merge of what Gardener stored differs: "+
				"its parent CloudProfile %q changed since the plan, or an admission webhook changed the stored spec. "+
				"The next plan shows the merged profile as it is now.", ncp.Namespace, ncp.Name, ncp.Spec.Parent.Name))
	case err != nil:
		out.observedGeneration = ncp.Status.ObservedGeneration
		out.spec, diags = flattenSpecTerraform(cloudProfileSpecRoot, ncp.Status.CloudProfileSpec)
		diags.AddAttributeWarning(path.Root("status"), "Merged profile as the controller wrote it",
			fmt.Sprintf("The parent CloudProfile %q of NamespacedCloudProfile %s/%s could not be read (%v), so the state keeps the merged profile Gardener's controller last wrote.",
				ncp.Spec.Parent.Name, ncp.Namespace, ncp.Name, err))
	}
	return out, diags
}
