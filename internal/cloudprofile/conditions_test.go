package cloudprofile

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

const lkWindow = 30 * 24 * time.Hour

// healthySpec: supported 1.31.x and 1.30.x, a preview 1.32.0, an image for amd64 and arm64.
func healthySpec() gardencorev1beta1.CloudProfileSpec {
	return gardencorev1beta1.CloudProfileSpec{
		Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{
			lkVersion("1.32.0", lkPreview, time.Time{}),
			lkVersion("1.31.2", lkSupported, time.Time{}),
			lkVersion("1.30.5", lkSupported, time.Time{}),
			lkVersion("1.30.4", lkDeprecated, lk2031),
		}},
		MachineImages: []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: []gardencorev1beta1.MachineImageVersion{
			lkImageVersion(lkVersion("1877.3.0", lkSupported, time.Time{}), "amd64", "arm64"),
			lkImageVersion(lkVersion("1592.9.0", lkDeprecated, lk2031), "amd64"),
		}}},
		MachineTypes: []gardencorev1beta1.MachineType{{Name: "m5.large", Architecture: lkStr("amd64")}, {Name: "m6g.large", Architecture: lkStr("arm64")}},
	}
}

func lkStr(s string) *string { return &s }

func conditionOf(t *testing.T, conds []Condition, typ string) Condition {
	t.Helper()
	for _, c := range conds {
		if c.Type == typ {
			return c
		}
	}
	t.Fatalf("no condition %s in %+v", typ, conds)
	return Condition{}
}

func expectCondition(t *testing.T, conds []Condition, typ string, status ConditionStatus, severity ConditionSeverity, reason string) Condition {
	t.Helper()
	c := conditionOf(t, conds, typ)
	if c.Status != status || c.Severity != severity || c.Reason != reason {
		t.Errorf("%s: got status=%s severity=%q reason=%s (%s), want %s %q %s", typ, c.Status, c.Severity, c.Reason, c.Message, status, severity, reason)
	}
	return c
}

func TestProfileConditions_HealthyProfileIsReady(t *testing.T) {
	spec := healthySpec()
	conds := ProfileConditions(&spec, lk2029, lkWindow)
	if conds[0].Type != ConditionReady {
		t.Fatalf("Ready must come first: %+v", conds)
	}
	expectCondition(t, conds, ConditionReady, ConditionTrue, ConditionSeverityNone, ReasonAllConditionsMet)
	expectCondition(t, conds, ConditionKubernetesVersionsSupported, ConditionTrue, ConditionSeverityNone, ReasonEveryMinorSupported)
	expectCondition(t, conds, ConditionLatestKubernetesVersionNotDeprecated, ConditionTrue, ConditionSeverityNone, ReasonLatestVersionInPreview)
	expectCondition(t, conds, ConditionExpirationsHaveSuccessors, ConditionTrue, ConditionSeverityNone, ReasonNoExpirationWithoutSuccessor)
	expectCondition(t, conds, ConditionMachineImagesSupported, ConditionTrue, ConditionSeverityNone, ReasonEveryArchitectureSupported)
	for _, c := range conds {
		if !c.LastTransitionTime.Equal(lk2029) {
			t.Errorf("%s has been True since the beginning of time, so its last transition is `at`; got %v", c.Type, c.LastTransitionTime)
		}
	}
}

// TestProfileConditions_OldMinorWithOnlyDeprecatedVersionsIsFineWhenANewerMinorIsSupported: the
// usual end of a minor's maintenance, all its versions deprecated while a newer minor is supported,
// leaves the profile Ready: shoots on it can update to the newer minor.
func TestProfileConditions_OldMinorWithOnlyDeprecatedVersionsIsFineWhenANewerMinorIsSupported(t *testing.T) {
	spec := healthySpec()
	spec.Kubernetes.Versions[2] = lkLifecycle("1.30.5", lkSupported, time.Time{}, lkDeprecated, lk2030)
	conds := ProfileConditions(&spec, lk2030.Add(24*time.Hour), lkWindow)
	expectCondition(t, conds, ConditionKubernetesVersionsSupported, ConditionTrue, ConditionSeverityNone, ReasonEveryMinorSupported)
	expectCondition(t, conds, ConditionReady, ConditionTrue, ConditionSeverityNone, ReasonAllConditionsMet)
}

// TestProfileConditions_NewestMinorWithOnlyDeprecatedVersionsIsWarningSinceDeprecation: a minor
// with released versions but no supported one, in it or in a newer minor, leaves its shoots
// without a supported version to update to.
func TestProfileConditions_NewestMinorWithOnlyDeprecatedVersionsIsWarningSinceDeprecation(t *testing.T) {
	spec := healthySpec()
	spec.Kubernetes.Versions[1] = lkLifecycle("1.31.2", lkSupported, time.Time{}, lkDeprecated, lk2030)
	conds := ProfileConditions(&spec, lk2030.Add(24*time.Hour), lkWindow)
	c := expectCondition(t, conds, ConditionKubernetesVersionsSupported, ConditionFalse, ConditionSeverityWarning, ReasonMinorWithoutSupportedVersion)
	if !strings.Contains(c.Message, "minor 1.31 has no supported version, nor has a newer minor (1.31.2 is deprecated)") {
		t.Errorf("message: %s", c.Message)
	}
	if !c.LastTransitionTime.Equal(lk2030) {
		t.Errorf("False since 1.31.2 became deprecated at 2030-01-01, got %v", c.LastTransitionTime)
	}
	ready := expectCondition(t, conds, ConditionReady, ConditionFalse, ConditionSeverityWarning, ReasonMinorWithoutSupportedVersion)
	if !ready.LastTransitionTime.Equal(lk2030) || !strings.HasPrefix(ready.Message, ConditionKubernetesVersionsSupported+": ") {
		t.Errorf("Ready mirrors the warning since 2030: %+v", ready)
	}

	// Exactly at the start time the stage is not active yet.
	conds = ProfileConditions(&spec, lk2030, lkWindow)
	expectCondition(t, conds, ConditionKubernetesVersionsSupported, ConditionTrue, ConditionSeverityNone, ReasonEveryMinorSupported)
}

func TestProfileConditions_PreviewOnlyMinorNeedsNoSupportedVersion(t *testing.T) {
	spec := healthySpec()
	spec.Kubernetes.Versions = append(spec.Kubernetes.Versions, lkVersion("1.33.0", lkPreview, time.Time{}))
	expectCondition(t, ProfileConditions(&spec, lk2029, lkWindow), ConditionKubernetesVersionsSupported, ConditionTrue, ConditionSeverityNone, ReasonEveryMinorSupported)
}

func TestProfileConditions_NoSupportedOrActiveKubernetesVersionIsError(t *testing.T) {
	spec := healthySpec()
	spec.Kubernetes.Versions = []gardencorev1beta1.ExpirableVersion{lkVersion("1.30.4", lkDeprecated, time.Time{})}
	expectCondition(t, ProfileConditions(&spec, lk2029, lkWindow), ConditionKubernetesVersionsSupported, ConditionFalse, ConditionSeverityError, ReasonNoSupportedKubernetesVersion)

	spec.Kubernetes.Versions = []gardencorev1beta1.ExpirableVersion{lkVersion("1.30.4", lkDeprecated, lk2030)}
	conds := ProfileConditions(&spec, lk2031, lkWindow)
	c := expectCondition(t, conds, ConditionKubernetesVersionsSupported, ConditionFalse, ConditionSeverityError, ReasonNoActiveKubernetesVersion)
	if !c.LastTransitionTime.IsZero() && !c.LastTransitionTime.Equal(lk2031) {
		// The status (False) did not change at the expiration: it was False (no supported
		// version) before, too. So it has been False since the beginning of time.
		t.Errorf("status unchanged since the beginning of time, want `at`; got %v", c.LastTransitionTime)
	}
	ready := expectCondition(t, conds, ConditionReady, ConditionFalse, ConditionSeverityError, ReasonNoActiveKubernetesVersion)
	_ = ready
}

func TestProfileConditions_LatestKubernetesVersion(t *testing.T) {
	spec := healthySpec()
	spec.Kubernetes.Versions[0] = lkLifecycle("1.32.0", lkPreview, time.Time{}, lkSupported, lk2030, lkDeprecated, lk2031)
	expectCondition(t, ProfileConditions(&spec, lk2029, lkWindow), ConditionLatestKubernetesVersionNotDeprecated, ConditionTrue, ConditionSeverityNone, ReasonLatestVersionInPreview)
	c := expectCondition(t, ProfileConditions(&spec, lk2030.Add(time.Second), lkWindow), ConditionLatestKubernetesVersionNotDeprecated, ConditionTrue, ConditionSeverityNone, ReasonLatestVersionSupported)
	if !c.LastTransitionTime.Equal(lk2030.Add(time.Second)) {
		t.Errorf("True throughout (preview and supported are both fine): LastTransitionTime is `at`; got %v", c.LastTransitionTime)
	}
	c = expectCondition(t, ProfileConditions(&spec, lk2032, lkWindow), ConditionLatestKubernetesVersionNotDeprecated, ConditionFalse, ConditionSeverityWarning, ReasonLatestVersionDeprecated)
	if !c.LastTransitionTime.Equal(lk2031) {
		t.Errorf("deprecated since 2031, got %v", c.LastTransitionTime)
	}

	spec.Kubernetes.Versions[0] = lkLifecycle("1.32.0", lkSupported, time.Time{}, lkExpired, lk2031)
	expectCondition(t, ProfileConditions(&spec, lk2032, lkWindow), ConditionLatestKubernetesVersionNotDeprecated, ConditionFalse, ConditionSeverityError, ReasonLatestVersionExpired)

	spec.Kubernetes.Versions[0] = lkLifecycle("1.32.0", lkSupported, lk2031)
	expectCondition(t, ProfileConditions(&spec, lk2029, lkWindow), ConditionLatestKubernetesVersionNotDeprecated, ConditionTrue, ConditionSeverityNone, ReasonLatestVersionNotYetAvailable)
}

func TestProfileConditions_ExpirationWithoutSuccessorWithinWindow(t *testing.T) {
	spec := healthySpec()
	// 1.29.8 expires at 2031-01-01; no 1.29 or 1.30 version is supported after that instant.
	spec.Kubernetes.Versions = []gardencorev1beta1.ExpirableVersion{
		lkVersion("1.31.2", lkSupported, time.Time{}),
		lkVersion("1.29.8", lkSupported, lk2031),
	}
	spec.MachineImages[0].Versions[0].Architectures = []string{"amd64"}

	beforeWindow := lk2031.Add(-lkWindow)
	expectCondition(t, ProfileConditions(&spec, beforeWindow, lkWindow), ConditionExpirationsHaveSuccessors, ConditionTrue, ConditionSeverityNone, ReasonNoExpirationWithoutSuccessor)

	inWindow := beforeWindow.Add(time.Hour)
	conds := ProfileConditions(&spec, inWindow, lkWindow)
	c := expectCondition(t, conds, ConditionExpirationsHaveSuccessors, ConditionFalse, ConditionSeverityWarning, ReasonExpirationWithoutSuccessor)
	if !strings.Contains(c.Message, "Kubernetes 1.29.8 expires at 2031-01-01T00:00:00Z") {
		t.Errorf("message: %s", c.Message)
	}
	if !c.LastTransitionTime.Equal(beforeWindow) {
		t.Errorf("the expiration entered the window at %v, got %v", beforeWindow, c.LastTransitionTime)
	}
	// The image version 1592.9.0 (amd64) expires at 2031 too, and 1877.3.0 (amd64) succeeds it.
	if strings.Contains(c.Message, "1592.9.0") {
		t.Errorf("1592.9.0 has a successor: %s", c.Message)
	}

	// A supported 1.30 version is a successor (next minor).
	spec.Kubernetes.Versions = append(spec.Kubernetes.Versions, lkVersion("1.30.1", lkSupported, time.Time{}))
	expectCondition(t, ProfileConditions(&spec, inWindow, lkWindow), ConditionExpirationsHaveSuccessors, ConditionTrue, ConditionSeverityNone, ReasonNoExpirationWithoutSuccessor)

	// Once expired, the version is no longer "about to expire".
	spec.Kubernetes.Versions = spec.Kubernetes.Versions[:2]
	expectCondition(t, ProfileConditions(&spec, lk2031.Add(time.Second), lkWindow), ConditionExpirationsHaveSuccessors, ConditionTrue, ConditionSeverityNone, ReasonNoExpirationWithoutSuccessor)

	// A window of zero turns the warning off.
	expectCondition(t, ProfileConditions(&spec, inWindow, 0), ConditionExpirationsHaveSuccessors, ConditionTrue, ConditionSeverityNone, ReasonNoExpirationWithoutSuccessor)
}

func TestProfileConditions_ImageExpirationNeedsSuccessorPerArchitecture(t *testing.T) {
	spec := healthySpec()
	spec.MachineImages[0].Versions = []gardencorev1beta1.MachineImageVersion{
		lkImageVersion(lkVersion("1877.3.0", lkSupported, time.Time{}), "amd64"),
		lkImageVersion(lkVersion("1592.9.0", lkSupported, lk2031), "amd64", "arm64"),
	}
	c := expectCondition(t, ProfileConditions(&spec, lk2031.Add(-time.Hour), lkWindow), ConditionExpirationsHaveSuccessors, ConditionFalse, ConditionSeverityWarning, ReasonExpirationWithoutSuccessor)
	if !strings.Contains(c.Message, "machine image gardenlinux 1592.9.0 expires at 2031-01-01T00:00:00Z without a supported successor for arm64") {
		t.Errorf("message: %s", c.Message)
	}
}

func TestProfileConditions_MachineImages(t *testing.T) {
	spec := healthySpec()
	spec.MachineImages[0].Versions[0].Architectures = []string{"amd64"}
	spec.MachineImages[0].Versions[1].Architectures = []string{"amd64", "arm64"}
	c := expectCondition(t, ProfileConditions(&spec, lk2029, lkWindow), ConditionMachineImagesSupported, ConditionFalse, ConditionSeverityWarning, ReasonArchitectureWithoutSupported)
	if !strings.Contains(c.Message, "machine image gardenlinux has no supported version for arm64") ||
		!strings.Contains(c.Message, "usable machine types run on arm64") {
		t.Errorf("message: %s", c.Message)
	}

	// After 2031 the deprecated arm64 version is expired: arm64 is no longer offered by the image,
	// but the arm64 machine type still lacks an image.
	c = expectCondition(t, ProfileConditions(&spec, lk2032, lkWindow), ConditionMachineImagesSupported, ConditionFalse, ConditionSeverityWarning, ReasonMachineTypeArchitectureNoImage)
	if !c.LastTransitionTime.Equal(lk2032) {
		t.Errorf("False throughout: LastTransitionTime is `at`; got %v", c.LastTransitionTime)
	}

	spec.MachineImages[0].Versions = []gardencorev1beta1.MachineImageVersion{
		lkImageVersion(lkVersion("1592.9.0", lkSupported, lk2031), "amd64"),
	}
	spec.MachineTypes = spec.MachineTypes[:1] // amd64 only: the condition is True until 2031
	expectCondition(t, ProfileConditions(&spec, lk2031, lkWindow), ConditionMachineImagesSupported, ConditionTrue, ConditionSeverityNone, ReasonEveryArchitectureSupported)
	conds := ProfileConditions(&spec, lk2032, lkWindow)
	c = expectCondition(t, conds, ConditionMachineImagesSupported, ConditionFalse, ConditionSeverityError, ReasonNoSupportedMachineImage)
	if !c.LastTransitionTime.Equal(lk2031) {
		t.Errorf("the Error began when the only version expired at 2031; got %v", c.LastTransitionTime)
	}
	if !strings.Contains(c.Message, "no machine image has a supported version") || !strings.Contains(c.Message, "machine image gardenlinux has no active version") {
		t.Errorf("errors are listed first, then warnings: %s", c.Message)
	}
	expectCondition(t, conds, ConditionReady, ConditionFalse, ConditionSeverityError, ReasonNoSupportedMachineImage)
}

func TestProfileConditions_ReadySurfacesErrorsBeforeWarnings(t *testing.T) {
	spec := healthySpec()
	spec.Kubernetes.Versions[1] = lkVersion("1.31.2", lkDeprecated, time.Time{}) // Warning: minor 1.31
	conds := ProfileConditions(&spec, lk2029, lkWindow, ParentExistsCondition("aws", false, lk2029))
	ready := expectCondition(t, conds, ConditionReady, ConditionFalse, ConditionSeverityError, ReasonParentNotFound)
	if !strings.HasPrefix(ready.Message, "ParentExists: ") {
		t.Errorf("message: %s", ready.Message)
	}
	if conds[1].Type != ConditionParentExists {
		t.Errorf("fixed conditions follow Ready: %+v", conds)
	}
}

func TestProfileConditions_WithoutSpecLifecycleConditionsAreUnknown(t *testing.T) {
	conds := ProfileConditions(nil, lk2029, lkWindow, ParentExistsCondition("aws", false, lk2029), StatusInSyncCondition(nil, lk2029))
	expectCondition(t, conds, ConditionStatusInSync, ConditionUnknown, ConditionSeverityNone, ReasonParentNotFound)
	expectCondition(t, conds, ConditionKubernetesVersionsSupported, ConditionUnknown, ConditionSeverityNone, ReasonSpecNotAvailable)
	expectCondition(t, conds, ConditionReady, ConditionFalse, ConditionSeverityError, ReasonParentNotFound)
	if len(conds) != 7 {
		t.Errorf("Ready, 2 fixed, 4 lifecycle conditions; got %d", len(conds))
	}
}

func TestStatusInSyncCondition_IsWarningWhenStatusLags(t *testing.T) {
	c := StatusInSyncCondition(&NamespacedStatusSync{Reason: ReasonGenerationNotObserved, Message: "m"}, lk2029)
	if c.Status != ConditionFalse || c.Severity != ConditionSeverityWarning || c.Reason != ReasonGenerationNotObserved || !c.LastTransitionTime.Equal(lk2029) {
		t.Errorf("got %+v", c)
	}
	c = StatusInSyncCondition(&NamespacedStatusSync{InSync: true, Reason: ReasonStatusMatchesMerge}, lk2029)
	if c.Status != ConditionTrue || c.Severity != ConditionSeverityNone {
		t.Errorf("got %+v", c)
	}
}

func TestSummarize_UnknownWithoutFalseIsUnknown(t *testing.T) {
	r := Summarize([]Condition{{Type: "A", Status: ConditionTrue}, {Type: "B", Status: ConditionUnknown, Reason: "Why"}})
	if r.Status != ConditionUnknown || r.Reason != "Why" || r.Severity != ConditionSeverityNone {
		t.Errorf("got %+v", r)
	}
}

func BenchmarkProfileConditions(b *testing.B) {
	spec := gardencorev1beta1.CloudProfileSpec{}
	base := lk2029
	for minor := 0; minor < 20; minor++ {
		for patch := 0; patch < 10; patch++ {
			start := base.Add(time.Duration(minor*10+patch) * 24 * time.Hour)
			spec.Kubernetes.Versions = append(spec.Kubernetes.Versions, lkLifecycle(
				"1."+strconv.Itoa(minor)+"."+strconv.Itoa(patch), lkPreview, time.Time{}, lkSupported, start, lkDeprecated, start.Add(90*24*time.Hour), lkExpired, start.Add(180*24*time.Hour)))
		}
	}
	at := base.Add(365 * 24 * time.Hour)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ProfileConditions(&spec, at, lkWindow)
	}
}

func TestTimeline_AgreesWithClassify(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	classes := []gardencorev1beta1.VersionClassification{lkPreview, lkSupported, lkDeprecated, lkExpired}
	instant := func() time.Time { return lk2030.Add(time.Duration(r.IntN(10)) * time.Hour) }
	for i := 0; i < 2000; i++ {
		var v gardencorev1beta1.ExpirableVersion
		switch r.IntN(3) {
		case 0:
			// The legacy fields: any classification or none, an expiration date or none, or one at or
			// before the zero time.
			c := append([]gardencorev1beta1.VersionClassification{""}, classes...)[r.IntN(len(classes)+1)]
			v = lkVersion("1.0.0", c, time.Time{})
			switch r.IntN(4) {
			case 0:
			case 1:
				v.ExpirationDate = lkTime(time.Time{})
			case 2:
				v.ExpirationDate = lkTime(time.Time{}.Add(-time.Hour))
			default:
				v.ExpirationDate = lkTime(instant())
			}
		case 1:
			v = lkVersion("1.0.0", "", time.Time{})
		default:
			var stages []any
			for n := r.IntN(4) + 1; n > 0; n-- {
				start := time.Time{}
				if r.IntN(4) > 0 {
					start = instant()
				}
				stages = append(stages, classes[r.IntN(4)], start)
			}
			v = lkLifecycle("1.0.0", stages...)
		}
		tl, _ := newTimeline(v, nil)
		for h := -1; h <= 11; h++ {
			for _, d := range []time.Duration{-time.Nanosecond, 0, time.Nanosecond} {
				at := lk2030.Add(time.Duration(h)*time.Hour + d)
				if got, want := tl.classAfter(tl.stepsBefore(at)), Classify(v, at); got != want {
					t.Fatalf("%+v at %v: timeline %s, Classify %s", v, at, got, want)
				}
			}
		}
	}
}

// TestProfileConditions_AWindowOfOneDayIsSingular: the message of a one-day window says "1 day".
func TestProfileConditions_AWindowOfOneDayIsSingular(t *testing.T) {
	spec := healthySpec()
	c := conditionOf(t, ProfileConditions(&spec, lk2029, 24*time.Hour), ConditionExpirationsHaveSuccessors)
	if !strings.Contains(c.Message, "within 1 day ") {
		t.Errorf("message: %s", c.Message)
	}
}
