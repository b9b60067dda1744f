package cloudprofile

// The Gardener releases that apply each rule. Most rules apply in every known release; the
// exceptions are listed here, beside the catalogue, so that the catalogue's entries stay as they are.

// releaseRange is the first and last known release that apply a rule; a zero until means up to the
// newest known release.
type releaseRange struct{ since, until Release }

// ruleReleases are the rules that some known release does not apply.
var ruleReleases = map[string]releaseRange{
	// v1.147.0 reserved the capability prefix "gardener-".
	"I-3": {since: release147},
	// v1.149.0 stopped checking lifecycle-only versions for another supported version of their minor.
	"C-9":  {until: lastBefore(release149)},
	"F-11": {until: lastBefore(release149)},
}

// lastBefore returns the newest known release older than r.
func lastBefore(r Release) Release {
	var last Release
	for _, k := range knownReleases {
		if k.Compare(r) < 0 {
			last = k
		}
	}
	return last
}

// withReleases returns a copy of rules with Since and Until filled in.
func withReleases(rules []RuleInfo) []RuleInfo {
	out := make([]RuleInfo, len(rules))
	for i, r := range rules {
		rr := ruleReleases[r.ID]
		r.Since, r.Until = OldestKnownRelease(), rr.until
		if !rr.since.IsZero() {
			r.Since = rr.since
		}
		out[i] = r
	}
	return out
}

// AppliesIn tells whether Gardener release r applies the rule: whether the known release of r's
// minor (RulesOf) lies between Since and Until.
func (r RuleInfo) AppliesIn(rel Release) bool {
	known, _ := RulesOf(rel)
	if known.Compare(r.Since) < 0 {
		return false
	}
	return r.Until.IsZero() || known.Compare(r.Until) <= 0
}
