package cloudprofile

import (
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/apimachinery/pkg/api/equality"
)

// priorVersions indexes the versions of the object an update replaces by their key, so that the
// warnings of an update can keep to the entries it adds or changes (unless Options.RemindUnchanged).
type priorVersions struct {
	kubernetes map[string]gardencorev1beta1.ExpirableVersion
	images     map[imageVersionKey]gardencorev1beta1.MachineImageVersion
	// remind tells that unchanged versions are warned about too (Options.RemindUnchanged).
	remind bool
}

// imageVersionKey identifies a machine image version across the images of a spec.
type imageVersionKey struct{ image, version string }

// newPriorVersions indexes the versions of the object an update replaces.
func newPriorVersions(kubernetes *gardencorev1beta1.KubernetesSettings, images []gardencorev1beta1.MachineImage, opts Options) *priorVersions {
	prior := &priorVersions{
		kubernetes: map[string]gardencorev1beta1.ExpirableVersion{},
		images:     map[imageVersionKey]gardencorev1beta1.MachineImageVersion{},
		remind:     opts.RemindUnchanged,
	}
	if kubernetes != nil {
		for _, v := range kubernetes.Versions {
			if _, ok := prior.kubernetes[v.Version]; !ok { // the first of a key, as a search in list order finds it
				prior.kubernetes[v.Version] = v
			}
		}
	}
	for _, img := range images {
		for _, v := range img.Versions {
			if _, ok := prior.images[imageVersionKey{img.Name, v.Version}]; !ok {
				prior.images[imageVersionKey{img.Name, v.Version}] = v
			}
		}
	}
	return prior
}

// kubernetesVersion is the Kubernetes version as the replaced object has it, nil when it lacks it
// or nothing is replaced.
func (p *priorVersions) kubernetesVersion(version string) *gardencorev1beta1.ExpirableVersion {
	if p == nil {
		return nil
	}
	if v, ok := p.kubernetes[version]; ok {
		return &v
	}
	return nil
}

// imageVersion is the version of the image as the replaced object has it, nil when it lacks it or
// nothing is replaced.
func (p *priorVersions) imageVersion(image, version string) *gardencorev1beta1.ExpirableVersion {
	if p == nil {
		return nil
	}
	if v, ok := p.images[imageVersionKey{image, version}]; ok {
		return &v.ExpirableVersion
	}
	return nil
}

// unchangedKubernetesVersion tells whether the update keeps v exactly as it was.
func (p *priorVersions) unchangedKubernetesVersion(v gardencorev1beta1.ExpirableVersion) bool {
	if p == nil || p.remind {
		return false
	}
	old, ok := p.kubernetes[v.Version]
	return ok && equality.Semantic.DeepEqual(old, v)
}

// unchangedImageVersion tells whether the update keeps version v of the image exactly as it was.
func (p *priorVersions) unchangedImageVersion(image string, v gardencorev1beta1.MachineImageVersion) bool {
	if p == nil || p.remind {
		return false
	}
	old, ok := p.images[imageVersionKey{image, v.Version}]
	return ok && equality.Semantic.DeepEqual(old, v)
}

// withoutDetailsOf returns the problems of ps whose detail is not among those of known (a warning's
// detail names its entry, so this keeps what is new about an update).
func withoutDetailsOf(ps, known Problems) Problems {
	seen := make(map[string]bool, len(known))
	for _, p := range known {
		seen[p.Detail] = true
	}
	var out Problems
	for _, p := range ps {
		if !seen[p.Detail] {
			out = append(out, p)
		}
	}
	return out
}
