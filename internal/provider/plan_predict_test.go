package provider

import (
	"context"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/provider/largevalue"
	"github.com/gardener-community/terraform-provider-gardener/internal/tfvalue"
)

// plainCloudProfileSpec is a profile that leaves every default to Gardener.
func plainCloudProfileSpec() gardencorev1beta1.CloudProfileSpec {
	return gardencorev1beta1.CloudProfileSpec{
		Type: "local",
		Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{
			{Version: "1.33.1"}, {Version: "1.32.4", ExpirationDate: at(2030, time.January, 1)},
		}},
		MachineImages: []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: []gardencorev1beta1.MachineImageVersion{
			{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1877.3.0"}},
		}}},
		MachineTypes: []gardencorev1beta1.MachineType{{Name: "m5.large", CPU: resource.MustParse("2"), GPU: resource.MustParse("0"), Memory: resource.MustParse("8Gi")}},
		VolumeTypes:  []gardencorev1beta1.VolumeType{{Name: "standard", Class: "standard"}},
		Regions:      []gardencorev1beta1.Region{{Name: "local", Zones: []gardencorev1beta1.AvailabilityZone{{Name: "local-a"}}}},
		ProviderConfig: &runtime.RawExtension{Raw: []byte(`{"apiVersion":"local.provider.extensions.gardener.cloud/v1alpha1","kind":"CloudProfileConfig",` +
			`"machineImages":[{"name":"gardenlinux","versions":[{"version":"1877.3.0","image":"local/gardenlinux"}]},` +
			`{"name":"ubuntu","versions":[{"version":"24.4.0","image":"local/ubuntu"}]}]}`)},
	}
}

// planOf plans config against prior (nil: a create) with the provider's server and returns the
// whole planned state.
func planOf(t *testing.T, config gardencorev1beta1.CloudProfileSpec, prior *gardencorev1beta1.CloudProfileSpec) tftypes.Value {
	t.Helper()
	resp, typ := planResponseOf(t, config, prior)
	state, err := resp.PlannedState.Unmarshal(typ)
	if err != nil {
		t.Fatal(err)
	}
	return state
}

// planResponseOf plans config against prior (nil: a create) with the provider's server and returns
// its answer with the resource's type.
func planResponseOf(t *testing.T, config gardencorev1beta1.CloudProfileSpec, prior *gardencorev1beta1.CloudProfileSpec) (*tfprotov6.PlanResourceChangeResponse, tftypes.Type) {
	t.Helper()
	ls := largeSchemaOf(newCloudProfileResource())
	configValue := cloudProfileResourceValue(t, ls.Type(), config, false)
	priorValue := tftypes.NewValue(ls.Type(), nil)
	if prior != nil {
		priorValue = cloudProfileResourceValue(t, ls.Type(), *prior, true)
	}
	return servePlan(t, planRequest(t, ls.Type(), configValue, priorValue, configValue)), ls.Type()
}

// servePlan answers req with the provider's server.
func servePlan(t *testing.T, req *tfprotov6.PlanResourceChangeRequest) *tfprotov6.PlanResourceChangeResponse {
	t.Helper()
	shim, err := NewProtocol6Server(New("test"))()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := shim.PlanResourceChange(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// TestPlan_ACreatePredictsWhatGardenerStores: a create of a profile that leaves every default to
// Gardener plans the spec Gardener stores (usable, architecture, architectures, cri,
// update_strategy), fully known, and the generation 0 Gardener leaves on a CloudProfile.
func TestPlan_ACreatePredictsWhatGardenerStores(t *testing.T) {
	config := plainCloudProfileSpec()
	planned := planOf(t, config, nil)
	stored, _ := cloudprofile.StoredCloudProfile(&gardencorev1beta1.CloudProfile{Spec: config}, nil, cloudprofile.OptionsWithAllGates(time.Now()))
	want, diags := flattenSpecTerraform(cloudProfileSpecRoot, stored.Spec)
	requireNoDiags(t, diags)
	got, _ := tfvalue.At(planned, specLargePath)
	if !got.Equal(want) {
		diffs, _ := got.Diff(want)
		t.Fatalf("planned spec differs from the stored one at %v", firstDiffs(diffs))
	}
	if generation, _ := tfvalue.At(planned, largevalue.Path{"metadata", "generation"}); !generation.Equal(tftypes.NewValue(tftypes.Number, 0)) {
		t.Fatalf("generation %v, want 0", generation)
	}
	for _, p := range []largevalue.Path{{"metadata", "uid"}, {"metadata", "resource_version"}} {
		if v, _ := tfvalue.At(planned, p); v.IsKnown() {
			t.Errorf("%s is the server's to choose, want unknown, got %v", p.Key(), v)
		}
	}
}

// TestPlan_ANewEntryOfAnUpdateIsPredicted: a machine type added by an update is planned with the
// defaults Gardener gives it.
func TestPlan_ANewEntryOfAnUpdateIsPredicted(t *testing.T) {
	prior := plainCloudProfileSpec()
	storedPrior, _ := cloudprofile.StoredCloudProfile(&gardencorev1beta1.CloudProfile{Spec: prior}, nil, cloudprofile.OptionsWithAllGates(time.Now()))
	config := plainCloudProfileSpec()
	config.MachineTypes = append(config.MachineTypes, gardencorev1beta1.MachineType{Name: "m6g.large", CPU: resource.MustParse("2"), GPU: resource.MustParse("0"), Memory: resource.MustParse("8Gi")})
	planned := planOf(t, config, &storedPrior.Spec)
	spec, _ := tfvalue.At(planned, specLargePath)
	if !spec.IsFullyKnown() {
		t.Fatalf("planned spec has unknown values: %v", spec)
	}
	added := machineTypesOf(t, spec)["m6g.large"]
	if got := stringAttribute(added, "architecture"); got != "amd64" {
		t.Errorf("architecture %q, want Gardener's default amd64", got)
	}
	if usable := tfvalue.Attribute(added, "usable"); !usable.Equal(tftypes.NewValue(tftypes.Bool, true)) {
		t.Errorf("usable %v, want Gardener's default true", usable)
	}
}

// TestPlan_DerivedArchitecturesOfSeveralValuesStayUnknown: Gardener derives a version's
// architectures from its capability flavors through a set, in no fixed order, so a derived list of
// two architectures is left unknown at plan; a single one is predicted.
func TestPlan_DerivedArchitecturesOfSeveralValuesStayUnknown(t *testing.T) {
	config := richCloudProfileSpec()
	config.MachineImages[0].Versions[0].Architectures = nil // flavors amd64 and arm64
	// The aws extension's mutator sets the flavors from the AMIs: one of each architecture.
	config.ProviderConfig = &runtime.RawExtension{Raw: []byte(`{"apiVersion":"aws.provider.extensions.gardener.cloud/v1alpha1","kind":"CloudProfileConfig","machineImages":[{"name":"gardenlinux","versions":[` +
		`{"version":"1592.1.0","regions":[{"name":"eu-west-1","ami":"ami-1"},{"name":"eu-west-1","ami":"ami-2","architecture":"arm64"}]}]}]}`)}
	planned := planOf(t, config, nil)
	spec, _ := tfvalue.At(planned, specLargePath)
	var images, versions map[string]tftypes.Value
	if err := tfvalue.Attribute(spec, "machine_images").As(&images); err != nil {
		t.Fatal(err)
	}
	if err := tfvalue.Attribute(images["gardenlinux"], "versions").As(&versions); err != nil {
		t.Fatal(err)
	}
	if a := tfvalue.Attribute(versions["1592.1.0"], "architectures"); a.IsKnown() {
		t.Errorf("architectures derived from two flavors: want unknown, got %v", a)
	}
}

// awsCapabilityProfileSpec is plainCloudProfileSpec of type aws with two architectures, whose
// provider_config gives gardenlinux 1877.3.0 an AMI per architecture in eu-west-1 and no capability
// flavors (the aws mutator fills them in).
func awsCapabilityProfileSpec() gardencorev1beta1.CloudProfileSpec {
	spec := plainCloudProfileSpec()
	spec.Type = "aws"
	spec.MachineCapabilities = []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"amd64", "arm64"}}}
	spec.Regions = []gardencorev1beta1.Region{{Name: "eu-west-1"}}
	spec.MachineTypes[0].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"amd64"}}
	spec.ProviderConfig = &runtime.RawExtension{Raw: []byte(`{"apiVersion":"aws.provider.extensions.gardener.cloud/v1alpha1","kind":"CloudProfileConfig",` +
		`"machineImages":[{"name":"gardenlinux","versions":[{"version":"1877.3.0","regions":[{"name":"eu-west-1","ami":"ami-1"},{"name":"eu-west-1","ami":"ami-2","architecture":"arm64"}]}]}]}`)}
	return spec
}

// TestPlan_TheExtensionsCloudProfileMutatorIsPredicted: a CloudProfile of type aws with machine
// capabilities whose version sets no capability flavors is planned with the flavors the aws
// extension's mutator fills from the AMIs of the providerConfig (one per architecture), as if the
// configuration had set them; a profile of type local (no CloudProfile mutator) keeps none.
func TestPlan_TheExtensionsCloudProfileMutatorIsPredicted(t *testing.T) {
	config := awsCapabilityProfileSpec()
	flavors := func(spec tftypes.Value) tftypes.Value {
		var images, versions map[string]tftypes.Value
		if err := tfvalue.Attribute(spec, "machine_images").As(&images); err != nil {
			t.Fatal(err)
		}
		if err := tfvalue.Attribute(images["gardenlinux"], "versions").As(&versions); err != nil {
			t.Fatal(err)
		}
		return tfvalue.Attribute(versions["1877.3.0"], "capability_flavors")
	}
	filled := config
	filled.MachineImages = []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: []gardencorev1beta1.MachineImageVersion{{
		ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1877.3.0"},
		CapabilityFlavors: []gardencorev1beta1.MachineImageFlavor{
			{Capabilities: gardencorev1beta1.Capabilities{"architecture": {"amd64"}}},
			{Capabilities: gardencorev1beta1.Capabilities{"architecture": {"arm64"}}},
		},
	}}}}
	planned, _ := tfvalue.At(planOf(t, config, nil), specLargePath)
	want, _ := tfvalue.At(planOf(t, filled, nil), specLargePath)
	if got := flavors(planned); !got.IsFullyKnown() || !got.Equal(flavors(want)) {
		t.Errorf("planned capability flavors %v, want the mutator's %v", got, flavors(want))
	}
	config.Type = "local"
	planned, _ = tfvalue.At(planOf(t, config, nil), specLargePath)
	if got := flavors(planned); got.Equal(flavors(want)) {
		t.Errorf("type local: planned the aws mutator's flavors %v", got)
	}
}
