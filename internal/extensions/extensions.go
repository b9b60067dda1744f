// Package extensions is the registry of the provider extensions whose admission the provider knows
// offline: Gardener's provider-local and the public extensions for AWS, Azure, GCP, OpenStack and
// Alibaba Cloud, each in a package of its own that follows one release of the extension. For a
// profile of another provider type there is no offline extension check.
//
// Files:
//   - extensions.go: Extension, For, Known and RuleOf.
package extensions

import (
	"cmp"
	"slices"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/alicloud"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/aws"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/azure"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/gcp"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/local"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/openstack"
)

// Extension is the offline admission of one provider extension: the checks its validating webhooks
// make of the profiles of its provider type, the catalogue of their rules, and what its
// NamespacedCloudProfile mutator writes into the merged profile.
type Extension struct {
	// Type is the provider type (spec.type) whose profiles the extension admits.
	Type string
	// Release names the release of the extension the checks follow.
	Release string
	// ValidateCloudProfile checks the CloudProfile of the given name as it is stored.
	ValidateCloudProfile func(name string, spec gardencorev1beta1.CloudProfileSpec) cloudprofile.Problems
	// ValidateNamespacedCloudProfile checks a NamespacedCloudProfile with its parent's spec.
	ValidateNamespacedCloudProfile func(name string, spec gardencorev1beta1.NamespacedCloudProfileSpec, parent gardencorev1beta1.CloudProfileSpec) cloudprofile.Problems
	// Rules is the catalogue of the rule ids the checks report.
	Rules []cloudprofile.RuleInfo
	// MergeProviderConfig returns the providerConfig of the status.cloudProfileSpec of the
	// NamespacedCloudProfile of the given name once the extension's mutator has merged the
	// profile's own providerConfig (spec) into the parent's (status, as Gardener's controller
	// writes it); defs are the parent's capability definitions. The mutator writes images and
	// versions in random order: compare results as sets.
	MergeProviderConfig func(name string, spec, status *runtime.RawExtension, defs []gardencorev1beta1.CapabilityDefinition) (*runtime.RawExtension, error)
	// ProviderImages lists the images the providerConfig of a CloudProfile spec (or of a merged
	// profile) gives each machine image version, per region and architecture; nil when it cannot
	// be decoded.
	ProviderImages func(spec gardencorev1beta1.CloudProfileSpec) extcommon.ProviderImages
	// MutateCloudProfile returns a CloudProfile spec as the extension's CloudProfile mutating
	// webhook leaves it (it runs after Gardener's defaulting, before the CloudProfile strategy);
	// nil for an extension without one.
	MutateCloudProfile func(spec gardencorev1beta1.CloudProfileSpec) gardencorev1beta1.CloudProfileSpec
	// MutateNamespacedCloudProfile returns a NamespacedCloudProfile spec as the extension's
	// NamespacedCloudProfile mutating webhook leaves it, with its parent's spec; nil for an
	// extension whose mutator changes no spec.
	MutateNamespacedCloudProfile func(spec gardencorev1beta1.NamespacedCloudProfileSpec, parent gardencorev1beta1.CloudProfileSpec) gardencorev1beta1.NamespacedCloudProfileSpec
}

// known are the extensions, by provider type.
var known = func() map[string]Extension {
	merge := func(m func(spec, status *runtime.RawExtension) (*runtime.RawExtension, error)) func(string, *runtime.RawExtension, *runtime.RawExtension, []gardencorev1beta1.CapabilityDefinition) (*runtime.RawExtension, error) {
		return func(_ string, spec, status *runtime.RawExtension, _ []gardencorev1beta1.CapabilityDefinition) (*runtime.RawExtension, error) {
			return m(spec, status)
		}
	}
	all := []Extension{
		{Type: local.Type, Release: "Gardener v1.149.3 (provider-local)", ValidateCloudProfile: local.ValidateCloudProfile,
			ValidateNamespacedCloudProfile: local.ValidateNamespacedCloudProfile, Rules: local.Rules(), MergeProviderConfig: local.MergeProviderConfig,
			ProviderImages: local.ProviderImages},
		{Type: aws.Type, Release: aws.Release, ValidateCloudProfile: aws.ValidateCloudProfile,
			ValidateNamespacedCloudProfile: aws.ValidateNamespacedCloudProfile, Rules: aws.Rules(),
			MergeProviderConfig: merge(aws.MergeProviderConfig), ProviderImages: aws.ProviderImages,
			MutateCloudProfile:           aws.MutateCloudProfile,
			MutateNamespacedCloudProfile: aws.MutateNamespacedCloudProfile},
		{Type: azure.Type, Release: azure.Release, ValidateCloudProfile: azure.ValidateCloudProfile,
			ValidateNamespacedCloudProfile: azure.ValidateNamespacedCloudProfile, Rules: azure.Rules(),
			MergeProviderConfig: merge(azure.MergeProviderConfig), ProviderImages: azure.ProviderImages,
			MutateCloudProfile:           azure.MutateCloudProfile,
			MutateNamespacedCloudProfile: azure.MutateNamespacedCloudProfile},
		{Type: gcp.Type, Release: gcp.Release, ValidateCloudProfile: gcp.ValidateCloudProfile,
			ValidateNamespacedCloudProfile: gcp.ValidateNamespacedCloudProfile, Rules: gcp.Rules(),
			MergeProviderConfig: merge(gcp.MergeProviderConfig), ProviderImages: gcp.ProviderImages,
			MutateCloudProfile:           gcp.MutateCloudProfile,
			MutateNamespacedCloudProfile: gcp.MutateNamespacedCloudProfile},
		{Type: openstack.Type, Release: openstack.Release, ValidateCloudProfile: openstack.ValidateCloudProfile,
			ValidateNamespacedCloudProfile: openstack.ValidateNamespacedCloudProfile, Rules: openstack.Rules(),
			MergeProviderConfig: merge(openstack.MergeProviderConfig), ProviderImages: openstack.ProviderImages,
			MutateCloudProfile:           openstack.MutateCloudProfile,
			MutateNamespacedCloudProfile: openstack.MutateNamespacedCloudProfile},
		{Type: alicloud.Type, Release: alicloud.Release, ValidateCloudProfile: alicloud.ValidateCloudProfile,
			ValidateNamespacedCloudProfile: alicloud.ValidateNamespacedCloudProfile, Rules: alicloud.Rules(),
			MergeProviderConfig: merge(alicloud.MergeProviderConfig), ProviderImages: alicloud.ProviderImages,
			MutateCloudProfile:           alicloud.MutateCloudProfile,
			MutateNamespacedCloudProfile: alicloud.MutateNamespacedCloudProfile},
	}
	out := make(map[string]Extension, len(all))
	for _, e := range all {
		out[e.Type] = e
	}
	return out
}()

// For returns the extension that admits profiles of the provider type; false for a type the
// provider knows no extension of.
func For(providerType string) (Extension, bool) {
	e, ok := known[providerType]
	return e, ok
}

// Known returns every extension, ordered by provider type.
func Known() []Extension {
	out := make([]Extension, 0, len(known))
	for _, e := range known {
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b Extension) int { return cmp.Compare(a.Type, b.Type) })
	return out
}

// RuleOf finds a rule of an extension by its id, with the extension.
func RuleOf(id string) (Extension, cloudprofile.RuleInfo, bool) {
	for _, e := range known {
		for _, r := range e.Rules {
			if r.ID == id {
				return e, r, true
			}
		}
	}
	return Extension{}, cloudprofile.RuleInfo{}, false
}
