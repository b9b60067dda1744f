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
	if !ok || core.HasErrors() {
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
	if !ok || core.HasErrors() {
		return nil
	}
	return ext.ValidateNamespacedCloudProfile(ncp.Name, ncp.Spec, parent.Spec)
}

// mergedNamespacedProfile is the merged profile as a real Garden renders it in a
// NamespacedCloudProfile's status: Gardener's merge of parent and ncp as the mutator of the
// extension of the parent's type stores it (extensions.Extension.MutateNamespacedCloudProfile,
// which fills capability flavors; it changes an ncp it has already mutated no further), whose
// providerConfig is the parent's, with ncp's own providerConfig merged in as that mutator does
// (extensions.Extension.MergeProviderConfig; name is the NamespacedCloudProfile's). extensionMerged
// tells that an extension merged it; it is false when ncp sets no providerConfig (the status holds
// the parent's), when the provider knows no extension of the type, or when the extension cannot
// decode a configuration (its mutator rejects the status write): the result's providerConfig is
// then the parent's.
func mergedNamespacedProfile(name string, parent gardencorev1beta1.CloudProfileSpec, ncp gardencorev1beta1.NamespacedCloudProfileSpec, opts cloudprofile.MergeOptions) (merged gardencorev1beta1.CloudProfileSpec, extensionMerged bool) {
	ext, ok := extensions.For(parent.Type)
	if ok && ext.MutateNamespacedCloudProfile != nil {
		ncp = ext.MutateNamespacedCloudProfile(ncp, parent)
	}
	merged = cloudprofile.MergeNamespacedCloudProfile(parent, ncp, opts)
	if !ok || ncp.ProviderConfig == nil {
		return merged, false
	}
	config, err := ext.MergeProviderConfig(name, ncp.ProviderConfig, merged.ProviderConfig, merged.MachineCapabilities)
	if err != nil {
		return merged, false
	}
	merged.ProviderConfig = config
	return merged, true
}

// mutatedByExtension is spec as the CloudProfile mutating webhook of the extension of its type
// leaves it, which gardener-apiserver then prepares, validates and stores (so the offline rules,
// Gardener's and the extension's, check it too, and a plan predicts it) (the public extensions fill the
// capability flavors of the versions their providerConfig maps); spec itself for a type without a
// known extension or for one without such a webhook.
func mutatedByExtension(spec gardencorev1beta1.CloudProfileSpec) gardencorev1beta1.CloudProfileSpec {
	ext, ok := extensions.For(spec.Type)
	if !ok || ext.MutateCloudProfile == nil {
		return spec
	}
	return ext.MutateCloudProfile(spec)
}

// namespacedMutatedByExtension is spec as the NamespacedCloudProfile mutating webhook of the
// extension of the parent's type leaves it (the public extensions fill the capability flavors of the
// versions the spec's providerConfig maps when the parent defines machine capabilities). known is
// false when that cannot be told: without the parent, a spec that sets a providerConfig and machine
// images may be mutated by an extension the provider does not know of yet.
func namespacedMutatedByExtension(spec gardencorev1beta1.NamespacedCloudProfileSpec, parent *gardencorev1beta1.CloudProfile) (mutated gardencorev1beta1.NamespacedCloudProfileSpec, known bool) {
	if parent == nil {
		return spec, spec.ProviderConfig == nil || len(spec.MachineImages) == 0
	}
	ext, ok := extensions.For(parent.Spec.Type)
	if !ok || ext.MutateNamespacedCloudProfile == nil {
		return spec, true
	}
	return ext.MutateNamespacedCloudProfile(spec, parent.Spec), true
}
