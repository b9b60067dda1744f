package cloudprofile

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Release is a release of Gardener, v1.Minor.Patch: the rules of cloud profiles follow the release
// that the Garden's gardener-apiserver runs.
type Release struct {
	// Minor is the minor version (149 for v1.149.3).
	Minor int
	// Patch is the patch version (3 for v1.149.3).
	Patch int
}

// knownReleases are the releases whose rules the package carries, oldest first: one per minor,
// the release of that minor the rules were compared against.
var knownReleases = []Release{{146, 0}, {147, 0}, {148, 0}, {149, 3}, {150, 0}}

// DefaultRelease is the release whose rules apply when the Garden's release is not known: v1.149.3.
var DefaultRelease = Release{Minor: 149, Patch: 3}

// KnownReleases lists the releases whose rules the package carries, oldest first.
func KnownReleases() []Release { return slices.Clone(knownReleases) }

// NewestKnownRelease is the newest of KnownReleases.
func NewestKnownRelease() Release { return knownReleases[len(knownReleases)-1] }

// String spells the release as Gardener tags it, e.g. "v1.149.3".
func (r Release) String() string { return fmt.Sprintf("v1.%d.%d", r.Minor, r.Patch) }

// IsZero reports whether r is the zero Release, which Options read as DefaultRelease.
func (r Release) IsZero() bool { return r == Release{} }

// ParseRelease reads a Gardener version as gardener-apiserver reports it ("v1.149.3",
// "1.149.3", "v1.150.0-dev", "v1.149.3+abc"): the major version must be 1; pre-release and build
// suffixes are ignored.
func ParseRelease(s string) (Release, error) {
	v := strings.TrimPrefix(strings.TrimSpace(s), "v")
	if i := strings.IndexAny(v, "-+"); i >= 0 {
		v = v[:i]
	}
	parts := strings.Split(v, ".")
	if len(parts) != 3 || parts[0] != "1" {
		return Release{}, fmt.Errorf("%q is not a Gardener release: expected v1.MINOR.PATCH, such as %s", s, DefaultRelease)
	}
	minor, errMinor := strconv.Atoi(parts[1])
	patch, errPatch := strconv.Atoi(parts[2])
	if errMinor != nil || errPatch != nil || minor < 0 || patch < 0 {
		return Release{}, fmt.Errorf("%q is not a Gardener release: expected v1.MINOR.PATCH, such as %s", s, DefaultRelease)
	}
	return Release{Minor: minor, Patch: patch}, nil
}

// ReleaseMatch says how a release relates to the known ones.
type ReleaseMatch int

const (
	// ReleaseKnown is a known release's minor; its rules apply.
	ReleaseKnown ReleaseMatch = iota
	// ReleaseOlder is older than every known release; the oldest known release's rules apply.
	ReleaseOlder
	// ReleaseNewer is newer than every known release; the newest known release's rules apply.
	ReleaseNewer
)

// RulesOf returns the known release whose rules apply to r, and how r relates to the known
// releases. Rules are carried per minor: every patch release of a known minor follows it.
func RulesOf(r Release) (Release, ReleaseMatch) {
	oldest, newest := knownReleases[0], NewestKnownRelease()
	switch {
	case r.Minor < oldest.Minor:
		return oldest, ReleaseOlder
	case r.Minor > newest.Minor:
		return newest, ReleaseNewer
	}
	for _, k := range knownReleases {
		if k.Minor == r.Minor {
			return k, ReleaseKnown
		}
	}
	// Unreachable while knownReleases has every minor between its oldest and newest.
	return newest, ReleaseNewer
}

// Compare orders releases: negative when r is older than o, zero when equal, positive when newer.
func (r Release) Compare(o Release) int {
	if r.Minor != o.Minor {
		return r.Minor - o.Minor
	}
	return r.Patch - o.Patch
}

// OldestKnownRelease is the oldest of KnownReleases.
func OldestKnownRelease() Release { return knownReleases[0] }

// The first releases of the rules that differ between the known releases (rule_releases.go lists
// them by rule).
var (
	// release147 forbids capability names with Gardener's reserved prefix (I-3).
	release147 = Release{Minor: 147}
	// release148 registers the gardener-apiserver feature gate LiveControlPlaneMigration.
	release148 = Release{Minor: 148}
	// release149 stops checking lifecycle-only versions for a second supported version of their
	// minor (C-9, F-11), and its CloudProfile controller writes status (StatusFor).
	release149 = Release{Minor: 149}
)

// rules returns the known release whose rules apply under o: Release, or DefaultRelease when zero,
// mapped to its known minor (RulesOf).
func (o Options) rules() Release {
	r := o.Release
	if r.IsZero() {
		r = DefaultRelease
	}
	known, _ := RulesOf(r)
	return known
}

// from tells whether the rules that apply under o are those of release r or a later one.
func (o Options) from(r Release) bool { return o.rules().Compare(r) >= 0 }
