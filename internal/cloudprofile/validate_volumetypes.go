package cloudprofile

import (
	"fmt"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Volume type rules (H rules), for CloudProfiles, NamespacedCloudProfile specs (K-6) and merged
// statuses (M-5):
//
//	validateVolumeTypes(types []gardencorev1beta1.VolumeType, fld Path) Problems
//
// A volume type list is never required.

// validateVolumeTypes is H-1 (name required and an unprefixed qualified name), H-2 (a repeated
// name; validation of the whole remaining list stops there), H-3 (class required and an
// unprefixed qualified name) and H-4 (minSize not negative).
func validateVolumeTypes(types []gardencorev1beta1.VolumeType, fld Path) Problems {
	var ps Problems
	names := make(map[string]bool, len(types))
	for i, w := range types {
		wp := func() Path { return fld.Index(i) }
		if w.Name == "" {
			ps = append(ps, required("H-1", wp().Child("name"), "must provide a name"))
		} else if errs := validateUnprefixedQualifiedName(w.Name); len(errs) > 0 {
			ps = append(ps, invalid("H-1", wp().Child("name"), w.Name, fmt.Sprintf("volume type name must be a qualified name: %v", errs)))
		}

		if names[w.Name] {
			ps = append(ps, duplicate("H-2", wp().Child("name"), w.Name))
			break
		}
		names[w.Name] = true

		if w.Class == "" {
			ps = append(ps, required("H-3", wp().Child("class"), "must provide a class"))
		} else if errs := validateUnprefixedQualifiedName(w.Class); len(errs) > 0 {
			ps = append(ps, invalid("H-3", wp().Child("class"), w.Class, fmt.Sprintf("volume class must be a qualified name: %v", errs)))
		}

		if w.MinSize != nil {
			ps = append(ps, validateNonNegativeQuantity("H-4", *w.MinSize, func() Path { return wp().Child("minSize") })...)
		}
	}
	return ps
}
