package cloudprofile_test

import (
	"runtime"
	"strconv"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/bench/gen"
	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// The cost of the rules is linear in the entries of a profile, for any profile: without timing
// anything, these tests run the rules of a plan over each of bench/gen's worst cases at two sizes
// and check what a path quadratic in the entries cannot hide, the findings the rules build and
// the bytes they allocate. make bench measures the time (bench/README.md).

var costNow = time.Date(2026, time.November, 29, 0, 0, 0, 0, time.UTC)

// planRules runs what the provider runs of the rules for the plans of a case's profiles: the
// validation of a create and of an update (from an object whose every version differs), the
// warnings with and without reminders, what Gardener stores and what the state keeps of it, the
// conditions, and for NamespacedCloudProfiles their admission against the parent and the merge.
// It returns the problems found.
func planRules(c gen.WorstCase) cloudprofile.Problems {
	opts := cloudprofile.OptionsWithAllGates(costNow)
	remind := opts
	remind.RemindUnchanged = true
	var ps cloudprofile.Problems
	for _, cp := range c.Profiles {
		old := withOtherVersions(cp)
		ps = append(ps, cloudprofile.ValidateCloudProfileRequest(cp, nil, opts)...)
		ps = append(ps, cloudprofile.ValidateCloudProfileRequest(cp, old, opts)...)
		ps = append(ps, cloudprofile.WarnCloudProfile(cp, nil, opts)...)
		ps = append(ps, cloudprofile.WarnCloudProfile(cp, old, remind)...)
		ps = append(ps, cloudprofile.WarnCloudProfile(cp, cp, opts)...)
		stored, _ := cloudprofile.StoredCloudProfile(cp, nil, opts)
		_ = cloudprofile.WithDroppedVersions(stored.Spec, cp.Spec, opts.Now)
		_ = cloudprofile.ProfileConditions(&cp.Spec, opts.Now, cloudprofile.DefaultExpiryWarningWindow)
	}
	for _, ncp := range c.Namespaced {
		parent := c.Profiles[0]
		ps = append(ps, cloudprofile.ValidateNamespacedCloudProfileRequest(ncp, nil, opts)...)
		ps = append(ps, cloudprofile.AdmitNamespacedCloudProfileRequest(ncp, nil, parent, opts)...)
		ps = append(ps, cloudprofile.AdmitNamespacedCloudProfileRequest(ncp, ncp, parent, opts)...)
		ps = append(ps, cloudprofile.WarnNamespacedCloudProfile(ncp, nil, parent, opts)...)
		ps = append(ps, cloudprofile.WarnNamespacedCloudProfile(ncp, ncp, parent, remind)...)
		stored, _ := cloudprofile.StoredNamespacedCloudProfile(ncp, nil, opts)
		_ = cloudprofile.WithDroppedNamespacedVersions(stored.Spec, ncp.Spec, opts.Now)
		merged := cloudprofile.MergeNamespacedCloudProfile(parent.Spec, ncp.Spec, cloudprofile.MergeOptions{})
		_ = cloudprofile.ProfileConditions(&merged, opts.Now, cloudprofile.DefaultExpiryWarningWindow)
	}
	return ps
}

// withOtherVersions is cp with every version renamed: an update that removes every version and
// adds as many.
func withOtherVersions(cp *gardencorev1beta1.CloudProfile) *gardencorev1beta1.CloudProfile {
	old := cp.DeepCopy()
	for i := range old.Spec.Kubernetes.Versions {
		old.Spec.Kubernetes.Versions[i].Version += "0"
	}
	for i := range old.Spec.MachineImages {
		for j := range old.Spec.MachineImages[i].Versions {
			old.Spec.MachineImages[i].Versions[j].Version += "0"
		}
	}
	return old
}

// allocatedBy is how many bytes f allocates.
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

const (
	costSmall, costLarge = 250, 1000
	// maxProblemsPerEntry bounds the findings the rules may build per entry of the profiles
	// (Gardener's n·(n−1) errors of rule C-8 count as one finding per version, with repeats).
	maxProblemsPerEntry = 6
	// maxBytesGrowth bounds the growth of the bytes allocated from costSmall to costLarge
	// entries (4× the entries): linear cost grows 4×, quadratic 16×.
	maxBytesGrowth = 6.0
)

func TestCost_TheRulesOfAPlanBuildAndAllocateLinearlyInTheEntriesOfTheWorstCases(t *testing.T) {
	small, large := gen.WorstCases(costSmall), gen.WorstCases(costLarge)
	for i := range small {
		t.Run(small[i].Name, func(t *testing.T) {
			var problems cloudprofile.Problems
			bytesSmall := allocatedBy(func() { _ = planRules(small[i]) })
			bytesLarge := allocatedBy(func() { problems = planRules(large[i]) })
			entries := large[i].Entries()
			if len(problems) > maxProblemsPerEntry*entries {
				t.Errorf("the rules build %d problems for %d entries, more than %d per entry", len(problems), entries, maxProblemsPerEntry)
			}
			if growth := float64(bytesLarge) / float64(bytesSmall); growth > maxBytesGrowth {
				t.Errorf("the rules allocate %.1f× the bytes (%d MB) for 4× the entries (%d), more than %.0f×: a path is quadratic in the entries",
					growth, bytesLarge>>20, entries, maxBytesGrowth)
			}
		})
	}
}

func TestRuleC8_BuildsOneProblemPerVersionWhateverTheNumberOfPartners(t *testing.T) {
	const n = 500
	versions := make([]gardencorev1beta1.ExpirableVersion, n)
	supported := gardencorev1beta1.ClassificationSupported
	for i := range versions {
		versions[i] = gardencorev1beta1.ExpirableVersion{Version: "1.24." + strconv.Itoa(i), Classification: &supported}
	}
	cp := gen.WorstCases(1)[0].Profiles[0].DeepCopy()
	cp.Spec.Kubernetes.Versions = versions
	var c8 cloudprofile.Problems
	allocs := testing.AllocsPerRun(1, func() {
		c8 = nil
		for _, p := range cloudprofile.ValidateCloudProfile(cp, cloudprofile.OptionsWithAllGates(costNow)) {
			if p.Rule == "C-8" {
				c8 = append(c8, p)
			}
		}
	})
	if len(c8) != n || c8.Count() != n*(n-1) {
		t.Fatalf("C-8 built %d problems standing for %d errors; want one per version (%d) standing for Gardener's %d", len(c8), c8.Count(), n, n*(n-1))
	}
	if allocs > 40*n {
		t.Fatalf("the validation allocates %.0f times for %d versions, more than %d per version", allocs, n, 40)
	}
}
