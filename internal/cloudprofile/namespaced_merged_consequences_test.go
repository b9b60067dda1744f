package cloudprofile

import (
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// TestMergedStatus_UndefaultedSpecNeedsCRIAndUpdateStrategy: NamespacedCloudProfile specs are not defaulted, so new
// versions need an explicit cri and new images an explicit update strategy, while missing
// architectures are fine because the merge defaults them.
func TestMergedStatus_UndefaultedSpecNeedsCRIAndUpdateStrategy(t *testing.T) {
	opts := gateOff()
	t.Run("a new version without cri fails in the merged status", func(t *testing.T) {
		ncp := simNCP()
		ncp.Spec.MachineImages[0].Versions = append(ncp.Spec.MachineImages[0].Versions,
			gardencorev1beta1.MachineImageVersion{ExpirableVersion: ev{Version: "2.0.0"}, Architectures: []string{"amd64"}})
		var found bool
		for _, p := range simulatedStatus(simParent(), ncp, opts) {
			found = found || (p.Type == Required && p.Path.Field() == "status.cloudProfileSpec.machineImages[0].versions[2].cri")
		}
		if !found {
			t.Fatal("want Required at status.cloudProfileSpec.machineImages[0].versions[2].cri")
		}
	})
	t.Run("a new image without update strategy fails in the merged status", func(t *testing.T) {
		ncp := simNCP()
		ncp.Spec.MachineImages = append(ncp.Spec.MachineImages, gardencorev1beta1.MachineImage{Name: "new-image",
			Versions: []gardencorev1beta1.MachineImageVersion{{ExpirableVersion: ev{Version: "1.0.0"}, CRI: criContainerd()}}})
		var found bool
		for _, p := range simulatedStatus(simParent(), ncp, opts) {
			found = found || (p.Type == Required && p.Path.Field() == "status.cloudProfileSpec.machineImages[1].updateStrategy")
		}
		if !found {
			t.Fatal("want Required at status.cloudProfileSpec.machineImages[1].updateStrategy")
		}
	})
	t.Run("missing architectures are defaulted by the merge", func(t *testing.T) {
		ncp := simNCP()
		ncp.Spec.MachineImages = append(ncp.Spec.MachineImages, gardencorev1beta1.MachineImage{Name: "new-image", UpdateStrategy: ptrTo(gardencorev1beta1.UpdateStrategyMajor),
			Versions: []gardencorev1beta1.MachineImageVersion{{ExpirableVersion: ev{Version: "1.0.0"}, CRI: criContainerd()}}})
		expectNoProblems(t, simulatedStatus(simParent(), ncp, opts))
	})
}

// TestMergedStatus_TopLevelFieldsNotValidated: type, regions, bastion, limits, caBundle, seedSelector and
// machineCapabilities of the merged status are not validated, so a parent without regions or type
// and an NCP with a negative limit leave the validation of the merged status silent (B-4 on the
// NCP spec is static validation, the K rules).
func TestMergedStatus_TopLevelFieldsNotValidated(t *testing.T) {
	parent := simParent()
	parent.Spec.Type = ""
	parent.Spec.Regions = nil
	parent.Spec.Bastion = &gardencorev1beta1.Bastion{}
	parent.Spec.SeedSelector = &gardencorev1beta1.SeedSelector{ProviderTypes: []string{"not validated"}}
	ncp := simNCP()
	ncp.Spec.Limits = &gardencorev1beta1.Limits{MaxNodesTotal: ptrTo(int32(-1))}
	expectNoProblems(t, simulatedStatus(parent, ncp, gateOff()))
}
