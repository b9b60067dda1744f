package cloudprofile

import (
	"maps"
	"reflect"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Fixtures of the lookup and condition tests: fixed instants far from the wall clock.
var (
	lk2029 = time.Date(2029, time.June, 1, 0, 0, 0, 0, time.UTC)
	lk2030 = time.Date(2030, time.January, 1, 0, 0, 0, 0, time.UTC)
	lk2031 = time.Date(2031, time.January, 1, 0, 0, 0, 0, time.UTC)
	lk2032 = time.Date(2032, time.January, 1, 0, 0, 0, 0, time.UTC)
)

func lkTime(t time.Time) *metav1.Time { m := metav1.NewTime(t); return &m }

func lkClass(c gardencorev1beta1.VersionClassification) *gardencorev1beta1.VersionClassification {
	return &c
}

// lkVersion is a version with legacy fields: classification c (empty = unset), expiring at exp
// (zero = never).
func lkVersion(version string, c gardencorev1beta1.VersionClassification, exp time.Time) gardencorev1beta1.ExpirableVersion {
	v := gardencorev1beta1.ExpirableVersion{Version: version}
	if c != "" {
		v.Classification = lkClass(c)
	}
	if !exp.IsZero() {
		v.ExpirationDate = lkTime(exp)
	}
	return v
}

// lkLifecycle is a version with a lifecycle: pairs of classification and start (zero = none).
func lkLifecycle(version string, stages ...any) gardencorev1beta1.ExpirableVersion {
	v := gardencorev1beta1.ExpirableVersion{Version: version}
	for i := 0; i < len(stages); i += 2 {
		s := gardencorev1beta1.LifecycleStage{Classification: stages[i].(gardencorev1beta1.VersionClassification)}
		if start := stages[i+1].(time.Time); !start.IsZero() {
			s.StartTime = lkTime(start)
		}
		v.Lifecycle = append(v.Lifecycle, s)
	}
	return v
}

func lkImageVersion(v gardencorev1beta1.ExpirableVersion, archs ...string) gardencorev1beta1.MachineImageVersion {
	return gardencorev1beta1.MachineImageVersion{ExpirableVersion: v, Architectures: archs,
		CRI: []gardencorev1beta1.CRI{{Name: gardencorev1beta1.CRINameContainerD}}}
}

const (
	lkSupported  = gardencorev1beta1.ClassificationSupported
	lkPreview    = gardencorev1beta1.ClassificationPreview
	lkDeprecated = gardencorev1beta1.ClassificationDeprecated
	lkExpired    = gardencorev1beta1.ClassificationExpired
)

func TestLatestSupportedKubernetesVersion_PicksHighestSupportedAtInstant(t *testing.T) {
	versions := []gardencorev1beta1.ExpirableVersion{
		lkVersion("1.30.5", lkSupported, time.Time{}),
		lkLifecycle("1.31.2", lkPreview, time.Time{}, lkSupported, lk2030),
		lkVersion("1.29.9", lkDeprecated, time.Time{}),
		lkVersion("1.30.10", lkSupported, lk2031), // semver order, not string order
	}
	for _, tc := range []struct {
		name string
		at   time.Time
		want string
	}{
		{"before 1.31.2 is supported", lk2029, "1.30.10"},
		{"exactly at the start time the stage is not active yet", lk2030, "1.30.10"},
		{"right after the start time", lk2030.Add(time.Second), "1.31.2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := LatestSupportedKubernetesVersion(versions, tc.at)
			if got != tc.want || !ok {
				t.Fatalf("got %q,%v want %q", got, ok, tc.want)
			}
		})
	}
	if _, ok := LatestSupportedKubernetesVersion([]gardencorev1beta1.ExpirableVersion{lkVersion("1.30.1", lkDeprecated, time.Time{})}, lk2029); ok {
		t.Fatal("a profile without supported versions has no latest supported version")
	}
}

func TestLatestSupportedKubernetesVersionsByMinor_OnlyMinorsWithSupportedVersions(t *testing.T) {
	versions := []gardencorev1beta1.ExpirableVersion{
		lkVersion("1.31.1", lkSupported, time.Time{}),
		lkVersion("1.31.3", lkSupported, time.Time{}),
		lkVersion("1.31.2", lkSupported, time.Time{}),
		lkVersion("1.30.5", lkDeprecated, time.Time{}),
		lkVersion("1.29.2", lkSupported, lk2030), // expired after 2030
	}
	got := LatestSupportedKubernetesVersionsByMinor(versions, lk2029)
	if want := map[string]string{"1.31": "1.31.3", "1.29": "1.29.2"}; !maps.Equal(got, want) {
		t.Fatalf("at 2029: got %v want %v", got, want)
	}
	got = LatestSupportedKubernetesVersionsByMinor(versions, lk2031)
	if want := map[string]string{"1.31": "1.31.3"}; !maps.Equal(got, want) {
		t.Fatalf("at 2031: got %v want %v", got, want)
	}
}

func TestLatestSupportedImageVersion_FiltersByArchitectureCRIAndImage(t *testing.T) {
	image := gardencorev1beta1.MachineImage{Name: "gardenlinux", Versions: []gardencorev1beta1.MachineImageVersion{
		lkImageVersion(lkVersion("1877.3.0", lkSupported, time.Time{}), "amd64", "arm64"),
		lkImageVersion(lkVersion("1900.1.0", lkSupported, time.Time{}), "amd64"),
		lkImageVersion(lkVersion("1950.0.0", lkPreview, time.Time{}), "amd64", "arm64"),
		{ExpirableVersion: lkVersion("1800.0.0", lkSupported, time.Time{})}, // no CRI, no architectures: containerd, amd64
	}}
	image.Versions[1].CRI = append(image.Versions[1].CRI, gardencorev1beta1.CRI{Name: "gvisor"})
	for _, tc := range []struct {
		filter ImageFilter
		want   string
		ok     bool
	}{
		{ImageFilter{}, "1900.1.0", true},
		{ImageFilter{Architecture: "arm64"}, "1877.3.0", true},
		{ImageFilter{Architecture: "s390x"}, "", false},
		{ImageFilter{CRI: "gvisor"}, "1900.1.0", true},
		{ImageFilter{Architecture: "arm64", CRI: "gvisor"}, "", false},
		{ImageFilter{CRI: "containerd", Architecture: "amd64"}, "1900.1.0", true},
		{ImageFilter{HasImage: func(image, version string) bool { return image == "gardenlinux" && version != "1900.1.0" }}, "1877.3.0", true},
		{ImageFilter{Architecture: "arm64", HasImage: func(string, string) bool { return false }}, "", false},
	} {
		got, ok := LatestSupportedImageVersion(image, nil, lk2029, tc.filter)
		if got != tc.want || ok != tc.ok {
			t.Errorf("filter %+v: got %q,%v want %q,%v", tc.filter, got, ok, tc.want, tc.ok)
		}
	}
}

func TestImageVersionArchitectures_DerivesFromFlavorsUnderCapabilities(t *testing.T) {
	defs := []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"amd64", "arm64"}}}
	withFlavors := gardencorev1beta1.MachineImageVersion{CapabilityFlavors: []gardencorev1beta1.MachineImageFlavor{
		{Capabilities: gardencorev1beta1.Capabilities{"architecture": {"arm64"}}},
	}}
	if got := ImageVersionArchitectures(withFlavors, defs); !reflect.DeepEqual(got, []string{"arm64"}) {
		t.Errorf("flavors: got %v", got)
	}
	if got := ImageVersionArchitectures(gardencorev1beta1.MachineImageVersion{}, defs); !reflect.DeepEqual(got, []string{"amd64", "arm64"}) {
		t.Errorf("no flavors means every defined architecture: got %v", got)
	}
	if got := ImageVersionArchitectures(gardencorev1beta1.MachineImageVersion{}, nil); !reflect.DeepEqual(got, []string{"amd64"}) {
		t.Errorf("legacy default: got %v", got)
	}
}

func TestExpirationOf_LegacyAndLifecycle(t *testing.T) {
	legacy := lkVersion("1.30.5", lkDeprecated, lk2031)
	if e, ok := ExpirationOf(legacy, lk2029); !ok || !e.Equal(lk2031) {
		t.Errorf("legacy before: got %v,%v", e, ok)
	}
	if e, ok := ExpirationOf(legacy, lk2032); !ok || !e.Equal(lk2031) {
		t.Errorf("legacy after: the current expired period began at the date; got %v,%v", e, ok)
	}
	lifecycle := lkLifecycle("1.30.5", lkPreview, time.Time{}, lkSupported, lk2030, lkDeprecated, lk2031, lkExpired, lk2032)
	if e, ok := ExpirationOf(lifecycle, lk2029); !ok || !e.Equal(lk2032) {
		t.Errorf("lifecycle walks through several transitions: got %v,%v", e, ok)
	}
	if _, ok := ExpirationOf(lkVersion("1.31.0", lkSupported, time.Time{}), lk2029); ok {
		t.Error("a version without expiration never expires")
	}
}

func TestPeriodStart_WhenTheCurrentClassificationBegan(t *testing.T) {
	v := lkLifecycle("1.30.5", lkPreview, time.Time{}, lkSupported, lk2030, lkDeprecated, lk2031)
	if s, ok := PeriodStart(v, lk2031.Add(time.Hour)); !ok || !s.Equal(lk2031) {
		t.Errorf("deprecated since 2031: got %v,%v", s, ok)
	}
	if s, ok := PeriodStart(v, lk2031); !ok || !s.Equal(lk2030) {
		t.Errorf("at exactly 2031 it is still supported, since 2030: got %v,%v", s, ok)
	}
	if _, ok := PeriodStart(v, lk2029); ok {
		t.Error("preview since the beginning of time: no derivable start")
	}
}

func TestStatusInSync_ComparesWithStatusAtInstant(t *testing.T) {
	spec := gardencorev1beta1.CloudProfileSpec{Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{
		lkVersion("1.30.5", lkSupported, lk2030),
	}}}
	written := StatusAt(spec, lk2029)
	if !StatusInSync(spec, written, lk2029) {
		t.Error("status written at 2029 is in sync at 2029")
	}
	if StatusInSync(spec, written, lk2031) {
		t.Error("status written at 2029 is stale after the version expired")
	}
	if StatusInSync(spec, gardencorev1beta1.CloudProfileStatus{}, lk2029) {
		t.Error("an empty status (no controller) is not in sync")
	}
}

func TestCompareNamespacedStatus_GenerationArchitectureOrderAndProviderConfig(t *testing.T) {
	merged := gardencorev1beta1.CloudProfileSpec{
		Type: "aws",
		MachineImages: []gardencorev1beta1.MachineImage{{Name: "gl", Versions: []gardencorev1beta1.MachineImageVersion{
			lkImageVersion(lkVersion("1.0.0", "", time.Time{}), "amd64", "arm64"),
		}}},
	}
	status := gardencorev1beta1.NamespacedCloudProfileStatus{ObservedGeneration: 2, CloudProfileSpec: *merged.DeepCopy()}
	status.CloudProfileSpec.MachineImages[0].Versions[0].Architectures = []string{"arm64", "amd64"}

	if got := CompareNamespacedStatus(2, gardencorev1beta1.NamespacedCloudProfileSpec{}, status, merged, false); !got.InSync || got.Reason != ReasonStatusMatchesMerge {
		t.Errorf("architectures compare as sets: %+v", got)
	}
	if got := CompareNamespacedStatus(3, gardencorev1beta1.NamespacedCloudProfileSpec{}, status, merged, false); got.InSync || got.Reason != ReasonGenerationNotObserved {
		t.Errorf("an unobserved generation is not in sync: %+v", got)
	}
	changed := *merged.DeepCopy()
	changed.Type = "gcp"
	if got := CompareNamespacedStatus(2, gardencorev1beta1.NamespacedCloudProfileSpec{}, status, changed, false); got.InSync || got.Reason != ReasonStatusDiffers || got.Message == "" {
		t.Errorf("a different spec is not in sync: %+v", got)
	}

	withConfig := *merged.DeepCopy()
	withConfig.ProviderConfig = nil
	status.CloudProfileSpec.ProviderConfig = &runtime.RawExtension{Raw: []byte(`{"merged":"by the extension"}`)}
	ncpWithConfig := gardencorev1beta1.NamespacedCloudProfileSpec{ProviderConfig: &runtime.RawExtension{Raw: []byte(`{"own":true}`)}}
	if got := CompareNamespacedStatus(2, ncpWithConfig, status, withConfig, false); !got.InSync {
		t.Errorf("providerConfig is the extension's business when the namespaced profile sets one: %+v", got)
	}
	if got := CompareNamespacedStatus(2, gardencorev1beta1.NamespacedCloudProfileSpec{}, status, withConfig, false); got.InSync || got.Message == "" {
		t.Errorf("providerConfig counts when the namespaced profile sets none: %+v", got)
	}
}

// TestCompareNamespacedStatus_ConfigMergedByTheExtensionComparesAsSets: with the extension's
// merge in the local merge, providerConfig counts: images, versions and other named lists in
// another order are equal, a different image of one version is not, and is named by its path.
func TestCompareNamespacedStatus_ConfigMergedByTheExtensionComparesAsSets(t *testing.T) {
	config := func(s string) *runtime.RawExtension { return &runtime.RawExtension{Raw: []byte(s)} }
	merged := gardencorev1beta1.CloudProfileSpec{Type: "local", ProviderConfig: config(`{"machineImages":[` +
		`{"name":"a","versions":[{"version":"1","image":"a1"},{"version":"2","image":"a2"}]},{"name":"b","versions":[{"version":"1","image":"b1"}]}]}`)}
	ncp := gardencorev1beta1.NamespacedCloudProfileSpec{ProviderConfig: config(`{}`)}
	status := gardencorev1beta1.NamespacedCloudProfileStatus{ObservedGeneration: 1, CloudProfileSpec: *merged.DeepCopy()}
	status.CloudProfileSpec.ProviderConfig = config(`{"machineImages":[` +
		`{"versions":[{"image":"b1","version":"1"}],"name":"b"},{"name":"a","versions":[{"version":"2","image":"a2"},{"version":"1","image":"a1"}]}]}`)
	if got := CompareNamespacedStatus(1, ncp, status, merged, true); !got.InSync {
		t.Errorf("the same mappings in another order: %+v", got)
	}
	status.CloudProfileSpec.ProviderConfig = config(`{"machineImages":[` +
		`{"name":"b","versions":[{"version":"1","image":"b1"}]},{"name":"a","versions":[{"version":"2","image":"other"},{"version":"1","image":"a1"}]}]}`)
	got := CompareNamespacedStatus(1, ncp, status, merged, true)
	if got.InSync || !strings.HasSuffix(got.Message, "at providerConfig.machineImages[0].versions[1].image") {
		t.Errorf("another image of version a@2: %+v", got)
	}
	if got := CompareNamespacedStatus(1, ncp, status, merged, false); !got.InSync {
		t.Errorf("without the extension's merge the namespaced profile's providerConfig is not compared: %+v", got)
	}
}

func TestSpecDifference_NamesFirstDifferingPath(t *testing.T) {
	a := gardencorev1beta1.CloudProfileSpec{MachineTypes: []gardencorev1beta1.MachineType{{Name: "a"}, {Name: "b"}}}
	b := *a.DeepCopy()
	b.MachineTypes[1].Name = "c"
	if got := SpecDifference(a, b, false); got != "machineTypes[1].name" {
		t.Fatalf("got %q", got)
	}
	if got := SpecDifference(a, a, false); got != "" {
		t.Fatalf("equal specs: got %q", got)
	}
}
