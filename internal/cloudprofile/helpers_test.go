package cloudprofile

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Shared fixtures and assertions of the tests. All tests use fixed instants.

var (
	// testNow is the instant at which the tests evaluate classifications.
	testNow = time.Date(2027, time.January, 15, 12, 0, 0, 0, time.UTC)

	supported   = gardencorev1beta1.ClassificationSupported
	preview     = gardencorev1beta1.ClassificationPreview
	deprecated  = gardencorev1beta1.ClassificationDeprecated
	expired     = gardencorev1beta1.ClassificationExpired
	unavailable = gardencorev1beta1.ClassificationUnavailable
)

// gateOff are the options of Gardener's unit tests by default: lifecycle gate off, capabilities on.
func gateOff() Options {
	return Options{Now: testNow, Gates: GardenerDefaultFeatureGates()}
}

// gateOn enables the VersionClassificationLifecycle gate.
func gateOn() Options {
	o := gateOff()
	o.Gates.VersionClassificationLifecycle = true
	return o
}

func at(d time.Duration) *metav1.Time {
	t := metav1.NewTime(testNow.Add(d))
	return &t
}

func cls(c gardencorev1beta1.VersionClassification) *gardencorev1beta1.VersionClassification {
	return &c
}

func ptrTo[T any](v T) *T { return &v }

func stageAt(c gardencorev1beta1.VersionClassification, d time.Duration) gardencorev1beta1.LifecycleStage {
	return gardencorev1beta1.LifecycleStage{Classification: c, StartTime: at(d)}
}

func stageOpen(c gardencorev1beta1.VersionClassification) gardencorev1beta1.LifecycleStage {
	return gardencorev1beta1.LifecycleStage{Classification: c}
}

const hour = time.Hour
const day = 24 * time.Hour

func imageVersion(version string) gardencorev1beta1.MachineImageVersion {
	return gardencorev1beta1.MachineImageVersion{
		ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: version},
		CRI:              []gardencorev1beta1.CRI{{Name: gardencorev1beta1.CRINameContainerD}},
		Architectures:    []string{"amd64"},
	}
}

func machineImage(name string, versions ...gardencorev1beta1.MachineImageVersion) gardencorev1beta1.MachineImage {
	return gardencorev1beta1.MachineImage{Name: name, Versions: versions, UpdateStrategy: ptrTo(gardencorev1beta1.UpdateStrategyMajor)}
}

// validCloudProfile is a valid profile without capabilities, shaped like the one of Gardener's
// "tests for unknown cloud profiles".
func validCloudProfile() *gardencorev1beta1.CloudProfile {
	return &gardencorev1beta1.CloudProfile{
		ObjectMeta: metav1.ObjectMeta{Name: "profile"},
		Spec: gardencorev1beta1.CloudProfileSpec{
			Type: "unknown",
			SeedSelector: &gardencorev1beta1.SeedSelector{
				LabelSelector: metav1.LabelSelector{MatchLabels: map[string]string{"foo": "bar"}},
			},
			Kubernetes: gardencorev1beta1.KubernetesSettings{
				Versions: []gardencorev1beta1.ExpirableVersion{{Version: "1.11.4"}},
			},
			MachineImages: []gardencorev1beta1.MachineImage{machineImage("some-machine-image", imageVersion("1.2.3"))},
			Regions: []gardencorev1beta1.Region{{
				Name:  "region1",
				Zones: []gardencorev1beta1.AvailabilityZone{{Name: "zone1"}},
			}},
			MachineTypes: []gardencorev1beta1.MachineType{validMachineType()},
			VolumeTypes:  []gardencorev1beta1.VolumeType{{Name: "volume-type-1", Class: "super-premium"}},
		},
	}
}

func validMachineType() gardencorev1beta1.MachineType {
	return gardencorev1beta1.MachineType{
		Name:         "machine-type-1",
		CPU:          resource.MustParse("2"),
		GPU:          resource.MustParse("0"),
		Memory:       resource.MustParse("100Gi"),
		Architecture: ptrTo("amd64"),
	}
}

// capabilityCloudProfile is the fixture of Gardener's "architecture capabilities" tests: one image
// version and one machine type without architecture fields.
func capabilityCloudProfile() *gardencorev1beta1.CloudProfile {
	return &gardencorev1beta1.CloudProfile{
		ObjectMeta: metav1.ObjectMeta{Name: "profile"},
		Spec: gardencorev1beta1.CloudProfileSpec{
			Type:       "test",
			Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{{Version: "1.32.0"}}},
			Regions:    []gardencorev1beta1.Region{{Name: "unit-test"}},
			MachineImages: []gardencorev1beta1.MachineImage{{
				Name:           "image",
				UpdateStrategy: ptrTo(gardencorev1beta1.UpdateStrategyMajor),
				Versions: []gardencorev1beta1.MachineImageVersion{{
					ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1.2.3"},
					CRI:              []gardencorev1beta1.CRI{{Name: gardencorev1beta1.CRINameContainerD}},
				}},
			}},
			MachineTypes: []gardencorev1beta1.MachineType{{Name: "machine"}},
		},
	}
}

func flavor(values ...string) gardencorev1beta1.MachineImageFlavor {
	return gardencorev1beta1.MachineImageFlavor{Capabilities: gardencorev1beta1.Capabilities{"architecture": values}}
}

// want describes an expected problem. Empty strings and a nil bad value are not checked; use
// anyBad to make that explicit, or set checkBad to compare BadValue (also when nil).
type want struct {
	rule   string
	typ    ProblemType
	field  string
	attr   string
	detail string // exact, or a substring when prefixed with "~"
	bad    any
	// checkBad compares bad with BadValue (reflect.DeepEqual).
	checkBad bool
}

func (w want) String() string {
	return fmt.Sprintf("{%s %s %s attr=%q detail=%q}", w.rule, w.typ, w.field, w.attr, w.detail)
}

func (w want) matches(p Problem) bool {
	if w.rule != "" && w.rule != p.Rule {
		return false
	}
	if w.typ != "" && w.typ != p.Type {
		return false
	}
	if w.field != p.Path.Field() {
		return false
	}
	if w.attr != "" && w.attr != p.Path.Attribute() {
		return false
	}
	if w.detail != "" {
		if sub, ok := strings.CutPrefix(w.detail, "~"); ok {
			if !strings.Contains(p.Detail, sub) {
				return false
			}
		} else if w.detail != p.Detail {
			return false
		}
	}
	if w.checkBad && !reflect.DeepEqual(w.bad, p.BadValue) {
		return false
	}
	return true
}

func describe(ps Problems) string {
	var b strings.Builder
	for _, p := range ps {
		fmt.Fprintf(&b, "\n  [%s] %s (attr %s)", p.Rule, p.Error(), p.Path.Attribute())
	}
	return b.String()
}

// expectProblems asserts that got consists of exactly one problem per want, in any order (like
// Gomega's ConsistOf). A problem with Repeats stands for that many more copies of it, as
// Gardener reports them.
func expectProblems(t *testing.T, got Problems, wants ...want) {
	t.Helper()
	got = expanded(got)
	if len(got) != len(wants) {
		t.Fatalf("got %d problems, want %d %v:%s", len(got), len(wants), wants, describe(got))
	}
	// Bipartite matching of wants to problems (augmenting paths).
	owner := make([]int, len(got))
	for i := range owner {
		owner[i] = -1
	}
	var try func(w int, seen []bool) bool
	try = func(w int, seen []bool) bool {
		for p := range got {
			if seen[p] || !wants[w].matches(got[p]) {
				continue
			}
			seen[p] = true
			if owner[p] < 0 || try(owner[p], seen) {
				owner[p] = w
				return true
			}
		}
		return false
	}
	for w := range wants {
		if !try(w, make([]bool, len(got))) {
			t.Fatalf("no problem matches %v; got:%s", wants[w], describe(got))
		}
	}
}

// expanded is ps with each problem's repeats as copies of it.
func expanded(ps Problems) Problems {
	out := make(Problems, 0, ps.Count())
	for _, p := range ps {
		repeats := p.Repeats
		p.Repeats = 0
		for range repeats + 1 {
			out = append(out, p)
		}
	}
	return out
}

// expectNoProblems asserts that there are no problems.
func expectNoProblems(t *testing.T, got Problems) {
	t.Helper()
	if len(got) > 0 {
		t.Fatalf("want no problems, got:%s", describe(got))
	}
}
