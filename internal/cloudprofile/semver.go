package cloudprofile

import (
	"math"

	"github.com/Masterminds/semver/v3"
)

// Gardener parses versions with Masterminds semver v3 (v3.5.0) NewVersion, which coerces loosely:
// an optional lowercase "v", one to three numeric components (leading zeros allowed, missing ones
// are 0), an optional pre-release and optional build metadata. Constraints are parsed with
// NewConstraint. This file wraps both, plus the stricter pattern Gardener requires of Kubernetes
// versions (rule C-5).

// ParseVersion parses a version exactly as Gardener does (Masterminds semver v3 NewVersion).
func ParseVersion(s string) (*semver.Version, error) {
	return semver.NewVersion(s)
}

// ParseConstraint parses a version constraint exactly as Gardener does (Masterminds semver v3
// NewConstraint), as used for kubeletVersionConstraint (rule F-5). Note that "==1.30.0" is invalid;
// only "=" is an equality operator.
func ParseConstraint(s string) (*semver.Constraints, error) {
	return semver.NewConstraint(s)
}

// KubernetesVersionPattern is the pattern every Kubernetes version of a CloudProfile must match
// (rule C-5): exactly three numeric components, leading zeros allowed.
const KubernetesVersionPattern = `^([0-9]+\.){2}[0-9]+$`

// IsKubernetesVersion reports whether s matches KubernetesVersionPattern. It is a hand-written
// equivalent of the regular expression, which is too slow for large profiles.
func IsKubernetesVersion(s string) bool {
	components, digits := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.':
			if digits == 0 || components == 2 {
				return false
			}
			components++
			digits = 0
		default:
			return false
		}
	}
	return components == 2 && digits > 0
}

// semVersion is a parsed version as Gardener compares it. Most versions are plain "1.2.3", which
// parseSemver reads without Masterminds' regular expressions; anything else goes through
// semver.NewVersion, so that acceptance, errors and ordering stay exactly Gardener's.
type semVersion struct {
	major, minor, patch uint64
	pre                 string
	// full is set when the slow path parsed the version.
	full *semver.Version
}

// parseSemver parses s as semver.NewVersion does, with a fast path for "v?N(.N(.N)?)?".
func parseSemver(s string) (semVersion, error) {
	if v, ok := parsePlainVersion(s); ok {
		return v, nil
	}
	full, err := semver.NewVersion(s)
	if err != nil {
		return semVersion{}, err
	}
	return semVersion{major: full.Major(), minor: full.Minor(), patch: full.Patch(), pre: full.Prerelease(), full: full}, nil
}

// parsePlainVersion reads "v?N(.N(.N)?)?" with components that fit into uint64; ok is false for
// everything else (which the caller hands to Masterminds).
func parsePlainVersion(s string) (semVersion, bool) {
	if len(s) > semver.MaxVersionLen {
		return semVersion{}, false
	}
	rest := s
	if len(rest) > 0 && rest[0] == 'v' {
		rest = rest[1:]
	}
	var parts [3]uint64
	n := 0
	for {
		end := 0
		var value uint64
		for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
			digit := uint64(rest[end] - '0')
			if value > (math.MaxUint64-digit)/10 {
				return semVersion{}, false
			}
			value = value*10 + digit
			end++
		}
		if end == 0 || n == 3 {
			return semVersion{}, false
		}
		parts[n] = value
		n++
		rest = rest[end:]
		if rest == "" {
			break
		}
		if rest[0] != '.' {
			return semVersion{}, false
		}
		rest = rest[1:]
	}
	return semVersion{major: parts[0], minor: parts[1], patch: parts[2]}, true
}

// compare orders two versions as Masterminds' Compare does: numbers first, then pre-release
// (a version without pre-release is higher); build metadata is ignored.
func (v semVersion) compare(o semVersion) int {
	if d := compareUint(v.major, o.major); d != 0 {
		return d
	}
	if d := compareUint(v.minor, o.minor); d != 0 {
		return d
	}
	if d := compareUint(v.patch, o.patch); d != 0 {
		return d
	}
	if v.pre == "" && o.pre == "" {
		return 0
	}
	return v.masterminds().Compare(o.masterminds())
}

func (v semVersion) masterminds() *semver.Version {
	if v.full != nil {
		return v.full
	}
	return semver.New(v.major, v.minor, v.patch, v.pre, "")
}

func compareUint(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// minorKey identifies a major.minor line, the grouping of rules C-8 and F-8.
type minorKey struct{ major, minor uint64 }

func (v semVersion) minorKey() minorKey { return minorKey{v.major, v.minor} }

// parsedVersions parses every version string of a list once; errs[i] is the parse error of
// version i, if any.
type parsedVersions struct {
	versions []semVersion
	errs     []error
	// firstErr is the index of the first version that fails to parse, or -1.
	firstErr int
}

func parseVersionStrings(n int, version func(i int) string) parsedVersions {
	p := parsedVersions{versions: make([]semVersion, n), errs: make([]error, n), firstErr: -1}
	for i := 0; i < n; i++ {
		p.versions[i], p.errs[i] = parseSemver(version(i))
		if p.errs[i] != nil && p.firstErr < 0 {
			p.firstErr = i
		}
	}
	return p
}

// latest returns the index of the highest version (the first one on a tie), or -1 when the list is
// empty or any version fails to parse (Gardener's DetermineLatestExpirableVersion).
func (p parsedVersions) latest() int {
	if p.firstErr >= 0 {
		return -1
	}
	best := -1
	for i, v := range p.versions {
		if best < 0 || v.compare(p.versions[best]) > 0 {
			best = i
		}
	}
	return best
}
