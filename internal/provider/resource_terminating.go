package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A profile whose deletion was requested (by another destroy that timed out, or by someone else)
// stays in the cluster, terminating, until Gardener releases it. A refresh records that in the
// resource's private state, and the plan replaces the object: an update would be written to an
// object that is about to disappear.

// terminatingKey is the private-state key under which a refresh records the deletion timestamp.
const terminatingKey = "terminating_since"

// privateState is the part of the framework's private resource state the resources use.
type privateState interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// recordTermination stores when the object's deletion was requested, or clears it, and warns
// about a terminating object.
func recordTermination(ctx context.Context, private privateState, o objectRef, deletion *metav1.Time, rule string) diag.Diagnostics {
	if deletion == nil {
		return private.SetKey(ctx, terminatingKey, nil)
	}
	since := deletion.UTC().Format(time.RFC3339)
	diags := private.SetKey(ctx, terminatingKey, []byte(fmt.Sprintf("%q", since)))
	diags.AddWarning(fmt.Sprintf("%s is being deleted", o), fmt.Sprintf(
		"Its deletion was requested at %s, outside this plan, and Gardener keeps it (finalizer \"gardener\") until nothing uses it any more (rule %s). "+
			"A deletion cannot be undone, so the plan replaces it: the apply deletes it (and fails at once, naming them, if objects that nobody is "+
			"deleting still use it), waits until Gardener has released it, and creates it again.", since, rule))
	return diags
}

// planReplacementOfTerminating makes the plan of an update replace an object that a refresh found
// terminating: its UID will be a new one.
func planReplacementOfTerminating(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.State.Raw.IsNull() || req.Plan.Raw.IsNull() {
		return
	}
	since, diags := req.Private.GetKey(ctx, terminatingKey)
	resp.Diagnostics.Append(diags...)
	if len(since) == 0 {
		return
	}
	uid := path.Root("metadata").AtName("uid")
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, uid, types.StringUnknown())...)
	resp.RequiresReplace = append(resp.RequiresReplace, uid)
}
