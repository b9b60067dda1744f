package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
	"github.com/gardener-community/terraform-provider-gardener/internal/provider/largevalue"
)

// profileWriter is a profile resource as Create and Update use it.
type profileWriter interface {
	// apply writes the planned object (see writeMode) with the configured force_conflicts and
	// records what was stored in state, identity and private.
	apply(ctx context.Context, planned tfsdk.Plan, config tfsdk.Config, mode writeMode, state largevalue.StateSetter, identity *tfsdk.ResourceIdentity, private privateState, diags *diag.Diagnostics)
}

// createProfile creates the planned object within the create timeout.
func createProfile(ctx context.Context, w profileWriter, req resource.CreateRequest, resp *resource.CreateResponse) {
	ctx, cancel, ok := withWriteTimeout(ctx, req.Plan, timeouts.Value.Create, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()
	w.apply(ctx, req.Plan, req.Config, createMode(), &resp.State, resp.Identity, resp.Private, &resp.Diagnostics)
}

// updateProfile applies the planned object to the object of the state's UID within the update
// timeout.
func updateProfile(ctx context.Context, w profileWriter, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	mode, d := updateMode(ctx, req.State, req.Private)
	resp.Diagnostics.Append(d...)
	if d.HasError() {
		return
	}
	ctx, cancel, ok := withWriteTimeout(ctx, req.Plan, timeouts.Value.Update, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()
	w.apply(ctx, req.Plan, req.Config, mode, &resp.State, resp.Identity, resp.Private, &resp.Diagnostics)
}

// withWriteTimeout bounds ctx by the plan's timeout for the operation (defaultWriteTimeout unless
// configured); ok is false when the timeout cannot be read.
func withWriteTimeout(ctx context.Context, planned tfsdk.Plan, operation func(timeouts.Value, context.Context, time.Duration) (time.Duration, diag.Diagnostics), diags *diag.Diagnostics) (context.Context, context.CancelFunc, bool) {
	var t timeouts.Value
	diags.Append(planned.GetAttribute(ctx, path.Root("timeouts"), &t)...)
	d, td := operation(t, ctx, defaultWriteTimeout)
	diags.Append(td...)
	if diags.HasError() {
		return ctx, nil, false
	}
	ctx, cancel := context.WithTimeout(ctx, d)
	return ctx, cancel, true
}

// profileRequests are the write requests of one kind of profile.
type profileRequests[T metav1.Object] struct {
	adopt  func(context.Context, T, kube.ApplyOptions) (T, bool, error)
	create func(context.Context, T) (T, error)
	apply  func(context.Context, T, kube.ApplyOptions) (T, error)
}

// send makes the write request of the mode: a create-only request, an adopting apply (with a
// warning naming the previous managers), or an apply to the object of the state's UID.
func (r profileRequests[T]) send(ctx context.Context, ref objectRef, desired T, mode writeMode, force, adoptExisting bool, diags *diag.Diagnostics) (T, error) {
	opts := kube.ApplyOptions{Force: force, UID: mode.uid, TakeOver: mode.takeOver, SetBack: mode.setBack}
	switch {
	case mode.create && adoptExisting:
		stored, adopted, err := r.adopt(ctx, desired, opts)
		if err == nil && adopted {
			diags.Append(adoptedWarning(ref, stored))
		}
		return stored, err
	case mode.create:
		return r.create(ctx, desired)
	}
	return r.apply(ctx, desired, opts)
}
