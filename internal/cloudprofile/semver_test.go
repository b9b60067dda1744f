package cloudprofile

import (
	"math/rand"
	"regexp"
	"testing"

	"github.com/Masterminds/semver/v3"
)

// Semantic versions as the rules parse them: Masterminds v3.5.0 NewVersion as Gardener uses it.
func TestSemver_ParseVersionAsGardener(t *testing.T) {
	for _, tt := range []struct {
		version             string
		ok                  bool
		major, minor, patch uint64
		pre                 string
	}{
		{"1.2.3", true, 1, 2, 3, ""},
		{"v1.2.3", true, 1, 2, 3, ""},
		{"01.02.03", true, 1, 2, 3, ""},
		{"1", true, 1, 0, 0, ""},
		{"1.2", true, 1, 2, 0, ""},
		{"1.2.3-rc.1", true, 1, 2, 3, "rc.1"},
		{"1.2.3+meta", true, 1, 2, 3, ""},
		{"18446744073709551615.0.0", true, 18446744073709551615, 0, 0, ""},
		{"1.2.3-01", false, 0, 0, 0, ""},
		{"1.2.3-", false, 0, 0, 0, ""},
		{"1.2.3+", false, 0, 0, 0, ""},
		{"V1.2.3", false, 0, 0, 0, ""},
		{"1.2.3.4", false, 0, 0, 0, ""},
		{" 1.2.3", false, 0, 0, 0, ""},
		{"1.2.3 ", false, 0, 0, 0, ""},
		{"", false, 0, 0, 0, ""},
		{"a.b.c", false, 0, 0, 0, ""},
		{"18446744073709551616.0.0", false, 0, 0, 0, ""},
	} {
		t.Run(tt.version, func(t *testing.T) {
			v, err := parseSemver(tt.version)
			if (err == nil) != tt.ok {
				t.Fatalf("parseSemver error = %v, want ok=%v", err, tt.ok)
			}
			if _, merr := ParseVersion(tt.version); (merr == nil) != tt.ok {
				t.Fatalf("ParseVersion error = %v, want ok=%v", merr, tt.ok)
			}
			if tt.ok && (v.major != tt.major || v.minor != tt.minor || v.patch != tt.patch || v.pre != tt.pre) {
				t.Fatalf("parsed %+v", v)
			}
		})
	}
	t.Run("a version longer than 256 bytes is rejected", func(t *testing.T) {
		long := "1.2.3-" + string(make([]byte, 300))
		if _, err := parseSemver(long); err == nil {
			t.Fatal("accepted")
		}
	})
	t.Run("ordering follows SemVer 2.0", func(t *testing.T) {
		mustParse := func(s string) semVersion {
			v, err := parseSemver(s)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
		if mustParse("1.2.3-inplace").compare(mustParse("1.2.3")) >= 0 {
			t.Fatal("pre-release must sort lower")
		}
		if mustParse("1.2.3+meta").compare(mustParse("1.2.3")) != 0 {
			t.Fatal("build metadata must be ignored")
		}
		if mustParse("1.10.0").compare(mustParse("1.9.0")) <= 0 {
			t.Fatal("numeric ordering")
		}
	})
}

func TestSemver_ParseConstraint(t *testing.T) {
	for _, c := range []string{"< 1.26", ">= 1.26", ">=1.31.0", "~1.2", "1.2.x", ">= 1.26, < 1.28", "^1.2 || ~2.0"} {
		if _, err := ParseConstraint(c); err != nil {
			t.Errorf("%q rejected: %v", c, err)
		}
	}
	for _, c := range []string{"", "invalid-version", "==1.30.0"} {
		if _, err := ParseConstraint(c); err == nil {
			t.Errorf("%q accepted", c)
		}
	}
}

// checkSemverAgreement asserts that the fast parser agrees with Masterminds on acceptance, the
// parse error, the components and the ordering.
func checkSemverAgreement(t *testing.T, a, b string) {
	t.Helper()
	fa, errA := parseSemver(a)
	ma, merrA := semver.NewVersion(a)
	if (errA == nil) != (merrA == nil) || (errA != nil && errA.Error() != merrA.Error()) {
		t.Fatalf("%q: fast error %v, Masterminds error %v", a, errA, merrA)
	}
	if errA != nil {
		return
	}
	if fa.major != ma.Major() || fa.minor != ma.Minor() || fa.patch != ma.Patch() || fa.pre != ma.Prerelease() {
		t.Fatalf("%q: fast %+v, Masterminds %v", a, fa, ma)
	}
	fb, errB := parseSemver(b)
	mb, merrB := semver.NewVersion(b)
	if errB != nil || merrB != nil {
		return
	}
	if got, want := fa.compare(fb), ma.Compare(mb); got != want {
		t.Fatalf("compare(%q, %q) = %d, Masterminds %d", a, b, got, want)
	}
}

func TestSemver_FastPathAgreesWithMasterminds(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	alphabet := "0123456789.v-+aZ"
	gen := func() string {
		b := make([]byte, r.Intn(12))
		for i := range b {
			b[i] = alphabet[r.Intn(len(alphabet))]
		}
		return string(b)
	}
	for i := 0; i < 20000; i++ {
		checkSemverAgreement(t, gen(), gen())
	}
	// Components at and past the largest uint64, where the fast path hands over to Masterminds.
	for _, s := range []string{"18446744073709551615.0.0", "18446744073709551616.1", "1.18446744073709551619", "1.2.99999999999999999999", "v00.01.2"} {
		checkSemverAgreement(t, s, "1.2.3")
		checkSemverAgreement(t, s, "18446744073709551615.0.0")
	}
}

var kubernetesVersionRegexp = regexp.MustCompile(KubernetesVersionPattern)

func FuzzParseVersion(f *testing.F) {
	for _, s := range []string{"1.2.3", "v1", "01.2.3", "1.2.3-rc.1+b", "1.2.3-01", "", "99999999999999999999.1", "1.2.3-inplace"} {
		f.Add(s, "1.2.3")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		_, _ = ParseVersion(a)
		_, _ = ParseConstraint(a)
		if got, want := IsKubernetesVersion(a), kubernetesVersionRegexp.MatchString(a); got != want {
			t.Fatalf("IsKubernetesVersion(%q) = %v, regexp %v", a, got, want)
		}
		checkSemverAgreement(t, a, b)
	})
}
