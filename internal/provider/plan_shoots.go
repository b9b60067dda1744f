package provider

import (
	"context"
	"fmt"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// Shoots at plan time: the blast radius of an update (rule W-force-update), the Shoots still
// running a version whose expiration the plan brings forward. The Shoots come from the client's
// list of the run (kube.Client.RunShoots): one list per scope and run at most, and none unless a
// plan brings an expiration forward, so a plan that changes nothing lists none. When they cannot
// be listed, the run says so once and goes on.

// shootsNotListed is the summary of the warning that Shoots could not be listed.
const shootsNotListed = "Shoots not listed"

// runShoots returns the Shoots of namespace ("" for all namespaces) from the run's list. When they
// cannot be listed it warns, once per run, and returns false.
func (d *providerData) runShoots(ctx context.Context, namespace string, diags *diag.Diagnostics) ([]gardencorev1beta1.Shoot, bool) {
	if d == nil {
		return nil, false
	}
	client, err := d.Client()
	if err == nil {
		var shoots []gardencorev1beta1.Shoot
		if shoots, err = client.RunShoots(ctx, namespace); err == nil {
			return shoots, true
		}
	}
	d.shootsWarning.Do(func() { diags.AddWarning(shootsNotListed, shootsNotListedDetail(namespace, err)) })
	return nil, false
}

// shootsNotListedDetail explains what a run without the Shoots leaves out.
func shootsNotListedDetail(namespace string, err error) string {
	return fmt.Sprintf("Listing the Shoots of %s failed, so this run does not report the Shoots that run a version a plan expires (rule %s), "+
		"and data sources leave shoots_by_version null. Gardener's maintenance still force-updates those Shoots.%s\n\n%v\n\n"+
		"To fix: allow the provider's credentials to list shoots.core.gardener.cloud, or go on without the report.",
		listScope(namespace), cloudprofile.RuleForceUpdate, forbiddenListHint(namespace, err), err)
}

// cloudProfileForceUpdates returns the W-force-update warnings of replacing old with cp, listing
// the Shoots of all namespaces only when the update brings an expiration forward.
func cloudProfileForceUpdates(ctx context.Context, data *providerData, cp, old *gardencorev1beta1.CloudProfile, opts cloudprofile.Options, diags *diag.Diagnostics) cloudprofile.Problems {
	if !cloudprofile.NeedsCloudProfileShoots(cp, old, opts) {
		return nil
	}
	shoots, ok := data.runShoots(ctx, "", diags)
	if !ok {
		return nil
	}
	return cloudprofile.ForceUpdatesOfCloudProfile(cp, old, shoots, opts)
}

// namespacedForceUpdates returns the W-force-update warnings of replacing old with ncp under
// parent, listing the Shoots of ncp's namespace only when the update brings an expiration forward.
func namespacedForceUpdates(ctx context.Context, data *providerData, ncp, old *gardencorev1beta1.NamespacedCloudProfile, parent *gardencorev1beta1.CloudProfile, opts cloudprofile.Options, diags *diag.Diagnostics) cloudprofile.Problems {
	if !cloudprofile.NeedsNamespacedCloudProfileShoots(ncp, old, parent, opts) {
		return nil
	}
	shoots, ok := data.runShoots(ctx, ncp.Namespace, diags)
	if !ok {
		return nil
	}
	return cloudprofile.ForceUpdatesOfNamespacedCloudProfile(ncp, old, parent, shoots, opts)
}
