package conformance

import (
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// updateBase is the profile the update cases start from: the legacy fixture with a node limit and
// an image version that is unavailable (its only stage starts in the future; create keeps
// unavailable image versions).
func updateBase(name string) *cpT {
	cp := legacyProfile(name)
	cp.Spec.Limits = &gardencorev1beta1.Limits{MaxNodesTotal: ptr[int32](100)}
	addImageVersion(cp, mivT{ExpirableVersion: evT{Version: "1443.1.0", Lifecycle: lifecycle(stage(preview, at(future)))}})
	return cp
}

type updateCase struct {
	name   string
	mutate func(cp *cpT)
}

func updateCases() []updateCase {
	return []updateCase{
		{"unchanged", func(*cpT) {}},
		{"U-1 maxNodesTotal decreased", func(cp *cpT) { cp.Spec.Limits.MaxNodesTotal = ptr[int32](50) }},
		{"U-1 maxNodesTotal decreased to zero", func(cp *cpT) { cp.Spec.Limits.MaxNodesTotal = ptr[int32](0) }},
		{"U-1 maxNodesTotal increased", func(cp *cpT) { cp.Spec.Limits.MaxNodesTotal = ptr[int32](500) }},
		{"U-1 limits removed", func(cp *cpT) { cp.Spec.Limits = nil }},
		{"U-1 maxNodesTotal removed", func(cp *cpT) { cp.Spec.Limits = &gardencorev1beta1.Limits{} }},
		{"U-2 active Kubernetes version turned unavailable", func(cp *cpT) {
			(*k8s(cp))[1] = evT{Version: "1.30.5", Lifecycle: lifecycle(stage(preview, at(future)))}
		}},
		{"U-2 latest Kubernetes version turned unavailable", func(cp *cpT) {
			(*k8s(cp))[0] = evT{Version: "1.31.2", Lifecycle: lifecycle(stage(supported, at(future)))}
		}},
		{"U-2 new unavailable Kubernetes version is kept", func(cp *cpT) {
			addKubernetes(cp, evT{Version: "1.29.0", Lifecycle: lifecycle(stage(preview, at(future)))})
		}},
		{"U-2 Kubernetes version turned expired", func(cp *cpT) { (*k8s(cp))[1].ExpirationDate = at(past) }},
		{"U-3 active image version turned unavailable", func(cp *cpT) {
			image(cp).Versions[0].ExpirableVersion = evT{Version: "1877.3.0", Lifecycle: lifecycle(stage(supported, at(future)))}
		}},
		{"U-3 unavailable image version stays unavailable", func(cp *cpT) {
			image(cp).Versions[2].Lifecycle = lifecycle(stage(preview, at(future2)))
		}},
		{"U-3 unavailable image version becomes active", func(cp *cpT) {
			image(cp).Versions[2].Lifecycle = lifecycle(stage(preview, at(past)))
		}},
		{"U-3 new unavailable image version", func(cp *cpT) {
			addImageVersion(cp, mivT{ExpirableVersion: evT{Version: "1500.0.0", Lifecycle: lifecycle(stage(preview, at(future)))}})
		}},
		{"U-3 new image with an unavailable version", func(cp *cpT) {
			cp.Spec.MachineImages = append(cp.Spec.MachineImages, miT{Name: "ubuntu", Versions: []mivT{{ExpirableVersion: evT{Version: "22.4.1", Lifecycle: lifecycle(stage(supported, at(future)))}}}})
		}},
		{"Kubernetes version removed", func(cp *cpT) { *k8s(cp) = (*k8s(cp))[:1] }},
		{"image version removed", func(cp *cpT) { image(cp).Versions = image(cp).Versions[:1] }},
		{"update keeps an expired Kubernetes version", func(cp *cpT) {
			addKubernetes(cp, evT{Version: "1.29.0", ExpirationDate: at(past)})
		}},
		{"update keeps an expired image version", func(cp *cpT) {
			addImageVersion(cp, mivT{ExpirableVersion: evT{Version: "1000.0.0", ExpirationDate: at(past)}})
		}},
		{"C-3 update runs the create validation", func(cp *cpT) { (*k8s(cp))[0].ExpirationDate = at(future) }},
		{"B-1 type changed", func(cp *cpT) { cp.Spec.Type = "other" }},
		{"B-1 type changed to one that is no label name", func(cp *cpT) { cp.Spec.Type = "Not Valid" }},
		{"capabilities on update: migration to two architectures", func(cp *cpT) {
			cp.Spec.MachineCapabilities = []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"amd64", "arm64"}}}
		}},
		{"capabilities on update: a single architecture conflicts with arm64 entries", func(cp *cpT) {
			cp.Spec.MachineCapabilities = []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"amd64"}}}
		}},
	}
}

// TestDifferential_CloudProfileUpdate creates a CloudProfile for real and compares, for each case,
// the package's verdict on replacing it (ValidateCloudProfileRequest with the stored object as
// old) with gardener-apiserver's answer to a dry-run server-side apply of the changed object.
func TestDifferential_CloudProfileUpdate(t *testing.T) {
	s := newServer(t)
	ctx := testContext(t)
	name := acctest.UniqueName("conf-update")
	t.Cleanup(func() { deleteCloudProfiles(t, s.client, name) })
	createCloudProfile(t, ctx, s, updateBase(name))
	old, err := s.client.GetCloudProfile(ctx, name)
	if err != nil {
		t.Fatal(err)
	}

	for _, c := range updateCases() {
		t.Run(c.name, func(t *testing.T) {
			cp := updateBase(name)
			c.mutate(cp)
			opts := cloudprofile.OptionsWithAllGates(time.Now())
			pkg := cloudprofile.ValidateCloudProfileRequest(cp.DeepCopy(), old.DeepCopy(), opts)
			v := s.dryRunCloudProfile(t, ctx, cp, false)
			t.Logf("server %s; package: %d errors", v.summary(), len(pkg.Errors()))
			report(t, compareFieldErrors(pkg, v), pkg, v)
		})
	}
}
