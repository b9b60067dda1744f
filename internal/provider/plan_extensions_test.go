package provider

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// validateErrors validates a CloudProfile spec as terraform validate does, through the provider's
// server, and returns its errors.
func validateErrors(t *testing.T, spec gardencorev1beta1.CloudProfileSpec) []*tfprotov6.Diagnostic {
	t.Helper()
	cp := validationCase{t: t, resource: newCloudProfileResource(), root: cloudProfileSpecRoot}
	_, server := frameworkAndShim(t)
	resp, err := server.ValidateResourceConfig(context.Background(), cp.request(cp.spec(spec)))
	if err != nil {
		t.Fatal(err)
	}
	return errorsOf(resp.Diagnostics)
}

// TestValidate_TheExtensionOfTheProfilesTypeChecksIt: at terraform validate, a CloudProfile of a
// type the provider knows an extension of gets the extension's checks: provider-local's (EXT-LOCAL-1)
// without provider_config, on spec.provider_config, and a missing image mapping (EXT-LOCAL-10) on the
// machine image that lacks it, naming the extension and the rule; a profile Gardener itself
// rejects gets Gardener's errors alone, as the webhooks never see it; a type without a known
// extension gets no extension check.
func TestValidate_TheExtensionOfTheProfilesTypeChecksIt(t *testing.T) {
	withoutConfig := plainCloudProfileSpec()
	withoutConfig.ProviderConfig = nil
	unmapped := plainCloudProfileSpec()
	unmapped.MachineImages = append(unmapped.MachineImages, gardencorev1beta1.MachineImage{Name: "alpine",
		Versions: []gardencorev1beta1.MachineImageVersion{{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "3.20.0"}}}})
	rejectedByGardener := plainCloudProfileSpec()
	rejectedByGardener.ProviderConfig = nil
	rejectedByGardener.Kubernetes.Versions[0].Version = "v1.33"
	unknownType := plainCloudProfileSpec()
	unknownType.Type, unknownType.ProviderConfig = "hcloud", nil
	for _, c := range []struct {
		name string
		spec gardencorev1beta1.CloudProfileSpec
		want []string // per error: its attribute path and texts of its detail
	}{
		{"local without provider_config", withoutConfig, []string{`spec.provider_config|Extension Gardener v1.149.3 (provider-local): spec.providerConfig: Required value: ` +
			`providerConfig must be set for cloud profiles of provider local (rule EXT-LOCAL-1)`}},
		{"an image without mapping", unmapped, []string{`spec.machine_images["alpine"]|spec.providerConfig.machineImages[0]: Required value: ` +
			`must provide an image mapping for image "alpine" in providerConfig (rule EXT-LOCAL-10)`}},
		{"mapped", plainCloudProfileSpec(), nil},
		{"rejected by Gardener", rejectedByGardener, []string{`spec.kubernetes.versions["v1.33"]|(rule C-5)`}},
		{"a type without a known extension", unknownType, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			errs := validateErrors(t, c.spec)
			if len(errs) != len(c.want) {
				t.Fatalf("got %d errors, want %d: %s", len(errs), len(c.want), diagnosticText(errs))
			}
			for i, want := range c.want {
				at, text, _ := strings.Cut(want, "|")
				if got := attributeOfDiagnostic(errs[i]); got != at {
					t.Errorf("error on %s, want %s", got, at)
				}
				if !strings.Contains(errs[i].Detail, text) {
					t.Errorf("the detail lacks %q:\n%s", text, errs[i].Detail)
				}
			}
		})
	}
}

// attributeOfDiagnostic renders the attribute of a protocol diagnostic as the framework's path.
func attributeOfDiagnostic(d *tfprotov6.Diagnostic) string {
	if d.Attribute == nil {
		return ""
	}
	var b strings.Builder
	for i, s := range d.Attribute.Steps() {
		switch s := s.(type) {
		case tftypes.AttributeName:
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(string(s))
		case tftypes.ElementKeyString:
			b.WriteString(`["` + string(s) + `"]`)
		case tftypes.ElementKeyInt:
			b.WriteString("[" + strconv.FormatInt(int64(s), 10) + "]")
		}
	}
	return b.String()
}

// TestValidate_GardenersRulesSeeWhatTheExtensionsMutatorFillsIn: gardener-apiserver validates a
// CloudProfile after the mutating webhooks ran. Under two architectures Gardener wants capability
// flavors on every image version (F-6); the aws mutator fills them from the AMIs of provider_config,
// so a version without them passes validate for type aws, and fails for a type without a known
// extension.
func TestValidate_GardenersRulesSeeWhatTheExtensionsMutatorFillsIn(t *testing.T) {
	spec := awsCapabilityProfileSpec()
	if errs := validateErrors(t, spec); len(errs) != 0 {
		t.Errorf("type aws: %s", diagnosticText(errs))
	}
	spec.Type = "hcloud"
	if errs := validateErrors(t, spec); len(errs) != 1 || !strings.Contains(errs[0].Detail, "(rule F-6)") {
		t.Errorf("a type without a known extension: want F-6 alone, got %s", diagnosticText(errs))
	}
}

// TestPlan_AnUpdateMeetsTheExtensionWithTheVersionsGardenerKeeps: Gardener drops the machine image
// versions that are already expired when a CloudProfile is created, but keeps them on update, and
// the extension's webhook sees what Gardener stores. In a profile with capabilities, provider-local
// wants an image mapping for every version; an expired version without one is therefore fine at
// validate (a create would drop it), but the plan of a change to the existing profile fails on that
// version with provider-local's EXT-LOCAL-11.
func TestPlan_AnUpdateMeetsTheExtensionWithTheVersionsGardenerKeeps(t *testing.T) {
	prior := plainCloudProfileSpec()
	prior.MachineCapabilities = []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"amd64"}}}
	prior.MachineImages[0].Versions = append(prior.MachineImages[0].Versions, gardencorev1beta1.MachineImageVersion{
		ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1592.9.0", ExpirationDate: at(2020, time.January, 1)}})
	prior.ProviderConfig = &runtime.RawExtension{Raw: []byte(`{"apiVersion":"local.provider.extensions.gardener.cloud/v1alpha1","kind":"CloudProfileConfig",` +
		`"machineImages":[{"name":"gardenlinux","versions":[{"version":"1877.3.0","capabilityFlavors":[{"image":"local/gardenlinux","capabilities":{"architecture":["amd64"]}}]}]}]}`)}
	if errs := validateErrors(t, prior); len(errs) != 0 {
		t.Fatalf("validate (a create) reports %s", diagnosticText(errs))
	}
	stored, _ := cloudprofile.StoredCloudProfile(&gardencorev1beta1.CloudProfile{Spec: prior}, &gardencorev1beta1.CloudProfile{Spec: prior}, cloudprofile.OptionsWithAllGates(time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)))
	changed := stored.Spec
	changed.MachineTypes = append(slices.Clone(changed.MachineTypes), gardencorev1beta1.MachineType{Name: "m6g.large", CPU: resource.MustParse("2"), GPU: resource.MustParse("0"), Memory: resource.MustParse("8Gi")})
	resp, _ := planResponseOf(t, changed, &stored.Spec)
	errs := errorsOf(resp.Diagnostics)
	if len(errs) != 1 {
		t.Fatalf("the plan of the change reports %d errors, want 1: %s", len(errs), diagnosticText(errs))
	}
	if got, want := attributeOfDiagnostic(errs[0]), `spec.machine_images["gardenlinux"].versions["1592.9.0"]`; got != want {
		t.Errorf("error on %s, want %s", got, want)
	}
	if want := `machine image version gardenlinux@1592.9.0 is not defined in the providerConfig (rule EXT-LOCAL-11)`; !strings.Contains(errs[0].Detail, want) {
		t.Errorf("the detail lacks %q:\n%s", want, errs[0].Detail)
	}
}

// errorsOf are the errors among diags.
func errorsOf(diags []*tfprotov6.Diagnostic) []*tfprotov6.Diagnostic {
	var errs []*tfprotov6.Diagnostic
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			errs = append(errs, d)
		}
	}
	return errs
}

// TestMergedNamespacedProfile_TheExtensionMergesTheProviderConfig: for a parent of type local the
// merged profile's provider config holds the namespaced profile's image mapping, as provider-local's
// mutator writes it; for a type without a known extension, without a provider config of the
// namespaced profile, or with one the extension cannot decode, it stays the parent's and the merge
// is not the extension's.
func TestMergedNamespacedProfile_TheExtensionMergesTheProviderConfig(t *testing.T) {
	config := func(s string) *runtime.RawExtension { return &runtime.RawExtension{Raw: []byte(s)} }
	const typeMeta = `"apiVersion":"local.provider.extensions.gardener.cloud/v1alpha1","kind":"CloudProfileConfig"`
	parentConfig := config(`{` + typeMeta + `,"machineImages":[{"name":"gardenlinux","versions":[{"version":"1.0.0","image":"a"}]}]}`)
	ncpConfig := config(`{` + typeMeta + `,"machineImages":[{"name":"gardenlinux","versions":[{"version":"2.0.0","image":"b"}]}]}`)
	for _, c := range []struct {
		name, providerType string
		ncpConfig          *runtime.RawExtension
		wantMerged         bool
		want               string
	}{
		{"local", "local", ncpConfig, true, `{` + typeMeta + `,"machineImages":[{"name":"gardenlinux","versions":[` +
			`{"version":"1.0.0","image":"a","capabilityFlavors":null},{"version":"2.0.0","image":"b","capabilityFlavors":null}]}],"loadBalancer":{"image":""}}`},
		{"unknown type", "hcloud", ncpConfig, false, string(parentConfig.Raw)},
		{"no provider config", "local", nil, false, string(parentConfig.Raw)},
		{"undecodable", "local", config(`{"kind":"Other"}`), false, string(parentConfig.Raw)},
	} {
		t.Run(c.name, func(t *testing.T) {
			parent := gardencorev1beta1.CloudProfileSpec{Type: c.providerType, ProviderConfig: parentConfig}
			merged, extensionMerged := mergedNamespacedProfile("n", parent, gardencorev1beta1.NamespacedCloudProfileSpec{ProviderConfig: c.ncpConfig}, cloudprofile.MergeOptions{})
			if extensionMerged != c.wantMerged || string(merged.ProviderConfig.Raw) != c.want {
				t.Errorf("merged by the extension %v, provider config\n  %s\nwant %v\n  %s", extensionMerged, merged.ProviderConfig.Raw, c.wantMerged, c.want)
			}
		})
	}
}

// TestMergedNamespacedProfile_TheExtensionsSpecMutationIsMerged: under a parent of type aws with
// machine capabilities, a version the namespaced profile adds without capability flavors is merged
// with the flavors the aws mutator fills from the profile's AMIs (as Gardener stores the spec and
// its controller merges it); the profile as stored (already mutated) merges the same.
func TestMergedNamespacedProfile_TheExtensionsSpecMutationIsMerged(t *testing.T) {
	parent := gardencorev1beta1.CloudProfileSpec{Type: "aws",
		MachineCapabilities: []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"amd64", "arm64"}}},
		MachineImages:       []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: []gardencorev1beta1.MachineImageVersion{{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1.0.0"}}}}},
		ProviderConfig: &runtime.RawExtension{Raw: []byte(`{"apiVersion":"aws.provider.extensions.gardener.cloud/v1alpha1","kind":"CloudProfileConfig","machineImages":[` +
			`{"name":"gardenlinux","versions":[{"version":"1.0.0","regions":[{"name":"eu-west-1","ami":"ami-1"}]}]}]}`)}}
	ncp := gardencorev1beta1.NamespacedCloudProfileSpec{Parent: gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: "parent"},
		MachineImages: []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: []gardencorev1beta1.MachineImageVersion{{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "2.0.0"}}}}},
		ProviderConfig: &runtime.RawExtension{Raw: []byte(`{"apiVersion":"aws.provider.extensions.gardener.cloud/v1alpha1","kind":"CloudProfileConfig","machineImages":[` +
			`{"name":"gardenlinux","versions":[{"version":"2.0.0","regions":[{"name":"eu-west-1","ami":"ami-2","architecture":"arm64"}]}]}]}`)}}
	flavorsOf := func(spec gardencorev1beta1.CloudProfileSpec) string {
		for _, v := range spec.MachineImages[0].Versions {
			if v.Version == "2.0.0" {
				return fmt.Sprint(v.CapabilityFlavors)
			}
		}
		return "no version 2.0.0"
	}
	merged, _ := mergedNamespacedProfile("n", parent, ncp, cloudprofile.MergeOptions{})
	if got := flavorsOf(merged); got != "[{map[architecture:[arm64]]}]" {
		t.Errorf("merged flavors of the added version: %s", got)
	}
	stored := ncp.DeepCopy()
	stored.MachineImages[0].Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{{Capabilities: gardencorev1beta1.Capabilities{"architecture": {"arm64"}}}}
	if again, _ := mergedNamespacedProfile("n", parent, *stored, cloudprofile.MergeOptions{}); !reflect.DeepEqual(again, merged) {
		t.Errorf("the stored, mutated profile merges differently:\n%v\n%v", again.MachineImages, merged.MachineImages)
	}
	parent.Type = "hcloud"
	if unknown, _ := mergedNamespacedProfile("n", parent, ncp, cloudprofile.MergeOptions{}); flavorsOf(unknown) != "[]" {
		t.Errorf("a type without a known extension fills flavors: %s", flavorsOf(unknown))
	}
}

// TestNamespacedMutatedByExtension_PlansWhatTheMutatorStores: under a parent of type aws with
// machine capabilities, a version the namespaced profile maps without capability flavors is planned
// with the flavors the aws mutator fills in; without the parent, a spec with a provider config and
// images cannot be told (unknown), one without a provider config can; a type without a known
// extension is left as it is.
func TestNamespacedMutatedByExtension_PlansWhatTheMutatorStores(t *testing.T) {
	parent := &gardencorev1beta1.CloudProfile{Spec: gardencorev1beta1.CloudProfileSpec{Type: "aws",
		MachineCapabilities: []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"amd64", "arm64"}}}}}
	ncp := gardencorev1beta1.NamespacedCloudProfileSpec{Parent: gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: "parent"},
		MachineImages: []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: []gardencorev1beta1.MachineImageVersion{{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "2.0.0"}}}}},
		ProviderConfig: &runtime.RawExtension{Raw: []byte(`{"apiVersion":"aws.provider.extensions.gardener.cloud/v1alpha1","kind":"CloudProfileConfig","machineImages":[` +
			`{"name":"gardenlinux","versions":[{"version":"2.0.0","regions":[{"name":"eu-west-1","ami":"ami-2","architecture":"arm64"}]}]}]}`)}}
	flavors := func(spec gardencorev1beta1.NamespacedCloudProfileSpec) string {
		return fmt.Sprint(spec.MachineImages[0].Versions[0].CapabilityFlavors)
	}
	if mutated, known := namespacedMutatedByExtension(ncp, parent); !known || flavors(mutated) != "[{map[architecture:[arm64]]}]" {
		t.Errorf("aws parent: known %v, flavors %s; want the arm64 flavor", known, flavors(mutated))
	}
	if flavors(ncp) != "[]" {
		t.Errorf("the configured spec was changed: %s", flavors(ncp))
	}
	if _, known := namespacedMutatedByExtension(ncp, nil); known {
		t.Error("without the parent a spec with a provider config is told")
	}
	withoutConfig := ncp
	withoutConfig.ProviderConfig = nil
	if mutated, known := namespacedMutatedByExtension(withoutConfig, nil); !known || flavors(mutated) != "[]" {
		t.Errorf("without the parent and a provider config: known %v, flavors %s", known, flavors(mutated))
	}
	other := &gardencorev1beta1.CloudProfile{Spec: parent.Spec}
	other.Spec.Type = "hcloud"
	if mutated, known := namespacedMutatedByExtension(ncp, other); !known || flavors(mutated) != "[]" {
		t.Errorf("a type without a known extension: known %v, flavors %s", known, flavors(mutated))
	}
}
