package cloudprofile

import (
	"fmt"
	"time"

	apiequality "k8s.io/apimachinery/pkg/api/equality"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Cross-object admission of a NamespacedCloudProfile update (N-6 … N-8): gardener-apiserver's
// ResourceReferenceManager refuses to remove an override that a Shoot of the namespace still needs,
// and a limit that such a Shoot exceeds. Findings carry Gardener's message and lie on the attribute
// the user changed: spec.kubernetes.versions (spec.kubernetes when the whole section is gone),
// spec.machineImages[i].versions (spec.machineImages when the whole image is gone), and
// spec.limits.maxNodesTotal.

// namespacedDiff is what an update of an NCP changes that the ResourceReferenceManager looks at.
type namespacedDiff struct {
	removedKubernetes map[string]bool
	removedVersions   map[string]map[string]bool
	limitsChanged     bool
}

func diffNamespacedCloudProfiles(newSpec, oldSpec *gardencorev1beta1.NamespacedCloudProfileSpec) namespacedDiff {
	d := namespacedDiff{
		removedKubernetes: map[string]bool{},
		removedVersions:   map[string]map[string]bool{},
		limitsChanged:     !apiequality.Semantic.DeepEqual(newSpec.Limits, oldSpec.Limits),
	}
	if oldSpec.Kubernetes != nil {
		var newVersions []gardencorev1beta1.ExpirableVersion
		if newSpec.Kubernetes != nil {
			newVersions = newSpec.Kubernetes.Versions
		}
		d.removedKubernetes = removedVersionSet(oldSpec.Kubernetes.Versions, newVersions)
	}
	newImages := imagesByName(newSpec.MachineImages)
	for _, oldImage := range oldSpec.MachineImages {
		var newVersions []gardencorev1beta1.ExpirableVersion
		if newImage, ok := newImages[oldImage.Name]; ok {
			newVersions = imageExpirableVersions(newImage.Versions)
		}
		if removed := removedVersionSet(imageExpirableVersions(oldImage.Versions), newVersions); len(removed) > 0 {
			if d.removedVersions[oldImage.Name] == nil {
				d.removedVersions[oldImage.Name] = map[string]bool{}
			}
			for v := range removed {
				d.removedVersions[oldImage.Name][v] = true
			}
		}
	}
	return d
}

// NeedsNamespacedReferenceCheck reports whether an update from oldNCP to newNCP can break a Shoot of
// the namespace (N-6 … N-8), that is whether the Shoots of the namespace have to be listed. It is
// false on create (oldNCP nil) and while newNCP is being deleted.
//
// Gardener lists the Shoots also when the old object merely has machine images, or when limits change
// without a maxNodesTotal; no finding can arise from those, so they need no list here.
func NeedsNamespacedReferenceCheck(newNCP, oldNCP *gardencorev1beta1.NamespacedCloudProfile) bool {
	if newNCP == nil || oldNCP == nil || newNCP.DeletionTimestamp != nil {
		return false
	}
	d := diffNamespacedCloudProfiles(&newNCP.Spec, &oldNCP.Spec)
	return len(d.removedKubernetes) > 0 || len(d.removedVersions) > 0 || (d.limitsChanged && maxNodesTotal(newNCP.Spec.Limits) != nil)
}

// ValidateNamespacedCloudProfileReferences returns what gardener-apiserver's ResourceReferenceManager
// reports when oldNCP is replaced by newNCP, given the Shoots of the NCP's namespace (others are
// ignored) and the parent CloudProfile, with versions classified at now. It returns nothing on
// create (oldNCP nil) and while newNCP is being deleted. When the parent is not known (nil), the
// checks that need it (N-6, N-7) are left out; Gardener would refuse the request then anyway.
func ValidateNamespacedCloudProfileReferences(newNCP, oldNCP *gardencorev1beta1.NamespacedCloudProfile, parent *gardencorev1beta1.CloudProfile, shoots []gardencorev1beta1.Shoot, now time.Time) Problems {
	if newNCP == nil || oldNCP == nil || newNCP.DeletionTimestamp != nil {
		return nil
	}
	d := diffNamespacedCloudProfiles(&newNCP.Spec, &oldNCP.Spec)

	parentKubernetes := map[string]gardencorev1beta1.ExpirableVersion{}
	parentImages := map[string]map[string]gardencorev1beta1.ExpirableVersion{}
	if parent != nil {
		for _, v := range parent.Spec.Kubernetes.Versions {
			parentKubernetes[v.Version] = v
		}
		for _, img := range parent.Spec.MachineImages {
			versions := make(map[string]gardencorev1beta1.ExpirableVersion, len(img.Versions))
			for _, v := range img.Versions {
				versions[v.Version] = v.ExpirableVersion
			}
			parentImages[img.Name] = versions
		}
	}

	spec := NewPath("spec")
	k8sPath := spec.Child("kubernetes")
	if newNCP.Spec.Kubernetes != nil {
		k8sPath = k8sPath.Child("versions")
	}
	images := spec.Child("machineImages")
	imageVersionsPath := func(image string) Path {
		for i, img := range newNCP.Spec.MachineImages {
			if img.Name == image {
				return images.Index(i).Child("versions")
			}
		}
		return images
	}
	ncpRef := newNCP.Namespace + "/" + newNCP.Name

	var ps Problems
	for _, shoot := range sortedShoots(shoots) {
		ref := shoot.Spec.CloudProfile
		if shoot.Namespace != newNCP.Namespace || shoot.DeletionTimestamp != nil || ref == nil ||
			ref.Kind != kindNamespacedCloudProfile || ref.Name != newNCP.Name {
			continue
		}
		shootRef := shoot.Namespace + "/" + shoot.Name
		// N-6: a version missing from the parent counts as not expired.
		if v := shoot.Spec.Kubernetes.Version; parent != nil && d.removedKubernetes[v] && IsExpired(parentKubernetes[v], now) {
			ps = append(ps, forbidden("N-6", k8sPath, fmt.Sprintf(
				"unable to delete Kubernetes version %q from NamespacedCloudProfile '%s' - version with extended expiration date is still in use by shoot '%s'", v, ncpRef, shootRef)))
		}
		// N-7: a version missing from the parent counts as expired.
		for _, w := range shoot.Spec.Provider.Workers {
			img := w.Machine.Image
			if parent == nil || img == nil || img.Version == nil || !d.removedVersions[img.Name][*img.Version] {
				continue
			}
			if pv, ok := parentImages[img.Name][*img.Version]; !ok || IsExpired(pv, now) {
				ps = append(ps, forbidden("N-7", imageVersionsPath(img.Name), fmt.Sprintf(
					"unable to delete Machine image version '%s/%s' from NamespacedCloudProfile '%s' - version is still in use by shoot '%s' by worker %q", img.Name, *img.Version, ncpRef, shootRef, w.Name)))
			}
		}
		if d.limitsChanged {
			if p, ok := workerLimitProblem("N-8", &shoot, newNCP.Spec.Limits); ok {
				ps = append(ps, p)
			}
		}
	}
	return ps
}
