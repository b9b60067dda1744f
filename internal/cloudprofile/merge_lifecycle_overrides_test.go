package cloudprofile

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"reflect"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// GEP-32 lifecycle overrides (MergeOptions.LifecycleOverrides): golden tests from the GEP's
// NamespacedCloudProfile example, the two examples and the tests of pull request
// gardener/gardener#15003,
// plus a property test.

var gep32 = MergeOptions{LifecycleOverrides: true, Now: testNow}

func ncpTime(t *testing.T, s string) *metav1.Time {
	t.Helper()
	parsed, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	mt := metav1.NewTime(parsed)
	return &mt
}

func ncpVersionJSON(t *testing.T, v gardencorev1beta1.ExpirableVersion) string {
	t.Helper()
	return string(ncpJSON(t, v))
}

// mergeK8s merges one parent Kubernetes version with one override in GEP-32 mode.
func mergeK8s(t *testing.T, parent, override gardencorev1beta1.ExpirableVersion) gardencorev1beta1.ExpirableVersion {
	t.Helper()
	merged := MergeNamespacedCloudProfile(
		gardencorev1beta1.CloudProfileSpec{Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{parent}}},
		gardencorev1beta1.NamespacedCloudProfileSpec{Kubernetes: &gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{override}}},
		gep32)
	return merged.Kubernetes.Versions[0]
}

func expectMergedVersion(t *testing.T, got gardencorev1beta1.ExpirableVersion, want string) {
	t.Helper()
	var w gardencorev1beta1.ExpirableVersion
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad expectation: %v", err)
	}
	if g, w := ncpVersionJSON(t, got), ncpVersionJSON(t, w); g != w {
		t.Errorf("\n got: %s\nwant: %s", g, w)
	}
}

// TestGEP32_GEPExample is the NamespacedCloudProfile example of GEP-32 ("Compatibility with
// Namespaced Cloud Profiles"): omitted versions stay, 1.28.0's supported stage is postponed, and
// 1.18.0's deprecation is postponed past its expiration, which moves expired implicitly.
func TestGEP32_GEPExample(t *testing.T) {
	var parent gardencorev1beta1.CloudProfileSpec
	if err := json.Unmarshal([]byte(`{"type":"local","regions":null,"machineImages":null,"machineTypes":null,"kubernetes":{"versions":[
		{"version":"1.27.0"},
		{"version":"1.28.0","lifecycle":[{"classification":"preview"},{"classification":"supported","startTime":"2024-12-01T00:00:00Z"}]},
		{"version":"1.18.0","lifecycle":[{"classification":"supported"},{"classification":"deprecated","startTime":"2022-01-01T00:00:00Z"},{"classification":"expired","startTime":"2022-06-01T00:00:00Z"}]},
		{"version":"2.0.0","lifecycle":[{"classification":"preview","startTime":"2036-02-07T06:28:16Z"}]}]}}`), &parent); err != nil {
		t.Fatal(err)
	}
	var ncp gardencorev1beta1.NamespacedCloudProfileSpec
	if err := json.Unmarshal([]byte(`{"parent":{"kind":"CloudProfile","name":"local"},"kubernetes":{"versions":[
		{"version":"1.28.0","lifecycle":[{"classification":"supported","startTime":"2025-12-01T00:00:00Z"}]},
		{"version":"1.18.0","lifecycle":[{"classification":"supported","startTime":"2022-01-01T00:00:00Z"},{"classification":"deprecated","startTime":"2024-06-01T00:00:00Z"}]}]}}`), &ncp); err != nil {
		t.Fatal(err)
	}
	merged := MergeNamespacedCloudProfile(parent, ncp, MergeOptions{LifecycleOverrides: true, Now: ncpInstant(t, "2024-12-03T00:00:00Z")})
	want := `{"versions":[
		{"version":"1.27.0"},
		{"version":"1.28.0","lifecycle":[{"classification":"preview"},{"classification":"supported","startTime":"2025-12-01T00:00:00Z"}]},
		{"version":"1.18.0","lifecycle":[{"classification":"supported","startTime":"2022-01-01T00:00:00Z"},{"classification":"deprecated","startTime":"2024-06-01T00:00:00Z"},{"classification":"expired","startTime":"2024-06-01T00:00:00Z"}]},
		{"version":"2.0.0","lifecycle":[{"classification":"preview","startTime":"2036-02-07T06:28:16Z"}]}]}`
	expectMergedFields(t, ncpJSON(t, merged), map[string]string{"kubernetes": want})
	expectNoProblems(t, validateKubernetesVersions(merged.Kubernetes.Versions, NewPath("status").Child("cloudProfileSpec").Child("kubernetes").Child("versions"), gateOn()))

	// Gardener v1.149 ignores the lifecycles of the overrides.
	v149 := MergeNamespacedCloudProfile(parent, ncp, MergeOptions{})
	if !reflect.DeepEqual(v149.Kubernetes, parent.Kubernetes) {
		t.Errorf("v1.149 semantics must ignore lifecycle overrides, got %s", ncpJSON(t, v149.Kubernetes))
	}
}

func ncpInstant(t *testing.T, s string) time.Time {
	t.Helper()
	return ncpTime(t, s).Time
}

// TestGEP32_PullRequestExamples are the two examples of pull request #15003.
func TestGEP32_PullRequestExamples(t *testing.T) {
	t.Run("postponing deprecated moves the earlier expiration with it", func(t *testing.T) {
		parent := ev{Version: "1.0.0", Lifecycle: lc{stageOpen(supported), stageAt(deprecated, 12*hour), stageAt(expired, 24*hour)}}
		got := mergeK8s(t, parent, ev{Version: "1.0.0", Lifecycle: lc{stageAt(deprecated, 48*hour)}})
		want := ev{Version: "1.0.0", Lifecycle: lc{stageOpen(supported), stageAt(deprecated, 48*hour), stageAt(expired, 48*hour)}}
		expectMergedVersion(t, got, ncpVersionJSON(t, want))
	})
	t.Run("deprecating now moves the later supported start back to now", func(t *testing.T) {
		parent := ev{Version: "1.0.0", Lifecycle: lc{stageOpen(preview), stageAt(supported, day), stageAt(deprecated, 2*day)}}
		got := mergeK8s(t, parent, ev{Version: "1.0.0", Lifecycle: lc{stageAt(deprecated, 0)}})
		want := ev{Version: "1.0.0", Lifecycle: lc{stageOpen(preview), stageAt(supported, 0), stageAt(deprecated, 0)}}
		expectMergedVersion(t, got, ncpVersionJSON(t, want))
	})
}

// TestGEP32_Rules covers the rules of the GEP-32 merge, named after the tests of pull request #15003
// where there is one.
func TestGEP32_Rules(t *testing.T) {
	tests := []struct {
		name             string
		parent, override ev
		want             ev
	}{
		{
			name:     "should migrate ExpirationDate set only in NamespacedCloudProfile",
			parent:   ev{Version: "1.0.0", Lifecycle: lc{stageOpen(supported), stageAt(deprecated, day)}},
			override: ev{Version: "1.0.0", ExpirationDate: at(30 * day)},
			want:     ev{Version: "1.0.0", Lifecycle: lc{stageOpen(supported), stageAt(deprecated, day), stageAt(expired, 30*day)}},
		},
		{
			name:     "an expiration date before the parent's deprecation moves deprecation to it",
			parent:   ev{Version: "1.0.0", Lifecycle: lc{stageOpen(supported), stageAt(deprecated, 10*day)}},
			override: ev{Version: "1.0.0", ExpirationDate: at(5 * day)},
			want:     ev{Version: "1.0.0", Lifecycle: lc{stageOpen(supported), stageAt(deprecated, 5*day), stageAt(expired, 5*day)}},
		},
		{
			name:     "an expiration date replaces the start of the parent's expired stage",
			parent:   ev{Version: "1.0.0", Lifecycle: lc{stageOpen(supported), stageAt(deprecated, day), stageAt(expired, 2*day)}},
			override: ev{Version: "1.0.0", ExpirationDate: at(60 * day)},
			want:     ev{Version: "1.0.0", Lifecycle: lc{stageOpen(supported), stageAt(deprecated, day), stageAt(expired, 60*day)}},
		},
		{
			name:     "should adjust all upcoming stages to the same date if override stage is earlier then the base",
			parent:   ev{Version: "1.0.0", Lifecycle: lc{stageOpen(preview), stageAt(supported, day), stageAt(deprecated, 2*day), stageAt(expired, 3*day)}},
			override: ev{Version: "1.0.0", Lifecycle: lc{stageAt(supported, 4*day)}},
			want:     ev{Version: "1.0.0", Lifecycle: lc{stageOpen(preview), stageAt(supported, 4*day), stageAt(deprecated, 4*day), stageAt(expired, 4*day)}},
		},
		{
			name:     "an override stage starting before earlier-ranked stages pulls them back to its start",
			parent:   ev{Version: "1.0.0", Lifecycle: lc{stageOpen(preview), stageAt(supported, day), stageAt(deprecated, 2*day), stageAt(expired, 3*day)}},
			override: ev{Version: "1.0.0", Lifecycle: lc{stageAt(deprecated, -day)}},
			want:     ev{Version: "1.0.0", Lifecycle: lc{stageOpen(preview), stageAt(supported, -day), stageAt(deprecated, -day), stageAt(expired, 3*day)}},
		},
		{
			name:     "should merge Kubernetes version Lifecycles classification startTimes correctly",
			parent:   ev{Version: "1.0.0", Lifecycle: lc{stageOpen(preview), stageAt(supported, day), stageAt(deprecated, 20*day), stageAt(expired, 40*day)}},
			override: ev{Version: "1.0.0", Lifecycle: lc{stageAt(supported, 2*day), stageAt(deprecated, 30*day), stageAt(expired, 90*day)}},
			want:     ev{Version: "1.0.0", Lifecycle: lc{stageOpen(preview), stageAt(supported, 2*day), stageAt(deprecated, 30*day), stageAt(expired, 90*day)}},
		},
		{
			name:     "should ignore Lifecycle expired classification set only in NamespacedCloudProfile",
			parent:   ev{Version: "1.0.0", Lifecycle: lc{stageOpen(supported), stageAt(deprecated, day)}},
			override: ev{Version: "1.0.0", Lifecycle: lc{stageAt(expired, 2*day)}},
			want:     ev{Version: "1.0.0", Lifecycle: lc{stageOpen(supported), stageAt(deprecated, day)}},
		},
		{
			name:     "override stages without start time change nothing",
			parent:   ev{Version: "1.0.0", Lifecycle: lc{stageOpen(supported), stageAt(deprecated, day)}},
			override: ev{Version: "1.0.0", Lifecycle: lc{stageOpen(deprecated)}},
			want:     ev{Version: "1.0.0", Lifecycle: lc{stageOpen(supported), stageAt(deprecated, day)}},
		},
		{
			name:     "a start time given to the open first stage postpones the whole lifecycle",
			parent:   ev{Version: "1.0.0", Lifecycle: lc{stageOpen(preview), stageAt(supported, day)}},
			override: ev{Version: "1.0.0", Lifecycle: lc{stageAt(preview, 3*day)}},
			want:     ev{Version: "1.0.0", Lifecycle: lc{stageAt(preview, 3*day), stageAt(supported, 3*day)}},
		},
		{
			name:     "a legacy parent version is migrated: its expiration can be extended",
			parent:   ev{Version: "1.0.0", Classification: cls(deprecated), ExpirationDate: at(-day)},
			override: ev{Version: "1.0.0", Lifecycle: lc{stageAt(expired, 30*day)}},
			want:     ev{Version: "1.0.0", Lifecycle: lc{stageOpen(deprecated), stageAt(expired, 30*day)}},
		},
		{
			name:     "a plain parent version has one implicit supported stage; lifecycle overrides add nothing else",
			parent:   ev{Version: "1.0.0"},
			override: ev{Version: "1.0.0", Lifecycle: lc{stageAt(supported, day), stageAt(deprecated, 2*day)}},
			want:     ev{Version: "1.0.0", Lifecycle: lc{stageAt(supported, day)}},
		},
		{
			name:     "a lifecycle override that matches no parent stage leaves a legacy parent version as it is",
			parent:   ev{Version: "1.0.0", Classification: cls(supported)},
			override: ev{Version: "1.0.0", Lifecycle: lc{stageAt(preview, day)}},
			want:     ev{Version: "1.0.0", Classification: cls(supported)},
		},
		{
			name:     "legacy on both sides keeps the legacy form and takes the override's expiration date",
			parent:   ev{Version: "1.0.0", Classification: cls(deprecated), ExpirationDate: at(day)},
			override: ev{Version: "1.0.0", ExpirationDate: at(90 * day)},
			want:     ev{Version: "1.0.0", Classification: cls(deprecated), ExpirationDate: at(90 * day)},
		},
		{
			name:     "an override without expiration date no longer clears the parent's date",
			parent:   ev{Version: "1.0.0", Classification: cls(deprecated), ExpirationDate: at(day)},
			override: ev{Version: "1.0.0"},
			want:     ev{Version: "1.0.0", Classification: cls(deprecated), ExpirationDate: at(day)},
		},
		{
			name:     "a legacy classification override removes later implicit parent stages (pull request #15003, step 2)",
			parent:   ev{Version: "1.0.0", Lifecycle: lc{stageOpen(supported), stageAt(deprecated, day)}},
			override: ev{Version: "1.0.0", Classification: cls(preview)},
			want:     ev{Version: "1.0.0", Lifecycle: lc{stageOpen(preview), stageAt(deprecated, day)}},
		},
		{
			name:     "an unordered override still yields a monotonic lifecycle",
			parent:   ev{Version: "1.0.0", Lifecycle: lc{stageOpen(supported), stageAt(deprecated, day), stageAt(expired, 2*day)}},
			override: ev{Version: "1.0.0", Lifecycle: lc{stageAt(expired, 5*day), stageAt(deprecated, 9*day)}},
			want:     ev{Version: "1.0.0", Lifecycle: lc{stageOpen(supported), stageAt(deprecated, 5*day), stageAt(expired, 9*day)}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := mergeK8s(t, tt.parent, tt.override)
			expectMergedVersion(t, got, ncpVersionJSON(t, tt.want))
			expectNoProblems(t, validateExpirableVersion(got, NewPath("v"), gateOn()))
		})
	}
}

// TestGEP32_MachineImageVersions: image versions follow the same lifecycle merge, while an override
// with architectures, flavors, cri, kubeletVersionConstraint or classification still replaces the
// parent's version wholesale.
func TestGEP32_MachineImageVersions(t *testing.T) {
	var parent gardencorev1beta1.CloudProfileSpec
	if err := json.Unmarshal([]byte(`{"type":"local","regions":null,"kubernetes":{"versions":[{"version":"1.0.0"}]},"machineTypes":null,"machineImages":[
		{"name":"gardenlinux","updateStrategy":"major","versions":[
			{"version":"1.0.0","cri":[{"name":"containerd"}],"architectures":["amd64"],"lifecycle":[{"classification":"supported"},{"classification":"deprecated","startTime":"2027-02-01T00:00:00Z"},{"classification":"expired","startTime":"2027-03-01T00:00:00Z"}]},
			{"version":"2.0.0","cri":[{"name":"containerd"}],"architectures":["amd64"],"lifecycle":[{"classification":"supported"},{"classification":"deprecated","startTime":"2027-02-01T00:00:00Z"}]}]}]}`), &parent); err != nil {
		t.Fatal(err)
	}
	var ncp gardencorev1beta1.NamespacedCloudProfileSpec
	if err := json.Unmarshal([]byte(`{"parent":{"kind":"CloudProfile","name":"local"},"machineImages":[{"name":"gardenlinux","versions":[
		{"version":"1.0.0","lifecycle":[{"classification":"expired","startTime":"2027-06-01T00:00:00Z"}]},
		{"version":"2.0.0","cri":[{"name":"containerd"}],"lifecycle":[{"classification":"deprecated","startTime":"2027-06-01T00:00:00Z"}]}]}]}`), &ncp); err != nil {
		t.Fatal(err)
	}
	merged := MergeNamespacedCloudProfile(parent, ncp, gep32)
	expectMergedFields(t, ncpJSON(t, merged), map[string]string{"machineImages": `[{"name":"gardenlinux","versions":[
		{"version":"1.0.0","lifecycle":[{"classification":"supported"},{"classification":"deprecated","startTime":"2027-02-01T00:00:00Z"},{"classification":"expired","startTime":"2027-06-01T00:00:00Z"}],"cri":[{"name":"containerd"}],"architectures":["amd64"]},
		{"version":"2.0.0","lifecycle":[{"classification":"deprecated","startTime":"2027-06-01T00:00:00Z"}],"cri":[{"name":"containerd"}],"architectures":["amd64"]}],"updateStrategy":"major"}]`})
}

// TestGEP32_PropertyMergedLifecycleIsValid: for random valid parent lifecycles and random lifecycle
// overrides the merged lifecycle passes D-4 … D-9 and contains no stage the parent lacked; a valid
// (ordered, monotonic) override's start times are taken as they are. Legacy overrides
// (expirationDate) may add an expired stage and nothing else.
func TestGEP32_PropertyMergedLifecycleIsValid(t *testing.T) {
	r := rand.New(rand.NewSource(32))
	order := []gardencorev1beta1.VersionClassification{preview, supported, deprecated, expired}
	randomTime := func() *metav1.Time {
		// Whole hours in a window of ±30 days, so that equal start times occur.
		return at(time.Duration(r.Intn(1440)-720) * hour)
	}
	randomParent := func() lc {
		var stages lc
		last := -1000 * hour
		for _, c := range order {
			if r.Intn(3) == 0 {
				continue
			}
			if len(stages) == 0 && r.Intn(2) == 0 {
				stages = append(stages, stageOpen(c))
				continue
			}
			last += time.Duration(r.Intn(200)) * hour
			stages = append(stages, stageAt(c, last))
		}
		if len(stages) == 0 {
			stages = lc{stageOpen(supported)}
		}
		return stages
	}
	randomOverride := func() lc {
		var stages lc
		for n := r.Intn(5); n > 0; n-- {
			s := gardencorev1beta1.LifecycleStage{Classification: order[r.Intn(len(order))]}
			if r.Intn(6) > 0 {
				s.StartTime = randomTime()
			}
			stages = append(stages, s)
		}
		return stages
	}
	validOverride := func(o lc) bool {
		return len(validateExpirableVersion(ev{Version: "1.0.0", Lifecycle: o}, NewPath("o"), gateOn())) == 0 && len(o) > 0
	}

	for i := 0; i < 5000; i++ {
		parent := ev{Version: "1.0.0", Lifecycle: randomParent()}
		if ps := validateExpirableVersion(parent, NewPath("p"), gateOn()); len(ps) > 0 {
			t.Fatalf("generator produced an invalid parent %s:%s", ncpVersionJSON(t, parent), describe(ps))
		}
		var override ev
		legacy := r.Intn(4) == 0
		if legacy {
			override = ev{Version: "1.0.0", ExpirationDate: randomTime()}
		} else {
			override = ev{Version: "1.0.0", Lifecycle: randomOverride()}
		}
		got := mergeK8s(t, parent, override)
		context := fmt.Sprintf("parent %s override %s merged %s", ncpVersionJSON(t, parent), ncpVersionJSON(t, override), ncpVersionJSON(t, got))

		if ps := validateExpirableVersion(got, NewPath("v"), gateOn()); len(ps) > 0 {
			t.Fatalf("invalid merged lifecycle: %s:%s", context, describe(ps))
		}
		has := map[gardencorev1beta1.VersionClassification]bool{}
		for _, s := range parent.Lifecycle {
			has[s.Classification] = true
		}
		for _, s := range got.Lifecycle {
			if !has[s.Classification] && (!legacy || s.Classification != expired) {
				t.Fatalf("merged lifecycle has stage %s the parent lacks: %s", s.Classification, context)
			}
		}
		if !legacy && validOverride(override.Lifecycle) {
			for _, o := range override.Lifecycle {
				if o.StartTime == nil || !has[o.Classification] {
					continue
				}
				for _, s := range got.Lifecycle {
					if s.Classification == o.Classification && (s.StartTime == nil || !s.StartTime.Equal(o.StartTime)) {
						t.Fatalf("a valid override's start time of %s was not taken: %s", o.Classification, context)
					}
				}
			}
		}
	}
}
