package provider

import (
	"strings"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/gardener-community/terraform-provider-gardener/bench/gen"
	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

var sizeOpts = cloudprofile.OptionsWithAllGates(time.Date(2026, time.November, 29, 0, 0, 0, 0, time.UTC))

// createSizeDiagnostics is what ValidateConfig says of the size of a create of cp.
func createSizeDiagnostics(cp *gardencorev1beta1.CloudProfile) diag.Diagnostics {
	return objectSizeDiagnostics("CloudProfile", cp, storedCloudProfile(cp, nil, sizeOpts), cp.Spec.ProviderConfig)
}

// TestObjectSizeDiagnostics_RejectsEveryShapeTheGardenCannotStore: what the local Garden did with
// profiles of these sizes (bench/gen.ManyEntries; see internal/kube/size.go). 2,300 Kubernetes
// versions, image versions and machine types each are stored, but Gardener's controller can write
// their status only by dropping every manager's managed fields, and 2,400 each cannot be created
// at all: both are errors, as are 7,000 Kubernetes versions (created, the status never written)
// and 7,300 machine types. 2,000 each, 6,500 versions and 7,200 machine types are stored with
// their status and managed fields, and pass.
func TestObjectSizeDiagnostics_RejectsEveryShapeTheGardenCannotStore(t *testing.T) {
	for _, c := range []struct {
		versions, imageVersions, types int
		fits                           bool
	}{
		{2000, 2000, 2000, true}, {2300, 2300, 2300, false}, {2400, 2400, 2400, false}, {2700, 2700, 2700, false},
		{6500, 1, 1, true}, {7000, 1, 1, false}, {1, 1, 7200, true}, {1, 1, 7300, false},
	} {
		diags := createSizeDiagnostics(gen.ManyEntries("big", c.versions, c.imageVersions, c.types))
		if diags.HasError() == c.fits {
			t.Errorf("%d Kubernetes versions, %d image versions, %d machine types: fits %v, got %v", c.versions, c.imageVersions, c.types, c.fits, diags)
		}
	}
}

// TestObjectSizeDiagnostics_NamesTheLargestPartsAndTheLimit: the error is on the largest
// collection (Terraform shows the resource for it, not the whole spec), and says what takes the
// room and what the Garden would do.
func TestObjectSizeDiagnostics_NamesTheLargestPartsAndTheLimit(t *testing.T) {
	diags := createSizeDiagnostics(gen.ManyEntries("big", 1000, 2000, 5000))
	if len(diags) != 1 || !diags.HasError() {
		t.Fatalf("want one error, got %v", diags)
	}
	if at := diags[0].(interface{ Path() path.Path }).Path(); !at.Equal(path.Root("spec").AtName("machine_types")) {
		t.Errorf("the error is on %s, want spec.machine_types", at)
	}
	text := diags[0].Summary() + "\n" + diags[0].Detail()
	for _, want := range []string{"CloudProfile too large for the Garden", "with the defaults Gardener adds (most of it spec.machine_types ",
		"MiB, spec.machine_images ", "the status Gardener's controller writes (the classification of every version) 0.", "managed fields",
		"1.50 MiB per object", "etcdserver: request is too large", "nothing is written", "To fix: split the profile"} {
		if !strings.Contains(text, want) {
			t.Errorf("the error does not say %q:\n%s", want, text)
		}
	}
}

// TestObjectSizeDiagnostics_PutsAnOversizedProviderConfigOnIt: a provider_config of 5 MB, over the
// limit on its own, is the error's attribute.
func TestObjectSizeDiagnostics_PutsAnOversizedProviderConfigOnIt(t *testing.T) {
	cp := gen.ManyEntries("big", 1, 1, 1)
	cp.Spec.ProviderConfig = &runtime.RawExtension{Raw: []byte(`{"blob":"` + strings.Repeat("x", 5_000_000) + `"}`)}
	diags := createSizeDiagnostics(cp)
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

// TestObjectSizeDiagnostics_CountsTheMergedProfileOfANamespacedProfile: a NamespacedCloudProfile
// of 4,000 machine types fits on its own, but its status holds the merged profile, the 5,000
// machine types of its parent included: with the parent known (at plan) it is too large, on
// spec.parent.
func TestObjectSizeDiagnostics_CountsTheMergedProfileOfANamespacedProfile(t *testing.T) {
	parent := gen.ManyEntries("parent", 1, 1, 5000)
	ncp := &gardencorev1beta1.NamespacedCloudProfile{ObjectMeta: metav1.ObjectMeta{Name: "team", Namespace: "garden-team"},
		Spec: gardencorev1beta1.NamespacedCloudProfileSpec{Parent: gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: "parent"},
			MachineTypes: gen.ManyEntries("team", 1, 1, 4000).Spec.MachineTypes}}
	for i := range ncp.Spec.MachineTypes {
		ncp.Spec.MachineTypes[i].Name = "team-" + ncp.Spec.MachineTypes[i].Name
	}
	if diags := objectSizeDiagnostics("NamespacedCloudProfile", ncp, storedNamespacedCloudProfile(ncp, nil, nil, sizeOpts), nil); diags.HasError() {
		t.Fatalf("the spec alone fits: %v", diags)
	}
	diags := objectSizeDiagnostics("NamespacedCloudProfile", ncp, storedNamespacedCloudProfile(ncp, nil, parent, sizeOpts), nil)
	if len(diags) != 1 || !diags.HasError() {
		t.Fatalf("want one error, got %v", diags)
	}
	if at := diags[0].(interface{ Path() path.Path }).Path(); !at.Equal(path.Root("spec").AtName("parent")) {
		t.Errorf("the error is on %s, want spec.parent", at)
	}
	if !strings.Contains(diags[0].Detail(), "(the whole profile merged with the parent's)") {
		t.Errorf("the error does not name the merged status: %s", diags[0].Detail())
	}
}

// TestObjectSizeDiagnostics_SaysWhatItDidNotCount: without its parent (at validate) a
// NamespacedCloudProfile's error says the merged status is not counted, instead of sizing it as
// 0.00 MiB, and fields that round to nothing are not named beside the largest ones.
func TestObjectSizeDiagnostics_SaysWhatItDidNotCount(t *testing.T) {
	ncp := &gardencorev1beta1.NamespacedCloudProfile{ObjectMeta: metav1.ObjectMeta{Name: "team", Namespace: "garden-team"},
		Spec: gardencorev1beta1.NamespacedCloudProfileSpec{Parent: gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: "parent"},
			MachineTypes: gen.ManyEntries("team", 1, 1, 9000).Spec.MachineTypes, ProviderConfig: &runtime.RawExtension{Raw: []byte(`{}`)}}}
	diags := objectSizeDiagnostics("NamespacedCloudProfile", ncp, storedNamespacedCloudProfile(ncp, nil, nil, sizeOpts), ncp.Spec.ProviderConfig)
	if len(diags) != 1 || !diags.HasError() {
		t.Fatalf("want one error, got %v", diags)
	}
	text := strings.Join(strings.Fields(diags[0].Detail()), " ")
	for _, want := range []string{"(most of it spec.machine_types ", "MiB), the status Gardener's controller writes (the whole profile merged with the parent's, not counted here: the parent is read at plan, not at validate), and the managed fields"} {
		if !strings.Contains(text, want) {
			t.Errorf("the error does not say %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "0.00 MiB") {
		t.Errorf("the error names a part of 0.00 MiB:\n%s", text)
	}
}
