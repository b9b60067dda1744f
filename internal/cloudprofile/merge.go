package cloudprofile

import (
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// MergeOptions choose between the merge of Gardener v1.149 and the GEP-32 lifecycle merge.
type MergeOptions struct {
	// LifecycleOverrides turns on the GEP-32 merge of lifecycles (merge_lifecycle_overrides.go): NamespacedCloudProfile
	// overrides of Kubernetes versions and machine image versions may move the start times of the
	// parent's lifecycle stages. Off (the default) is exactly Gardener v1.149, which takes only the
	// expirationDate of an override.
	LifecycleOverrides bool
	// Now is the instant of the merge. Gardener v1.149's merge does not depend on time; the GEP-32
	// merge accepts it for the migration of legacy versions (see mergeExpirableLifecycles, which
	// documents why the result does not depend on it).
	Now time.Time
}

// MergeNamespacedCloudProfile computes what Gardener's NamespacedCloudProfile controller writes to
// status.cloudProfileSpec (Gardener's MergeCloudProfiles) from the parent's spec
// and the NamespacedCloudProfile's spec, both as the API server serves them (defaulted). The
// inputs are deep-copied and never modified.
//
// With zero MergeOptions the result, encoded with encoding/json, is byte for byte what Gardener
// v1.149 writes, except for architecture lists that Gardener derives from sets (steps 4 and 10
// below): Gardener's order is random there, this package lists the values in order of first
// occurrence (flavor order, then value order; the capability definition's order when a version has
// no flavors). Compare such lists with a server's as sets.
//
// The steps, in Gardener's order:
//  1. start from a copy of the parent spec (type, regions, seedSelector, bastion, providerConfig,
//     machineCapabilities, caBundle, limits, ... are the parent's);
//  2. lists are merged by key with mergeKeyed: parent order, overrides replace in place, new
//     entries appended in NCP order;
//  3. if spec.kubernetes is set, each Kubernetes version of the NCP that the parent has replaces
//     the parent's expirationDate unconditionally (nil clears it); classification and lifecycle of
//     the override are ignored, NCP-only versions are dropped;
//  4. the NCP's machine images and types are brought into the parent's format
//     (TransformToParentFormat);
//  5. machine images: a non-empty updateStrategy of the NCP wins; versions are merged by version:
//     an override with architectures, capabilityFlavors, cri, kubeletVersionConstraint or
//     classification replaces the parent's version wholesale, any other override only replaces
//     its expirationDate (unconditionally); new images and versions are appended;
//  6. machine types and 7. volume types: a same-named NCP entry replaces the parent's wholesale;
//  8. caBundle: parent + NCP concatenated without separator; limits: the NCP's maxNodesTotal wins
//     when > 0, and an NCP limits object makes the result's limits non-nil;
//  9. providerConfig stays the parent's (the NCP's is merged by provider extensions, not here);
//  10. architecture defaulting on the merged result (mergedArchitectureDefaults).
//
// Classifications are not stored: evaluate Classify on the merged versions.
func MergeNamespacedCloudProfile(parent gardencorev1beta1.CloudProfileSpec, ncp gardencorev1beta1.NamespacedCloudProfileSpec, opts MergeOptions) gardencorev1beta1.CloudProfileSpec {
	result := *parent.DeepCopy()
	override := ncp.DeepCopy()
	m := merger{opts: opts}

	if override.Kubernetes != nil {
		result.Kubernetes.Versions = mergeKeyed(result.Kubernetes.Versions, override.Kubernetes.Versions, expirableVersionKey, m.expirable, false)
	}

	transformInPlace(override, parent.MachineCapabilities)
	result.MachineImages = mergeKeyed(result.MachineImages, override.MachineImages, machineImageKey, m.machineImage, true)
	result.MachineTypes = mergeKeyed(result.MachineTypes, override.MachineTypes, machineTypeKey, nil, true)
	result.VolumeTypes = mergeKeyed(result.VolumeTypes, override.VolumeTypes, volumeTypeKey, nil, true)

	if override.CABundle != nil {
		bundle := *override.CABundle
		if result.CABundle != nil {
			bundle = *result.CABundle + bundle
		}
		result.CABundle = &bundle
	}
	if override.Limits != nil {
		if result.Limits == nil {
			result.Limits = &gardencorev1beta1.Limits{}
		}
		if limit := override.Limits.MaxNodesTotal; limit != nil && *limit > 0 {
			result.Limits.MaxNodesTotal = limit
		}
	}

	mergedArchitectureDefaults(&result)
	return result
}

// merger holds the per-merge choices of the element merge functions.
type merger struct {
	opts MergeOptions
}

// expirable merges a parent version with its override: Gardener v1.149 takes the override's
// expirationDate unconditionally; with LifecycleOverrides the GEP-32 lifecycle merge applies.
func (m merger) expirable(base, override gardencorev1beta1.ExpirableVersion) gardencorev1beta1.ExpirableVersion {
	if m.opts.LifecycleOverrides {
		return mergeExpirableLifecycles(base, override, m.opts.Now)
	}
	base.ExpirationDate = override.ExpirationDate
	return base
}

// machineImage merges a parent image with the NCP's image of the same name (step 5).
func (m merger) machineImage(base, override gardencorev1beta1.MachineImage) gardencorev1beta1.MachineImage {
	if override.UpdateStrategy != nil && *override.UpdateStrategy != "" {
		base.UpdateStrategy = override.UpdateStrategy
	}
	base.Versions = mergeKeyed(base.Versions, override.Versions, machineImageVersionKey, m.machineImageVersion, true)
	return base
}

// machineImageVersion merges a parent image version with the NCP's version of the same string.
func (m merger) machineImageVersion(base, override gardencorev1beta1.MachineImageVersion) gardencorev1beta1.MachineImageVersion {
	if replacesVersionWholesale(override) {
		return override
	}
	base.ExpirableVersion = m.expirable(base.ExpirableVersion, override.ExpirableVersion)
	return base
}

// replacesVersionWholesale tells whether an NCP image version replaces the parent's version as a
// whole rather than only its expiration: it sets architectures, capabilityFlavors, cri, a
// non-empty kubeletVersionConstraint or a non-empty classification. lifecycle and inPlaceUpdates
// do not count.
func replacesVersionWholesale(v gardencorev1beta1.MachineImageVersion) bool {
	return len(v.Architectures) > 0 ||
		len(v.CapabilityFlavors) > 0 ||
		len(v.CRI) > 0 ||
		(v.KubeletVersionConstraint != nil && *v.KubeletVersionConstraint != "") ||
		(v.Classification != nil && *v.Classification != "")
}

func expirableVersionKey(v *gardencorev1beta1.ExpirableVersion) string       { return v.Version }
func machineImageKey(i *gardencorev1beta1.MachineImage) string               { return i.Name }
func machineImageVersionKey(v *gardencorev1beta1.MachineImageVersion) string { return v.Version }
func machineTypeKey(t *gardencorev1beta1.MachineType) string                 { return t.Name }
func volumeTypeKey(t *gardencorev1beta1.VolumeType) string                   { return t.Name }

// mergeKeyed is Gardener's mergeDeep (step 2). Base elements are indexed by key in base order; a
// key repeated in base keeps its first position and takes its last value. Each override element
// then either replaces the element with its key in place (merged with merge, or as a whole when
// merge is nil) or, when allowAdditional, is appended; a key repeated in the override is applied
// twice. When the result is empty, base itself is returned, so that nil stays nil and an empty
// list stays empty. The cost is linear in the lengths of both lists.
func mergeKeyed[T any](base, override []T, key func(*T) string, merge func(base, override T) T, allowAdditional bool) []T {
	capacity := len(base)
	if allowAdditional {
		capacity += len(override)
	}
	out := make([]T, 0, capacity)
	positions := make(map[string]int, capacity)
	for i := range base {
		k := key(&base[i])
		if p, ok := positions[k]; ok {
			out[p] = base[i]
			continue
		}
		positions[k] = len(out)
		out = append(out, base[i])
	}
	for i := range override {
		k := key(&override[i])
		if p, ok := positions[k]; ok {
			if merge != nil {
				out[p] = merge(out[p], override[i])
			} else {
				out[p] = override[i]
			}
			continue
		}
		if allowAdditional {
			positions[k] = len(out)
			out = append(out, override[i])
		}
	}
	if len(out) == 0 {
		return base
	}
	return out
}

// mergedArchitectureDefaults is step 10 (Gardener's syncArchitectureCapabilities), applied to
// parent and NCP entries alike with the merged capability definitions:
//   - a machine type whose effective architecture (the single defaulted architecture capability
//     value, else the architecture field) is empty gets architecture amd64; otherwise a nil
//     architecture is set to the effective one (a conflicting one is left for validation);
//   - a version with empty architectures gets the union of the architecture values of its
//     flavors with defaults applied (no flavors counting as one flavor holding all defined
//     values), or [amd64] when that union is empty.
//
// Capabilities and flavors themselves are never added here.
func mergedArchitectureDefaults(spec *gardencorev1beta1.CloudProfileSpec) {
	defs := spec.MachineCapabilities
	for i := range spec.MachineTypes {
		m := &spec.MachineTypes[i]
		effective := m.GetArchitecture(defs)
		switch {
		case effective == "":
			arch := defaultArchitecture
			m.Architecture = &arch
		case m.Architecture == nil:
			m.Architecture = &effective
		}
	}
	for i := range spec.MachineImages {
		versions := spec.MachineImages[i].Versions
		for j := range versions {
			if len(versions[j].Architectures) > 0 {
				continue
			}
			// defaultedFlavorArchitectures (prepare_sync.go) lists the union in order of first
			// occurrence, as Gardener's GetImageFlavorsWithAppliedDefaults and
			// ExtractArchitecturesFromImageFlavors compute it (in random order).
			archs := defaultedFlavorArchitectures(versions[j].CapabilityFlavors, defs)
			if len(archs) == 0 {
				archs = []string{defaultArchitecture}
			}
			versions[j].Architectures = archs
		}
	}
}
