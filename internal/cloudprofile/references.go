package cloudprofile

import (
	"cmp"
	"fmt"
	"slices"
	"sort"

	apiequality "k8s.io/apimachinery/pkg/api/equality"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Cross-object admission of a CloudProfile update (N-1 … N-5): gardener-apiserver's
// ResourceReferenceManager compares the old and the new CloudProfile and refuses to remove what
// NamespacedCloudProfiles or Shoots still use.
//
// Gardener reports these findings as one Forbidden admission error made of plain messages; only the
// message text is reliable. Each finding here carries Gardener's message as Detail and is placed on
// the attribute of the CloudProfile the user changed:
//   - a removed Kubernetes version: spec.kubernetes.versions (the version is no longer in the list);
//   - a removed machine image: spec.machineImages; a removed image version:
//     spec.machineImages[i].versions of the image that still exists;
//   - an added machine image (N-3): spec.machineImages[i];
//   - a limit (N-4): spec.limits.maxNodesTotal;
//   - a removed capability definition (N-5): spec.machineCapabilities; values removed from a
//     definition that still exists: spec.machineCapabilities[i].values.
//
// Gardener checks NamespacedCloudProfiles and Shoots concurrently and reports in no fixed order;
// here NamespacedCloudProfiles come first, then Shoots, each sorted by namespace and name.

// Kind names of a cloud profile reference (spec.parent of an NCP, spec.cloudProfile of a Shoot).
const (
	kindCloudProfile           = "CloudProfile"
	kindNamespacedCloudProfile = "NamespacedCloudProfile"
	capabilityArchitecture     = "architecture"
)

// cloudProfileDiff is what an update changes that the ResourceReferenceManager looks at.
type cloudProfileDiff struct {
	removedKubernetes map[string]bool
	removedImages     map[string]bool
	// removedVersions holds, per image of the old spec, its versions missing from the new spec
	// (all of them when the image is gone).
	removedVersions map[string]map[string]bool
	addedImages     map[string]bool
	limitsChanged   bool
	// removedCapabilities are the definitions that disappeared and, for definitions that remain,
	// the values they lost; sorted by name.
	removedCapabilities []gardencorev1beta1.CapabilityDefinition
}

func diffCloudProfiles(newSpec, oldSpec *gardencorev1beta1.CloudProfileSpec) cloudProfileDiff {
	d := cloudProfileDiff{
		removedKubernetes: removedVersionSet(oldSpec.Kubernetes.Versions, newSpec.Kubernetes.Versions),
		removedImages:     map[string]bool{},
		removedVersions:   map[string]map[string]bool{},
		addedImages:       map[string]bool{},
		limitsChanged:     !apiequality.Semantic.DeepEqual(newSpec.Limits, oldSpec.Limits),
	}
	newImages := imagesByName(newSpec.MachineImages)
	oldImages := imagesByName(oldSpec.MachineImages)
	for name, oldImage := range oldImages {
		newImage, ok := newImages[name]
		if !ok {
			d.removedImages[name] = true
			d.removedVersions[name] = removedVersionSet(imageExpirableVersions(oldImage.Versions), nil)
			continue
		}
		if removed := removedVersionSet(imageExpirableVersions(oldImage.Versions), imageExpirableVersions(newImage.Versions)); len(removed) > 0 {
			d.removedVersions[name] = removed
		}
	}
	for name := range newImages {
		if _, ok := oldImages[name]; !ok {
			d.addedImages[name] = true
		}
	}
	d.removedCapabilities = removedCapabilities(oldSpec.MachineCapabilities, newSpec.MachineCapabilities)
	return d
}

// NeedsReferenceCheck reports whether an update from oldCP to newCP can break a reference of a
// NamespacedCloudProfile or a Shoot (N-1 … N-5), that is whether the objects that may refer to the
// CloudProfile have to be listed. It is false on create (oldCP nil) and while newCP is being
// deleted.
//
// Gardener lists the objects also when versions are only added to existing images or when limits
// change without a maxNodesTotal; no finding can arise from those, so they need no list here.
func NeedsReferenceCheck(newCP, oldCP *gardencorev1beta1.CloudProfile) bool {
	if newCP == nil || oldCP == nil || newCP.DeletionTimestamp != nil {
		return false
	}
	d := diffCloudProfiles(&newCP.Spec, &oldCP.Spec)
	return len(d.removedKubernetes) > 0 || len(d.removedVersions) > 0 || len(d.addedImages) > 0 ||
		(d.limitsChanged && maxNodesTotal(newCP.Spec.Limits) != nil) || len(d.removedCapabilities) > 0
}

// ValidateCloudProfileReferences returns what gardener-apiserver's ResourceReferenceManager reports
// when oldCP is replaced by newCP, given all NamespacedCloudProfiles and all Shoots of the Garden
// (of every namespace; the function picks the relevant ones). It returns nothing on create (oldCP
// nil) and while newCP is being deleted.
func ValidateCloudProfileReferences(newCP, oldCP *gardencorev1beta1.CloudProfile, ncps []gardencorev1beta1.NamespacedCloudProfile, shoots []gardencorev1beta1.Shoot) Problems {
	if newCP == nil || oldCP == nil || newCP.DeletionTimestamp != nil {
		return nil
	}
	d := diffCloudProfiles(&newCP.Spec, &oldCP.Spec)
	relevant := RelevantNamespacedCloudProfiles(newCP.Name, ncps)
	removedCaps := d.removedCapabilities
	// The exception of N-5: reverting to a legacy CloudProfile is allowed when no relevant NCP
	// refers to a capability other than the architecture.
	if len(removedCaps) > 0 && onlyArchitectureCapability(relevant) {
		removedCaps = nil
	}

	spec := NewPath("spec")
	k8sVersions := spec.Child("kubernetes").Child("versions")
	images := spec.Child("machineImages")
	newImageIndex := make(map[string]int, len(newCP.Spec.MachineImages))
	for i, img := range newCP.Spec.MachineImages {
		newImageIndex[img.Name] = i
	}
	// imageVersionsPath is where a removed version of an image is reported: the version list of the
	// image when it still exists, the image list when the whole image is gone.
	imageVersionsPath := func(image string) Path {
		if i, ok := newImageIndex[image]; ok {
			return images.Index(i).Child("versions")
		}
		return images
	}

	var ps Problems
	for _, ncp := range relevant {
		ref := ncp.Namespace + "/" + ncp.Name
		if ncp.Spec.Kubernetes != nil {
			for _, v := range ncp.Spec.Kubernetes.Versions {
				if d.removedKubernetes[v.Version] {
					ps = append(ps, forbidden("N-1", k8sVersions, fmt.Sprintf(
						"unable to delete Kubernetes version %q from CloudProfile %q - version is still in use by NamespacedCloudProfile '%s'", v.Version, newCP.Name, ref)))
				}
			}
		}
		violations := map[string]map[string]bool{}
		for _, img := range ncp.Spec.MachineImages {
			if d.removedImages[img.Name] {
				ps = append(ps, forbidden("N-2", images, fmt.Sprintf(
					"unable to delete MachineImage %q from CloudProfile %q - MachineImage is still in use by NamespacedCloudProfile %q", img.Name, newCP.Name, ref)))
			}
			if d.addedImages[img.Name] {
				ps = append(ps, forbidden("N-3", images.Index(newImageIndex[img.Name]), fmt.Sprintf(
					"unable to add MachineImage %q to CloudProfile %q - MachineImage is already defined by NamespacedCloudProfile %q", img.Name, newCP.Name, ref)))
			}
			if removed, ok := d.removedVersions[img.Name]; ok {
				for _, v := range img.Versions {
					if removed[v.Version] {
						ps = append(ps, forbidden("N-2", imageVersionsPath(img.Name), fmt.Sprintf(
							"unable to delete MachineImage version '%s/%s' from CloudProfile %q - version is still in use by NamespacedCloudProfile '%s'", img.Name, v.Version, newCP.Name, ref)))
					}
				}
			}
			for _, v := range img.Versions {
				for _, f := range v.CapabilityFlavors {
					collectCapabilityViolations(f.Capabilities, removedCaps, violations)
				}
			}
		}
		for _, mt := range ncp.Spec.MachineTypes {
			collectCapabilityViolations(mt.Capabilities, removedCaps, violations)
		}
		for _, c := range removedCaps {
			if values := violations[c.Name]; len(values) > 0 {
				ps = append(ps, forbidden("N-5", capabilityPath(newCP.Spec.MachineCapabilities, c.Name), fmt.Sprintf(
					"unable to delete MachineCapability %q with values %v from CloudProfile %q - capability values are still in use by NamespacedCloudProfile '%s'", c.Name, sortedSet(values), newCP.Name, ref)))
			}
		}
	}

	for _, shoot := range sortedShoots(shoots) {
		if shoot.DeletionTimestamp != nil || !shootRelatedToCloudProfile(&shoot, newCP.Name, relevant) {
			continue
		}
		ref := shoot.Namespace + "/" + shoot.Name
		if d.removedKubernetes[shoot.Spec.Kubernetes.Version] {
			ps = append(ps, forbidden("N-1", k8sVersions, fmt.Sprintf(
				"unable to delete Kubernetes version %q from CloudProfile %q - version is still in use by shoot '%s'", shoot.Spec.Kubernetes.Version, newCP.Name, ref)))
		}
		for _, w := range shoot.Spec.Provider.Workers {
			img := w.Machine.Image
			if img == nil || img.Version == nil {
				continue
			}
			if d.removedVersions[img.Name][*img.Version] {
				ps = append(ps, forbidden("N-2", imageVersionsPath(img.Name), fmt.Sprintf(
					"unable to delete Machine image version '%s/%s' from CloudProfile %q - version is still in use by shoot '%s' by worker %q", img.Name, *img.Version, newCP.Name, ref, w.Name)))
			}
		}
		if d.limitsChanged {
			if p, ok := workerLimitProblem("N-4", &shoot, newCP.Spec.Limits); ok {
				ps = append(ps, p)
			}
		}
	}
	return ps
}

// RelevantNamespacedCloudProfiles returns the NamespacedCloudProfiles whose parent is the named
// CloudProfile and that are not being deleted, sorted by namespace and name.
func RelevantNamespacedCloudProfiles(cloudProfile string, ncps []gardencorev1beta1.NamespacedCloudProfile) []gardencorev1beta1.NamespacedCloudProfile {
	var out []gardencorev1beta1.NamespacedCloudProfile
	for _, ncp := range ncps {
		if ncp.DeletionTimestamp == nil && ncp.Spec.Parent.Kind == kindCloudProfile && ncp.Spec.Parent.Name == cloudProfile {
			out = append(out, ncp)
		}
	}
	slices.SortFunc(out, func(a, b gardencorev1beta1.NamespacedCloudProfile) int {
		return compareNamespacedNames(&a.ObjectMeta, &b.ObjectMeta)
	})
	return out
}

// shootCloudProfile is the profile a shoot refers to: spec.cloudProfile (kind CloudProfile when
// empty), else the deprecated spec.cloudProfileName.
func shootCloudProfile(shoot *gardencorev1beta1.Shoot) (kind, name string, ok bool) {
	if ref := shoot.Spec.CloudProfile; ref != nil {
		kind = ref.Kind
		if kind == "" {
			kind = kindCloudProfile
		}
		return kind, ref.Name, true
	}
	if n := shoot.Spec.CloudProfileName; n != nil && *n != "" {
		return kindCloudProfile, *n, true
	}
	return "", "", false
}

// shootRelatedToCloudProfile reports whether shoot refers to the CloudProfile directly or to one of
// the relevant NamespacedCloudProfiles of its own namespace.
func shootRelatedToCloudProfile(shoot *gardencorev1beta1.Shoot, cloudProfile string, relevant []gardencorev1beta1.NamespacedCloudProfile) bool {
	kind, name, ok := shootCloudProfile(shoot)
	switch {
	case !ok:
		return false
	case kind == kindCloudProfile:
		return name == cloudProfile
	case kind == kindNamespacedCloudProfile:
		for _, ncp := range relevant {
			if ncp.Namespace == shoot.Namespace && ncp.Name == name {
				return true
			}
		}
	}
	return false
}

// workerLimitProblem is N-4 and N-8: the minimum node counts of all worker pools of shoot may not
// exceed limits.maxNodesTotal, when set.
func workerLimitProblem(rule string, shoot *gardencorev1beta1.Shoot, limits *gardencorev1beta1.Limits) (Problem, bool) {
	limit := maxNodesTotal(limits)
	if limit == nil {
		return Problem{}, false
	}
	var total int32
	for _, w := range shoot.Spec.Provider.Workers {
		total += w.Minimum
	}
	if total <= *limit {
		return Problem{}, false
	}
	return forbidden(rule, NewPath("spec").Child("limits").Child("maxNodesTotal"), fmt.Sprintf(
		"the total minimum node count of all worker pools of shoot \"%s/%s\" must not exceed the limit of %d total nodes configured in the cloud profile", shoot.Namespace, shoot.Name, *limit)), true
}

func maxNodesTotal(l *gardencorev1beta1.Limits) *int32 {
	if l == nil {
		return nil
	}
	return l.MaxNodesTotal
}

// removedCapabilities returns the definitions of old that are gone from new, and for the others
// the values they lost, sorted by name (values sorted too).
func removedCapabilities(old, new []gardencorev1beta1.CapabilityDefinition) []gardencorev1beta1.CapabilityDefinition {
	newDefs := make(map[string]map[string]bool, len(new))
	for _, c := range new {
		values := make(map[string]bool, len(c.Values))
		for _, v := range c.Values {
			values[v] = true
		}
		newDefs[c.Name] = values
	}
	var out []gardencorev1beta1.CapabilityDefinition
	seen := map[string]bool{}
	for _, c := range old {
		if seen[c.Name] {
			continue
		}
		seen[c.Name] = true
		values, ok := newDefs[c.Name]
		removed := map[string]bool{}
		for _, v := range c.Values {
			if !ok || !values[v] {
				removed[v] = true
			}
		}
		if !ok || len(removed) > 0 {
			out = append(out, gardencorev1beta1.CapabilityDefinition{Name: c.Name, Values: sortedSet(removed)})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// collectCapabilityViolations records which removed capability values caps uses.
func collectCapabilityViolations(caps gardencorev1beta1.Capabilities, removed []gardencorev1beta1.CapabilityDefinition, violations map[string]map[string]bool) {
	for _, c := range removed {
		for _, v := range caps[c.Name] {
			for _, r := range c.Values {
				if v == r {
					if violations[c.Name] == nil {
						violations[c.Name] = map[string]bool{}
					}
					violations[c.Name][v] = true
				}
			}
		}
	}
}

// onlyArchitectureCapability reports whether the NCPs refer to no capability other than the
// architecture, in machine image flavors and machine types.
func onlyArchitectureCapability(ncps []gardencorev1beta1.NamespacedCloudProfile) bool {
	for _, ncp := range ncps {
		for _, img := range ncp.Spec.MachineImages {
			for _, v := range img.Versions {
				for _, f := range v.CapabilityFlavors {
					for name := range f.Capabilities {
						if name != capabilityArchitecture {
							return false
						}
					}
				}
			}
		}
		for _, mt := range ncp.Spec.MachineTypes {
			for name := range mt.Capabilities {
				if name != capabilityArchitecture {
					return false
				}
			}
		}
	}
	return true
}

// capabilityPath is where a removed capability is reported: the values of the definition when it
// still exists, the definition list when it is gone.
func capabilityPath(defs []gardencorev1beta1.CapabilityDefinition, name string) Path {
	p := NewPath("spec").Child("machineCapabilities")
	for i, c := range defs {
		if c.Name == name {
			return p.Index(i).Child("values")
		}
	}
	return p
}

// removedVersionSet returns the versions of old that new lacks.
func removedVersionSet(old, new []gardencorev1beta1.ExpirableVersion) map[string]bool {
	present := make(map[string]bool, len(new))
	for _, v := range new {
		present[v.Version] = true
	}
	out := map[string]bool{}
	for _, v := range old {
		if !present[v.Version] {
			out[v.Version] = true
		}
	}
	return out
}

func imageExpirableVersions(vs []gardencorev1beta1.MachineImageVersion) []gardencorev1beta1.ExpirableVersion {
	out := make([]gardencorev1beta1.ExpirableVersion, len(vs))
	for i, v := range vs {
		out[i] = v.ExpirableVersion
	}
	return out
}

// imagesByName indexes images by name; like Gardener, a later duplicate wins.
func imagesByName(images []gardencorev1beta1.MachineImage) map[string]gardencorev1beta1.MachineImage {
	out := make(map[string]gardencorev1beta1.MachineImage, len(images))
	for _, img := range images {
		out[img.Name] = img
	}
	return out
}

// compareNamespacedNames orders objects by namespace, then name.
func compareNamespacedNames(a, b *metav1.ObjectMeta) int {
	return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
}

func sortedSet(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// sortedShoots returns the shoots sorted by namespace and name.
func sortedShoots(shoots []gardencorev1beta1.Shoot) []gardencorev1beta1.Shoot {
	out := append([]gardencorev1beta1.Shoot(nil), shoots...)
	slices.SortFunc(out, func(a, b gardencorev1beta1.Shoot) int { return compareNamespacedNames(&a.ObjectMeta, &b.ObjectMeta) })
	return out
}
