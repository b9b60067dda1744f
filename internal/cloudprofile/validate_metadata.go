package cloudprofile

import (
	"maps"
	"slices"

	v1beta1constants "github.com/gardener/gardener/pkg/apis/core/v1beta1/constants"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Metadata rules (A rules).

// validateObjectMetadata runs Kubernetes' ObjectMeta validation for an object whose name must be a
// DNS-1123 subdomain; namespaced tells whether a namespace is required (a NamespacedCloudProfile) or
// forbidden (a CloudProfile). Findings on metadata.namespace are rule A-2, on metadata.labels A-4
// (on the label's key: Kubernetes names the bad key or value, not the label), on
// metadata.annotations A-5; those on metadata.name and the other standard metadata are rule A-1.
func validateObjectMetadata(meta *metav1.ObjectMeta, namespaced bool, fld Path) Problems {
	errs := apivalidation.ValidateObjectMeta(meta, namespaced, apivalidation.NameIsDNSSubdomain, fld.field)
	ps := fromFieldErrors("A-1", fld, errs)
	namespace := fld.Child("namespace").Field()
	labels := fld.Child("labels")
	annotations := fld.Child("annotations").Field()
	for i := range ps {
		switch ps[i].Path.Field() {
		case namespace:
			ps[i].Rule = "A-2"
		case labels.Field():
			ps[i].Rule = "A-4"
			if k, ok := labelOf(meta.Labels, ps[i].BadValue); ok {
				ps[i].Path = labels.AttributeOnly(Step{Kind: StepKey, Key: k})
			}
		case annotations:
			ps[i].Rule = "A-5"
		}
	}
	return ps
}

// labelOf finds the key of the label a finding of Kubernetes' label validation is about: its bad
// value is either a key or a value (the first label, by key, that has it).
func labelOf(labels map[string]string, bad any) (string, bool) {
	s, ok := bad.(string)
	if !ok {
		return "", false
	}
	if _, isKey := labels[s]; isKey {
		return s, true
	}
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		if labels[k] == s {
			return k, true
		}
	}
	return "", false
}

// providerTypeLabelProblems turns the findings on the label Gardener derives from spec.type (see
// withExtensionLabels) into findings of rule B-5 on spec.type: the user's fix is the type.
func providerTypeLabelProblems(ps Problems, providerType string) Problems {
	label := v1beta1constants.LabelExtensionProviderTypePrefix + providerType
	specType := NewPath("spec").Child("type").Steps()
	for i := range ps {
		if ps[i].Rule == "A-4" && ps[i].BadValue == label {
			ps[i].Rule = "B-5"
			ps[i].Path = ps[i].Path.WithAttributeSteps(specType)
		}
	}
	return ps
}

// validateCloudProfileMetadataUpdate applies the metadata update rule a Terraform user can run into
// the name is immutable. The other standard update rules (uid, creationTimestamp,
// resourceVersion, ...) concern fields the API server manages.
func validateCloudProfileMetadataUpdate(newCP, oldCP *gardencorev1beta1.CloudProfile, fld Path) Problems {
	if newCP.Name != oldCP.Name {
		return Problems{invalid("A-3", fld.Child("name"), newCP.Name, apivalidation.FieldImmutableErrorMsg)}
	}
	return nil
}
