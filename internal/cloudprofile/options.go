package cloudprofile

import "time"

// Options are the inputs of a rule besides the objects themselves: the instant that counts as now
// and the state of gardener-apiserver's feature gates.
type Options struct {
	// Now is the instant at which classifications are evaluated.
	Now time.Time
	// LifecycleEnabled is the VersionClassificationLifecycle feature gate (rule D-1).
	LifecycleEnabled bool
	// CapabilitiesEnabled is the CloudProfileCapabilities feature gate (rule I-1).
	CapabilitiesEnabled bool
	// ExpiryWarningWindow is how far ahead of Now a coming classification change is reported as a
	// warning; zero turns those warnings off.
	ExpiryWarningWindow time.Duration
	// RemindUnchanged makes the warnings of an update cover every version, not only the versions
	// the update adds or changes.
	RemindUnchanged bool
}

// DefaultExpiryWarningWindow is the provider's default for Options.ExpiryWarningWindow.
const DefaultExpiryWarningWindow = 30 * 24 * time.Hour

// DefaultOptions returns the provider's defaults at the given instant: both feature gates enabled
// and a warning window of DefaultExpiryWarningWindow.
func DefaultOptions(now time.Time) Options {
	return Options{Now: now, LifecycleEnabled: true, CapabilitiesEnabled: true, ExpiryWarningWindow: DefaultExpiryWarningWindow}
}
