package cloudprofile

import (
	apivalidation "k8s.io/apimachinery/pkg/api/validation"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	v1beta1constants "github.com/gardener/gardener/pkg/apis/core/v1beta1/constants"
)

// Metadata rules (A rules) and constants shared by the rules.

const (
	architectureCapability = v1beta1constants.ArchitectureName
	defaultArchitecture    = v1beta1constants.ArchitectureAMD64
)

// validArchitectures are the CPU architectures Gardener accepts without capability definitions.
var validArchitectures = v1beta1constants.ValidArchitectures

// validateCloudProfileMetadata runs Kubernetes' ObjectMeta validation for a cluster-scoped object
// whose name must be a DNS-1123 subdomain. Findings on metadata.name are rule A-1, on
// metadata.namespace (forbidden for a CloudProfile) rule A-2; all other standard metadata findings
// (labels, annotations, finalizers, ...) are reported as A-1 too.
func validateCloudProfileMetadata(cp *gardencorev1beta1.CloudProfile, fld Path) Problems {
	errs := apivalidation.ValidateObjectMeta(&cp.ObjectMeta, false, apivalidation.NameIsDNSSubdomain, fld.field)
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
