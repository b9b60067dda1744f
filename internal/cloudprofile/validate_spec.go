package cloudprofile

import (
	"crypto/x509"
	"encoding/pem"

	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Top-level spec rules of a CloudProfile (B rules). validateCABundle (B-2) and validateLimits (B-4)
// also apply to a NamespacedCloudProfile spec (K-8):
//
//	validateCABundle(caBundle *string, fld Path) Problems   // fld: spec.caBundle
//	validateLimits(limits *gardencorev1beta1.Limits, fld Path) Problems   // fld: spec.limits

// validateProviderType is rule B-1: spec.type is required; any other string is accepted.
func validateProviderType(providerType string, fld Path) Problems {
	if providerType == "" {
		return Problems{required("B-1", fld, "must provide a provider type")}
	}
	return nil
}

// validateCABundle is rule B-2: the first PEM block of a set caBundle must be a parseable X.509
// CERTIFICATE. Anything before or after that block is ignored; an empty string fails.
func validateCABundle(caBundle *string, fld Path) Problems {
	if caBundle == nil {
		return nil
	}
	block, _ := pem.Decode([]byte(*caBundle))
	if block != nil && block.Type == "CERTIFICATE" {
		if _, err := x509.ParseCertificate(block.Bytes); err == nil {
			return nil
		}
	}
	return Problems{invalid("B-2", fld, *caBundle, "caBundle is not a valid PEM-encoded certificate")}
}

// validateSeedSelector is rule B-3: Kubernetes' label selector validation (matchLabels and
// matchExpressions); providerTypes is not validated.
func validateSeedSelector(selector *gardencorev1beta1.SeedSelector, fld Path) Problems {
	if selector == nil {
		return nil
	}
	errs := metav1validation.ValidateLabelSelector(&selector.LabelSelector, metav1validation.LabelSelectorValidationOptions{}, fld.field)
	return fromFieldErrors("B-3", fld, errs)
}

// validateLimits is rule B-4: a set maxNodesTotal must be greater than 0.
func validateLimits(limits *gardencorev1beta1.Limits, fld Path) Problems {
	if limits == nil || limits.MaxNodesTotal == nil || *limits.MaxNodesTotal > 0 {
		return nil
	}
	return Problems{invalid("B-4", fld.Child("maxNodesTotal"), *limits.MaxNodesTotal, "maxNodesTotal must be greater than 0")}
}
