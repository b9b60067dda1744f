package cloudprofile

import (
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// mergeBenchmarkInput returns a parent with n versions, half Kubernetes versions and half machine
// image versions (genCloudProfile of bench_test.go: ten images, legacy and lifecycle versions
// mixed), and a NamespacedCloudProfile overriding every tenth of them with an expiration date (as
// admission allows), adding one version to every image, a machine type and a volume type, and
// replacing a parent machine type.
func mergeBenchmarkInput(n int) (gardencorev1beta1.CloudProfileSpec, gardencorev1beta1.NamespacedCloudProfileSpec) {
	expiry := metav1.NewTime(time.Date(2027, time.June, 1, 0, 0, 0, 0, time.UTC))
	parent := genCloudProfile(n / 2).Spec
	ncp := gardencorev1beta1.NamespacedCloudProfileSpec{
		Parent:     gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: "bench"},
		Kubernetes: &gardencorev1beta1.KubernetesSettings{},
	}
	for i, v := range parent.Kubernetes.Versions {
		if i%10 == 0 {
			ncp.Kubernetes.Versions = append(ncp.Kubernetes.Versions, gardencorev1beta1.ExpirableVersion{Version: v.Version, ExpirationDate: &expiry})
		}
	}
	for _, image := range parent.MachineImages {
		override := gardencorev1beta1.MachineImage{Name: image.Name}
		for j, v := range image.Versions {
			if j%10 == 0 {
				override.Versions = append(override.Versions, gardencorev1beta1.MachineImageVersion{
					ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: v.Version, ExpirationDate: &expiry},
				})
			}
		}
		override.Versions = append(override.Versions, gardencorev1beta1.MachineImageVersion{
			ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "999.0.0"},
			CRI:              []gardencorev1beta1.CRI{{Name: gardencorev1beta1.CRINameContainerD}},
		})
		ncp.MachineImages = append(ncp.MachineImages, override)
	}
	ncp.MachineTypes = []gardencorev1beta1.MachineType{{Name: "m0.large", Usable: ptrTo(true)}, {Name: "type-x", Usable: ptrTo(true)}}
	ncp.VolumeTypes = []gardencorev1beta1.VolumeType{{Name: "volume-x", Class: "premium", Usable: ptrTo(true)}}
	return parent, ncp
}

// BenchmarkMerge measures MergeNamespacedCloudProfile for parents with 10 … 10,000 versions and an
// NamespacedCloudProfile overriding a tenth of them. The cost must grow linearly (keyed merges use
// maps); most of it is the deep copy of the inputs.
func BenchmarkMerge(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000} {
		parent, ncp := mergeBenchmarkInput(n)
		overrides := len(ncp.Kubernetes.Versions)
		for _, image := range ncp.MachineImages {
			overrides += len(image.Versions) - 1
		}
		b.Run(fmt.Sprintf("versions=%d/overrides=%d", n, overrides), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = MergeNamespacedCloudProfile(parent, ncp, MergeOptions{})
			}
		})
	}
}

// BenchmarkMergeLifecycleOverrides is BenchmarkMerge in GEP-32 mode.
func BenchmarkMergeLifecycleOverrides(b *testing.B) {
	parent, ncp := mergeBenchmarkInput(10000)
	b.ReportAllocs()
	for b.Loop() {
		_ = MergeNamespacedCloudProfile(parent, ncp, MergeOptions{LifecycleOverrides: true, Now: testNow})
	}
}
