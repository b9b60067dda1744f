package cloudprofile

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"
)

// Checks of single values that several groups of rules share: names and quantities.

// validateUnprefixedQualifiedName returns the messages for a name that is not a Kubernetes
// qualified name, or that has a prefix (contains "/").
func validateUnprefixedQualifiedName(name string) []string {
	if errs := validation.IsQualifiedName(name); len(errs) > 0 {
		return errs
	}
	if strings.Contains(name, "/") {
		return []string{fmt.Sprintf("name '%s' must not contain a prefix", name)}
	}
	return nil
}

// isNegativeErrorMsg is Kubernetes' message for a negative quantity.
const isNegativeErrorMsg = "must be greater than or equal to 0"

// validateNonNegativeQuantity is Gardener's ValidateResourceQuantityValue for the resources a
// CloudProfile names (cpu, gpu, memory, size, minSize), none of which must be an integer.
// p builds the path only when the quantity is negative.
func validateNonNegativeQuantity(rule string, q resource.Quantity, p func() Path) Problems {
	if q.Sign() < 0 {
		return Problems{invalid(rule, p(), q.String(), isNegativeErrorMsg)}
	}
	return nil
}
