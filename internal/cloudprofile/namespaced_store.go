package cloudprofile

import (
	apiequality "k8s.io/apimachinery/pkg/api/equality"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// What gardener-apiserver does to a NamespacedCloudProfile before validation:
//
//	create: decode + default → PrepareForCreate (drop inactive versions, generation 1, reset
//	        status) → Validate → NamespacedCloudProfileValidator (ValidateNamespacedCloudProfileAgainstParent)
//	update: decode + default (old: default on read) → generation taken from old → PrepareForUpdate
//	        (status from old, drop new inactive versions, increase generation) → ValidateUpdate →
//	        NamespacedCloudProfileValidator
//
// Defaulting of a NamespacedCloudProfile only sets usable: true on machine and volume types whose
// usable is nil: its machine images get no update strategy, CRI or architecture defaults.

// DefaultedNamespacedCloudProfile returns a deep copy of ncp with Gardener's v1beta1 defaults
// applied.
func DefaultedNamespacedCloudProfile(ncp *gardencorev1beta1.NamespacedCloudProfile) *gardencorev1beta1.NamespacedCloudProfile {
	if ncp == nil {
		return nil
	}
	out := ncp.DeepCopy()
	gardencorev1beta1.SetObjectDefaults_NamespacedCloudProfile(out)
	return out
}

// StoredNamespacedCloudProfile returns the object gardener-apiserver validates and, when
// validation and admission pass, persists for ncp when it is created (old == nil) or when it
// replaces old (as stored, i.e. with its status). ncp and old are not modified. The result is a
// defaulted deep copy of ncp where
//   - every Kubernetes version and machine image version that is not active at opts.Now (expired
//     or unavailable) is dropped unless the old spec has the same version (Kubernetes versions are
//     matched by version string, image versions by image name and version string; on create
//     nothing counts as old). The Kubernetes list is kept even when it becomes empty (nil);
//   - then every machine image entry without versions and without a non-empty updateStrategy is
//     removed, even if it had no versions to begin with; an entry with an updateStrategy is kept
//     with nil versions;
//   - on create, status is reset and metadata.generation is 1; on update, status is the old one
//     and metadata.generation is old's, increased by one when the (defaulted, dropped) spec
//     differs semantically from old's or a deletion timestamp appears.
//
// Other server-managed metadata (uid, resourceVersion, timestamps) is not filled in.
//
// dropped lists what was removed, with paths into ncp as given: one entry per version, and one
// entry with an empty Version (and no classification) for every machine image entry removed as a
// whole. Paths of later checks (validation, admission) refer to the returned object, whose indices
// differ from ncp's when something was dropped.
func StoredNamespacedCloudProfile(ncp, old *gardencorev1beta1.NamespacedCloudProfile, opts Options) (*gardencorev1beta1.NamespacedCloudProfile, []DroppedVersion) {
	if ncp == nil {
		return nil, nil
	}
	stored := DefaultedNamespacedCloudProfile(ncp)
	if old == nil {
		dropped := dropNewInactiveVersions(&stored.Spec, nil, opts)
		stored.Generation = 1
		stored.Status = gardencorev1beta1.NamespacedCloudProfileStatus{}
		return stored, dropped
	}

	oldStored := DefaultedNamespacedCloudProfile(old)
	stored.Generation = oldStored.Generation
	stored.Status = oldStored.Status // oldStored is this call's own defaulted copy
	dropped := dropNewInactiveVersions(&stored.Spec, &oldStored.Spec, opts)
	if !apiequality.Semantic.DeepEqual(oldStored.Spec, stored.Spec) ||
		(oldStored.DeletionTimestamp == nil && stored.DeletionTimestamp != nil) {
		stored.Generation = oldStored.Generation + 1
	}
	return stored, dropped
}

// dropNewInactiveVersions is Gardener's dropInactiveVersions for NamespacedCloudProfiles.
func dropNewInactiveVersions(spec, old *gardencorev1beta1.NamespacedCloudProfileSpec, opts Options) []DroppedVersion {
	var (
		dropped []DroppedVersion
		fld     = NewPath("spec")
	)

	if spec.Kubernetes != nil {
		var existing map[string]bool
		if old != nil && old.Kubernetes != nil {
			existing = make(map[string]bool, len(old.Kubernetes.Versions))
			for _, v := range old.Kubernetes.Versions {
				existing[v.Version] = true
			}
		}
		var kept []gardencorev1beta1.ExpirableVersion
		for i, v := range spec.Kubernetes.Versions {
			if !existing[v.Version] {
				if c := Classify(v, opts.Now); !c.IsActive() {
					dropped = append(dropped, DroppedVersion{Path: fld.Child("kubernetes").Child("versions").Index(i), Version: v.Version, Classification: c})
					continue
				}
			}
			kept = append(kept, v)
		}
		spec.Kubernetes.Versions = kept
	}

	var oldImages imageIndex
	if old != nil {
		oldImages = indexImages(old.MachineImages)
	}
	var keptImages []gardencorev1beta1.MachineImage
	for i, image := range spec.MachineImages {
		ip := fld.Child("machineImages").Index(i)
		var keptVersions []gardencorev1beta1.MachineImageVersion
		for j, v := range image.Versions {
			if _, exists := oldImages.version(image.Name, v.Version); !exists {
				if c := Classify(v.ExpirableVersion, opts.Now); !c.IsActive() {
					dropped = append(dropped, DroppedVersion{Path: ip.Child("versions").Index(j), Image: image.Name, Version: v.Version, Classification: c})
					continue
				}
			}
			keptVersions = append(keptVersions, v)
		}
		if len(keptVersions) == 0 && (image.UpdateStrategy == nil || *image.UpdateStrategy == "") {
			dropped = append(dropped, DroppedVersion{Path: ip, Image: image.Name})
			continue
		}
		image.Versions = keptVersions
		keptImages = append(keptImages, image)
	}
	spec.MachineImages = keptImages
	return dropped
}

// imageIndex looks up machine images by name and their versions by version string the way
// Gardener's ImagesContext does: a repeated name or version resolves to its last occurrence.
type imageIndex struct {
	images   []gardencorev1beta1.MachineImage
	byName   map[string]int
	versions map[string]map[string]int
}

func indexImages(images []gardencorev1beta1.MachineImage) imageIndex {
	idx := imageIndex{images: images, byName: make(map[string]int, len(images))}
	for i, image := range images {
		idx.byName[image.Name] = i
	}
	return idx
}

// image returns the index of the image with the given name.
func (x imageIndex) image(name string) (int, bool) {
	i, ok := x.byName[name]
	return i, ok
}

// version returns the index of the given version in the image with the given name.
func (x *imageIndex) version(name, version string) (int, bool) {
	i, ok := x.byName[name]
	if !ok {
		return 0, false
	}
	if x.versions == nil {
		x.versions = make(map[string]map[string]int)
	}
	versions, ok := x.versions[name]
	if !ok {
		versions = make(map[string]int, len(x.images[i].Versions))
		for j, v := range x.images[i].Versions {
			versions[v.Version] = j
		}
		x.versions[name] = versions
	}
	j, ok := versions[version]
	return j, ok
}
