package cloudprofile

import (
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Metadata rules (A rules).

// validateObjectMetadata runs Kubernetes' ObjectMeta validation for an object whose name must be a
// DNS-1123 subdomain; namespaced tells whether a namespace is required (a NamespacedCloudProfile) or
// forbidden (a CloudProfile). Findings on metadata.namespace are rule A-2; those on metadata.name
// and all other standard metadata findings (labels, annotations, finalizers, ...) are rule A-1.
func validateObjectMetadata(meta *metav1.ObjectMeta, namespaced bool, fld Path) Problems {
	errs := apivalidation.ValidateObjectMeta(meta, namespaced, apivalidation.NameIsDNSSubdomain, fld.field)
	ps := fromFieldErrors("A-1", fld, errs)
	namespace := fld.Child("namespace").Field()
	for i := range ps {
		if ps[i].Path.Field() == namespace {
			ps[i].Rule = "A-2"
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
