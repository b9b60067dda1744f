package cloudprofile

import (
	"strings"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// ValidateNamespacedCloudProfileRequest returns what gardener-apiserver's static validation says
// when a user creates ncp (old == nil) or replaces old with it: the object is prepared as the API
// server stores it (StoredNamespacedCloudProfile) and validated. The attribute steps of every
// problem refer to ncp as given, even where Gardener dropped versions before validating.
func ValidateNamespacedCloudProfileRequest(ncp, old *gardencorev1beta1.NamespacedCloudProfile, opts Options) Problems {
	// Gardener's ExtensionLabels plugin runs first; the provider-type label it adds comes from the
	// parent, which static validation does not know, so only its removals are applied here.
	ncp = ncp.DeepCopy()
	ncp.ObjectMeta = withExtensionLabels(ncp.ObjectMeta, nil)
	stored, _ := StoredNamespacedCloudProfile(ncp, old, opts)
	var ps Problems
	if old != nil {
		ps = ValidateNamespacedCloudProfileUpdate(stored, old, opts)
	} else {
		ps = ValidateNamespacedCloudProfile(stored, opts)
	}
	return remapNamespaced(ps, stored.Spec, ncp.Spec)
}

// AdmitNamespacedCloudProfileRequest returns what Gardener's admission says about ncp against its
// parent (L and M rules) on create (old == nil) or update; parent == nil means the parent does not
// exist. Attribute steps refer to ncp as given.
func AdmitNamespacedCloudProfileRequest(ncp, old *gardencorev1beta1.NamespacedCloudProfile, parent *gardencorev1beta1.CloudProfile, opts Options) Problems {
	stored, _ := StoredNamespacedCloudProfile(ncp, old, opts)
	return remapNamespaced(ValidateNamespacedCloudProfileAgainstParent(stored, old, parent, opts), stored.Spec, ncp.Spec)
}

// HoldsBackLaterChecks tells whether p is an error of Gardener's override checks against the parent
// (L-1 … L-10): Gardener checks the Kubernetes overrides, then the machine image overrides, then the
// merged profile (M rules), and stops at the first stage that fails, so more problems may follow
// once p is fixed.
func HoldsBackLaterChecks(p Problem) bool {
	return p.Severity == SeverityError && strings.HasPrefix(p.Rule, "L-") && p.Rule != "L-0"
}

func remapNamespaced(ps Problems, stored, original gardencorev1beta1.NamespacedCloudProfileSpec) Problems {
	m := namespacedIndexMapOf(stored, original)
	for i := range ps {
		ps[i].Path = m.remap(ps[i].Path)
	}
	return ps
}

// namespacedIndexMap maps list indices of a stored NamespacedCloudProfile spec to those of the spec
// the user gave, by key (version, image name), since Gardener may drop versions and whole images.
type namespacedIndexMap struct {
	kubernetes    []int
	images        []int
	imageVersions [][]int
}

func namespacedIndexMapOf(stored, original gardencorev1beta1.NamespacedCloudProfileSpec) namespacedIndexMap {
	var m namespacedIndexMap
	if stored.Kubernetes != nil && original.Kubernetes != nil {
		m.kubernetes = indicesByKey(stored.Kubernetes.Versions, original.Kubernetes.Versions,
			func(v gardencorev1beta1.ExpirableVersion) string { return v.Version })
	}
	imageName := func(img gardencorev1beta1.MachineImage) string { return img.Name }
	m.images = indicesByKey(stored.MachineImages, original.MachineImages, imageName)
	m.imageVersions = make([][]int, len(stored.MachineImages))
	for i, img := range stored.MachineImages {
		if o := m.images[i]; o >= 0 {
			m.imageVersions[i] = indicesByKey(img.Versions, original.MachineImages[o].Versions,
				func(v gardencorev1beta1.MachineImageVersion) string { return v.Version })
		}
	}
	return m
}

// indicesByKey returns, for each element of stored, the index of the element with the same key in
// original (the first one not taken yet), or -1.
func indicesByKey[T any](stored, original []T, key func(T) string) []int {
	positions := make(map[string][]int, len(original))
	for i, e := range original {
		positions[key(e)] = append(positions[key(e)], i)
	}
	out := make([]int, len(stored))
	for i, e := range stored {
		out[i] = -1
		if p := positions[key(e)]; len(p) > 0 {
			out[i], positions[key(e)] = p[0], p[1:]
		}
	}
	return out
}

// remap rewrites the indices of spec.kubernetes.versions[i], spec.machine_images[i] and
// spec.machine_images[i].versions[j] from the stored spec to the original one.
func (m namespacedIndexMap) remap(p Path) Path {
	steps := p.Steps()
	isAttr := func(k int, name string) bool {
		return len(steps) > k && steps[k].Kind == StepAttribute && steps[k].Name == name
	}
	isIndex := func(k int) bool { return len(steps) > k && steps[k].Kind == StepIndex }
	mapped := func(list []int, i int) (int, bool) {
		if i < len(list) && list[i] >= 0 {
			return list[i], true
		}
		return 0, false
	}
	if !isAttr(0, "spec") {
		return p
	}
	switch {
	case isAttr(1, "kubernetes") && isAttr(2, "versions") && isIndex(3):
		if o, ok := mapped(m.kubernetes, steps[3].Index); ok {
			return p.withStepIndex(3, o)
		}
	case isAttr(1, "machine_images") && isIndex(2):
		i := steps[2].Index
		out := p
		if isAttr(3, "versions") && isIndex(4) && i < len(m.imageVersions) {
			if o, ok := mapped(m.imageVersions[i], steps[4].Index); ok {
				out = out.withStepIndex(4, o)
			}
		}
		if o, ok := mapped(m.images, i); ok {
			out = out.withStepIndex(2, o)
		}
		return out
	}
	return p
}
