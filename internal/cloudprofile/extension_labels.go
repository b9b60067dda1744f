package cloudprofile

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	v1beta1constants "github.com/gardener/gardener/pkg/apis/core/v1beta1/constants"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// extensionLabelPrefixes are the label prefixes Gardener's ExtensionLabels admission plugin owns:
// it removes every label with one of them before it validates an object.
var extensionLabelPrefixes = []string{
	v1beta1constants.LabelExtensionExtensionTypePrefix,
	v1beta1constants.LabelExtensionProviderTypePrefix,
	v1beta1constants.LabelExtensionDNSRecordTypePrefix,
	v1beta1constants.LabelExtensionNetworkingTypePrefix,
	v1beta1constants.LabelExtensionOperatingSystemConfigTypePrefix,
	v1beta1constants.LabelExtensionContainerRuntimeTypePrefix,
	v1beta1constants.LabelExtensionSelfHostedShootExposureTypePrefix,
}

// isExtensionLabel tells whether Gardener owns a label key.
func isExtensionLabel(key string) bool {
	for _, p := range extensionLabelPrefixes {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}

// withExtensionLabels returns a copy of meta as Gardener's ExtensionLabels plugin leaves it: the
// labels with extension prefixes removed and, when providerType is not nil, the label
// provider.extensions.gardener.cloud/<type>: "true" set (a CloudProfile's own type, a
// NamespacedCloudProfile's parent's type).
func withExtensionLabels(meta metav1.ObjectMeta, providerType *string) metav1.ObjectMeta {
	out := *meta.DeepCopy()
	for k := range out.Labels {
		if isExtensionLabel(k) {
			delete(out.Labels, k)
		}
	}
	if providerType != nil {
		metav1.SetMetaDataLabel(&out, v1beta1constants.LabelExtensionProviderTypePrefix+*providerType, "true")
	}
	return out
}

// ExtensionLabelProblems reports configured labels that Gardener's ExtensionLabels plugin removes
// (rule X-1, the provider's own): Gardener accepts the object but does not store them, so a
// configuration that sets them could never match what is stored.
func ExtensionLabelProblems(labels map[string]string) Problems {
	var ps Problems
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		if isExtensionLabel(k) {
			ps = append(ps, Problem{
				Rule: "X-1", Type: Forbidden, Path: NewPath("metadata").Child("labels").Key(k),
				Detail: fmt.Sprintf("Gardener manages labels with the prefixes %s and removes such labels from what it stores; remove %q from the configuration", strings.Join(extensionLabelPrefixes, ", "), k),
			})
		}
	}
	return ps
}

// WithoutExtensionLabels returns the labels without those Gardener's ExtensionLabels plugin owns,
// nil when none remain: a configuration can never set them (rule X-1), so they are never part of
// what a resource manages, not even of an object imported before the provider applied it.
func WithoutExtensionLabels(labels map[string]string) map[string]string {
	var out map[string]string
	for k, v := range labels {
		if isExtensionLabel(k) {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[k] = v
	}
	return out
}

// EmptyProviderTypeLabel is the provider label Gardener gives a CloudProfile without spec.type,
// which is no valid label key.
const EmptyProviderTypeLabel = v1beta1constants.LabelExtensionProviderTypePrefix

// WithoutRepeatsOfMissingType leaves out the errors on the empty type's provider label when the
// missing type itself (B-1) is among the problems: they have that one cause, and would point at
// metadata.name.
func (ps Problems) WithoutRepeatsOfMissingType() Problems {
	if !slices.ContainsFunc(ps, func(p Problem) bool { return p.Rule == "B-1" }) {
		return ps
	}
	return slices.DeleteFunc(slices.Clone(ps), func(p Problem) bool { return p.BadValue == EmptyProviderTypeLabel })
}
