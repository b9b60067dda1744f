package cloudprofile

import "time"

// Options are the inputs of a rule besides the objects themselves: the instant that counts as now,
// the Gardener release whose rules apply and the state of gardener-apiserver's feature gates.
type Options struct {
	// Now is the instant at which classifications are evaluated.
	Now time.Time
	// Release is the Gardener release whose rules apply (one of KnownReleases); the zero Release
	// means DefaultRelease.
	Release Release
	// Gates are the states of gardener-apiserver's feature gates (rules D-1 and I-1).
	Gates FeatureGates
	// ExpiryWarningWindow is how far ahead of Now a coming classification change is reported as a
	// warning; zero turns those warnings off.
	ExpiryWarningWindow time.Duration
	// RemindUnchanged makes the warnings of an update cover every version, not only the versions
	// the update adds or changes.
	RemindUnchanged bool
}

// DefaultExpiryWarningWindow is the provider's default for Options.ExpiryWarningWindow.
const DefaultExpiryWarningWindow = 30 * 24 * time.Hour

// OptionsWithAllGates returns options at the given instant with every feature gate on (as the local
// Garden runs) and a warning window of DefaultExpiryWarningWindow: the options of tests and tools
// that check what the Garden accepts with every gate on. The provider decides its own defaults.
func OptionsWithAllGates(now time.Time) Options {
	return Options{Now: now, Gates: AllFeatureGatesOn(), ExpiryWarningWindow: DefaultExpiryWarningWindow}
}
