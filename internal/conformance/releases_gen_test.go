package conformance

import (
	"fmt"
	"math/rand/v2"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// Generated cases of the release tests: profiles whose versions combine legacy classifications,
// expiration dates and lifecycles at instants far from today (so that no verdict depends on when
// the tests run), capability definitions with and without Gardener's reserved prefix, and
// NamespacedCloudProfiles that override and add versions. A fixed seed makes every run, and every
// release, see the same cases.

// generator draws cases from a seeded source.
type generator struct{ r *rand.Rand }

func newGenerator(seed uint64) *generator {
	return &generator{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// pick returns one of the options.
func pick[T any](g *generator, options ...T) T { return options[g.r.IntN(len(options))] }

// chance is true with probability p.
func (g *generator) chance(p float64) bool { return g.r.Float64() < p }

// instant is nil, or one of the fixed instants far in the past or future.
func (g *generator) instant() *metav1.Time {
	return pick(g, nil, at(past), at(past2), at(future), at(future2))
}

// expirable draws the classification, expiration date and lifecycle of a version.
func (g *generator) expirable(version string) evT {
	v := evT{Version: version}
	switch {
	case g.chance(0.45):
		stages := []gardencorev1beta1.VersionClassification{preview, supported, deprecated, expired}
		start := g.r.IntN(len(stages))
		n := 1 + g.r.IntN(len(stages)-start)
		times := []*metav1.Time{nil, at(past), at(past2), at(future), at(future2)}
		k := 0
		if g.chance(0.5) {
			k = g.r.IntN(len(times))
		}
		for i := start; i < start+n; i++ {
			var when *metav1.Time
			if k < len(times) {
				when = times[k]
			}
			if g.chance(0.15) {
				when = g.instant() // out of order now and then
			}
			v.Lifecycle = append(v.Lifecycle, stage(stages[i], when))
			k += 1 + g.r.IntN(2)
		}
		if g.chance(0.1) {
			v.Classification = cls(pick(g, supported, deprecated))
		}
	default:
		if g.chance(0.85) {
			v.Classification = cls(pick(g, supported, supported, preview, deprecated, deprecated, expired, unavailable))
		}
		if g.chance(0.4) {
			v.ExpirationDate = pick(g, at(past), at(future), at(future2))
		}
	}
	return v
}

// kubernetesVersions draws 1 to 5 versions of two minors (repeats included now and then).
func (g *generator) kubernetesVersions() []evT {
	var out []evT
	for range 1 + g.r.IntN(5) {
		out = append(out, g.expirable(fmt.Sprintf("1.%d.%d", pick(g, 30, 31), g.r.IntN(4))))
	}
	return out
}

// imageVersions draws 1 to 4 versions of two minors of an image.
func (g *generator) imageVersions(withArchitectures bool) []mivT {
	var out []mivT
	for range 1 + g.r.IntN(4) {
		v := mivT{ExpirableVersion: g.expirable(fmt.Sprintf("1877.%d.%d", pick(g, 3, 4), g.r.IntN(3)))}
		if withArchitectures && g.chance(0.7) {
			v.Architectures = pick(g, []string{"amd64"}, []string{"amd64", "arm64"}, []string{"arm64"})
		}
		if g.chance(0.5) {
			v.CRI = containerd()
		}
		out = append(out, v)
	}
	return out
}

// capabilityDefinitions draws definitions with an architecture and, now and then, a second
// capability whose name may use Gardener's reserved prefix.
func (g *generator) capabilityDefinitions() []gardencorev1beta1.CapabilityDefinition {
	defs := []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: pick(g, []string{"amd64"}, []string{"amd64", "arm64"})}}
	if g.chance(0.7) {
		defs = append(defs, gardencorev1beta1.CapabilityDefinition{
			Name:   pick(g, "network", "gardener-update-type", "gardener-", "gardenerx"),
			Values: []string{"standard", "accelerated"},
		})
	}
	return defs
}

// cloudProfile draws a CloudProfile: the legacy fixture with generated versions, and now and then
// with capability definitions (then without architecture fields, which the capabilities replace).
func (g *generator) cloudProfile(name string) *cpT {
	cp := legacyProfile(name)
	cp.Spec.Kubernetes.Versions = g.kubernetesVersions()
	capable := g.chance(0.3)
	image(cp).Versions = g.imageVersions(!capable)
	if capable {
		cp.Spec.MachineCapabilities = g.capabilityDefinitions()
		for i := range cp.Spec.MachineTypes {
			cp.Spec.MachineTypes[i].Architecture = nil
		}
	}
	return cp
}

// gates draws the gardener-apiserver gates of a case: mostly every gate on, now and then the
// defaults (lifecycles forbidden).
func (g *generator) gates() cloudprofile.FeatureGates {
	if g.chance(0.9) {
		return cloudprofile.AllFeatureGatesOn()
	}
	return cloudprofile.GardenerDefaultFeatureGates()
}

// namespacedCloudProfile draws a NamespacedCloudProfile of parent: overrides of parent versions
// (expiration dates, sometimes classifications or lifecycles) and new image versions.
func (g *generator) namespacedCloudProfile(name string, parent *cpT) *ncpT {
	ncp := namespaced(name, parent.Name)
	if g.chance(0.6) {
		var vs []evT
		for _, pv := range parent.Spec.Kubernetes.Versions {
			if g.chance(0.5) {
				v := evT{Version: pv.Version, ExpirationDate: g.instant()}
				if g.chance(0.15) {
					v.Classification = cls(pick(g, supported, deprecated))
				}
				vs = append(vs, v)
			}
		}
		if g.chance(0.2) {
			vs = append(vs, evT{Version: "1.29.9", ExpirationDate: at(future)})
		}
		ncp.Spec.Kubernetes = kubernetesOverrides(vs...)
	}
	if g.chance(0.6) && len(parent.Spec.MachineImages) > 0 {
		var vs []mivT
		for _, pv := range parent.Spec.MachineImages[0].Versions {
			if g.chance(0.4) {
				vs = append(vs, mivT{ExpirableVersion: evT{Version: pv.Version, ExpirationDate: g.instant()}})
			}
		}
		for _, v := range g.imageVersions(len(parent.Spec.MachineCapabilities) == 0) {
			if g.chance(0.5) {
				v.Version = "1900" + v.Version[4:]
				vs = append(vs, v)
			}
		}
		ncp.Spec.MachineImages = []miT{gardenlinux(nil, vs...)}
	}
	if g.chance(0.3) {
		ncp.Spec.MachineTypes = []mtT{{Name: "x1.metal", CPU: q("96"), GPU: q("0"), Memory: q("1Ti")}}
	}
	return ncp
}
