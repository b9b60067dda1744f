package provider

import (
	"fmt"
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/path"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// profileOfImages is a CloudProfile with images machine images of three versions each.
func profileOfImages(images int) *gardencorev1beta1.CloudProfile {
	cp := &gardencorev1beta1.CloudProfile{ObjectMeta: metav1.ObjectMeta{Name: "big"}, Spec: gardencorev1beta1.CloudProfileSpec{Type: "local"}}
	for i := range images {
		image := gardencorev1beta1.MachineImage{Name: fmt.Sprintf("image-%05d", i)}
		for v := range 3 {
			image.Versions = append(image.Versions, gardencorev1beta1.MachineImageVersion{
				ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: fmt.Sprintf("1.%d.0", v)},
				CRI:              []gardencorev1beta1.CRI{{Name: "containerd"}},
			})
		}
		cp.Spec.MachineImages = append(cp.Spec.MachineImages, image)
	}
	return cp
}

// TestObjectSizeDiagnostics_RejectsWhatTheGardenCannotStore: a profile of 3,000 machine images of
// three versions (which the Garden refuses to store with its managed fields) is one error on spec
// naming its size and the limit; one of 1,000 images is accepted.
func TestObjectSizeDiagnostics_RejectsWhatTheGardenCannotStore(t *testing.T) {
	if diags := objectSizeDiagnostics("CloudProfile", profileOfImages(1000), nil); diags.HasError() {
		t.Fatalf("a profile of 1,000 images fits the Garden: %v", diags)
	}
	diags := objectSizeDiagnostics("CloudProfile", profileOfImages(3000), nil)
	if len(diags) != 1 || !diags.HasError() {
		t.Fatalf("want one error, got %v", diags)
	}
	d := diags[0].(interface{ Path() path.Path })
	if !d.Path().Equal(path.Root("spec")) {
		t.Errorf("the error is on %s, want spec", d.Path())
	}
	for _, want := range []string{"CloudProfile too large for the Garden", "MiB", "1.50 MiB", "nothing is written", "To fix: split the profile"} {
		if !strings.Contains(diags[0].Summary()+diags[0].Detail(), want) {
			t.Errorf("the error does not say %q:\n%s\n%s", want, diags[0].Summary(), diags[0].Detail())
		}
	}
}

// TestObjectSizeDiagnostics_PutsAnOversizedProviderConfigOnIt: a provider_config of 5 MB, over the
// limit on its own, is the error's attribute.
func TestObjectSizeDiagnostics_PutsAnOversizedProviderConfigOnIt(t *testing.T) {
	cp := profileOfImages(1)
	cp.Spec.ProviderConfig = &runtime.RawExtension{Raw: []byte(`{"blob":"` + strings.Repeat("x", 5_000_000) + `"}`)}
	diags := objectSizeDiagnostics("CloudProfile", cp, cp.Spec.ProviderConfig)
	if len(diags) != 1 || !diags.HasError() {
		t.Fatalf("want one error, got %v", diags)
	}
	if at := diags[0].(interface{ Path() path.Path }).Path(); !at.Equal(path.Root("spec").AtName("provider_config")) {
		t.Errorf("the error is on %s, want spec.provider_config", at)
	}
	if !strings.Contains(diags[0].Detail(), "provider_config alone takes about 4.77 MiB") {
		t.Errorf("the error does not name provider_config's size: %s", diags[0].Detail())
	}
}
