package cloudprofile

import (
	"fmt"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// genCloudProfile returns a valid CloudProfile (with the lifecycle gate on, at testNow) with n
// Kubernetes versions and n machine image versions, spread across minors (ten patches per minor)
// and across ten images. Even minors use the legacy fields (one supported version per minor, the
// others deprecated with a future expiration date), odd minors use lifecycles with all four
// stages. The latest Kubernetes version is plainly supported. Shared by the benchmarks of this
// package.
func genCloudProfile(n int) *gardencorev1beta1.CloudProfile {
	cp := &gardencorev1beta1.CloudProfile{
		ObjectMeta: metav1.ObjectMeta{Name: "bench"},
		Spec: gardencorev1beta1.CloudProfileSpec{
			Type:    "local",
			Regions: []gardencorev1beta1.Region{{Name: "region-a", Zones: []gardencorev1beta1.AvailabilityZone{{Name: "zone-1"}, {Name: "zone-2"}}}},
		},
	}
	for i := 0; i < n; i++ {
		v := genVersion(i, fmt.Sprintf("1.%d.%d", i/10, i%10))
		if i == n-1 {
			v = gardencorev1beta1.ExpirableVersion{Version: v.Version}
		}
		cp.Spec.Kubernetes.Versions = append(cp.Spec.Kubernetes.Versions, v)
	}

	const images = 10
	perImage := (n + images - 1) / images
	for img := 0; img < images && img*perImage < n; img++ {
		image := machineImage(fmt.Sprintf("image-%d", img))
		for k := 0; k < perImage && img*perImage+k < n; k++ {
			v := imageVersion("")
			v.ExpirableVersion = genVersion(k, fmt.Sprintf("%d.%d.0", k/10, k%10))
			image.Versions = append(image.Versions, v)
		}
		cp.Spec.MachineImages = append(cp.Spec.MachineImages, image)
	}

	for i := 0; i < 10; i++ {
		m := validMachineType()
		m.Name = fmt.Sprintf("m%d.large", i)
		size := resource.MustParse("20Gi")
		m.Storage = &gardencorev1beta1.MachineTypeStorage{Class: "standard", MinSize: &size}
		cp.Spec.MachineTypes = append(cp.Spec.MachineTypes, m)
		cp.Spec.VolumeTypes = append(cp.Spec.VolumeTypes, gardencorev1beta1.VolumeType{Name: fmt.Sprintf("vol-%d", i), Class: "standard"})
	}
	return cp
}

// genVersion gives version i of a list its lifecycle (see genCloudProfile).
func genVersion(i int, version string) gardencorev1beta1.ExpirableVersion {
	minor, patch := i/10, i%10
	base := testNow.Add(time.Duration(i) * time.Hour)
	if minor%2 == 0 {
		if patch == 0 {
			return gardencorev1beta1.ExpirableVersion{Version: version, Classification: cls(supported)}
		}
		return gardencorev1beta1.ExpirableVersion{Version: version, Classification: cls(deprecated), ExpirationDate: ptrTo(metav1.NewTime(base.Add(90 * day)))}
	}
	return gardencorev1beta1.ExpirableVersion{Version: version, Lifecycle: lc{
		{Classification: preview},
		{Classification: supported, StartTime: ptrTo(metav1.NewTime(base.Add(-30 * day)))},
		{Classification: deprecated, StartTime: ptrTo(metav1.NewTime(base.Add(30 * day)))},
		{Classification: expired, StartTime: ptrTo(metav1.NewTime(base.Add(120 * day)))},
	}}
}

func TestGenCloudProfileIsValid(t *testing.T) {
	for _, n := range []int{1, 10, 100, 1000} {
		cp := genCloudProfile(n)
		if len(cp.Spec.Kubernetes.Versions) != n {
			t.Fatalf("n=%d: %d kubernetes versions", n, len(cp.Spec.Kubernetes.Versions))
		}
		count := 0
		for _, image := range cp.Spec.MachineImages {
			count += len(image.Versions)
		}
		if count != n {
			t.Fatalf("n=%d: %d image versions", n, count)
		}
		expectNoProblems(t, ValidateCloudProfile(cp, gateOn()))
		expectNoProblems(t, ValidateCloudProfileRequest(cp, nil, gateOn()))
	}
}

func BenchmarkValidateCloudProfile(b *testing.B) {
	for _, n := range []int{10, 100, 1000, 10000} {
		cp := genCloudProfile(n)
		opts := gateOn()
		b.Run(fmt.Sprintf("versions=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if ps := ValidateCloudProfile(cp, opts); len(ps) != 0 {
					b.Fatalf("unexpected problems: %d", len(ps))
				}
			}
		})
	}
}

func BenchmarkValidateCloudProfileRequest(b *testing.B) {
	for _, n := range []int{100, 10000} {
		cp := genCloudProfile(n)
		opts := gateOn()
		b.Run(fmt.Sprintf("versions=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = ValidateCloudProfileRequest(cp, nil, opts)
			}
		})
	}
}
