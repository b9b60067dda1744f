package cloudprofile

import "testing"

func TestParseRelease_ReadsGardenerVersions(t *testing.T) {
	for in, want := range map[string]Release{
		"v1.149.3":         {149, 3},
		"1.146.0":          {146, 0},
		"v1.150.0-dev":     {150, 0},
		"v1.149.3+abcdef0": {149, 3},
		"v1.151.2":         {151, 2},
	} {
		got, err := ParseRelease(in)
		if err != nil || got != want {
			t.Errorf("ParseRelease(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "v2.1.0", "v1.149", "1.x.0", "v1.-1.0", "latest"} {
		if _, err := ParseRelease(bad); err == nil {
			t.Errorf("ParseRelease(%q) succeeded; want an error", bad)
		}
	}
}

func TestRulesOf_FollowsTheMinorAndTheNearestEnd(t *testing.T) {
	for _, c := range []struct {
		in    Release
		want  Release
		match ReleaseMatch
	}{
		{Release{149, 3}, Release{149, 3}, ReleaseKnown},
		{Release{149, 7}, Release{149, 3}, ReleaseKnown},
		{Release{146, 2}, Release{146, 0}, ReleaseKnown},
		{Release{150, 0}, Release{150, 0}, ReleaseKnown},
		{Release{140, 0}, Release{146, 0}, ReleaseOlder},
		{Release{152, 1}, Release{150, 0}, ReleaseNewer},
	} {
		got, match := RulesOf(c.in)
		if got != c.want || match != c.match {
			t.Errorf("RulesOf(%v) = %v, %v; want %v, %v", c.in, got, match, c.want, c.match)
		}
	}
}

func TestKnownReleases_HaveEveryMinorOnceOldestFirst(t *testing.T) {
	known := KnownReleases()
	for i := 1; i < len(known); i++ {
		if known[i].Minor != known[i-1].Minor+1 {
			t.Fatalf("known releases %v skip or repeat a minor at %v", known, known[i])
		}
	}
	if NewestKnownRelease() != known[len(known)-1] {
		t.Fatalf("NewestKnownRelease() = %v, want %v", NewestKnownRelease(), known[len(known)-1])
	}
	if got, match := RulesOf(DefaultRelease); got != DefaultRelease || match != ReleaseKnown {
		t.Fatalf("DefaultRelease %v is not a known release", DefaultRelease)
	}
}
