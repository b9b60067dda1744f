package provider

import (
	"reflect"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// TestProviderImages_RegionFilterPicksTheNewestVersionWithAnImageThere: of an aws profile, the
// newest supported gardenlinux version with an AMI in eu-west-1 for arm64 is the one the
// machine_image_region filter picks, each version lists its AMIs (region and architecture), and
// a type without a known extension lists none (null) and matches no region.
func TestProviderImages_RegionFilterPicksTheNewestVersionWithAnImageThere(t *testing.T) {
	version := func(v string) gardencorev1beta1.MachineImageVersion {
		return gardencorev1beta1.MachineImageVersion{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: v}, Architectures: []string{"amd64", "arm64"}}
	}
	spec := gardencorev1beta1.CloudProfileSpec{Type: "aws",
		MachineImages: []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: []gardencorev1beta1.MachineImageVersion{version("1.0.0"), version("2.0.0"), version("3.0.0")}}},
		ProviderConfig: &runtime.RawExtension{Raw: []byte(`{"apiVersion":"aws.provider.extensions.gardener.cloud/v1alpha1","kind":"CloudProfileConfig","machineImages":[{"name":"gardenlinux","versions":[` +
			`{"version":"1.0.0","regions":[{"name":"eu-west-1","ami":"ami-1","architecture":"arm64"}]},` +
			`{"version":"2.0.0","regions":[{"name":"eu-west-1","ami":"ami-2"},{"name":"us-east-1","ami":"ami-2b","architecture":"arm64"}]},` +
			`{"version":"3.0.0","regions":[{"name":"us-east-1","ami":"ami-3","architecture":"arm64"}]}]}]}`)}}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := newProviderImages(spec)
	for _, c := range []struct {
		region, arch, want string
	}{
		{"eu-west-1", "arm64", "1.0.0"},
		{"eu-west-1", "", "2.0.0"},
		{"us-east-1", "arm64", "3.0.0"},
		{"ap-south-1", "", ""},
		{"", "arm64", "3.0.0"},
	} {
		got, _ := cloudprofile.LatestSupportedImageVersion(spec.MachineImages[0], nil, at, p.filter(cloudprofile.ImageFilter{Architecture: c.arch}, c.region))
		if got != c.want {
			t.Errorf("region %q, architecture %q: got %q, want %q", c.region, c.arch, got, c.want)
		}
	}
	want := []providerImageModel{{Region: ptr.To("eu-west-1"), Architecture: "amd64", Image: "ami-2"}, {Region: ptr.To("us-east-1"), Architecture: "arm64", Image: "ami-2b"}}
	if got := p.of("gardenlinux", "2.0.0"); !reflect.DeepEqual(got, want) {
		t.Errorf("images of 2.0.0: %+v", got)
	}
	if got := p.of("ubuntu", "1.0.0"); got == nil || len(got) != 0 {
		t.Errorf("images of a version the config lacks: %#v, want an empty list", got)
	}
	spec.Type = "hcloud"
	unknown := newProviderImages(spec)
	if got := unknown.of("gardenlinux", "1.0.0"); got != nil {
		t.Errorf("a type without a known extension lists images: %v", got)
	}
	if got, ok := cloudprofile.LatestSupportedImageVersion(spec.MachineImages[0], nil, at, unknown.filter(cloudprofile.ImageFilter{}, "eu-west-1")); ok {
		t.Errorf("a type without a known extension matches a region: %s", got)
	}
}
