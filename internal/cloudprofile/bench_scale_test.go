package cloudprofile

import (
	"fmt"
	"testing"
)

// Benchmarks of the rules at 10 … 10,000 versions, for make bench (its budget: < 20 ms per call at
// 10,000 versions). The inputs are genCloudProfile(n): n Kubernetes versions and n machine image
// versions.

// BenchmarkClassifyProfile classifies every Kubernetes and machine image version of a profile.
func BenchmarkClassifyProfile(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000} {
		cp := genCloudProfile(n)
		b.Run(fmt.Sprintf("versions=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, v := range cp.Spec.Kubernetes.Versions {
					_ = Classify(v, testNow)
				}
				for _, image := range cp.Spec.MachineImages {
					for _, v := range image.Versions {
						_ = Classify(v.ExpirableVersion, testNow)
					}
				}
			}
		})
	}
}

// BenchmarkProfileConditionsScale computes the conditions (classification and next transitions of
// every version) of a profile.
func BenchmarkProfileConditionsScale(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000} {
		cp := genCloudProfile(n)
		b.Run(fmt.Sprintf("versions=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = ProfileConditions(&cp.Spec, testNow, DefaultExpiryWarningWindow)
			}
		})
	}
}

// BenchmarkValidateCloudProfileRequestScale is ValidateCloudProfileRequest (validation, warnings
// and the rules of an update against the previous object) at every size.
func BenchmarkValidateCloudProfileRequestScale(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000} {
		cp := genCloudProfile(n)
		old := cp.DeepCopy()
		opts := gateOn()
		b.Run(fmt.Sprintf("versions=%d/update", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = ValidateCloudProfileRequest(cp, old, opts)
			}
		})
	}
}
