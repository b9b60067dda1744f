package cloudprofile

import (
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// ValidateCloudProfileRequest returns what gardener-apiserver's static validation reports when a
// user creates cp (old == nil) or replaces old with cp: it defaults the objects, prepares them as
// the API server does (PrepareCloudProfileForCreate or PrepareCloudProfileForUpdate) and validates
// the result (ValidateCloudProfile or ValidateCloudProfileUpdate). Before that, the labels are
// changed as Gardener's ExtensionLabels admission plugin changes them; the findings on the label it
// derives from spec.type are reported at spec.type (rule B-5).
//
// Gardener's field paths refer to the prepared object, so after create-time dropping their indices
// may differ from the user's object; the attribute steps of each problem are mapped back to the
// indices of the user's object, so that they name the attribute the user has to change.
func ValidateCloudProfileRequest(cp, old *gardencorev1beta1.CloudProfile, opts Options) Problems {
	if cp == nil {
		return nil
	}
	// A shallow copy with new metadata: the preparation below copies what it changes.
	labelled := *cp
	labelled.ObjectMeta = withExtensionLabels(cp.ObjectMeta, &cp.Spec.Type)
	cp = &labelled
	if old != nil {
		prepared, defaultedOld := prepareForUpdate(cp, old)
		return providerTypeLabelProblems(ValidateCloudProfileUpdate(prepared, defaultedOld, opts), cp.Spec.Type)
	}
	prepared, _, idx := prepareForCreate(cp, opts)
	ps := ValidateCloudProfile(prepared, opts)
	for i := range ps {
		ps[i].Path = idx.remap(ps[i].Path)
	}
	return providerTypeLabelProblems(ps, cp.Spec.Type)
}

// remap rewrites the list indices of a path into a prepared object's version lists
// (spec.kubernetes.versions[i], spec.machine_images[i].versions[j]) to those of the original.
func (m indexMap) remap(p Path) Path {
	steps := p.Steps()
	isAttr := func(k int, name string) bool {
		return len(steps) > k && steps[k].Kind == StepAttribute && steps[k].Name == name
	}
	isIndex := func(k int) bool { return len(steps) > k && steps[k].Kind == StepIndex }
	if !isAttr(0, "spec") {
		return p
	}
	switch {
	case isAttr(1, "kubernetes") && isAttr(2, "versions") && isIndex(3):
		if i := steps[3].Index; i < len(m.kubernetes) {
			return p.withStepIndex(3, m.kubernetes[i])
		}
	case isAttr(1, "machine_images") && isIndex(2) && isAttr(3, "versions") && isIndex(4):
		if i, j := steps[2].Index, steps[4].Index; i < len(m.images) && j < len(m.images[i]) {
			return p.withStepIndex(4, m.images[i][j])
		}
	}
	return p
}

// withStepIndex returns a copy of p whose attribute step k (an index step) selects index instead.
func (p Path) withStepIndex(k, index int) Path {
	return Path{field: p.field, steps: p.steps.withIndexAt(k, index)}
}
