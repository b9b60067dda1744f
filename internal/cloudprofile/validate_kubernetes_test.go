package cloudprofile

import (
	"fmt"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

func withKubernetes(versions ...ev) *gardencorev1beta1.CloudProfile {
	cp := validCloudProfile()
	cp.Spec.Kubernetes.Versions = versions
	return cp
}

func TestRuleC1_AtLeastOneKubernetesVersion(t *testing.T) {
	t.Run("at least one version has to be defined (with C-2)", func(t *testing.T) {
		expectProblems(t, ValidateCloudProfile(withKubernetes(), gateOff()),
			want{rule: "C-1", typ: Required, field: "spec.kubernetes.versions", attr: "spec.kubernetes.versions", detail: "must provide at least one Kubernetes version"},
			want{rule: "C-2", typ: Invalid, field: "spec.kubernetes.versions"})
	})
}

func TestRuleC2_LatestKubernetesVersionIsDeterminable(t *testing.T) {
	t.Run("an empty list has no latest version", func(t *testing.T) {
		ps := validateKubernetesVersions(nil, NewPath("spec").Child("kubernetes").Child("versions"), gateOff())
		expectProblems(t, ps, want{rule: "C-1", typ: Required, field: "spec.kubernetes.versions"},
			want{rule: "C-2", typ: Invalid, field: "spec.kubernetes.versions", detail: "failed to determine the latest kubernetes version from the cloud profile", bad: "", checkBad: true})
	})
	t.Run("a version that is not semver accompanies C-5", func(t *testing.T) {
		expectProblems(t, ValidateCloudProfile(withKubernetes(ev{Version: "1.2.3"}, ev{Version: "a.b.c"}), gateOff()),
			want{rule: "C-2", typ: Invalid, field: "spec.kubernetes.versions"},
			want{rule: "C-5", typ: Invalid, field: "spec.kubernetes.versions[1]"})
	})
}

func TestRuleC3_LatestKubernetesVersionMustNotExpire(t *testing.T) {
	t.Run("an expiration date on the latest version is forbidden", func(t *testing.T) {
		date := at(day)
		expectProblems(t, ValidateCloudProfile(withKubernetes(
			ev{Version: "1.1.0", Classification: cls(supported)},
			ev{Version: "1.2.0", Classification: cls(deprecated), ExpirationDate: date},
		), gateOff()), want{
			rule: "C-3", typ: Invalid, field: "spec.kubernetes.versions[].expirationDate", attr: "spec.kubernetes.versions[1].expiration_date",
			detail: "expiration date of latest kubernetes version ('1.2.0') must not be set", bad: date, checkBad: true,
		})
	})
	t.Run("latest is the semver maximum regardless of list order and classification", func(t *testing.T) {
		expectProblems(t, ValidateCloudProfile(withKubernetes(
			ev{Version: "1.2.0"},
			ev{Version: "1.10.0", Classification: cls(preview), ExpirationDate: at(day)},
			ev{Version: "1.9.0"},
		), gateOff()), want{rule: "C-3", field: "spec.kubernetes.versions[].expirationDate", attr: "spec.kubernetes.versions[1].expiration_date"})
	})
	t.Run("on a tie the first version is the latest", func(t *testing.T) {
		expectProblems(t, ValidateCloudProfile(withKubernetes(
			ev{Version: "1.2.0", ExpirationDate: at(day)},
			ev{Version: "01.2.0"},
		), gateOff()), want{rule: "C-3", attr: "spec.kubernetes.versions[0].expiration_date", field: "spec.kubernetes.versions[].expirationDate"})
	})
	t.Run("an expiration date on an older version is allowed", func(t *testing.T) {
		expectNoProblems(t, ValidateCloudProfile(withKubernetes(ev{Version: "1.2.0"}, ev{Version: "1.1.0", ExpirationDate: at(day)}), gateOff()))
	})
	t.Run("machine images have no such rule", func(t *testing.T) {
		cp := validCloudProfile()
		v := imageVersion("0.1.2")
		v.ExpirationDate, v.Classification = at(day), cls(preview)
		cp.Spec.MachineImages[0].Versions = append(cp.Spec.MachineImages[0].Versions, v)
		expectNoProblems(t, ValidateCloudProfile(cp, gateOff()))
	})
	t.Run("it is evaluated after create-time dropping", func(t *testing.T) {
		cp := withKubernetes(ev{Version: "1.3.0", ExpirationDate: at(-hour)}, ev{Version: "1.2.0", ExpirationDate: at(day)})
		expectProblems(t, ValidateCloudProfileRequest(cp, nil, gateOff()),
			want{rule: "C-3", field: "spec.kubernetes.versions[].expirationDate", attr: "spec.kubernetes.versions[1].expiration_date", detail: "~('1.2.0')"})
	})
}

func TestRuleC4_LatestKubernetesVersionLifecycleMustNotEndExpired(t *testing.T) {
	t.Run("an expired last stage on the latest version is forbidden", func(t *testing.T) {
		ps := ValidateCloudProfile(withKubernetes(
			ev{Version: "1.1.0", Lifecycle: lc{stageOpen(supported)}},
			ev{Version: "1.2.0", Lifecycle: lc{stageOpen(deprecated), stageAt(expired, day)}},
		), gateOn())
		expectProblems(t, ps, want{
			rule: "C-4", typ: Invalid, field: "spec.kubernetes.versions[].lifecycle", attr: "spec.kubernetes.versions[1].lifecycle",
			detail: "classification expired of latest kubernetes version ('1.2.0') must not be set", bad: (*metav1.Time)(nil), checkBad: true,
		})
	})
	t.Run("only the last list element counts", func(t *testing.T) {
		ps := ValidateCloudProfile(withKubernetes(ev{Version: "1.2.0", Lifecycle: lc{stageOpen(expired), stageAt(supported, day)}}), gateOn())
		for _, p := range ps {
			if p.Rule == "C-4" {
				t.Fatalf("unexpected C-4: %v", p)
			}
		}
	})
}

func TestRuleC5_KubernetesVersionPattern(t *testing.T) {
	for _, tt := range []struct {
		version string
		valid   bool
	}{
		{"1.11", false}, {"1.11.4", true}, {"01.2.3", true}, {"v1.2.3", false}, {"1.2.3-rc.1", false},
		{"1.2.3+meta", false}, {"1.2.3.4", false}, {"1..3", false}, {"", false}, {" 1.2.3", false},
	} {
		t.Run(fmt.Sprintf("%q", tt.version), func(t *testing.T) {
			if got := IsKubernetesVersion(tt.version); got != tt.valid {
				t.Fatalf("IsKubernetesVersion = %v, want %v", got, tt.valid)
			}
		})
	}
	t.Run("versions of a not allowed pattern are forbidden", func(t *testing.T) {
		v := ev{Version: "1.11"}
		expectProblems(t, ValidateCloudProfile(withKubernetes(v), gateOff()), want{
			rule: "C-5", typ: Invalid, field: "spec.kubernetes.versions[0]", attr: "spec.kubernetes.versions[0]",
			detail: `all Kubernetes versions must match the regex ^([0-9]+\.){2}[0-9]+$`, bad: v, checkBad: true,
		})
	})
}

func TestRuleC6_DuplicateKubernetesVersions(t *testing.T) {
	t.Run("duplicated versions are forbidden at the later index", func(t *testing.T) {
		expectProblems(t, ValidateCloudProfile(withKubernetes(ev{Version: "1.11.4"}, ev{Version: "1.11.4", Classification: cls(preview)}), gateOff()),
			want{rule: "C-6", typ: Duplicate, field: "spec.kubernetes.versions[1].version", attr: "spec.kubernetes.versions[1].version", bad: "1.11.4", checkBad: true})
	})
	t.Run("leading zeros make a different string", func(t *testing.T) {
		expectNoProblems(t, ValidateCloudProfile(withKubernetes(ev{Version: "1.2.3"}, ev{Version: "01.2.3"}), gateOff()))
	})
	t.Run("a version failing the pattern is not recorded", func(t *testing.T) {
		expectProblems(t, ValidateCloudProfile(withKubernetes(ev{Version: "1.2.3"}, ev{Version: "1.2"}, ev{Version: "1.2"}), gateOff()),
			want{rule: "C-5", field: "spec.kubernetes.versions[1]"}, want{rule: "C-5", field: "spec.kubernetes.versions[2]"})
	})
}

func TestRuleC7_ExpirableVersionRulesApplyToKubernetesVersions(t *testing.T) {
	t.Run("classification expired is forbidden", func(t *testing.T) {
		expectProblems(t, ValidateCloudProfile(withKubernetes(ev{Version: "1.1.0", Classification: cls(expired)}), gateOff()),
			want{rule: "D-3", typ: Forbidden, field: "spec.kubernetes.versions[0].classification", attr: "spec.kubernetes.versions[0].classification"})
	})
	t.Run("lifecycles are forbidden with the gate off", func(t *testing.T) {
		expectProblems(t, ValidateCloudProfile(withKubernetes(ev{Version: "1.32.0", Lifecycle: lc{{Classification: supported, StartTime: &metav1.Time{}}}}), gateOff()),
			want{rule: "D-1", typ: Forbidden, field: "spec.kubernetes.versions[0].lifecycle", detail: "lifecycles are not allowed with disabled VersionClassificationLifecycle feature gate"})
	})
}

func TestRuleC8_OneSupportedKubernetesVersionPerMinor(t *testing.T) {
	detail := func(v string) string {
		return fmt.Sprintf(`unable to add version %q with classification "supported". "supported" lifecycle stages must not overlap per minor version`, v)
	}
	t.Run("only one supported version per minor: both indices are flagged", func(t *testing.T) {
		expectProblems(t, ValidateCloudProfile(withKubernetes(
			ev{Version: "1.1.0", Classification: cls(supported)},
			ev{Version: "1.1.1", Classification: cls(supported)},
		), gateOff()),
			want{rule: "C-8", typ: Forbidden, field: "spec.kubernetes.versions[1]", attr: "spec.kubernetes.versions[1]", detail: detail("1.1.1")},
			want{rule: "C-8", typ: Forbidden, field: "spec.kubernetes.versions[0]", detail: detail("1.1.0")})
	})
	t.Run("multiple supported versions per minor are allowed if their lifecycle start times do not overlap", func(t *testing.T) {
		expectNoProblems(t, ValidateCloudProfile(withKubernetes(
			ev{Version: "1.1.0", Lifecycle: lc{stageOpen(preview), stageAt(supported, 0), stageAt(deprecated, 2*hour)}},
			ev{Version: "1.1.1", Lifecycle: lc{stageAt(supported, 2*hour)}},
		), gateOn()))
	})
	t.Run("two lifecycle-only versions supported in the same minor are never checked", func(t *testing.T) {
		expectNoProblems(t, ValidateCloudProfile(withKubernetes(
			ev{Version: "1.1.0", Lifecycle: lc{stageOpen(supported)}},
			ev{Version: "1.1.1", Lifecycle: lc{stageOpen(supported)}},
		), gateOn()))
	})
	t.Run("a legacy supported version and two lifecycle partners give two identical errors", func(t *testing.T) {
		w := want{rule: "C-8", typ: Forbidden, field: "spec.kubernetes.versions[0]", detail: detail("1.1.0")}
		expectProblems(t, ValidateCloudProfile(withKubernetes(
			ev{Version: "1.1.0", Classification: cls(supported)},
			ev{Version: "1.1.1", Lifecycle: lc{stageOpen(preview), stageAt(supported, day)}},
			ev{Version: "1.1.2", Lifecycle: lc{stageOpen(supported)}},
		), gateOn()), w, w)
	})
	t.Run("a legacy supported partner counts even when expired", func(t *testing.T) {
		expectProblems(t, ValidateCloudProfile(withKubernetes(
			ev{Version: "1.1.1", Classification: cls(supported)},
			ev{Version: "1.1.0", Classification: cls(supported), ExpirationDate: at(-day)},
		), gateOff()), want{rule: "C-8", field: "spec.kubernetes.versions[0]"})
	})
	t.Run("a legacy supported version that is currently deprecated by its lifecycle is not checked", func(t *testing.T) {
		ps := ValidateCloudProfile(withKubernetes(
			ev{Version: "1.1.1", Classification: cls(supported)},
			ev{Version: "1.1.0", Classification: cls(supported), Lifecycle: lc{stageOpen(deprecated)}},
		), gateOn())
		expectProblems(t, ps, want{rule: "C-8", field: "spec.kubernetes.versions[0]"}, want{rule: "D-4", field: "spec.kubernetes.versions[1]"})
	})
	t.Run("different minors do not conflict", func(t *testing.T) {
		expectNoProblems(t, ValidateCloudProfile(withKubernetes(
			ev{Version: "1.2.0", Classification: cls(supported)},
			ev{Version: "1.1.0", Classification: cls(supported)},
		), gateOff()))
	})
	t.Run("a supported legacy version conflicts with a preview legacy version only if that is supported", func(t *testing.T) {
		expectNoProblems(t, ValidateCloudProfile(withKubernetes(
			ev{Version: "1.1.1", Classification: cls(supported)},
			ev{Version: "1.1.0", Classification: cls(preview)},
		), gateOff()))
	})
}
