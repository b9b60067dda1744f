package conformance

import (
	"fmt"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// exampleParent is the parent CloudProfile of the worked example of the Namespaced profiles guide, with
// its dates moved from 2027 to 2097 so that the verdicts do not depend on today.
func exampleParent(t testing.TB, name string) *cpT {
	return &cpT{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: gardencorev1beta1.CloudProfileSpec{
			Type:     "aws",
			CABundle: ptr(certificatePEM(t, 0)),
			Regions:  []gardencorev1beta1.Region{{Name: "eu-west-1"}},
			Limits:   &gardencorev1beta1.Limits{MaxNodesTotal: ptr[int32](100)},
			Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: []evT{
				{Version: "1.31.2", Classification: cls(supported)},
				{Version: "1.30.5", Classification: cls(deprecated), ExpirationDate: date(2097, time.June, 1)},
				{Version: "1.30.4", Classification: cls(deprecated), ExpirationDate: date(2097, time.March, 1)},
			}},
			MachineImages: []miT{
				{Name: "gardenlinux", Versions: []mivT{
					{ExpirableVersion: evT{Version: "1877.3.0", Classification: cls(supported)}, Architectures: []string{"amd64", "arm64"}, CRI: containerd()},
					{ExpirableVersion: evT{Version: "1592.9.0", Classification: cls(deprecated), ExpirationDate: date(2097, time.April, 1)}},
				}},
				{Name: "ubuntu", UpdateStrategy: strategy(gardencorev1beta1.UpdateStrategyMinor), Versions: []mivT{
					{ExpirableVersion: evT{Version: "22.4.1"}, Architectures: []string{"amd64"}, CRI: containerd()},
				}},
			},
			MachineTypes: []mtT{
				{Name: "m5.large", CPU: q("2"), GPU: q("0"), Memory: q("8Gi")},
				{Name: "m6g.large", CPU: q("2"), GPU: q("0"), Memory: q("8Gi"), Architecture: ptr("arm64")},
			},
			VolumeTypes: []vtT{{Name: "gp3", Class: "standard"}},
		},
	}
}

// exampleNamespaced is the NamespacedCloudProfile of the worked example, dates moved to 2097.
func exampleNamespaced(t testing.TB, name, parent string) *ncpT {
	ncp := namespaced(name, parent)
	ncp.Spec.CABundle = ptr(certificatePEM(t, 1))
	ncp.Spec.Limits = &gardencorev1beta1.Limits{MaxNodesTotal: ptr[int32](50)}
	ncp.Spec.Kubernetes = &gardencorev1beta1.KubernetesSettings{Versions: []evT{{Version: "1.30.5", ExpirationDate: date(2097, time.December, 1)}}}
	ncp.Spec.MachineImages = []miT{
		{Name: "gardenlinux", UpdateStrategy: strategy(gardencorev1beta1.UpdateStrategyPatch), Versions: []mivT{
			{ExpirableVersion: evT{Version: "1592.9.0", ExpirationDate: date(2097, time.September, 30)}},
			{ExpirableVersion: evT{Version: "1600.1.0"}, CRI: containerd()},
		}},
		{Name: "custom-os", UpdateStrategy: strategy(gardencorev1beta1.UpdateStrategyMajor), Versions: []mivT{
			{ExpirableVersion: evT{Version: "1.0.0"}, CRI: containerd(), Architectures: []string{"arm64"}},
		}},
	}
	ncp.Spec.MachineTypes = []mtT{
		{Name: "m5.large", CPU: q("4"), GPU: q("0"), Memory: q("16Gi")},
		{Name: "x1.metal", CPU: q("96"), GPU: q("0"), Memory: q("1Ti")},
	}
	ncp.Spec.VolumeTypes = []vtT{{Name: "io2", Class: "premium"}}
	return ncp
}

// capabilityParent is a parent with capability definitions (two architectures and "network").
func capabilityParent(name string) *cpT {
	cp := capabilityProfile(name)
	for i := range cp.Spec.Kubernetes.Versions {
		if cp.Spec.Kubernetes.Versions[i].ExpirationDate != nil {
			cp.Spec.Kubernetes.Versions[i].ExpirationDate = date(2097, time.June, 1)
		}
	}
	image(cp).Versions[1].ExpirationDate = date(2097, time.April, 1)
	return cp
}

// lifecycleParent is a legacy parent whose versions use lifecycles (the local Garden runs with the
// VersionClassificationLifecycle gate on).
func lifecycleParent(name string) *cpT {
	cp := legacyProfile(name)
	cp.Spec.Kubernetes.Versions = []evT{
		{Version: "1.31.2", Lifecycle: lifecycle(stage(preview, at(past)), stage(supported, at(past2)))},
		{Version: "1.30.5", Lifecycle: lifecycle(stage(supported, at(past)), stage(deprecated, at(past2)), stage(expired, date(2097, time.June, 1)))},
	}
	image(cp).Versions = []mivT{
		{ExpirableVersion: evT{Version: "1877.3.0", Lifecycle: lifecycle(stage(supported, at(past)), stage(deprecated, date(2097, time.June, 1)))}},
		{ExpirableVersion: evT{Version: "1592.9.0", Classification: cls(supported)}},
	}
	return cp
}

// namespaced returns a NamespacedCloudProfile in the project namespace with only a parent.
func namespaced(name, parent string) *ncpT {
	return &ncpT{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: projectNamespace},
		Spec:       gardencorev1beta1.NamespacedCloudProfileSpec{Parent: gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: parent}},
	}
}

// Parents of the NamespacedCloudProfile cases.
const (
	parentExample    = "example"
	parentCapability = "capability"
	parentLifecycle  = "lifecycle"
)

type ncpCase struct {
	name   string
	parent string // one of the parent* constants
	mutate func(t testing.TB, ncp *ncpT)
	post   bool // see cpCase.post
}

func kubernetesOverrides(vs ...evT) *gardencorev1beta1.KubernetesSettings {
	return &gardencorev1beta1.KubernetesSettings{Versions: vs}
}

func gardenlinux(s *gardencorev1beta1.MachineImageUpdateStrategy, vs ...mivT) miT {
	return miT{Name: "gardenlinux", UpdateStrategy: s, Versions: vs}
}

func ncpCases() []ncpCase {
	e, c, l := parentExample, parentCapability, parentLifecycle
	override := func(v mivT) func(testing.TB, *ncpT) {
		return func(_ testing.TB, ncp *ncpT) { ncp.Spec.MachineImages = []miT{gardenlinux(nil, v)} }
	}
	extended := evT{Version: "1592.9.0", ExpirationDate: at(future)}
	return []ncpCase{
		// K rules: static validation.
		{"only a parent", e, func(testing.TB, *ncpT) {}, false},
		{"worked example", e, func(t testing.TB, ncp *ncpT) { ncp.Spec = exampleNamespaced(t, ncp.Name, ncp.Spec.Parent.Name).Spec }, false},
		{"K-1 parent kind is not CloudProfile", e, func(_ testing.TB, ncp *ncpT) { ncp.Spec.Parent.Kind = "NamespacedCloudProfile" }, false},
		{"L-0 parent does not exist", e, func(_ testing.TB, ncp *ncpT) { ncp.Spec.Parent.Name = "conformance-no-such-profile" }, false},
		{"A-1 invalid label", e, func(_ testing.TB, ncp *ncpT) { ncp.Labels = map[string]string{"bad key": "x"} }, false},
		{"A-1 invalid extension label is removed before validation", e, func(_ testing.TB, ncp *ncpT) {
			ncp.Labels = map[string]string{"provider.extensions.gardener.cloud/Not Valid": "true"}
		}, false},
		{"K-2 empty parent name", e, func(_ testing.TB, ncp *ncpT) { ncp.Spec.Parent.Name = "" }, false},
		{"K-3 classification on a Kubernetes override", e, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.Kubernetes = kubernetesOverrides(evT{Version: "1.30.5", ExpirationDate: at(future), Classification: cls(deprecated)})
		}, false},
		{"K-4 Kubernetes override that is not N.N.N", e, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.Kubernetes = kubernetesOverrides(evT{Version: "v1.30.5", ExpirationDate: at(future)})
		}, false},
		{"K-4 duplicate Kubernetes override", e, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.Kubernetes = kubernetesOverrides(evT{Version: "1.30.5", ExpirationDate: at(future)}, evT{Version: "1.30.5", ExpirationDate: at(future2)})
		}, true},
		{"K-4 lifecycle together with expiration on a Kubernetes override", e, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.Kubernetes = kubernetesOverrides(evT{Version: "1.30.5", ExpirationDate: at(future), Lifecycle: lifecycle(stage(deprecated, at(past)))})
		}, false},
		{"K-5 duplicate machine image", e, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.MachineImages = []miT{gardenlinux(nil, mivT{ExpirableVersion: extended}), gardenlinux(strategy(gardencorev1beta1.UpdateStrategyPatch))}
		}, true},
		{"K-5 unsupported update strategy", e, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.MachineImages = []miT{gardenlinux(strategy("sometimes"))}
		}, false},
		{"K-5 machine image version that is no semantic version", e, override(mivT{ExpirableVersion: evT{Version: "next"}, CRI: containerd()}), false},
		{"K-5 unknown architecture", e, override(mivT{ExpirableVersion: evT{Version: "1600.1.0"}, CRI: containerd(), Architectures: []string{"s390x"}}), false},
		{"K-6 duplicate volume type", e, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.VolumeTypes = []vtT{{Name: "io2", Class: "premium"}, {Name: "io2", Class: "premium"}}
		}, true},
		{"K-6 volume type class with slash", e, func(_ testing.TB, ncp *ncpT) { ncp.Spec.VolumeTypes = []vtT{{Name: "io2", Class: "premium/ssd"}} }, false},
		{"K-7 negative machine type cpu", e, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.MachineTypes = []mtT{{Name: "x1.metal", CPU: q("-1"), GPU: q("0"), Memory: q("1Gi")}}
		}, false},
		{"K-7 unknown machine type architecture", e, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.MachineTypes = []mtT{{Name: "x1.metal", CPU: q("1"), GPU: q("0"), Memory: q("1Gi"), Architecture: ptr("s390x")}}
		}, false},
		{"K-8 invalid caBundle", e, func(_ testing.TB, ncp *ncpT) { ncp.Spec.CABundle = ptr("not a certificate") }, false},
		{"K-8 zero maxNodesTotal", e, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.Limits = &gardencorev1beta1.Limits{MaxNodesTotal: ptr[int32](0)}
		}, false},

		// L rules: admission against the parent.
		{"L-1 Kubernetes version not in the parent", e, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.Kubernetes = kubernetesOverrides(evT{Version: "1.32.0", ExpirationDate: at(future)})
		}, false},
		{"L-2 Kubernetes override without expiration date", e, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.Kubernetes = kubernetesOverrides(evT{Version: "1.30.5"})
		}, false},
		{"L-2 Kubernetes override extends the expiration date", e, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.Kubernetes = kubernetesOverrides(evT{Version: "1.30.5", ExpirationDate: at(future)})
		}, false},
		{"M-1 expiration date on the latest Kubernetes version", e, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.Kubernetes = kubernetesOverrides(evT{Version: "1.31.2", ExpirationDate: at(future)})
		}, false},
		{"expired Kubernetes override is dropped on create", e, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.Kubernetes = kubernetesOverrides(evT{Version: "1.30.5", ExpirationDate: at(past)})
		}, false},
		{"L-6 classification on an image override", e, override(mivT{ExpirableVersion: evT{Version: "1592.9.0", ExpirationDate: at(future), Classification: cls(deprecated)}}), false},
		{"L-6 cri on an image override", e, override(mivT{ExpirableVersion: extended, CRI: containerd()}), false},
		{"L-6 architectures on an image override", e, override(mivT{ExpirableVersion: extended, Architectures: []string{"amd64"}}), false},
		{"L-6 kubeletVersionConstraint on an image override", e, override(mivT{ExpirableVersion: extended, KubeletVersionConstraint: ptr(">= 1.30")}), false},
		{"L-6 inPlaceUpdates on an image override", e, override(mivT{ExpirableVersion: extended, InPlaceUpdates: &gardencorev1beta1.InPlaceUpdates{Supported: true}}), false},
		{"L-7 image override without expiration date", e, override(mivT{ExpirableVersion: evT{Version: "1592.9.0"}}), false},
		{"L-7 image override extends the expiration date", e, override(mivT{ExpirableVersion: extended}), false},
		{"L-9 new version for a parent image", e, override(mivT{ExpirableVersion: evT{Version: "1600.1.0"}, CRI: containerd()}), false},
		{"M-2/F-7 new version without cri", e, override(mivT{ExpirableVersion: evT{Version: "1600.1.0"}}), false},
		{"M-2 new supported version conflicts in its minor", e, override(mivT{ExpirableVersion: evT{Version: "1877.3.1", Classification: cls(supported)}, CRI: containerd()}), false},
		{"L-10 new image without versions", e, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.MachineImages = []miT{{Name: "custom-os", UpdateStrategy: strategy(gardencorev1beta1.UpdateStrategyMajor)}}
		}, false},
		{"M-2/E-6 new image without update strategy", e, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.MachineImages = []miT{{Name: "custom-os", Versions: []mivT{{ExpirableVersion: evT{Version: "1.0.0"}, CRI: containerd()}}}}
		}, false},
		{"L-10 new image with unsupported cri", e, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.MachineImages = []miT{{Name: "custom-os", UpdateStrategy: strategy(gardencorev1beta1.UpdateStrategyMajor), Versions: []mivT{
				{ExpirableVersion: evT{Version: "1.0.0"}, CRI: []gardencorev1beta1.CRI{{Name: "docker"}}},
			}}}
		}, false},
		{"L-10 new image with a lifecycle out of order", e, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.MachineImages = []miT{{Name: "custom-os", UpdateStrategy: strategy(gardencorev1beta1.UpdateStrategyMajor), Versions: []mivT{
				{ExpirableVersion: evT{Version: "1.0.0", Lifecycle: lifecycle(stage(deprecated, at(past)), stage(supported, at(past2)))}, CRI: containerd()},
			}}}
		}, false},
		{"L-10 valid new image", e, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.MachineImages = []miT{{Name: "custom-os", UpdateStrategy: strategy(gardencorev1beta1.UpdateStrategyMajor), Versions: []mivT{
				{ExpirableVersion: evT{Version: "1.0.0", Classification: cls(supported)}, CRI: containerd(), Architectures: []string{"arm64"}},
			}}}
		}, false},
		{"image entry with only an expired version is removed", e, override(mivT{ExpirableVersion: evT{Version: "1600.1.0", ExpirationDate: at(past)}}), false},
		{"M-4 machine type override and addition", e, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.MachineTypes = []mtT{{Name: "m5.large", CPU: q("4"), GPU: q("0"), Memory: q("16Gi")}, {Name: "x1.metal", CPU: q("96"), GPU: q("0"), Memory: q("1Ti")}}
		}, false},
		{"M-4 legacy parent turns machine type capabilities into an architecture", e, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.MachineTypes = []mtT{{Name: "a1.large", CPU: q("2"), GPU: q("0"), Memory: q("4Gi"), Capabilities: caps("architecture", "arm64")}}
		}, false},
		{"limits above the parent's", e, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.Limits = &gardencorev1beta1.Limits{MaxNodesTotal: ptr[int32](1000)}
		}, false},
		{"volume type override", e, func(_ testing.TB, ncp *ncpT) { ncp.Spec.VolumeTypes = []vtT{{Name: "gp3", Class: "premium"}} }, false},
		{"providerConfig is not validated", e, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.ProviderConfig = &runtime.RawExtension{Raw: []byte(`{"anything":["goes"]}`)}
		}, false},

		// Capability parent.
		{"F-6 new version with architectures only", c, override(mivT{ExpirableVersion: evT{Version: "1600.1.0"}, CRI: containerd(), Architectures: []string{"arm64"}}), false},
		{"F-6 new version without architectures or flavors", c, override(mivT{ExpirableVersion: evT{Version: "1600.1.0"}, CRI: containerd()}), false},
		{"L-9 flavor value not defined by the parent", c, override(mivT{ExpirableVersion: evT{Version: "1600.1.0"}, CRI: containerd(),
			CapabilityFlavors: []gardencorev1beta1.MachineImageFlavor{flavor(map[string][]string{"architecture": {"amd64"}, "network": {"turbo"}})}}), false},
		{"L-6 architectures on an override under a capability parent", c, override(mivT{ExpirableVersion: extended, Architectures: []string{"amd64"}}), false},
		{"L-6 flavors on an override under a capability parent", c, override(mivT{ExpirableVersion: extended, CapabilityFlavors: []gardencorev1beta1.MachineImageFlavor{archFlavor("amd64")}}), false},
		{"M-4 machine type architecture conflicts with its capability", c, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.MachineTypes = []mtT{{Name: "x1.metal", CPU: q("96"), GPU: q("0"), Memory: q("1Ti"), Architecture: ptr("arm64"), Capabilities: caps("architecture", "amd64")}}
		}, false},
		{"M-4 machine type capability value not defined by the parent", c, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.MachineTypes = []mtT{{Name: "x1.metal", CPU: q("96"), GPU: q("0"), Memory: q("1Ti"), Capabilities: caps("architecture", "amd64", "network", "turbo")}}
		}, false},
		{"M-4 machine type without capabilities under a capability parent", c, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.MachineTypes = []mtT{{Name: "x1.metal", CPU: q("96"), GPU: q("0"), Memory: q("1Ti")}}
		}, false},
		{"L-10 new image with flavors", c, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.MachineImages = []miT{{Name: "custom-os", UpdateStrategy: strategy(gardencorev1beta1.UpdateStrategyMajor), Versions: []mivT{
				{ExpirableVersion: evT{Version: "1.0.0"}, CRI: containerd(), CapabilityFlavors: []gardencorev1beta1.MachineImageFlavor{archFlavor("arm64")}},
			}}}
		}, false},
		{"L-2 Kubernetes override under a capability parent", c, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.Kubernetes = kubernetesOverrides(evT{Version: "1.30.5", ExpirationDate: at(future)})
		}, false},

		// Lifecycle parent.
		{"only a parent with lifecycles", l, func(testing.TB, *ncpT) {}, false},
		{"M-1/D-4 expiration override of a Kubernetes version with lifecycle", l, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.Kubernetes = kubernetesOverrides(evT{Version: "1.30.5", ExpirationDate: at(future)})
		}, false},
		{"M-2/D-4 expiration override of an image version with lifecycle", l, override(mivT{ExpirableVersion: evT{Version: "1877.3.0", ExpirationDate: at(future)}}), false},
		{"expiration override of a legacy image version next to lifecycles", l, override(mivT{ExpirableVersion: evT{Version: "1592.9.0", ExpirationDate: at(future)}}), false},
	}
}

// TestDifferential_NamespacedCloudProfile creates parent CloudProfiles for real and compares, for
// each case, the package's verdict on creating a NamespacedCloudProfile (as the provider asks it:
// ValidateNamespacedCloudProfileRequest, then AdmitNamespacedCloudProfileRequest) with
// gardener-apiserver's answer to a dry-run of the same object.
func TestDifferential_NamespacedCloudProfile(t *testing.T) {
	s := newServer(t)
	ctx := testContext(t)
	prefix := acctest.UniqueName("conf-ncp")
	parentNames := map[string]string{
		parentExample:    prefix + "-example",
		parentCapability: prefix + "-capability",
		parentLifecycle:  prefix + "-lifecycle",
	}
	t.Cleanup(func() {
		deleteCloudProfiles(t, s.client, parentNames[parentExample], parentNames[parentCapability], parentNames[parentLifecycle])
	})
	parents := map[string]*cpT{}
	for key, build := range map[string]func(string) *cpT{
		parentExample:    func(n string) *cpT { return exampleParent(t, n) },
		parentCapability: capabilityParent,
		parentLifecycle:  lifecycleParent,
	} {
		createCloudProfile(t, ctx, s, build(parentNames[key]))
		stored, err := s.client.GetCloudProfile(ctx, parentNames[key])
		if err != nil {
			t.Fatal(err)
		}
		parents[parentNames[key]] = stored
	}

	cases := ncpCases()
	if len(cases) < 30 {
		t.Fatalf("only %d cases", len(cases))
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ncp := namespaced(fmt.Sprintf("%s-%d", prefix, i), parentNames[c.parent])
			c.mutate(t, ncp)
			opts := cloudprofile.OptionsWithAllGates(time.Now())
			pkg := cloudprofile.ValidateNamespacedCloudProfileRequest(ncp.DeepCopy(), nil, opts).Errors()
			static := len(pkg) > 0
			if !static {
				pkg = cloudprofile.AdmitNamespacedCloudProfileRequest(ncp.DeepCopy(), nil, parents[ncp.Spec.Parent.Name], opts).Errors()
			}
			v := s.dryRunNamespaced(t, ctx, ncp, c.post)
			if c.post {
				expectApplyRejectsDuplicates(t, s.dryRunNamespaced(t, ctx, ncp, false))
			}
			t.Logf("server %s; package: %d errors (static validation: %t)", v.summary(), len(pkg), static)
			if stored, _ := cloudprofile.StoredNamespacedCloudProfile(ncp.DeepCopy(), nil, opts); stored != nil {
				expectStoredAsPredicted(t, v, stored.Spec)
			}
			if static && fieldCauses(v) {
				// Static validation answers with field errors: compare paths and types exactly.
				report(t, compareFieldErrors(pkg, v), pkg, v)
				return
			}
			report(t, compareAdmission(pkg, v), pkg, v)
		})
	}
}

// fieldCauses tells whether the server rejected with field errors (a 422 of static validation),
// rather than with an admission error whose only cause, if any, names no field.
func fieldCauses(v verdict) bool {
	if v.accepted || len(v.causes) == 0 {
		return false
	}
	for _, c := range v.causes {
		if c.Field == "" {
			return false
		}
	}
	return true
}
