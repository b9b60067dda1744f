package cloudprofile

import (
	"fmt"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/apimachinery/pkg/api/equality"
)

// WarnNamespacedCloudProfile returns the warnings for creating ncp (old == nil) or replacing old
// with it, beside Gardener's own verdict:
//
//	W-dropped        a new version that is not active at Options.Now: Gardener drops it
//	W-expired        a kept version that is expired at Options.Now
//	W-expires-soon   a version that becomes expired within Options.ExpiryWarningWindow
//	W-changes-soon   a version whose classification changes otherwise within the window
//	W-no-op          an override that changes nothing of the parent (needs parent; nil skips)
//
// An update warns only about the entries it adds or changes, unless Options.RemindUnchanged is set.
// Paths refer to ncp as given.
func WarnNamespacedCloudProfile(ncp, old *gardencorev1beta1.NamespacedCloudProfile, parent *gardencorev1beta1.CloudProfile, opts Options) Problems {
	if ncp == nil {
		return nil
	}
	var prior *priorVersions
	if old != nil {
		prior = newPriorVersions(old.Spec.Kubernetes, old.Spec.MachineImages, opts)
	}
	var ps Problems
	spec := NewPath("spec")
	if ncp.Spec.Kubernetes != nil {
		versions := spec.Child("kubernetes").Child("versions")
		for i, v := range ncp.Spec.Kubernetes.Versions {
			if prior.unchangedKubernetesVersion(v) {
				continue
			}
			var before *gardencorev1beta1.ExpirableVersion
			if old != nil {
				before = kubernetesVersionBefore(old.Spec.Kubernetes, v.Version)
			}
			ps = append(ps, warnNamespacedVersion("Kubernetes version", v, before, versions.Index(i), opts)...)
		}
	}
	images := spec.Child("machineImages")
	for i, img := range ncp.Spec.MachineImages {
		versions := images.Index(i).Child("versions")
		for j, v := range img.Versions {
			if prior.unchangedImageVersion(img.Name, v) {
				continue
			}
			var before *gardencorev1beta1.ExpirableVersion
			if old != nil {
				before = imageVersionBefore(old.Spec.MachineImages, img.Name, v.Version)
			}
			what := fmt.Sprintf("machine image %q version", img.Name)
			ps = append(ps, warnNamespacedVersion(what, v.ExpirableVersion, before, versions.Index(j), opts)...)
		}
	}
	if parent != nil {
		noOps := noOpOverrides(ncp.Spec, parent.Spec, spec)
		if prior != nil {
			noOps = withoutDetailsOf(noOps, noOpOverrides(old.Spec, parent.Spec, spec))
		}
		ps = append(ps, noOps...)
	}
	return ps
}

// warnNamespacedVersion warns about one version of a NamespacedCloudProfile; before is the version
// as the object an update replaces has it (nil: the version is new).
func warnNamespacedVersion(what string, v gardencorev1beta1.ExpirableVersion, before *gardencorev1beta1.ExpirableVersion, p Path, opts Options) Problems {
	if before == nil && !IsActive(v, opts.Now) {
		return Problems{warning("W-dropped", p, v.Version, fmt.Sprintf(
			"%s %q is %s at %s; Gardener drops it from the NamespacedCloudProfile when it is written", what, v.Version, Classify(v, opts.Now), formatInstant(opts.Now)))}
	}
	return warnVersion(what, v, false, false, before, p, opts)
}

// noOpOverrides finds NCP entries that leave the merged profile as the parent has it.
func noOpOverrides(ncp gardencorev1beta1.NamespacedCloudProfileSpec, parent gardencorev1beta1.CloudProfileSpec, spec Path) Problems {
	var ps Problems
	noOp := func(p Path, what string) {
		ps = append(ps, warning("W-no-op", p, nil, what+" is the same as in the parent CloudProfile; the override changes nothing and can be removed"))
	}
	if ncp.Kubernetes != nil {
		for i, v := range ncp.Kubernetes.Versions {
			if pv, ok := findKubernetesVersion(parent.Kubernetes.Versions, v.Version); ok && pv.ExpirationDate.Equal(v.ExpirationDate) {
				noOp(spec.Child("kubernetes").Child("versions").Index(i).Child("expirationDate"), fmt.Sprintf("The expiration date of Kubernetes version %q", v.Version))
			}
		}
	}
	for i, img := range ncp.MachineImages {
		pimg, ok := findImage(parent.MachineImages, img.Name)
		if !ok {
			continue
		}
		for j, v := range img.Versions {
			pv, ok := findImageVersion(pimg.Versions, v.Version)
			if ok && isExpirationOnly(v) && pv.ExpirationDate.Equal(v.ExpirationDate) {
				noOp(spec.Child("machineImages").Index(i).Child("versions").Index(j).Child("expirationDate"),
					fmt.Sprintf("The expiration date of machine image %q version %q", img.Name, v.Version))
			}
		}
	}
	for i, mt := range ncp.MachineTypes {
		for _, pmt := range parent.MachineTypes {
			if pmt.Name == mt.Name && equality.Semantic.DeepEqual(pmt, mt) {
				noOp(spec.Child("machineTypes").Index(i), fmt.Sprintf("Machine type %q", mt.Name))
			}
		}
	}
	for i, vt := range ncp.VolumeTypes {
		for _, pvt := range parent.VolumeTypes {
			if pvt.Name == vt.Name && equality.Semantic.DeepEqual(pvt, vt) {
				noOp(spec.Child("volumeTypes").Index(i), fmt.Sprintf("Volume type %q", vt.Name))
			}
		}
	}
	return ps
}

// isExpirationOnly tells whether an NCP image version override only sets the expiration date, so
// that the merge keeps the parent's version.
func isExpirationOnly(v gardencorev1beta1.MachineImageVersion) bool {
	return len(v.Architectures) == 0 && len(v.CapabilityFlavors) == 0 && len(v.CRI) == 0 &&
		(v.KubeletVersionConstraint == nil || *v.KubeletVersionConstraint == "") &&
		(v.Classification == nil || *v.Classification == "")
}

func findKubernetesVersion(versions []gardencorev1beta1.ExpirableVersion, version string) (gardencorev1beta1.ExpirableVersion, bool) {
	for _, v := range versions {
		if v.Version == version {
			return v, true
		}
	}
	return gardencorev1beta1.ExpirableVersion{}, false
}

func findImage(images []gardencorev1beta1.MachineImage, name string) (gardencorev1beta1.MachineImage, bool) {
	for _, img := range images {
		if img.Name == name {
			return img, true
		}
	}
	return gardencorev1beta1.MachineImage{}, false
}

func findImageVersion(versions []gardencorev1beta1.MachineImageVersion, version string) (gardencorev1beta1.MachineImageVersion, bool) {
	for _, v := range versions {
		if v.Version == version {
			return v, true
		}
	}
	return gardencorev1beta1.MachineImageVersion{}, false
}
