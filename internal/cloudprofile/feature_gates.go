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
// The other gates of gardener-apiserver (RegisteredFeatureGates) only concern Shoots.
type FeatureGates struct {
	// VersionClassificationLifecycle is the state of GateVersionClassificationLifecycle.
	VersionClassificationLifecycle bool
	// CloudProfileCapabilities is the state of GateCloudProfileCapabilities.
	CloudProfileCapabilities bool
}

// FeatureGate is a feature gate that gardener-apiserver registers (its --feature-gates accepts it).
type FeatureGate struct {
	// Name is the gate's name, as Gardener spells it.
	Name string
	// Default is the gate's state when --feature-gates does not set it.
	Default bool
	// CloudProfiles tells that the gate changes what gardener-apiserver accepts in cloud profiles
	// (FeatureGates holds its state); the other gates concern Shoots only.
	CloudProfiles bool
}

// registeredGate is a feature gate of gardener-apiserver in the known releases.
type registeredGate struct {
	FeatureGate
	// since is the first known release whose gardener-apiserver registers the gate; zero for every
	// known release.
	since Release
}

// apiserverGates are the feature gates gardener-apiserver registers in the known releases (its
// pkg/apiserver/features), with their defaults (pkg/features), sorted by name. The defaults are the
// same in every known release: VersionClassificationLifecycle alpha and off, CloudProfileCapabilities
// beta and on, the Shoots' gates alpha and off.
var apiserverGates = []registeredGate{
	{FeatureGate: FeatureGate{Name: GateCloudProfileCapabilities, Default: true, CloudProfiles: true}},
	{FeatureGate: FeatureGate{Name: "DisableNginxIngressInShoot"}},
	{FeatureGate: FeatureGate{Name: "InPlaceNodeUpdates"}},
	{FeatureGate: FeatureGate{Name: "LiveControlPlaneMigration"}, since: release148},
	{FeatureGate: FeatureGate{Name: GateVersionClassificationLifecycle, Default: false, CloudProfiles: true}},
}

// RegisteredFeatureGates returns the feature gates that gardener-apiserver of release r registers
// (that of the known release of r's minor, see RulesOf), sorted by name.
func RegisteredFeatureGates(r Release) []FeatureGate {
	known, _ := RulesOf(r)
	var out []FeatureGate
	for _, g := range apiserverGates {
		if known.Compare(g.since) >= 0 {
			out = append(out, g.FeatureGate)
		}
	}
	return out
}

// DefaultFeatureGatesOf returns the defaults of the gates FeatureGates holds in gardener-apiserver
// of release r (that of the known release of r's minor, see RulesOf).
func DefaultFeatureGatesOf(r Release) FeatureGates {
	var g FeatureGates
	for _, gate := range RegisteredFeatureGates(r) {
		if gate.CloudProfiles {
			g, _ = g.With(gate.Name, gate.Default)
		}
	}
	return g
}

// GardenerDefaultFeatureGates are the defaults of DefaultRelease (DefaultFeatureGatesOf):
// VersionClassificationLifecycle is alpha and off, CloudProfileCapabilities is beta and on.
func GardenerDefaultFeatureGates() FeatureGates {
	return DefaultFeatureGatesOf(DefaultRelease)
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
// know, naming the ones it knows and what the name is to gardener-apiserver of DefaultRelease.
func (g FeatureGates) With(name string, on bool) (FeatureGates, error) {
	return g.WithIn(DefaultRelease, name, on)
}

// WithIn is With for a Garden whose gardener-apiserver runs release r: the error for a name
// FeatureGates does not know says whether that gardener-apiserver registers it at all.
func (g FeatureGates) WithIn(r Release, name string, on bool) (FeatureGates, error) {
	switch name {
	case GateVersionClassificationLifecycle:
		g.VersionClassificationLifecycle = on
	case GateCloudProfileCapabilities:
		g.CloudProfileCapabilities = on
	default:
		return g, unknownGateError(r, name)
	}
	return g, nil
}

// unknownGateError explains a gate name FeatureGates does not know, to a Garden whose
// gardener-apiserver runs release r.
func unknownGateError(r Release, name string) error {
	known := strings.Join(FeatureGateNames(), " and ")
	for _, n := range FeatureGateNames() {
		if strings.EqualFold(n, name) {
			return fmt.Errorf("%q is spelled %q in Gardener", name, n)
		}
	}
	if slices.ContainsFunc(RegisteredFeatureGates(r), func(g FeatureGate) bool { return g.Name == name }) {
		return fmt.Errorf("%q is a feature gate of gardener-apiserver that concerns Shoots only; only %s change how Gardener validates cloud profiles", name, known)
	}
	for _, g := range apiserverGates {
		if g.Name == name {
			rules, _ := RulesOf(r)
			return fmt.Errorf("%q is a feature gate of gardener-apiserver only from %s on, and concerns Shoots only: gardener-apiserver %s does not know it and does not start with it; only %s change how Gardener validates cloud profiles", name, g.since, rules, known)
		}
	}
	return fmt.Errorf("%q is not a feature gate that changes how Gardener validates cloud profiles; those are %s", name, known)
}
