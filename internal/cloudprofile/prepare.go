package cloudprofile

import (
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// What gardener-apiserver does to a CloudProfile before and after validation:
//
//	create: decode + default → PrepareForCreate (reset status, drop inactive Kubernetes versions
//	        and expired machine image versions) → Validate → Canonicalize (sync with empty old)
//	update: decode + default (old: default on read) → PrepareForUpdate (status from old, sync with
//	        old) → ValidateUpdate → Canonicalize (sync with empty old)

// DroppedVersion is a version that gardener-apiserver silently removes on create (W-dropped).
type DroppedVersion struct {
	// Path is where the version was in the given object, e.g. spec.kubernetes.versions[3] or
	// spec.machineImages[0].versions[2].
	Path Path
	// Image is the machine image name, empty for a Kubernetes version.
	Image string
	// Version is the version string.
	Version string
	// Classification is the version's classification at Options.Now: expired, or (Kubernetes
	// versions only) unavailable.
	Classification gardencorev1beta1.VersionClassification
}

// indexMap maps indices of a prepared object back to the given object: kubernetes[i] is the
// original index of Kubernetes version i, images[i][j] of version j of image i.
type indexMap struct {
	kubernetes []int
	images     [][]int
}

// PrepareCloudProfileForCreate returns the object gardener-apiserver validates on create: a
// defaulted deep copy with reset status, without the Kubernetes versions that are not active
// (expired or unavailable) and without the machine image versions that are expired at opts.Now.
// Unavailable machine image versions are kept. The dropped versions are reported. A list may
// become empty, which validation then reports (C-1, E-5).
func PrepareCloudProfileForCreate(cp *gardencorev1beta1.CloudProfile, opts Options) (*gardencorev1beta1.CloudProfile, []DroppedVersion) {
	prepared, dropped, _ := prepareForCreate(cp, opts)
	return prepared.DeepCopy(), dropped
}

// prepareForCreate is PrepareCloudProfileForCreate on a copy that shares with cp what the
// preparation leaves alone (see defaultedSharing), with the map of kept versions to cp's.
func prepareForCreate(cp *gardencorev1beta1.CloudProfile, opts Options) (*gardencorev1beta1.CloudProfile, []DroppedVersion, indexMap) {
	if cp == nil {
		return nil, nil, indexMap{}
	}
	prepared := defaultedSharing(cp)
	prepared.Status = gardencorev1beta1.CloudProfileStatus{}
	dropped, idx := dropInactiveVersions(&prepared.Spec, opts)
	return prepared, dropped, idx
}

// dropInactiveVersions removes what PrepareForCreate removes (with the asymmetry between
// Kubernetes and machine image versions) and returns what was removed.
func dropInactiveVersions(spec *gardencorev1beta1.CloudProfileSpec, opts Options) ([]DroppedVersion, indexMap) {
	var (
		dropped []DroppedVersion
		idx     indexMap
		fld     = NewPath("spec")
	)

	var kept []gardencorev1beta1.ExpirableVersion
	if n := len(spec.Kubernetes.Versions); n > 0 {
		kept = make([]gardencorev1beta1.ExpirableVersion, 0, n)
		idx.kubernetes = make([]int, 0, n)
	}
	for i, v := range spec.Kubernetes.Versions {
		if c := Classify(v, opts.Now); !c.IsActive() {
			dropped = append(dropped, DroppedVersion{Path: fld.Child("kubernetes").Child("versions").Index(i), Version: v.Version, Classification: c})
			continue
		}
		kept = append(kept, v)
		idx.kubernetes = append(idx.kubernetes, i)
	}
	spec.Kubernetes.Versions = kept

	idx.images = make([][]int, len(spec.MachineImages))
	for i := range spec.MachineImages {
		image := &spec.MachineImages[i]
		var keptVersions []gardencorev1beta1.MachineImageVersion
		if n := len(image.Versions); n > 0 {
			keptVersions = make([]gardencorev1beta1.MachineImageVersion, 0, n)
			idx.images[i] = make([]int, 0, n)
		}
		for j, v := range image.Versions {
			if c := Classify(v.ExpirableVersion, opts.Now); c == gardencorev1beta1.ClassificationExpired {
				dropped = append(dropped, DroppedVersion{Path: fld.Child("machineImages").Index(i).Child("versions").Index(j), Image: image.Name, Version: v.Version, Classification: c})
				continue
			}
			keptVersions = append(keptVersions, v)
			idx.images[i] = append(idx.images[i], j)
		}
		image.Versions = keptVersions
	}
	return dropped, idx
}

// PrepareCloudProfileForUpdate returns the objects gardener-apiserver validates on update: a
// defaulted deep copy of newCP whose status is the old one and whose architecture/capability
// fields are synchronised against the old spec, and the defaulted old object.
func PrepareCloudProfileForUpdate(newCP, oldCP *gardencorev1beta1.CloudProfile) (*gardencorev1beta1.CloudProfile, *gardencorev1beta1.CloudProfile) {
	prepared, old := prepareForUpdate(newCP, oldCP)
	return prepared.DeepCopy(), old.DeepCopy()
}

// prepareForUpdate is PrepareCloudProfileForUpdate on copies that share with newCP and oldCP
// what the preparation leaves alone (see defaultedSharing).
func prepareForUpdate(newCP, oldCP *gardencorev1beta1.CloudProfile) (*gardencorev1beta1.CloudProfile, *gardencorev1beta1.CloudProfile) {
	prepared, old := defaultedSharing(newCP), defaultedSharing(oldCP)
	if prepared == nil || old == nil {
		return prepared, old
	}
	prepared.Status = *old.Status.DeepCopy()
	SyncArchitectureCapabilities(&prepared.Spec, &old.Spec)
	return prepared, old
}

// StoredCloudProfile returns what gardener-apiserver persists for cp when it is created (old ==
// nil) or when it replaces old, provided validation passes: the prepared object (see
// PrepareCloudProfileForCreate and PrepareCloudProfileForUpdate) after Canonicalize synchronised
// the architecture/capability fields once more with an empty old spec. Server-managed metadata
// (uid, resourceVersion, timestamps) is not filled in; metadata.generation is old's (0 on create):
// Gardener's CloudProfile strategy never sets it. dropped is empty on update.
func StoredCloudProfile(cp, old *gardencorev1beta1.CloudProfile, opts Options) (*gardencorev1beta1.CloudProfile, []DroppedVersion) {
	var (
		stored  *gardencorev1beta1.CloudProfile
		dropped []DroppedVersion
	)
	if old == nil {
		stored, dropped, _ = prepareForCreate(cp, opts)
	} else {
		stored, _ = prepareForUpdate(cp, old)
	}
	if stored != nil {
		SyncArchitectureCapabilities(&stored.Spec, &gardencorev1beta1.CloudProfileSpec{})
		stored.Generation = StoredCloudProfileGeneration(old)
	}
	return stored.DeepCopy(), dropped
}

// StoredCloudProfileGeneration is the metadata.generation gardener-apiserver stores for a
// CloudProfile that replaces old (nil: a create): Gardener's CloudProfile strategy never sets it,
// so it is old's, 0 on create.
func StoredCloudProfileGeneration(old *gardencorev1beta1.CloudProfile) int64 {
	if old == nil {
		return 0
	}
	return old.Generation
}
