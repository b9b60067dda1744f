package cloudprofile

import (
	"fmt"
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Parent-aware admission of a NamespacedCloudProfile (L and M rules): gardener-apiserver's
// NamespacedCloudProfileValidator, which runs after static validation on the object the strategy
// prepared (StoredNamespacedCloudProfile).
//
// Gardener reports these findings as plain admission errors, not as field errors: only the message
// text is reliable. Each finding here carries Gardener's message as Detail and, where the message
// names a field, that field's path:
//   - L-0: the parent does not exist ("parent CloudProfile could not be found", step 1);
//   - L-1 … L-3 (Kubernetes overrides): Gardener stops at the first one;
//   - L-4 … L-10 (machine image overrides): collected, reported at Gardener's field paths
//     (spec.machineImages[i]...). L-9 and L-10 apply CloudProfile rules and are reported as
//     "L-9/F-3", "L-10/F-7" and so on;
//   - M-1 … M-5 (validation of the merged status): reported with Gardener's field paths under
//     status.cloudProfileSpec and rule identifiers such as "M-1/C-3" or "M-2/F-7". Their
//     Terraform attribute steps point at what a user can change: the entry of spec that produced
//     the merged element (spec.machine_images[i].versions[j]..., mapped from the merged index by
//     key), or spec.parent when the problem lies in data inherited from the parent, which the
//     Detail then says.
//
// Like Gardener, the function returns the findings of the first failing stage only: Kubernetes
// overrides, then machine image overrides, then the merged status.

// ValidateNamespacedCloudProfileAgainstParent returns what gardener-apiserver's
// NamespacedCloudProfileValidator reports for ncp, the prepared object (see
// StoredNamespacedCloudProfile), when it is created (old == nil) or replaces old (the stored
// object, including its status). parent is the CloudProfile ncp.spec.parent names, nil if it does
// not exist. The merged status is computed with Gardener v1.149's merge.
func ValidateNamespacedCloudProfileAgainstParent(ncp, old *gardencorev1beta1.NamespacedCloudProfile, parent *gardencorev1beta1.CloudProfile, opts Options) Problems {
	if ncp == nil {
		return nil
	}
	update := old != nil
	// Step 0: an update that changes neither spec nor metadata (or that happens during deletion
	// without changing the spec) is not checked again.
	if update && reflect.DeepEqual(ncp.Spec, old.Spec) &&
		(reflect.DeepEqual(ncp.ObjectMeta, old.ObjectMeta) || ncp.DeletionTimestamp != nil) {
		return nil
	}
	// Step 1.
	if parent == nil {
		return Problems{invalid("L-0", NewPath("spec").Child("parent").Child("name"), ncp.Spec.Parent.Name, "parent CloudProfile could not be found")}
	}

	// Step 2: all further checks see both specs in the parent's format.
	defs := parent.Spec.MachineCapabilities
	spec := TransformToParentFormat(ncp.Spec, defs)
	a := admission{ncp: ncp, spec: &spec, parent: parent, opts: opts}
	if update {
		oldSpec := TransformToParentFormat(old.Spec, defs)
		a.old, a.oldSpec = old, &oldSpec
	}

	if ps := a.validateKubernetesOverrides(); len(ps) > 0 {
		return ps
	}
	if ps := a.validateMachineImageOverrides(); len(ps) > 0 {
		return ps
	}
	return a.validateMergedStatus()
}

// admission holds the inputs of one admission check.
type admission struct {
	ncp     *gardencorev1beta1.NamespacedCloudProfile
	spec    *gardencorev1beta1.NamespacedCloudProfileSpec // transformed
	old     *gardencorev1beta1.NamespacedCloudProfile     // nil on create
	oldSpec *gardencorev1beta1.NamespacedCloudProfileSpec // transformed, nil on create
	parent  *gardencorev1beta1.CloudProfile
	opts    Options
}

func (a *admission) update() bool { return a.old != nil }

// validateKubernetesOverrides is step 3 (L-1 … L-3); it returns the first failure only.
func (a *admission) validateKubernetesOverrides() Problems {
	if a.spec.Kubernetes == nil {
		return nil
	}
	parentVersions := make(map[string]bool, len(a.parent.Spec.Kubernetes.Versions))
	for _, v := range a.parent.Spec.Kubernetes.Versions {
		parentVersions[v.Version] = true
	}
	var merged map[string]gardencorev1beta1.ExpirableVersion
	if a.update() {
		merged = make(map[string]gardencorev1beta1.ExpirableVersion, len(a.old.Status.CloudProfileSpec.Kubernetes.Versions))
		for _, v := range a.old.Status.CloudProfileSpec.Kubernetes.Versions {
			merged[v.Version] = v
		}
	}

	versions := NewPath("spec").Child("kubernetes").Child("versions")
	for i, v := range a.spec.Kubernetes.Versions {
		vp := versions.Index(i)
		if !parentVersions[v.Version] {
			return Problems{invalid("L-1", vp.Child("version"), v.Version,
				fmt.Sprintf("invalid kubernetes version specified: '%s' does not exist in parent CloudProfile and thus cannot be overridden", v.Version))}
		}
		if v.ExpirationDate == nil {
			return Problems{required("L-2", vp.Child("expirationDate"), fmt.Sprintf("specified version '%s' does not set expiration date", v.Version))}
		}
		if a.update() && IsExpired(v, a.opts.Now) {
			if current, ok := merged[v.Version]; !ok || !current.ExpirationDate.Equal(v.ExpirationDate) {
				return Problems{invalid("L-3", vp.Child("expirationDate"), v.ExpirationDate, fmt.Sprintf("expiration date for version %q is in the past", v.Version))}
			}
		}
	}
	return nil
}

// validateMachineImageOverrides is step 4 (L-4 … L-10); all failures are collected.
func (a *admission) validateMachineImageOverrides() Problems {
	var (
		ps           Problems
		parentImages = indexImages(a.parent.Spec.MachineImages)
		oldImages    imageIndex
		oldMerged    imageIndex
		caps         = capabilitiesOf(a.parent.Spec.MachineCapabilities)
		images       = NewPath("spec").Child("machineImages")
	)
	if a.update() {
		oldImages = indexImages(a.oldSpec.MachineImages)
		oldMerged = indexImages(a.old.Status.CloudProfileSpec.MachineImages)
	}

	for i, image := range a.spec.MachineImages {
		ip := images.Index(i)
		if _, inParent := parentImages.image(image.Name); !inParent {
			// L-10: a new image is validated like an image of a CloudProfile (versions required,
			// an update strategy validated when set; Required only in M-2).
			ps = append(ps, withRulePrefix("L-10", validateMachineImageBase(image, caps, map[string]bool{}, map[string]bool{}, false, ip))...)
			ps = append(ps, withRulePrefix("L-10", validateMachineImageAdditional(image, caps, ip, a.opts))...)
			continue
		}

		oldImage, alreadyInNCP := -1, false
		if a.update() {
			oldImage, alreadyInNCP = oldImages.image(image.Name)
			if alreadyInNCP && strategyOf(image) != strategyOf(oldImages.images[oldImage]) {
				ps = append(ps, forbidden("L-4", ip.Child("updateStrategy"),
					fmt.Sprintf("cannot update the machine image update strategy of %q, as this version has been added to the parent CloudProfile by now", image.Name)))
			}
		}

		versions := ip.Child("versions")
		for j, v := range image.Versions {
			vp := versions.Index(j)
			if _, inParent := parentImages.version(image.Name, v.Version); !inParent {
				// L-9: a new version of a parent image gets the base rules with the parent's
				// capability definitions.
				ps = append(ps, withRulePrefix("L-9", validateMachineImageVersionBase(image.Name, v, caps, map[string]bool{}, vp))...)
				continue
			}

			versionAlreadyInNCP := false
			if alreadyInNCP {
				var oldVersion int
				oldVersion, versionAlreadyInNCP = oldImages.version(image.Name, v.Version)
				if versionAlreadyInNCP && !equalIgnoringExpiration(oldImages.images[oldImage].Versions[oldVersion], v) {
					ps = append(ps, forbidden("L-5", vp,
						fmt.Sprintf("cannot update the machine image version spec (except for the expiration date) of \"%s@%s\", as this version has been added to the parent CloudProfile by now", image.Name, v.Version)))
				}
			}
			if !versionAlreadyInNCP {
				ps = append(ps, validateExtendedMachineImageVersion(v, vp)...)
				if v.ExpirationDate == nil {
					ps = append(ps, invalid("L-7", vp.Child("expirationDate"), v.ExpirationDate, fmt.Sprintf("expiration date for version %q must be set", v.Version)))
				}
			}
			if a.update() && IsExpired(v.ExpirableVersion, a.opts.Now) {
				var current *metav1.Time
				mi, exists := oldMerged.image(image.Name)
				if exists {
					var mj int
					if mj, exists = oldMerged.version(image.Name, v.Version); exists {
						current = oldMerged.images[mi].Versions[mj].ExpirationDate
					}
				}
				if !exists || !current.Equal(v.ExpirationDate) {
					ps = append(ps, invalid("L-8", vp.Child("expirationDate"), v.ExpirationDate, fmt.Sprintf("expiration date for version %q is in the past", v.Version)))
				}
			}
		}
	}
	return ps
}

func strategyOf(image gardencorev1beta1.MachineImage) gardencorev1beta1.MachineImageUpdateStrategy {
	if image.UpdateStrategy == nil {
		return ""
	}
	return *image.UpdateStrategy
}

// equalIgnoringExpiration compares two versions in all fields but expirationDate (L-5).
func equalIgnoringExpiration(a, b gardencorev1beta1.MachineImageVersion) bool {
	a.ExpirationDate, b.ExpirationDate = nil, nil
	return reflect.DeepEqual(a, b)
}

// validateExtendedMachineImageVersion is L-6: an override of a parent version that the old spec
// did not have may set nothing but the expiration date (and, unchecked, a lifecycle).
func validateExtendedMachineImageVersion(v gardencorev1beta1.MachineImageVersion, fld Path) Problems {
	var ps Problems
	if v.Classification != nil && *v.Classification != "" {
		ps = append(ps, forbidden("L-6", fld.Child("classification"), "must not provide a classification to an extended machine image in NamespacedCloudProfile"))
	}
	if len(v.CRI) > 0 {
		ps = append(ps, forbidden("L-6", fld.Child("cri"), "must not provide a cri to an extended machine image in NamespacedCloudProfile"))
	}
	if len(v.Architectures) > 0 {
		ps = append(ps, forbidden("L-6", fld.Child("architectures"), "must not provide an architecture to an extended machine image in NamespacedCloudProfile"))
	}
	if len(v.CapabilityFlavors) > 0 {
		ps = append(ps, forbidden("L-6", fld.Child("capabilityFlavors"), "must not provide capabilities to an extended machine image in NamespacedCloudProfile"))
	}
	if v.KubeletVersionConstraint != nil && *v.KubeletVersionConstraint != "" {
		ps = append(ps, forbidden("L-6", fld.Child("kubeletVersionConstraint"), "must not provide a kubelet version constraint to an extended machine image in NamespacedCloudProfile"))
	}
	if v.InPlaceUpdates != nil {
		ps = append(ps, forbidden("L-6", fld.Child("inPlaceUpdates"), "must not provide inPlaceUpdates to an extended machine image in NamespacedCloudProfile"))
	}
	return ps
}

// MergedStatusErrorPrefix is how Gardener introduces the findings of the merged status (M-1 … M-5)
// in its admission error: "error while validating merged NamespacedCloudProfile: [<list>]".
const MergedStatusErrorPrefix = "error while validating merged NamespacedCloudProfile"

// validateMergedStatus is step 5 (M-1 … M-5): Gardener's ValidateNamespacedCloudProfileStatus on
// the simulated status, with the parent's capability definitions.
func (a *admission) validateMergedStatus() Problems {
	merged := MergeNamespacedCloudProfile(a.parent.Spec, *a.spec, MergeOptions{})
	status := NewPath("status").Child("cloudProfileSpec")
	defs := merged.MachineCapabilities

	var ps Problems
	ps = append(ps, withRulePrefix("M-1", validateKubernetesVersions(merged.Kubernetes.Versions, status.Child("kubernetes").Child("versions"), a.opts))...)
	if len(merged.MachineImages) > 0 {
		ps = append(ps, withRulePrefix("M-2", validateMachineImages(merged.MachineImages, defs, status.Child("machineImages"), a.opts))...)
	}
	if len(merged.MachineTypes) > 0 {
		ps = append(ps, withRulePrefix("M-4", validateMachineTypes(merged.MachineTypes, defs, status.Child("machineTypes"), true))...)
	}
	if len(merged.VolumeTypes) > 0 {
		ps = append(ps, withRulePrefix("M-5", validateVolumeTypes(merged.VolumeTypes, status.Child("volumeTypes")))...)
	}
	if len(ps) == 0 {
		return nil
	}
	origins := newMergeOrigins(a.parent, &a.ncp.Spec, a.spec, &merged)
	for i := range ps {
		ps[i] = origins.attribute(ps[i])
	}
	return ps
}
