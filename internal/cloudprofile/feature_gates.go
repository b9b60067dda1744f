package cloudprofile

import (
	"fmt"
	"slices"
	"strings"
)

// The names of the gardener-apiserver feature gates that change how Gardener validates
// CloudProfiles and NamespacedCloudProfiles, spelled as Gardener spells them.
const (
	// GateVersionClassificationLifecycle allows the lifecycle of versions (rule D-1).
	GateVersionClassificationLifecycle = "VersionClassificationLifecycle"
	// GateCloudProfileCapabilities allows machine capabilities (rule I-1).
	GateCloudProfileCapabilities = "CloudProfileCapabilities"
)

// FeatureGates are the states of the gardener-apiserver feature gates that matter to the two kinds.
// Gardener v1.149's other gates of gardener-apiserver (InPlaceNodeUpdates,
// LiveControlPlaneMigration, DisableNginxIngressInShoot) only concern Shoots.
type FeatureGates struct {
	// VersionClassificationLifecycle is the state of GateVersionClassificationLifecycle.
	VersionClassificationLifecycle bool
	// CloudProfileCapabilities is the state of GateCloudProfileCapabilities.
	CloudProfileCapabilities bool
}

// GardenerDefaultFeatureGates are the defaults of Gardener v1.149: VersionClassificationLifecycle
// is alpha and off, CloudProfileCapabilities is beta and on.
func GardenerDefaultFeatureGates() FeatureGates {
	return FeatureGates{VersionClassificationLifecycle: false, CloudProfileCapabilities: true}
}

// AllFeatureGatesOn has every gate of FeatureGates on.
func AllFeatureGatesOn() FeatureGates {
	return FeatureGates{VersionClassificationLifecycle: true, CloudProfileCapabilities: true}
}

// FeatureGateNames lists the names FeatureGates knows, sorted.
func FeatureGateNames() []string {
	return []string{GateCloudProfileCapabilities, GateVersionClassificationLifecycle}
}

// With returns the gates with the named one set to on; it fails for a name FeatureGates does not
// know, naming the ones it knows.
func (g FeatureGates) With(name string, on bool) (FeatureGates, error) {
	switch name {
	case GateVersionClassificationLifecycle:
		g.VersionClassificationLifecycle = on
	case GateCloudProfileCapabilities:
		g.CloudProfileCapabilities = on
	default:
		return g, unknownGateError(name)
	}
	return g, nil
}

// unknownGateError explains a gate name FeatureGates does not know.
func unknownGateError(name string) error {
	known := strings.Join(FeatureGateNames(), " and ")
	for _, n := range FeatureGateNames() {
		if strings.EqualFold(n, name) {
			return fmt.Errorf("%q is spelled %q in Gardener", name, n)
		}
	}
	if slices.Contains(shootOnlyGates, name) {
		return fmt.Errorf("%q is a feature gate of gardener-apiserver that concerns Shoots only; only %s change how Gardener validates cloud profiles", name, known)
	}
	return fmt.Errorf("%q is not a feature gate that changes how Gardener validates cloud profiles; those are %s", name, known)
}

// shootOnlyGates are the other feature gates gardener-apiserver v1.149 registers.
var shootOnlyGates = []string{"InPlaceNodeUpdates", "LiveControlPlaneMigration", "DisableNginxIngressInShoot"}
