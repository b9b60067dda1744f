package cloudprofile

import (
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// The differences between the known releases, one test each, named after the rule and the two
// releases that differ. rule_releases.go lists them; internal/conformance compares each release
// with Gardener's own code.

var (
	v146 = Release{Minor: 146}
	v147 = Release{Minor: 147}
	v148 = Release{Minor: 148}
	v149 = Release{Minor: 149, Patch: 3}
	v150 = Release{Minor: 150}
)

// in returns opts for the rules of release r.
func in(r Release, opts Options) Options {
	opts.Release = r
	return opts
}

func TestRuleI3_ReservedCapabilityPrefix_V1_146_0AcceptsV1_147_0Rejects(t *testing.T) {
	cp := withTwoArchitectures()
	cp.Spec.MachineTypes[0].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"amd64"}}
	cp.Spec.MachineCapabilities = []gardencorev1beta1.CapabilityDefinition{
		{Name: "architecture", Values: []string{"amd64"}},
		{Name: "gardener-update-type", Values: []string{"rolling", "in-place"}},
	}
	i3 := want{rule: "I-3", typ: Forbidden, field: "spec.machineCapabilities[1].name", attr: "spec.machine_capabilities[1].name"}
	expectNoProblems(t, ValidateCloudProfile(cp, in(v146, gateOff())))
	expectNoProblems(t, ValidateCloudProfileUpdate(cp, cp, in(v146, gateOff())))
	for _, r := range []Release{v147, v148, v149, v150} {
		expectProblems(t, ValidateCloudProfile(cp, in(r, gateOff())), i3)
		expectProblems(t, ValidateCloudProfileUpdate(cp, cp, in(r, gateOff())), i3)
	}
}

func TestRuleC9_LifecycleOnlyKubernetesVersionsPerMinor_V1_148_0RejectsV1_149_3Accepts(t *testing.T) {
	cp := withKubernetes(
		ev{Version: "1.1.0", Classification: cls(supported)},
		ev{Version: "1.1.1", Lifecycle: lc{stageOpen(preview), stageAt(supported, day)}},
		ev{Version: "1.1.2", Lifecycle: lc{stageOpen(supported)}},
		ev{Version: "1.2.0", Lifecycle: lc{stageOpen(supported)}},
	)
	c8 := want{rule: "C-8", typ: Forbidden, field: "spec.kubernetes.versions[0]"}
	c9 := want{rule: "C-9", typ: Forbidden, field: "spec.kubernetes.versions[2]", attr: "spec.kubernetes.versions[2]",
		detail: `unable to add version "1.1.2" with classification "supported". "supported" lifecycle stages must not overlap per minor version`}
	for _, r := range []Release{v146, v147, v148} {
		// 1.1.2 is supported now and has two partners of its minor: the legacy 1.1.0, and 1.1.1, whose
		// supported stage has no end either. 1.1.1 is not supported now, so it is not checked.
		expectProblems(t, ValidateCloudProfile(cp, in(r, gateOn())), c8, c8, c9, c9)
	}
	for _, r := range []Release{v149, v150, {}} {
		expectProblems(t, ValidateCloudProfile(cp, in(r, gateOn())), c8, c8)
	}
}

func TestRuleC9_SupportedPeriodsThatEndDoNotOverlap_V1_148_0(t *testing.T) {
	cp := withKubernetes(
		ev{Version: "1.1.0", Lifecycle: lc{stageOpen(supported), stageAt(deprecated, day)}},
		ev{Version: "1.1.1", Lifecycle: lc{stageAt(supported, day)}},
	)
	expectNoProblems(t, ValidateCloudProfile(cp, in(v148, gateOn())))
}

func TestRuleF11_LifecycleOnlyImageVersionsPerMinor_V1_148_0RejectsV1_149_3Accepts(t *testing.T) {
	cp := withImageVersions(
		lifecycleImageVersion("1877.1.0", stageOpen(supported)),
		lifecycleImageVersion("1877.1.1", stageOpen(supported)),
	)
	f11 := func(i string) want {
		return want{rule: "F-11", typ: Forbidden, field: "spec.machineImages[0].versions[" + i + "]"}
	}
	expectProblems(t, ValidateCloudProfile(cp, in(v148, gateOn())), f11("0"), f11("1"))
	expectNoProblems(t, ValidateCloudProfile(cp, in(v149, gateOn())))
}

func TestRuleF11_MergedProfileOfANamespacedCloudProfile_V1_148_0RejectsV1_149_3Accepts(t *testing.T) {
	parent := withImageVersions(
		lifecycleImageVersion("1877.1.0", stageOpen(supported)),
		lifecycleImageVersion("1877.1.1", stageOpen(preview), stageAt(supported, day)),
	)
	ncp := &gardencorev1beta1.NamespacedCloudProfile{}
	ncp.Name, ncp.Namespace = "team", "garden-team"
	ncp.Spec.Parent = gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: parent.Name}
	ncp.Spec.VolumeTypes = []gardencorev1beta1.VolumeType{{Name: "extra", Class: "standard"}}
	m2f11 := want{rule: "M-2/F-11", typ: Forbidden, field: "status.cloudProfileSpec.machineImages[0].versions[0]"}
	expectProblems(t, AdmitNamespacedCloudProfileRequest(ncp, nil, parent, in(v148, gateOn())).Errors(), m2f11)
	expectNoProblems(t, AdmitNamespacedCloudProfileRequest(ncp, nil, parent, in(v149, gateOn())).Errors())
}

func TestStatusFor_V1_148_0WritesNoStatusV1_149_3Classifies(t *testing.T) {
	spec := withKubernetes(ev{Version: "1.1.0", Lifecycle: lc{stageOpen(preview), stageAt(supported, day)}}).Spec
	for _, r := range []Release{v146, v147, v148} {
		opts := in(r, gateOn())
		if got := StatusFor(spec, opts); got.Kubernetes != nil || got.MachineImages != nil {
			t.Errorf("%s: StatusFor = %+v, want the empty status", r, got)
		}
		if got := RequeueFor(spec, opts); got != 0 {
			t.Errorf("%s: RequeueFor = %v, want no requeue", r, got)
		}
		if !StatusInSyncFor(spec, gardencorev1beta1.CloudProfileStatus{}, opts) || StatusInSyncFor(spec, StatusAt(spec, testNow), opts) {
			t.Errorf("%s: StatusInSyncFor must accept only the empty status", r)
		}
	}
	for _, r := range []Release{v149, v150} {
		opts := in(r, gateOn())
		got := StatusFor(spec, opts)
		if got.Kubernetes == nil || len(got.Kubernetes.Versions) != 1 || got.Kubernetes.Versions[0].Classification != preview {
			t.Errorf("%s: StatusFor = %+v, want 1.1.0 in preview", r, got)
		}
		if got := RequeueFor(spec, opts); got != day {
			t.Errorf("%s: RequeueFor = %v, want %v", r, got, day)
		}
		if !StatusInSyncFor(spec, StatusAt(spec, testNow), opts) || StatusInSyncFor(spec, gardencorev1beta1.CloudProfileStatus{}, opts) {
			t.Errorf("%s: StatusInSyncFor must accept only StatusAt", r)
		}
	}
}

func TestRegisteredFeatureGates_LiveControlPlaneMigration_V1_147_0LacksV1_148_0Registers(t *testing.T) {
	has := func(r Release) bool {
		for _, g := range RegisteredFeatureGates(r) {
			if g.Name == "LiveControlPlaneMigration" {
				return !g.Default && !g.CloudProfiles
			}
		}
		return false
	}
	for _, r := range []Release{v146, v147} {
		if has(r) {
			t.Errorf("%s registers LiveControlPlaneMigration", r)
		}
		_, err := FeatureGates{}.WithIn(r, "LiveControlPlaneMigration", true)
		if err == nil || !strings.Contains(err.Error(), "gardener-apiserver "+r.String()+" does not know it") {
			t.Errorf("%s: WithIn(LiveControlPlaneMigration) error = %v", r, err)
		}
	}
	for _, r := range []Release{v148, v149, v150} {
		if !has(r) {
			t.Errorf("%s does not register LiveControlPlaneMigration (alpha, off)", r)
		}
		_, err := FeatureGates{}.WithIn(r, "LiveControlPlaneMigration", true)
		if err == nil || !strings.Contains(err.Error(), "concerns Shoots only") {
			t.Errorf("%s: WithIn(LiveControlPlaneMigration) error = %v", r, err)
		}
	}
}

func TestDefaultFeatureGatesOf_AreTheSameInEveryKnownRelease(t *testing.T) {
	want := FeatureGates{VersionClassificationLifecycle: false, CloudProfileCapabilities: true}
	for _, r := range append(KnownReleases(), Release{Minor: 140}, Release{Minor: 155}) {
		if got := DefaultFeatureGatesOf(r); got != want {
			t.Errorf("DefaultFeatureGatesOf(%s) = %+v, want %+v", r, got, want)
		}
	}
	if GardenerDefaultFeatureGates() != DefaultFeatureGatesOf(DefaultRelease) {
		t.Error("GardenerDefaultFeatureGates differs from the defaults of DefaultRelease")
	}
}

func TestRules_SayFromWhichReleaseTheyApply(t *testing.T) {
	for _, c := range []struct {
		id           string
		since, until Release
	}{
		{"A-1", v146, Release{}},
		// The label, annotation and provider-type rules and the promotion notice: every known release.
		{"A-4", v146, Release{}},
		{"A-5", v146, Release{}},
		{"B-5", v146, Release{}},
		{"W-promoted-soon", v146, Release{}},
		{"I-3", v147, Release{}},
		{"C-9", v146, v148},
		{"F-11", v146, v148},
	} {
		r, ok := RuleOf(c.id)
		if !ok || r.Since != c.since || r.Until != c.until {
			t.Errorf("RuleOf(%s) releases = %v … %v, want %v … %v", c.id, r.Since, r.Until, c.since, c.until)
		}
	}
	for _, r := range Rules() {
		if r.Since.IsZero() || !r.AppliesIn(r.Since) {
			t.Errorf("rule %s does not apply in its first release %v", r.ID, r.Since)
		}
		if !r.Until.IsZero() && r.AppliesIn(NewestKnownRelease()) {
			t.Errorf("rule %s applies after its last release %v", r.ID, r.Until)
		}
	}
	i3, _ := RuleOf("I-3")
	c9, _ := RuleOf("C-9")
	if i3.AppliesIn(v146) || !i3.AppliesIn(Release{Minor: 147, Patch: 2}) || c9.AppliesIn(Release{Minor: 149}) || !c9.AppliesIn(Release{Minor: 140}) {
		t.Error("AppliesIn does not follow Since, Until and the nearest known release")
	}
}
