package provider

import (
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions"
)

// A real Garden runs the provider extensions' admission webhooks after Gardener's own validation:
// an object Gardener rejects never reaches them. So the extension's offline checks (package
// extensions) run only when Gardener's rules find no error, and only for the provider types the
// provider knows an extension of.

// cloudProfileExtensionProblems are the problems the admission of the provider extension of cp's
// type reports when cp is created (old == nil) or replaces old: it sees the CloudProfile as
// gardener-apiserver stores it (defaulted; on create without the versions that are already
// expired, on update with them). Their attribute paths name entries by key, through the stored
// spec, whose positions are those the webhook reports.
func cloudProfileExtensionProblems(cp, old *gardencorev1beta1.CloudProfile, core cloudprofile.Problems, opts cloudprofile.Options) cloudprofile.Problems {
	ext, ok := extensions.For(cp.Spec.Type)
	if !ok || len(core.Errors()) > 0 {
		return nil
	}
	stored, _ := cloudprofile.StoredCloudProfile(cp, old, opts)
	problems := ext.ValidateCloudProfile(cp.Name, stored.Spec)
	if len(problems) == 0 {
		return nil
	}
	value, diags := flattenSpecTerraform(cloudProfileSpecRoot, stored.Spec)
	if diags.HasError() {
		return problems
	}
	return stepsThrough(value).problems(problems)
}

// cloudProfileUpdateExtensionProblems are the problems the extension's admission reports of an
// update of old to cp that it would not report of a create of cp (those come at validate): the
// versions Gardener drops on create but keeps on update, such as an expired version without an
// image mapping, reach the webhook only on update. core are Gardener's problems of the update.
func cloudProfileUpdateExtensionProblems(cp, old *gardencorev1beta1.CloudProfile, core, coreOfCreate cloudprofile.Problems, opts cloudprofile.Options) cloudprofile.Problems {
	return onlyNew(cloudProfileExtensionProblems(cp, old, core, opts), cloudProfileExtensionProblems(cp, nil, coreOfCreate, opts))
}

// namespacedExtensionProblems are the problems the admission of the provider extension of the
// parent's type reports of ncp with its parent. The positions in their paths are those of ncp's
// spec as configured, which the webhook sees unchanged.
func namespacedExtensionProblems(ncp *gardencorev1beta1.NamespacedCloudProfile, parent *gardencorev1beta1.CloudProfile, core cloudprofile.Problems) cloudprofile.Problems {
	if parent == nil {
		return nil
	}
	ext, ok := extensions.For(parent.Spec.Type)
	if !ok || len(core.Errors()) > 0 {
		return nil
	}
	return ext.ValidateNamespacedCloudProfile(ncp.Name, ncp.Spec, parent.Spec)
}
