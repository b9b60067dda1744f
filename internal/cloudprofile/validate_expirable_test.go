package cloudprofile

import (
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

const supportedValuesDetail = `supported values: "deprecated", "expired", "preview", "supported"`

// withImageVersions replaces the image of the valid fixture with one image "ubuntu".
func withImageVersions(versions ...gardencorev1beta1.MachineImageVersion) *gardencorev1beta1.CloudProfile {
	cp := validCloudProfile()
	cp.Spec.MachineImages = []gardencorev1beta1.MachineImage{machineImage("ubuntu", versions...)}
	return cp
}

func lifecycleImageVersion(version string, stages ...gardencorev1beta1.LifecycleStage) gardencorev1beta1.MachineImageVersion {
	v := imageVersion(version)
	v.Lifecycle = stages
	return v
}

func TestRuleD1_LifecycleNeedsFeatureGate(t *testing.T) {
	t.Run("lifecycles for kubernetes are forbidden with the gate off", func(t *testing.T) {
		expectProblems(t, ValidateCloudProfile(withKubernetes(ev{Version: "1.32.0", Lifecycle: lc{stageOpen(supported)}}), gateOff()),
			want{rule: "D-1", typ: Forbidden, field: "spec.kubernetes.versions[0].lifecycle", attr: "spec.kubernetes.versions[0].lifecycle",
				detail: "lifecycles are not allowed with disabled VersionClassificationLifecycle feature gate"})
	})
	t.Run("lifecycles for machine images are forbidden with the gate off", func(t *testing.T) {
		expectProblems(t, ValidateCloudProfile(withImageVersions(lifecycleImageVersion("1.1.0", stageOpen(supported))), gateOff()),
			want{rule: "D-1", typ: Forbidden, field: "spec.machineImages[0].versions[0].lifecycle", attr: "spec.machine_images[0].versions[0].lifecycle",
				detail: "lifecycles are not allowed with disabled VersionClassificationLifecycle feature gate"})
	})
	t.Run("all other D rules are skipped for that version", func(t *testing.T) {
		v := ev{Version: "1.1.0", Classification: cls("bogus"), Lifecycle: lc{stageOpen("x"), stageOpen("x")}}
		expectProblems(t, validateExpirableVersion(v, NewPath("v"), gateOff()), want{rule: "D-1", field: "v.lifecycle"})
	})
}

func TestRuleD2_LegacyClassificationValues(t *testing.T) {
	t.Run("an invalid classification for kubernetes versions is forbidden", func(t *testing.T) {
		expectProblems(t, ValidateCloudProfile(withKubernetes(ev{Version: "1.1.0", Classification: cls("dummy")}), gateOn()),
			want{rule: "D-2", typ: NotSupported, field: "spec.kubernetes.versions[0].classification", attr: "spec.kubernetes.versions[0].classification",
				bad: gardencorev1beta1.VersionClassification("dummy"), checkBad: true, detail: supportedValuesDetail})
	})
	t.Run("an invalid classification for machine image versions is forbidden", func(t *testing.T) {
		v := imageVersion("0.1.2")
		v.Classification = cls("dummy")
		expectProblems(t, ValidateCloudProfile(withImageVersions(v), gateOff()),
			want{rule: "D-2", typ: NotSupported, field: "spec.machineImages[0].versions[0].classification", bad: gardencorev1beta1.VersionClassification("dummy"), checkBad: true})
	})
	t.Run("unavailable is rejected", func(t *testing.T) {
		expectProblems(t, validateExpirableVersion(ev{Version: "1", Classification: cls(unavailable)}, NewPath("v"), gateOn()),
			want{rule: "D-2", typ: NotSupported, field: "v.classification", detail: supportedValuesDetail})
	})
}

func TestRuleD3_LegacyExpiredClassificationForbidden(t *testing.T) {
	t.Run("classification expired is forbidden", func(t *testing.T) {
		expectProblems(t, validateExpirableVersion(ev{Version: "1.1.0", Classification: cls(expired)}, NewPath("v"), gateOff()),
			want{rule: "D-3", typ: Forbidden, field: "v.classification", detail: "cannot specify `classification` expired"})
	})
	t.Run("on create a legacy expired version is dropped before validation", func(t *testing.T) {
		expectNoProblems(t, ValidateCloudProfileRequest(withKubernetes(ev{Version: "1.2.0"}, ev{Version: "1.1.0", Classification: cls(expired)}), nil, gateOff()))
	})
	t.Run("an empty but non-nil lifecycle skips the check (quirk)", func(t *testing.T) {
		expectNoProblems(t, validateExpirableVersion(ev{Version: "1.1.0", Classification: cls(expired), Lifecycle: lc{}}, NewPath("v"), gateOff()))
	})
}

func TestRuleD4_LegacyFieldsWithLifecycle(t *testing.T) {
	t.Run("lifecycle and classification at the same time are forbidden (kubernetes)", func(t *testing.T) {
		expectProblems(t, ValidateCloudProfile(withKubernetes(ev{Version: "1.1.0", Classification: cls(supported), Lifecycle: lc{stageAt(deprecated, day)}}), gateOn()),
			want{rule: "D-4", typ: Forbidden, field: "spec.kubernetes.versions[0]", attr: "spec.kubernetes.versions[0]",
				detail: "cannot specify `classification` or `expirationDate` in combination with `lifecycle`"})
	})
	t.Run("lifecycle and classification at the same time are forbidden (machine images)", func(t *testing.T) {
		v := lifecycleImageVersion("3.4.6", stageAt(deprecated, day))
		v.Classification = cls(supported)
		expectProblems(t, ValidateCloudProfile(withImageVersions(v), gateOn()),
			want{rule: "D-4", typ: Forbidden, field: "spec.machineImages[0].versions[0]", detail: "cannot specify `classification` or `expirationDate` in combination with `lifecycle`"})
	})
	t.Run("lifecycle and expiration date at the same time are forbidden", func(t *testing.T) {
		expectProblems(t, validateExpirableVersion(ev{Version: "1", ExpirationDate: at(day), Lifecycle: lc{stageOpen(supported)}}, NewPath("v"), gateOn()),
			want{rule: "D-4", field: "v"})
	})
}

func TestRuleD5_LifecycleClassificationValues(t *testing.T) {
	t.Run("an invalid lifecycle classification for machine image versions is forbidden", func(t *testing.T) {
		expectProblems(t, ValidateCloudProfile(withImageVersions(lifecycleImageVersion("3.4.6", stageOpen("dummy"))), gateOn()),
			want{rule: "D-5", typ: NotSupported, field: "spec.machineImages[0].versions[0].lifecycle[0].classification",
				attr: "spec.machine_images[0].versions[0].lifecycle[0].classification", bad: gardencorev1beta1.VersionClassification("dummy"), checkBad: true, detail: supportedValuesDetail})
	})
	t.Run("an explicit unavailable stage is rejected", func(t *testing.T) {
		expectProblems(t, validateExpirableVersion(ev{Version: "1", Lifecycle: lc{stageOpen(unavailable), stageAt(supported, day)}}, NewPath("v"), gateOn()),
			want{rule: "D-5", typ: NotSupported, field: "v.lifecycle[0].classification"})
	})
}

func TestRuleD6_LifecycleClassificationsUnique(t *testing.T) {
	t.Run("multiple stages with the same classification are forbidden (kubernetes)", func(t *testing.T) {
		expectProblems(t, ValidateCloudProfile(withKubernetes(
			ev{Version: "1.1.0", Lifecycle: lc{stageOpen(supported), stageAt(supported, day)}},
			ev{Version: "1.2.0", Lifecycle: lc{stageOpen(supported)}},
		), gateOn()), want{rule: "D-6", typ: Duplicate, field: "spec.kubernetes.versions[0].lifecycle[1].classification", bad: supported, checkBad: true})
	})
	t.Run("multiple stages with the same classification are forbidden (machine images)", func(t *testing.T) {
		expectProblems(t, ValidateCloudProfile(withImageVersions(
			lifecycleImageVersion("3.4.6", stageOpen(supported)),
			lifecycleImageVersion("4.4.6", stageOpen(supported), stageAt(supported, day)),
		), gateOn()), want{rule: "D-6", typ: Duplicate, field: "spec.machineImages[0].versions[1].lifecycle[1].classification", bad: supported, checkBad: true})
	})
}

func TestRuleD7_LifecycleClassificationOrder(t *testing.T) {
	t.Run("unordered lifecycle stages are forbidden (kubernetes)", func(t *testing.T) {
		expectProblems(t, ValidateCloudProfile(withKubernetes(
			ev{Version: "1.1.0", Lifecycle: lc{stageOpen(preview), stageAt(deprecated, hour), stageAt(supported, 3*hour)}},
			ev{Version: "1.2.0", Lifecycle: lc{stageOpen(preview), stageAt(expired, hour), stageAt(deprecated, 2*hour), stageAt(supported, 3*hour)}},
			ev{Version: "1.3.0", Lifecycle: lc{stageOpen(supported)}},
		), gateOn()),
			want{rule: "D-7", typ: Invalid, field: "spec.kubernetes.versions[0].lifecycle[2].classification",
				detail: "lifecycle classifications not in expected order (preview, supported, deprecated, expired): supported must be before deprecated"},
			want{rule: "D-7", typ: Invalid, field: "spec.kubernetes.versions[1].lifecycle[2].classification",
				detail: "lifecycle classifications not in expected order (preview, supported, deprecated, expired): deprecated must be before expired"},
			want{rule: "D-7", typ: Invalid, field: "spec.kubernetes.versions[1].lifecycle[3].classification",
				detail: "lifecycle classifications not in expected order (preview, supported, deprecated, expired): supported must be before deprecated"})
	})
	t.Run("unordered lifecycle stages are forbidden (machine images)", func(t *testing.T) {
		expectProblems(t, ValidateCloudProfile(withImageVersions(
			lifecycleImageVersion("3.4.6", stageOpen(preview), stageAt(deprecated, hour), stageAt(supported, 2*hour)),
			lifecycleImageVersion("4.4.6", stageOpen(supported)),
		), gateOn()), want{rule: "D-7", field: "spec.machineImages[0].versions[0].lifecycle[2].classification", bad: supported, checkBad: true})
	})
	t.Run("only adjacent pairs are compared", func(t *testing.T) {
		expectProblems(t, validateExpirableVersion(ev{Version: "1", Lifecycle: lc{stageOpen(deprecated), stageAt(preview, hour), stageAt(supported, 2*hour)}}, NewPath("v"), gateOn()),
			want{rule: "D-7", field: "v.lifecycle[1].classification"})
	})
}

func TestRuleD8_OnlyTheFirstStageMayOmitItsStartTime(t *testing.T) {
	t.Run("a missing start time for a subsequent stage is forbidden (kubernetes)", func(t *testing.T) {
		expectProblems(t, ValidateCloudProfile(withKubernetes(
			ev{Version: "1.1.0", Lifecycle: lc{stageAt(preview, day), stageOpen(supported), stageAt(deprecated, 3*day)}},
			ev{Version: "1.2.0", Lifecycle: lc{stageOpen(supported)}},
		), gateOn()), want{rule: "D-8", typ: Required, field: "spec.kubernetes.versions[0].lifecycle[1]", attr: "spec.kubernetes.versions[0].lifecycle[1]",
			detail: "only the leading lifecycle elements can have the start time optional"})
	})
	t.Run("a missing start time for a subsequent stage is forbidden (machine images)", func(t *testing.T) {
		expectProblems(t, ValidateCloudProfile(withImageVersions(
			lifecycleImageVersion("3.4.6", stageOpen(preview), stageAt(supported, day), stageOpen(deprecated)),
			lifecycleImageVersion("4.4.6", stageOpen(supported)),
		), gateOn()), want{rule: "D-8", typ: Required, field: "spec.machineImages[0].versions[0].lifecycle[2]"})
	})
	t.Run("multiple stages without start time are forbidden", func(t *testing.T) {
		expectProblems(t, ValidateCloudProfile(withKubernetes(
			ev{Version: "1.1.0", Lifecycle: lc{stageOpen(supported), stageOpen(deprecated), stageOpen(expired)}},
			ev{Version: "1.2.0", Lifecycle: lc{stageOpen(supported)}},
		), gateOn()),
			want{rule: "D-8", typ: Required, field: "spec.kubernetes.versions[0].lifecycle[1]"},
			want{rule: "D-8", typ: Required, field: "spec.kubernetes.versions[0].lifecycle[2]"})
	})
	t.Run("a missing start time for the first stage is allowed", func(t *testing.T) {
		expectNoProblems(t, ValidateCloudProfile(withKubernetes(
			ev{Version: "1.1.0", Lifecycle: lc{stageOpen(preview), stageAt(supported, day), stageAt(deprecated, 2*day)}},
			ev{Version: "1.2.0", Lifecycle: lc{stageOpen(supported)}},
		), gateOn()))
	})
}

func TestRuleD9_LifecycleStartTimesMonotonic(t *testing.T) {
	t.Run("start times that are not monotonically increasing are forbidden", func(t *testing.T) {
		v := ev{Version: "1.1.0", Lifecycle: lc{stageAt(preview, 0), stageAt(supported, 2*hour), stageAt(deprecated, hour)}}
		expectProblems(t, ValidateCloudProfile(withKubernetes(v), gateOn()), want{
			rule: "D-9", typ: Invalid, field: "spec.kubernetes.versions[0].lifecycle[2]", attr: "spec.kubernetes.versions[0].lifecycle[2]",
			detail: "lifecycle start times must be monotonically increasing", bad: v.Lifecycle[2].StartTime.String(), checkBad: true,
		})
	})
	t.Run("directly following stages with the same start time are allowed", func(t *testing.T) {
		expectNoProblems(t, ValidateCloudProfile(withKubernetes(
			ev{Version: "1.1.0", Lifecycle: lc{stageAt(supported, day), stageAt(deprecated, day)}},
			ev{Version: "1.2.0", Lifecycle: lc{stageOpen(supported)}},
		), gateOn()))
	})
	t.Run("multiple stages with the same start time are allowed (machine images)", func(t *testing.T) {
		expectNoProblems(t, ValidateCloudProfile(withImageVersions(
			lifecycleImageVersion("3.4.6", stageAt(supported, day)),
			lifecycleImageVersion("4.4.6", stageAt(supported, day), stageAt(deprecated, day)),
		), gateOn()))
	})
	t.Run("a stage without start time does not move the previous start time", func(t *testing.T) {
		expectProblems(t, validateExpirableVersion(ev{Version: "1", Lifecycle: lc{stageAt(preview, 2*hour), stageOpen(supported), stageAt(deprecated, hour)}}, NewPath("v"), gateOn()),
			want{rule: "D-8", field: "v.lifecycle[1]"}, want{rule: "D-9", field: "v.lifecycle[2]"})
	})
}

func TestRuleD10_DatesInThePastAreAccepted(t *testing.T) {
	t.Run("an expiration date in the past passes static validation", func(t *testing.T) {
		expectNoProblems(t, ValidateCloudProfile(withKubernetes(ev{Version: "1.2.0"}, ev{Version: "1.1.0", ExpirationDate: at(-day)}), gateOff()))
	})
	t.Run("lifecycle start times in the past pass static validation", func(t *testing.T) {
		expectNoProblems(t, ValidateCloudProfile(withKubernetes(ev{Version: "1.2.0"}, ev{Version: "1.1.0", Lifecycle: lc{stageAt(supported, -3*day), stageAt(expired, -day)}}), gateOn()))
	})
	t.Run("on create such versions are dropped instead", func(t *testing.T) {
		_, dropped := PrepareCloudProfileForCreate(withKubernetes(ev{Version: "1.2.0"}, ev{Version: "1.1.0", ExpirationDate: at(-day)}), gateOff())
		if len(dropped) != 1 || dropped[0].Version != "1.1.0" {
			t.Fatalf("dropped = %+v", dropped)
		}
	})
}
