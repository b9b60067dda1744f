package cloudprofile

import (
	"fmt"
	"strings"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// mergeOrigins maps an element of a merged status back to the NamespacedCloudProfile spec entry
// that produced it, so that findings on the merged status (M-1 … M-5) point at an attribute the
// user can change. Elements are matched by key (version string, image name and version, type
// name), as the merge matches them; a key repeated in the spec resolves to its last occurrence,
// which is the one whose value the merge keeps.
//
// A merged element comes
//   - from the NamespacedCloudProfile as a whole when the spec appended it, replaced a machine or
//     volume type, or replaced a machine image version wholesale (replacesVersionWholesale): every
//     finding on it points into the spec entry;
//   - from the parent with the spec's expirationDate when the spec overrode a Kubernetes version
//     or a machine image version without other fields: findings on the expiration date, and D-4
//     (expirationDate combined with a parent lifecycle), point into the spec entry; all others at
//     the parent;
//   - from the parent otherwise (a machine image's update strategy belongs to the spec when the
//     spec set a non-empty one).
//
// Findings that belong to the parent point at spec.parent, and their Detail says that the value is
// inherited. Fields the transformation to the parent's format derived from another field (flavors
// from architectures and back, machine type capabilities from the architecture and back) are
// mapped to the field the user wrote.
type mergeOrigins struct {
	parentName  string
	ncp         *gardencorev1beta1.NamespacedCloudProfileSpec // as given
	transformed *gardencorev1beta1.NamespacedCloudProfileSpec
	merged      *gardencorev1beta1.CloudProfileSpec

	kubernetes   map[string]int
	images       imageIndex
	parentImages imageIndex
	machineTypes map[string]int
	volumeTypes  map[string]int
}

func newMergeOrigins(parent *gardencorev1beta1.CloudProfile, ncp, transformed *gardencorev1beta1.NamespacedCloudProfileSpec, merged *gardencorev1beta1.CloudProfileSpec) *mergeOrigins {
	o := &mergeOrigins{
		parentName:   parent.Name,
		ncp:          ncp,
		transformed:  transformed,
		merged:       merged,
		images:       indexImages(transformed.MachineImages),
		parentImages: indexImages(parent.Spec.MachineImages),
		machineTypes: make(map[string]int, len(transformed.MachineTypes)),
		volumeTypes:  make(map[string]int, len(transformed.VolumeTypes)),
	}
	if transformed.Kubernetes != nil {
		o.kubernetes = make(map[string]int, len(transformed.Kubernetes.Versions))
		for i, v := range transformed.Kubernetes.Versions {
			o.kubernetes[v.Version] = i
		}
	}
	for i, m := range transformed.MachineTypes {
		o.machineTypes[m.Name] = i
	}
	for i, w := range transformed.VolumeTypes {
		o.volumeTypes[w.Name] = i
	}
	return o
}

// attribute returns p with attribute steps pointing at the spec entry or at spec.parent.
func (o *mergeOrigins) attribute(p Problem) Problem {
	steps := p.Path.Steps()
	if len(steps) < 3 || steps[0].Name != "status" || steps[1].Name != "cloud_profile_spec" {
		return o.inherited(p)
	}
	rest := steps[2:]
	var target []Step
	switch rest[0].Name {
	case "kubernetes":
		target = o.kubernetesTarget(p, rest[1:])
	case "machine_images":
		target = o.machineImageTarget(p, rest[1:])
	case "machine_types":
		target = o.typeTarget(rest[1:], "machineTypes", o.machineTypes, len(o.merged.MachineTypes), func(k int) string { return o.merged.MachineTypes[k].Name })
	case "volume_types":
		target = o.typeTarget(rest[1:], "volumeTypes", o.volumeTypes, len(o.merged.VolumeTypes), func(k int) string { return o.merged.VolumeTypes[k].Name })
	}
	if target == nil {
		return o.inherited(p)
	}
	p.Path = Path{field: p.Path.field, steps: stepsFrom(target)}
	return p
}

// inherited points p at spec.parent and says why.
func (o *mergeOrigins) inherited(p Problem) Problem {
	p.Path = Path{field: p.Path.field, steps: NewPath("spec").Child("parent").steps}
	note := fmt.Sprintf("inherited from the parent CloudProfile %q; it cannot be fixed in the NamespacedCloudProfile", o.parentName)
	if p.Detail == "" {
		p.Detail = note
	} else {
		p.Detail += " (" + note + ")"
	}
	return p
}

// causedByExpirationOverride tells whether a finding on an element that only took its expiration
// date from the spec is caused by that date.
func causedByExpirationOverride(p Problem, sub []Step) bool {
	return strings.HasSuffix(p.Rule, "/D-4") || (len(sub) > 0 && sub[0].Kind == StepAttribute && sub[0].Name == "expiration_date")
}

// kubernetesTarget handles steps after "kubernetes": versions, [k], ...
func (o *mergeOrigins) kubernetesTarget(p Problem, steps []Step) []Step {
	if len(steps) < 2 || steps[1].Kind != StepIndex || o.kubernetes == nil {
		return nil
	}
	k := steps[1].Index
	if k < 0 || k >= len(o.merged.Kubernetes.Versions) {
		return nil
	}
	i, ok := o.kubernetes[o.merged.Kubernetes.Versions[k].Version]
	if !ok || !causedByExpirationOverride(p, steps[2:]) {
		return nil
	}
	return append(NewPath("spec").Child("kubernetes").Child("versions").Index(i).Steps(), steps[2:]...)
}

// machineImageTarget handles steps after "machine_images": [k], ...
func (o *mergeOrigins) machineImageTarget(p Problem, steps []Step) []Step {
	if len(steps) < 1 || steps[0].Kind != StepIndex {
		return nil
	}
	k := steps[0].Index
	if k < 0 || k >= len(o.merged.MachineImages) {
		return nil
	}
	image := o.merged.MachineImages[k]
	i, fromNCP := o.images.image(image.Name)
	if !fromNCP {
		return nil
	}
	_, inParent := o.parentImages.image(image.Name)
	imagePath := NewPath("spec").Child("machineImages").Index(i)
	sub := steps[1:]

	switch {
	case len(sub) == 0 || sub[0].Name == "name":
		if inParent {
			return nil
		}
		return append(imagePath.Steps(), sub...)
	case sub[0].Name == "update_strategy":
		if inParent && strategyOf(o.transformed.MachineImages[i]) == "" {
			return nil
		}
		return append(imagePath.Steps(), sub...)
	case sub[0].Name != "versions":
		return nil
	case len(sub) == 1 || sub[1].Kind != StepIndex:
		// E-5 on the whole version list.
		if inParent {
			return nil
		}
		return append(imagePath.Steps(), sub...)
	}

	l := sub[1].Index
	if l < 0 || l >= len(image.Versions) {
		return nil
	}
	j, ok := o.images.version(image.Name, image.Versions[l].Version)
	if !ok {
		return nil
	}
	_, parentHasVersion := o.parentImages.version(image.Name, image.Versions[l].Version)
	whole := !parentHasVersion || replacesVersionWholesale(o.transformed.MachineImages[i].Versions[j])
	fieldSteps := sub[2:]
	if !whole && !causedByExpirationOverride(p, fieldSteps) {
		return nil
	}
	versionPath := imagePath.Child("versions").Index(j)
	return append(versionPath.Steps(), o.writtenVersionField(i, j, fieldSteps)...)
}

// writtenVersionField maps a finding on a field that the transformation derived to the field the
// user wrote.
func (o *mergeOrigins) writtenVersionField(i, j int, steps []Step) []Step {
	if len(steps) == 0 || i >= len(o.ncp.MachineImages) || j >= len(o.ncp.MachineImages[i].Versions) {
		return steps
	}
	written := o.ncp.MachineImages[i].Versions[j]
	switch steps[0].Name {
	case "capability_flavors":
		if len(written.CapabilityFlavors) == 0 && len(written.Architectures) > 0 {
			return []Step{{Kind: StepAttribute, Name: "architectures"}}
		}
	case "architectures":
		if len(written.Architectures) == 0 && len(written.CapabilityFlavors) > 0 {
			return []Step{{Kind: StepAttribute, Name: "capability_flavors"}}
		}
	}
	return steps
}

// typeTarget handles steps after "machine_types" or "volume_types": [k], ...
func (o *mergeOrigins) typeTarget(steps []Step, field string, byName map[string]int, n int, name func(int) string) []Step {
	if len(steps) < 1 || steps[0].Kind != StepIndex || steps[0].Index < 0 || steps[0].Index >= n {
		return nil
	}
	i, ok := byName[name(steps[0].Index)]
	if !ok {
		return nil
	}
	sub := steps[1:]
	if field == "machineTypes" && len(sub) > 0 && i < len(o.ncp.MachineTypes) {
		written := o.ncp.MachineTypes[i]
		switch sub[0].Name {
		case "capabilities":
			if len(written.Capabilities) == 0 {
				sub = []Step{{Kind: StepAttribute, Name: "architecture"}}
			}
		case "architecture":
			if written.Architecture == nil && len(written.Capabilities) > 0 {
				sub = []Step{{Kind: StepAttribute, Name: "capabilities"}}
			}
		}
	}
	return append(NewPath("spec").Child(field).Index(i).Steps(), sub...)
}
