package conformance

import (
	"fmt"
	"strings"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// coreType is the provider type of the core rules' cases: no extension of the local Garden admits
// it, so the Garden's verdict is gardener-apiserver's alone (extension_local_test.go compares
// provider-local's admission, for type local).
const coreType = "conformance"

// legacyProfile is a valid CloudProfile without capability definitions. Optional fields that
// Gardener defaults (update strategy, CRI, architectures, usable) are mostly left out so that the
// comparison covers defaulting too.
func legacyProfile(name string) *cpT {
	return &cpT{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: gardencorev1beta1.CloudProfileSpec{
			Type: coreType,
			Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: []evT{
				{Version: "1.31.2", Classification: cls(supported)},
				{Version: "1.30.5", Classification: cls(deprecated), ExpirationDate: at(future)},
			}},
			MachineImages: []miT{{
				Name: "gardenlinux",
				Versions: []mivT{
					{ExpirableVersion: evT{Version: "1877.3.0", Classification: cls(supported)}, Architectures: []string{"amd64", "arm64"}},
					{ExpirableVersion: evT{Version: "1592.9.0", Classification: cls(deprecated), ExpirationDate: at(future)}},
				},
			}},
			MachineTypes: []mtT{
				{Name: "m5.large", CPU: q("2"), GPU: q("0"), Memory: q("8Gi")},
				{Name: "m6g.large", CPU: q("2"), GPU: q("0"), Memory: q("8Gi"), Architecture: ptr("arm64")},
			},
			VolumeTypes: []vtT{{Name: "gp3", Class: "standard"}},
			Regions: []gardencorev1beta1.Region{{
				Name:  "eu-1",
				Zones: []gardencorev1beta1.AvailabilityZone{{Name: "eu-1a"}, {Name: "eu-1b"}},
			}},
		},
	}
}

// capabilityProfile is a valid CloudProfile with capability definitions: two architectures and a
// second capability "network".
func capabilityProfile(name string) *cpT {
	return &cpT{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: gardencorev1beta1.CloudProfileSpec{
			Type: coreType,
			MachineCapabilities: []gardencorev1beta1.CapabilityDefinition{
				{Name: "architecture", Values: []string{"amd64", "arm64"}},
				{Name: "network", Values: []string{"standard", "accelerated"}},
			},
			Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: []evT{
				{Version: "1.31.2", Classification: cls(supported)},
				{Version: "1.30.5", Classification: cls(deprecated), ExpirationDate: at(future)},
			}},
			MachineImages: []miT{{
				Name: "gardenlinux",
				Versions: []mivT{
					{
						ExpirableVersion:  evT{Version: "1877.3.0", Classification: cls(supported)},
						CapabilityFlavors: []gardencorev1beta1.MachineImageFlavor{archFlavor("amd64"), flavor(map[string][]string{"architecture": {"arm64"}, "network": {"accelerated"}})},
					},
					{
						ExpirableVersion:  evT{Version: "1592.9.0", Classification: cls(deprecated), ExpirationDate: at(future)},
						CapabilityFlavors: []gardencorev1beta1.MachineImageFlavor{archFlavor("amd64")},
					},
				},
			}},
			MachineTypes: []mtT{
				{Name: "m5.large", CPU: q("2"), GPU: q("0"), Memory: q("8Gi"), Capabilities: caps("architecture", "amd64")},
				{Name: "m6g.large", CPU: q("2"), GPU: q("0"), Memory: q("8Gi"), Capabilities: caps("architecture", "arm64", "network", "accelerated")},
			},
			VolumeTypes: []vtT{{Name: "gp3", Class: "standard"}},
			Regions:     []gardencorev1beta1.Region{{Name: "eu-1"}},
		},
	}
}

// cpCase is one CloudProfile: a fixture and one mutation.
type cpCase struct {
	name   string
	base   func(string) *cpT
	mutate func(t testing.TB, cp *cpT)
	// post sends the object as a plain dry-run create: server-side apply rejects a repeated key in
	// a keyed list (versions, images, types, regions, zones) before Gardener sees the object.
	post bool
}

func legacy(name string, mutate func(t testing.TB, cp *cpT)) cpCase {
	return cpCase{name: name, base: legacyProfile, mutate: mutate}
}

func capable(name string, mutate func(t testing.TB, cp *cpT)) cpCase {
	return cpCase{name: name, base: capabilityProfile, mutate: mutate}
}

func duplicated(c cpCase) cpCase {
	c.post = true
	return c
}

func k8s(cp *cpT) *[]evT { return &cp.Spec.Kubernetes.Versions }

func image(cp *cpT) *miT { return &cp.Spec.MachineImages[0] }

func addImageVersion(cp *cpT, v mivT) { image(cp).Versions = append(image(cp).Versions, v) }

func addKubernetes(cp *cpT, v evT) { *k8s(cp) = append(*k8s(cp), v) }

// setKubernetes replaces the second Kubernetes version (1.30.5) of a fixture.
func setKubernetes(v evT) func(testing.TB, *cpT) {
	return func(_ testing.TB, cp *cpT) { (*k8s(cp))[1] = v }
}

func lifecycle(stages ...gardencorev1beta1.LifecycleStage) []gardencorev1beta1.LifecycleStage {
	return stages
}

func createCases() []cpCase {
	none := func(testing.TB, *cpT) {}
	return []cpCase{
		// --- Fixtures and A rules: metadata.
		legacy("valid legacy profile", none),
		capable("I-1 valid capability profile (gate on)", none),
		legacy("A-1 name with dots", func(_ testing.TB, cp *cpT) { cp.Name += ".example.com" }),
		legacy("A-1 name with underscore", func(_ testing.TB, cp *cpT) { cp.Name = strings.ReplaceAll(cp.Name, "-", "_") }),
		legacy("A-1 name with upper-case letters", func(_ testing.TB, cp *cpT) { cp.Name = "Conf" + cp.Name }),
		legacy("A-1 invalid label key", func(_ testing.TB, cp *cpT) { cp.Labels = map[string]string{"bad key": "x"} }),
		legacy("A-1 invalid label value", func(_ testing.TB, cp *cpT) { cp.Labels = map[string]string{"team": "not a value!"} }),
		legacy("A-1 invalid annotation key", func(_ testing.TB, cp *cpT) { cp.Annotations = map[string]string{"bad key": "x"} }),
		legacy("A-1 valid labels and annotations", func(_ testing.TB, cp *cpT) {
			cp.Labels = map[string]string{"team": "a", "example.com/tier": "gold"}
			cp.Annotations = map[string]string{"example.com/note": "anything at all"}
		}),
		legacy("A-1 foreign extension label is replaced", func(_ testing.TB, cp *cpT) {
			cp.Labels = map[string]string{"provider.extensions.gardener.cloud/other": "true"}
		}),
		legacy("A-1 invalid extension label is removed before validation", func(_ testing.TB, cp *cpT) {
			cp.Labels = map[string]string{"provider.extensions.gardener.cloud/Not Valid": "true"}
		}),

		// --- B rules: top-level spec.
		legacy("B-1 empty type", func(_ testing.TB, cp *cpT) { cp.Spec.Type = "" }),
		legacy("B-1 type that is no label name", func(_ testing.TB, cp *cpT) { cp.Spec.Type = "Not Valid" }),
		legacy("B-1 any label-compatible type", func(_ testing.TB, cp *cpT) { cp.Spec.Type = "my-provider_2.x" }),
		legacy("B-2 caBundle that is no PEM", func(_ testing.TB, cp *cpT) { cp.Spec.CABundle = ptr("not a certificate") }),
		legacy("B-2 empty caBundle", func(_ testing.TB, cp *cpT) { cp.Spec.CABundle = ptr("") }),
		legacy("B-2 caBundle with a certificate", func(t testing.TB, cp *cpT) { cp.Spec.CABundle = ptr(certificatePEM(t, 0)) }),
		legacy("B-2 caBundle with two certificates", func(t testing.TB, cp *cpT) {
			cp.Spec.CABundle = ptr(certificatePEM(t, 0) + certificatePEM(t, 1))
		}),
		legacy("B-2 caBundle with garbage after the certificate", func(t testing.TB, cp *cpT) {
			cp.Spec.CABundle = ptr(certificatePEM(t, 0) + "garbage")
		}),
		legacy("B-2 caBundle with text before the certificate", func(t testing.TB, cp *cpT) {
			cp.Spec.CABundle = ptr("issued by us\n" + certificatePEM(t, 0))
		}),
		legacy("B-2 caBundle with a non-certificate PEM block", func(_ testing.TB, cp *cpT) {
			cp.Spec.CABundle = ptr("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n")
		}),
		legacy("B-2 caBundle with a corrupt certificate", func(_ testing.TB, cp *cpT) {
			cp.Spec.CABundle = ptr("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n")
		}),
		legacy("B-3 seedSelector with invalid label key", func(_ testing.TB, cp *cpT) {
			cp.Spec.SeedSelector = &gardencorev1beta1.SeedSelector{LabelSelector: metav1.LabelSelector{MatchLabels: map[string]string{"bad key": "x"}}}
		}),
		legacy("B-3 seedSelector with invalid operator", func(_ testing.TB, cp *cpT) {
			cp.Spec.SeedSelector = &gardencorev1beta1.SeedSelector{LabelSelector: metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
				{Key: "zone", Operator: "Near", Values: []string{"a"}},
			}}}
		}),
		legacy("B-3 seedSelector In without values", func(_ testing.TB, cp *cpT) {
			cp.Spec.SeedSelector = &gardencorev1beta1.SeedSelector{LabelSelector: metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
				{Key: "zone", Operator: metav1.LabelSelectorOpIn},
			}}}
		}),
		legacy("B-3 valid seedSelector with provider types", func(_ testing.TB, cp *cpT) {
			cp.Spec.SeedSelector = &gardencorev1beta1.SeedSelector{
				LabelSelector: metav1.LabelSelector{MatchLabels: map[string]string{"seed.gardener.cloud/eu": "true"}},
				ProviderTypes: []string{"*", "not validated at all"},
			}
		}),
		legacy("B-4 zero maxNodesTotal", func(_ testing.TB, cp *cpT) { cp.Spec.Limits = &gardencorev1beta1.Limits{MaxNodesTotal: ptr[int32](0)} }),
		legacy("B-4 negative maxNodesTotal", func(_ testing.TB, cp *cpT) {
			cp.Spec.Limits = &gardencorev1beta1.Limits{MaxNodesTotal: ptr[int32](-5)}
		}),
		legacy("B-4 positive maxNodesTotal", func(_ testing.TB, cp *cpT) {
			cp.Spec.Limits = &gardencorev1beta1.Limits{MaxNodesTotal: ptr[int32](100)}
		}),
		legacy("B-4 empty limits", func(_ testing.TB, cp *cpT) { cp.Spec.Limits = &gardencorev1beta1.Limits{} }),
		legacy("unvalidated fields", func(_ testing.TB, cp *cpT) {
			cp.Spec.ProviderConfig = &runtime.RawExtension{Raw: []byte(`{"apiVersion":"x/v1","kind":"Anything","deep":{"list":[1,2]}}`)}
			cp.Spec.Regions[0].AccessRestrictions = []gardencorev1beta1.AccessRestriction{{Name: "Any Thing!"}}
			cp.Spec.Regions[0].Zones[0].UnavailableMachineTypes = []string{"not a type"}
			cp.Spec.Regions[0].Zones[0].UnavailableVolumeTypes = []string{"not a volume"}
			cp.Spec.MachineTypes[0].Storage = &gardencorev1beta1.MachineTypeStorage{Class: "any class!", Type: "any type!", StorageSize: qp("20Gi")}
			cp.Spec.MachineTypes[0].Usable = ptr(false)
			cp.Spec.MachineTypes[0].MachineControllerManager = &gardencorev1beta1.CloudProfileMachineControllerManagerSettings{MachineCreationTimeout: &metav1.Duration{Duration: time.Minute}}
			cp.Spec.VolumeTypes[0].Usable = ptr(false)
		}),

		// --- C rules: Kubernetes versions.
		legacy("C-1 no Kubernetes versions", func(_ testing.TB, cp *cpT) { *k8s(cp) = nil }),
		legacy("C-2 version that is no semantic version", func(_ testing.TB, cp *cpT) { addKubernetes(cp, evT{Version: "a.b.c"}) }),
		legacy("C-3 latest version has expiration date", func(_ testing.TB, cp *cpT) { (*k8s(cp))[0].ExpirationDate = at(future) }),
		legacy("C-3 latest is the semantic maximum, not the first entry", func(_ testing.TB, cp *cpT) {
			(*k8s(cp))[0].ExpirationDate = at(future2)
			addKubernetes(cp, evT{Version: "1.32.0", Classification: cls(preview)})
		}),
		legacy("C-3 latest preview version has expiration date", func(_ testing.TB, cp *cpT) {
			addKubernetes(cp, evT{Version: "1.32.0", Classification: cls(preview), ExpirationDate: at(future)})
		}),
		legacy("C-3 latest version has expiration date and an unclassified twin minor", func(_ testing.TB, cp *cpT) {
			addKubernetes(cp, evT{Version: "1.31.10", ExpirationDate: at(future)})
		}),
		legacy("C-4 latest version lifecycle ends in expired", func(_ testing.TB, cp *cpT) {
			(*k8s(cp))[0] = evT{Version: "1.31.2", Lifecycle: lifecycle(stage(supported, at(past)), stage(expired, at(future)))}
		}),
		legacy("C-4 older version lifecycle may end in expired", setKubernetes(evT{Version: "1.30.5", Lifecycle: lifecycle(stage(deprecated, at(past)), stage(expired, at(future)))})),
		legacy("C-5 version with v prefix", func(_ testing.TB, cp *cpT) { addKubernetes(cp, evT{Version: "v1.29.0"}) }),
		legacy("C-5 version with pre-release", func(_ testing.TB, cp *cpT) { addKubernetes(cp, evT{Version: "1.29.0-rc.1"}) }),
		legacy("C-5 version with two components", func(_ testing.TB, cp *cpT) { addKubernetes(cp, evT{Version: "1.29"}) }),
		legacy("C-5 version with leading zeros", func(_ testing.TB, cp *cpT) { addKubernetes(cp, evT{Version: "01.29.00"}) }),
		duplicated(legacy("C-6 duplicate version", func(_ testing.TB, cp *cpT) { addKubernetes(cp, evT{Version: "1.30.5"}) })),
		legacy("C-6 leading zeros make no duplicate", func(_ testing.TB, cp *cpT) { addKubernetes(cp, evT{Version: "01.30.5"}) }),
		legacy("C-8 two supported versions in one minor", func(_ testing.TB, cp *cpT) {
			addKubernetes(cp, evT{Version: "1.31.1", Classification: cls(supported)})
		}),
		legacy("C-8 supported version with expiration date still conflicts", func(_ testing.TB, cp *cpT) {
			addKubernetes(cp, evT{Version: "1.31.1", Classification: cls(supported), ExpirationDate: at(future)})
		}),
		legacy("C-8 supported and deprecated in one minor", func(_ testing.TB, cp *cpT) {
			addKubernetes(cp, evT{Version: "1.31.1", Classification: cls(deprecated), ExpirationDate: at(future)})
		}),
		legacy("C-8 legacy supported against a lifecycle with a supported stage", func(_ testing.TB, cp *cpT) {
			addKubernetes(cp, evT{Version: "1.31.1", Lifecycle: lifecycle(stage(supported, at(past)), stage(deprecated, at(future)))})
		}),
		legacy("C-8 two lifecycle versions supported in one minor", func(_ testing.TB, cp *cpT) {
			(*k8s(cp))[0] = evT{Version: "1.31.2", Lifecycle: lifecycle(stage(supported, at(past)))}
			addKubernetes(cp, evT{Version: "1.31.1", Lifecycle: lifecycle(stage(supported, at(past)))})
		}),
		legacy("C-8 unclassified version does not conflict", func(_ testing.TB, cp *cpT) { addKubernetes(cp, evT{Version: "1.31.1"}) }),

		// --- D rules: expirable versions (on Kubernetes version 1.30.5).
		legacy("D-1 full lifecycle accepted with the gate on", setKubernetes(evT{Version: "1.30.5", Lifecycle: lifecycle(
			stage(preview, at(past)), stage(supported, at(past2)), stage(deprecated, at(future)), stage(expired, at(future2)))})),
		legacy("D-2 unknown classification", setKubernetes(evT{Version: "1.30.5", Classification: cls("beta")})),
		legacy("D-3 classification expired is dropped on create", setKubernetes(evT{Version: "1.30.5", Classification: cls(expired)})),
		legacy("D-4 classification together with lifecycle", setKubernetes(evT{Version: "1.30.5", Classification: cls(deprecated), Lifecycle: lifecycle(stage(supported, at(past)))})),
		legacy("D-4 expirationDate together with lifecycle", setKubernetes(evT{Version: "1.30.5", ExpirationDate: at(future), Lifecycle: lifecycle(stage(supported, at(past)))})),
		legacy("D-5 lifecycle stage unavailable", setKubernetes(evT{Version: "1.30.5", Lifecycle: lifecycle(stage(supported, nil), stage(unavailable, at(future)))})),
		legacy("D-6 repeated lifecycle classification", setKubernetes(evT{Version: "1.30.5", Lifecycle: lifecycle(stage(supported, at(past)), stage(supported, at(past2)))})),
		legacy("D-7 lifecycle stages out of order", setKubernetes(evT{Version: "1.30.5", Lifecycle: lifecycle(stage(deprecated, at(past)), stage(supported, at(past2)))})),
		legacy("D-8 later stage without start time", setKubernetes(evT{Version: "1.30.5", Lifecycle: lifecycle(stage(supported, at(past)), stage(deprecated, nil))})),
		legacy("D-8 first stage without start time", setKubernetes(evT{Version: "1.30.5", Lifecycle: lifecycle(stage(preview, nil), stage(supported, at(past)))})),
		legacy("D-9 decreasing start times", setKubernetes(evT{Version: "1.30.5", Lifecycle: lifecycle(stage(supported, at(past2)), stage(deprecated, at(past)))})),
		legacy("D-9 equal start times", setKubernetes(evT{Version: "1.30.5", Lifecycle: lifecycle(stage(supported, at(past)), stage(deprecated, at(past)))})),

		// --- Create-time dropping (W-dropped).
		legacy("expired Kubernetes version is dropped", func(_ testing.TB, cp *cpT) {
			addKubernetes(cp, evT{Version: "1.29.0", Classification: cls(deprecated), ExpirationDate: at(past)})
		}),
		legacy("unavailable Kubernetes version is dropped", func(_ testing.TB, cp *cpT) {
			addKubernetes(cp, evT{Version: "1.29.0", Lifecycle: lifecycle(stage(preview, at(future)))})
		}),
		legacy("Kubernetes version classified unavailable is dropped before D-2", setKubernetes(evT{Version: "1.30.5", Classification: cls(unavailable)})),
		legacy("all Kubernetes versions expired", func(_ testing.TB, cp *cpT) {
			for i := range *k8s(cp) {
				(*k8s(cp))[i].ExpirationDate = at(past)
			}
		}),
		legacy("expired latest version is dropped before C-3", func(_ testing.TB, cp *cpT) {
			addKubernetes(cp, evT{Version: "1.32.0", ExpirationDate: at(past)})
		}),
		legacy("dropping makes an expiring version the latest", func(_ testing.TB, cp *cpT) {
			(*k8s(cp))[0] = evT{Version: "1.31.2", Classification: cls(supported), ExpirationDate: at(past)}
			addKubernetes(cp, evT{Version: "1.30.6", Classification: cls(supported), ExpirationDate: at(future)})
		}),
		legacy("paths refer to the list after dropping", func(_ testing.TB, cp *cpT) {
			*k8s(cp) = append([]evT{{Version: "1.29.0", ExpirationDate: at(past)}}, append(*k8s(cp), evT{Version: "v1.28.0"})...)
		}),
		legacy("expired machine image version is dropped", func(_ testing.TB, cp *cpT) {
			addImageVersion(cp, mivT{ExpirableVersion: evT{Version: "1443.1.0", ExpirationDate: at(past)}})
		}),
		legacy("machine image left without versions", func(_ testing.TB, cp *cpT) {
			for i := range image(cp).Versions {
				image(cp).Versions[i].ExpirationDate = at(past)
			}
		}),
		legacy("unavailable machine image version is kept", func(_ testing.TB, cp *cpT) {
			addImageVersion(cp, mivT{ExpirableVersion: evT{Version: "1443.1.0", Lifecycle: lifecycle(stage(preview, at(future)))}})
		}),
		legacy("machine image version classified unavailable is kept and rejected", func(_ testing.TB, cp *cpT) {
			addImageVersion(cp, mivT{ExpirableVersion: evT{Version: "1443.1.0", Classification: cls(unavailable)}})
		}),
		legacy("image version paths refer to the list after dropping", func(_ testing.TB, cp *cpT) {
			image(cp).Versions = append([]mivT{{ExpirableVersion: evT{Version: "1000.0.0", ExpirationDate: at(past)}}},
				append(image(cp).Versions, mivT{ExpirableVersion: evT{Version: "1443.1.0"}, Architectures: []string{"s390x"}})...)
		}),

		// --- E rules: machine images.
		legacy("E-1 no machine images", func(_ testing.TB, cp *cpT) { cp.Spec.MachineImages = nil }),
		legacy("E-2 machine image version that is no semantic version", func(_ testing.TB, cp *cpT) {
			addImageVersion(cp, mivT{ExpirableVersion: evT{Version: "latest"}})
		}),
		duplicated(legacy("E-3 duplicate machine image name", func(_ testing.TB, cp *cpT) {
			cp.Spec.MachineImages = append(cp.Spec.MachineImages, miT{Name: "gardenlinux", Versions: []mivT{{ExpirableVersion: evT{Version: "1.0.0"}}}})
		})),
		legacy("E-4 empty machine image name", func(_ testing.TB, cp *cpT) {
			cp.Spec.MachineImages = append(cp.Spec.MachineImages, miT{Name: "", Versions: []mivT{{ExpirableVersion: evT{Version: "1.0.0"}}}})
		}),
		legacy("E-4 machine image name with slash", func(_ testing.TB, cp *cpT) { image(cp).Name = "garden/linux" }),
		legacy("E-4 machine image name with space", func(_ testing.TB, cp *cpT) { image(cp).Name = "garden linux" }),
		legacy("E-5 machine image without versions", func(_ testing.TB, cp *cpT) {
			cp.Spec.MachineImages = append(cp.Spec.MachineImages, miT{Name: "ubuntu"})
		}),
		legacy("E-6 unsupported update strategy", func(_ testing.TB, cp *cpT) { image(cp).UpdateStrategy = strategy("latest") }),
		legacy("E-6 update strategy patch", func(_ testing.TB, cp *cpT) {
			image(cp).UpdateStrategy = strategy(gardencorev1beta1.UpdateStrategyPatch)
		}),

		// --- F rules: machine image versions.
		legacy("F-1 version keys collide across images", func(_ testing.TB, cp *cpT) {
			cp.Spec.MachineImages = append(cp.Spec.MachineImages,
				miT{Name: "x", Versions: []mivT{{ExpirableVersion: evT{Version: "1.0.0-1.0.0"}}}},
				miT{Name: "x-1.0.0", Versions: []mivT{{ExpirableVersion: evT{Version: "1.0.0"}}}})
		}),
		duplicated(legacy("F-1 duplicate version in one image", func(_ testing.TB, cp *cpT) {
			addImageVersion(cp, mivT{ExpirableVersion: evT{Version: "1592.9.0"}})
		})),
		legacy("F-2 empty machine image version", func(_ testing.TB, cp *cpT) { addImageVersion(cp, mivT{ExpirableVersion: evT{Version: ""}}) }),
		legacy("F-3 loose semantic versions accepted", func(_ testing.TB, cp *cpT) {
			addImageVersion(cp, mivT{ExpirableVersion: evT{Version: "v1"}})
			addImageVersion(cp, mivT{ExpirableVersion: evT{Version: "1.2"}})
			addImageVersion(cp, mivT{ExpirableVersion: evT{Version: "1.2.3-rc.1+build.7"}})
		}),
		legacy("F-3 numeric pre-release with leading zero", func(_ testing.TB, cp *cpT) {
			addImageVersion(cp, mivT{ExpirableVersion: evT{Version: "1.2.3-01"}})
		}),
		legacy("F-4 minVersionForUpdate that is no semantic version", func(_ testing.TB, cp *cpT) {
			image(cp).Versions[0].InPlaceUpdates = &gardencorev1beta1.InPlaceUpdates{Supported: true, MinVersionForUpdate: ptr("previous")}
		}),
		legacy("F-4 valid in-place updates", func(_ testing.TB, cp *cpT) {
			image(cp).Versions[0].InPlaceUpdates = &gardencorev1beta1.InPlaceUpdates{Supported: true, MinVersionForUpdate: ptr("1592.9.0")}
		}),
		legacy("F-5 kubeletVersionConstraint with ==", func(_ testing.TB, cp *cpT) { image(cp).Versions[0].KubeletVersionConstraint = ptr("==1.30.0") }),
		legacy("F-5 empty kubeletVersionConstraint", func(_ testing.TB, cp *cpT) { image(cp).Versions[0].KubeletVersionConstraint = ptr("") }),
		legacy("F-5 valid kubeletVersionConstraint range", func(_ testing.TB, cp *cpT) {
			image(cp).Versions[0].KubeletVersionConstraint = ptr(">= 1.26, < 1.32")
		}),
		legacy("F-6 unknown architecture", func(_ testing.TB, cp *cpT) { image(cp).Versions[0].Architectures = []string{"amd64", "s390x"} }),
		capable("F-6 version without flavors under two architectures", func(_ testing.TB, cp *cpT) { image(cp).Versions[1].CapabilityFlavors = nil }),
		capable("F-6 flavor without architecture", func(_ testing.TB, cp *cpT) {
			image(cp).Versions[1].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor(map[string][]string{"network": {"standard"}})}
		}),
		capable("F-6 flavor with two architectures", func(_ testing.TB, cp *cpT) {
			image(cp).Versions[1].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor(map[string][]string{"architecture": {"amd64", "arm64"}})}
		}),
		capable("F-6 architectures not covered by flavors", func(_ testing.TB, cp *cpT) { image(cp).Versions[1].Architectures = []string{"amd64", "arm64"} }),
		capable("F-6 architectures that are a subset of the flavors", func(_ testing.TB, cp *cpT) { image(cp).Versions[0].Architectures = []string{"arm64"} }),
		capable("F-6 architecture outside the definition", func(_ testing.TB, cp *cpT) { image(cp).Versions[1].Architectures = []string{"s390x"} }),
		capable("F-6 unknown capability in a flavor", func(_ testing.TB, cp *cpT) {
			image(cp).Versions[1].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor(map[string][]string{"architecture": {"amd64"}, "gpu": {"nvidia"}})}
		}),
		capable("F-6 unknown capability value in a flavor", func(_ testing.TB, cp *cpT) {
			image(cp).Versions[1].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor(map[string][]string{"architecture": {"amd64"}, "network": {"turbo"}})}
		}),
		capable("F-6 single architecture definition needs no flavors", func(_ testing.TB, cp *cpT) {
			cp.Spec.MachineCapabilities[0].Values = []string{"amd64"}
			for i := range image(cp).Versions {
				image(cp).Versions[i].CapabilityFlavors = nil
			}
			cp.Spec.MachineTypes = cp.Spec.MachineTypes[:1]
		}),
		legacy("F-7 missing CRI is defaulted", func(_ testing.TB, cp *cpT) { image(cp).Versions[0].CRI = nil }),
		legacy("F-7 duplicate CRI", func(_ testing.TB, cp *cpT) {
			image(cp).Versions[0].CRI = []gardencorev1beta1.CRI{{Name: "containerd"}, {Name: "containerd"}}
		}),
		legacy("F-7 unsupported CRI", func(_ testing.TB, cp *cpT) { image(cp).Versions[0].CRI = []gardencorev1beta1.CRI{{Name: "docker"}} }),
		legacy("F-7 invalid container runtime type", func(_ testing.TB, cp *cpT) {
			image(cp).Versions[0].CRI = []gardencorev1beta1.CRI{{Name: "containerd", ContainerRuntimes: []gardencorev1beta1.ContainerRuntime{{Type: "gvisor/v2"}}}}
		}),
		legacy("F-7 duplicate container runtime type", func(_ testing.TB, cp *cpT) {
			image(cp).Versions[0].CRI = []gardencorev1beta1.CRI{{Name: "containerd", ContainerRuntimes: []gardencorev1beta1.ContainerRuntime{{Type: "gvisor"}, {Type: "gvisor"}}}}
		}),
		legacy("F-7 valid container runtimes", func(_ testing.TB, cp *cpT) {
			image(cp).Versions[0].CRI = []gardencorev1beta1.CRI{{Name: "containerd", ContainerRuntimes: []gardencorev1beta1.ContainerRuntime{
				{Type: "gvisor", ProviderConfig: &runtime.RawExtension{Raw: []byte(`{"any":"thing"}`)}}, {Type: "kata"},
			}}}
		}),
		legacy("F-8 two supported image versions in one minor", func(_ testing.TB, cp *cpT) {
			addImageVersion(cp, mivT{ExpirableVersion: evT{Version: "1877.3.1", Classification: cls(supported)}})
		}),
		legacy("F-8 supported pre-release in the same minor", func(_ testing.TB, cp *cpT) {
			addImageVersion(cp, mivT{ExpirableVersion: evT{Version: "1877.3.0-inplace", Classification: cls(supported)}})
		}),
		legacy("F-8 same minor in different images", func(_ testing.TB, cp *cpT) {
			cp.Spec.MachineImages = append(cp.Spec.MachineImages, miT{Name: "ubuntu", Versions: []mivT{{ExpirableVersion: evT{Version: "1877.3.1", Classification: cls(supported)}}}})
		}),
		legacy("D-4 image version with lifecycle and classification", func(_ testing.TB, cp *cpT) {
			addImageVersion(cp, mivT{ExpirableVersion: evT{Version: "1443.1.0", Classification: cls(preview), Lifecycle: lifecycle(stage(preview, at(past)))}})
		}),
		legacy("D-7 image version lifecycle out of order", func(_ testing.TB, cp *cpT) {
			addImageVersion(cp, mivT{ExpirableVersion: evT{Version: "1443.1.0", Lifecycle: lifecycle(stage(deprecated, at(past)), stage(preview, at(past2)))}})
		}),
		legacy("D-8 image version stage without start time", func(_ testing.TB, cp *cpT) {
			addImageVersion(cp, mivT{ExpirableVersion: evT{Version: "1443.1.0", Lifecycle: lifecycle(stage(preview, at(past)), stage(supported, nil))}})
		}),
		legacy("D-3 classification expired image version is dropped on create", func(_ testing.TB, cp *cpT) {
			addImageVersion(cp, mivT{ExpirableVersion: evT{Version: "1443.1.0", Classification: cls(expired)}})
		}),
		legacy("F-10 capabilityFlavors without definitions", func(_ testing.TB, cp *cpT) {
			image(cp).Versions[1].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{archFlavor("amd64")}
		}),

		// --- G rules: machine types.
		legacy("G-1 no machine types", func(_ testing.TB, cp *cpT) { cp.Spec.MachineTypes = nil }),
		legacy("G-2 empty machine type name", func(_ testing.TB, cp *cpT) {
			cp.Spec.MachineTypes = append(cp.Spec.MachineTypes, mtT{Name: "", CPU: q("1"), GPU: q("0"), Memory: q("1Gi")})
		}),
		legacy("G-2 machine type name with slash", func(_ testing.TB, cp *cpT) { cp.Spec.MachineTypes[0].Name = "m5/large" }),
		duplicated(legacy("G-3 duplicate machine type skips its other checks", func(_ testing.TB, cp *cpT) {
			cp.Spec.MachineTypes = append(cp.Spec.MachineTypes, mtT{Name: "m5.large", CPU: q("-1"), GPU: q("0"), Memory: q("1Gi")})
		})),
		legacy("G-4 negative cpu", func(_ testing.TB, cp *cpT) { cp.Spec.MachineTypes[0].CPU = q("-1") }),
		legacy("G-4 negative gpu and memory", func(_ testing.TB, cp *cpT) {
			cp.Spec.MachineTypes[0].GPU = q("-1")
			cp.Spec.MachineTypes[0].Memory = q("-1Gi")
		}),
		legacy("G-4 fractional cpu and zero memory", func(_ testing.TB, cp *cpT) {
			cp.Spec.MachineTypes[0].CPU = q("500m")
			cp.Spec.MachineTypes[0].Memory = q("0")
		}),
		legacy("G-5 unknown architecture", func(_ testing.TB, cp *cpT) { cp.Spec.MachineTypes[0].Architecture = ptr("s390x") }),
		capable("G-5 two architecture capabilities", func(_ testing.TB, cp *cpT) {
			cp.Spec.MachineTypes[0].Capabilities = caps("architecture", "amd64", "architecture", "arm64")
		}),
		capable("G-5 architecture conflicts with capability", func(_ testing.TB, cp *cpT) { cp.Spec.MachineTypes[0].Architecture = ptr("arm64") }),
		capable("G-5 architecture outside the global list", func(_ testing.TB, cp *cpT) { cp.Spec.MachineTypes[0].Architecture = ptr("s390x") }),
		capable("G-5 unknown capability", func(_ testing.TB, cp *cpT) {
			cp.Spec.MachineTypes[0].Capabilities = caps("architecture", "amd64", "gpu", "x")
		}),
		capable("G-5 unknown capability value", func(_ testing.TB, cp *cpT) {
			cp.Spec.MachineTypes[0].Capabilities = caps("architecture", "amd64", "network", "turbo")
		}),
		capable("G-5 machine type without architecture capability", func(_ testing.TB, cp *cpT) { cp.Spec.MachineTypes[0].Capabilities = nil }),
		legacy("G-6 storage without size", func(_ testing.TB, cp *cpT) {
			cp.Spec.MachineTypes[0].Storage = &gardencorev1beta1.MachineTypeStorage{Class: "standard", Type: "gp3"}
		}),
		legacy("G-6 storage with size and minSize", func(_ testing.TB, cp *cpT) {
			cp.Spec.MachineTypes[0].Storage = &gardencorev1beta1.MachineTypeStorage{Class: "standard", Type: "gp3", StorageSize: qp("20Gi"), MinSize: qp("10Gi")}
		}),
		legacy("G-6 negative storage size", func(_ testing.TB, cp *cpT) {
			cp.Spec.MachineTypes[0].Storage = &gardencorev1beta1.MachineTypeStorage{Class: "standard", Type: "gp3", StorageSize: qp("-20Gi")}
		}),
		legacy("G-6 negative storage minSize", func(_ testing.TB, cp *cpT) {
			cp.Spec.MachineTypes[0].Storage = &gardencorev1beta1.MachineTypeStorage{Class: "standard", Type: "gp3", MinSize: qp("-1")}
		}),
		legacy("G-6 storage with minSize", func(_ testing.TB, cp *cpT) {
			cp.Spec.MachineTypes[0].Storage = &gardencorev1beta1.MachineTypeStorage{Class: "standard", Type: "gp3", MinSize: qp("10Gi")}
		}),
		legacy("G-7 capabilities without definitions", func(_ testing.TB, cp *cpT) { cp.Spec.MachineTypes[0].Capabilities = caps("architecture", "amd64") }),
		legacy("G-7 empty architecture", func(_ testing.TB, cp *cpT) { cp.Spec.MachineTypes[0].Architecture = ptr("") }),

		// --- H rules: volume types.
		legacy("H-1 empty volume type name", func(_ testing.TB, cp *cpT) {
			cp.Spec.VolumeTypes = append(cp.Spec.VolumeTypes, vtT{Name: "", Class: "premium"})
		}),
		legacy("H-1 volume type name with space", func(_ testing.TB, cp *cpT) { cp.Spec.VolumeTypes[0].Name = "gp 3" }),
		duplicated(legacy("H-2 duplicate volume type stops the list's validation", func(_ testing.TB, cp *cpT) {
			cp.Spec.VolumeTypes = append(cp.Spec.VolumeTypes, vtT{Name: "gp3", Class: "standard"}, vtT{Name: "io2", Class: ""})
		})),
		legacy("H-3 empty volume type class", func(_ testing.TB, cp *cpT) { cp.Spec.VolumeTypes[0].Class = "" }),
		legacy("H-3 volume type class with slash", func(_ testing.TB, cp *cpT) { cp.Spec.VolumeTypes[0].Class = "premium/ssd" }),
		legacy("H-4 negative volume minSize", func(_ testing.TB, cp *cpT) { cp.Spec.VolumeTypes[0].MinSize = qp("-1Gi") }),
		legacy("H-4 volume minSize", func(_ testing.TB, cp *cpT) { cp.Spec.VolumeTypes[0].MinSize = qp("20Gi") }),

		// --- I rules: capability definitions.
		capable("I-2 duplicate capability name", func(_ testing.TB, cp *cpT) {
			cp.Spec.MachineCapabilities = append(cp.Spec.MachineCapabilities, gardencorev1beta1.CapabilityDefinition{Name: "network", Values: []string{"standard", "accelerated"}})
		}),
		capable("I-3 reserved gardener- prefix", func(_ testing.TB, cp *cpT) {
			cp.Spec.MachineCapabilities = append(cp.Spec.MachineCapabilities, gardencorev1beta1.CapabilityDefinition{Name: "gardener-feature", Values: []string{"on"}})
		}),
		capable("I-4 no architecture capability", func(_ testing.TB, cp *cpT) {
			cp.Spec.MachineCapabilities = cp.Spec.MachineCapabilities[1:]
			for i := range image(cp).Versions {
				image(cp).Versions[i].CapabilityFlavors = nil
			}
			for i := range cp.Spec.MachineTypes {
				cp.Spec.MachineTypes[i].Capabilities = nil
			}
		}),
		capable("I-4 unsupported architecture value", func(_ testing.TB, cp *cpT) {
			cp.Spec.MachineCapabilities[0].Values = append(cp.Spec.MachineCapabilities[0].Values, "s390x")
		}),
		capable("I-5 capability without values", func(_ testing.TB, cp *cpT) {
			cp.Spec.MachineCapabilities = append(cp.Spec.MachineCapabilities, gardencorev1beta1.CapabilityDefinition{Name: "storage"})
		}),
		capable("I-5 invalid capability name", func(_ testing.TB, cp *cpT) {
			cp.Spec.MachineCapabilities = append(cp.Spec.MachineCapabilities, gardencorev1beta1.CapabilityDefinition{Name: "bad name", Values: []string{"x"}})
		}),
		capable("I-5 invalid capability value", func(_ testing.TB, cp *cpT) {
			cp.Spec.MachineCapabilities = append(cp.Spec.MachineCapabilities, gardencorev1beta1.CapabilityDefinition{Name: "storage", Values: []string{"ssd", "bad value"}})
		}),
		capable("I-5 empty capability value", func(_ testing.TB, cp *cpT) {
			cp.Spec.MachineCapabilities = append(cp.Spec.MachineCapabilities, gardencorev1beta1.CapabilityDefinition{Name: "storage", Values: []string{""}})
		}),
		capable("repeated capability values accepted", func(_ testing.TB, cp *cpT) {
			cp.Spec.MachineCapabilities = append(cp.Spec.MachineCapabilities, gardencorev1beta1.CapabilityDefinition{Name: "storage", Values: []string{"ssd", "ssd"}})
		}),

		// --- J rules: regions and bastion.
		legacy("J-1 no regions", func(_ testing.TB, cp *cpT) { cp.Spec.Regions = nil }),
		legacy("J-2 empty region name", func(_ testing.TB, cp *cpT) {
			cp.Spec.Regions = append(cp.Spec.Regions, gardencorev1beta1.Region{Name: ""})
		}),
		duplicated(legacy("J-2 duplicate region", func(_ testing.TB, cp *cpT) {
			cp.Spec.Regions = append(cp.Spec.Regions, gardencorev1beta1.Region{Name: "eu-1"})
		})),
		legacy("J-2 region names are free text", func(_ testing.TB, cp *cpT) {
			cp.Spec.Regions = append(cp.Spec.Regions, gardencorev1beta1.Region{Name: "Region With Spaces/x", Zones: []gardencorev1beta1.AvailabilityZone{{Name: "Zone A!"}}})
		}),
		legacy("J-3 empty zone name", func(_ testing.TB, cp *cpT) {
			cp.Spec.Regions[0].Zones = append(cp.Spec.Regions[0].Zones, gardencorev1beta1.AvailabilityZone{Name: ""})
		}),
		duplicated(legacy("J-3 duplicate zone", func(_ testing.TB, cp *cpT) {
			cp.Spec.Regions[0].Zones = append(cp.Spec.Regions[0].Zones, gardencorev1beta1.AvailabilityZone{Name: "eu-1a"})
		})),
		legacy("J-3 same zone name in two regions", func(_ testing.TB, cp *cpT) {
			cp.Spec.Regions = append(cp.Spec.Regions, gardencorev1beta1.Region{Name: "eu-2", Zones: []gardencorev1beta1.AvailabilityZone{{Name: "eu-1a"}}})
		}),
		legacy("J-4 invalid region label key", func(_ testing.TB, cp *cpT) { cp.Spec.Regions[0].Labels = map[string]string{"bad key": "x"} }),
		legacy("J-4 invalid region label value", func(_ testing.TB, cp *cpT) {
			cp.Spec.Regions[0].Labels = map[string]string{"topology.example.com/tier": "bad value!"}
		}),
		legacy("J-4 valid region labels", func(_ testing.TB, cp *cpT) {
			cp.Spec.Regions[0].Labels = map[string]string{"topology.example.com/tier": "gold", "plain": ""}
		}),
		legacy("J-5 empty bastion", func(_ testing.TB, cp *cpT) { cp.Spec.Bastion = &gardencorev1beta1.Bastion{} }),
		legacy("J-5 unknown bastion machine type", func(_ testing.TB, cp *cpT) {
			cp.Spec.Bastion = &gardencorev1beta1.Bastion{MachineType: &gardencorev1beta1.BastionMachineType{Name: "c5.huge"}}
		}),
		legacy("J-5 known bastion machine type", func(_ testing.TB, cp *cpT) {
			cp.Spec.Bastion = &gardencorev1beta1.Bastion{MachineType: &gardencorev1beta1.BastionMachineType{Name: "m5.large"}}
		}),
		legacy("J-5 unknown bastion image", func(_ testing.TB, cp *cpT) {
			cp.Spec.Bastion = &gardencorev1beta1.Bastion{MachineImage: &gardencorev1beta1.BastionMachineImage{Name: "ubuntu"}}
		}),
		legacy("J-5 unknown bastion image version", func(_ testing.TB, cp *cpT) {
			cp.Spec.Bastion = &gardencorev1beta1.Bastion{MachineImage: &gardencorev1beta1.BastionMachineImage{Name: "gardenlinux", Version: ptr("1.0.0")}}
		}),
		legacy("J-5 bastion image with a supported version", func(_ testing.TB, cp *cpT) {
			cp.Spec.Bastion = &gardencorev1beta1.Bastion{MachineImage: &gardencorev1beta1.BastionMachineImage{Name: "gardenlinux"}}
		}),
		legacy("J-5 bastion image version deprecated", func(_ testing.TB, cp *cpT) {
			cp.Spec.Bastion = &gardencorev1beta1.Bastion{MachineImage: &gardencorev1beta1.BastionMachineImage{Name: "gardenlinux", Version: ptr("1592.9.0")}}
		}),
		legacy("J-5 bastion image without classification", func(_ testing.TB, cp *cpT) {
			cp.Spec.MachineImages = append(cp.Spec.MachineImages, miT{Name: "ubuntu", Versions: []mivT{{ExpirableVersion: evT{Version: "22.4.1"}}}})
			cp.Spec.Bastion = &gardencorev1beta1.Bastion{MachineImage: &gardencorev1beta1.BastionMachineImage{Name: "ubuntu"}}
		}),
		legacy("J-5 bastion image supported only by lifecycle", func(_ testing.TB, cp *cpT) {
			cp.Spec.MachineImages = append(cp.Spec.MachineImages, miT{Name: "ubuntu", Versions: []mivT{{ExpirableVersion: evT{Version: "22.4.1", Lifecycle: lifecycle(stage(supported, at(past)))}}}})
			cp.Spec.Bastion = &gardencorev1beta1.Bastion{MachineImage: &gardencorev1beta1.BastionMachineImage{Name: "ubuntu", Version: ptr("22.4.1")}}
		}),
		legacy("J-5 bastion architecture mismatch", func(_ testing.TB, cp *cpT) {
			cp.Spec.MachineImages = append(cp.Spec.MachineImages, miT{Name: "ubuntu", Versions: []mivT{{ExpirableVersion: evT{Version: "22.4.1", Classification: cls(supported)}, Architectures: []string{"amd64"}}}})
			cp.Spec.Bastion = &gardencorev1beta1.Bastion{
				MachineType:  &gardencorev1beta1.BastionMachineType{Name: "m6g.large"},
				MachineImage: &gardencorev1beta1.BastionMachineImage{Name: "ubuntu"},
			}
		}),
		legacy("J-5 bastion architecture match", func(_ testing.TB, cp *cpT) {
			cp.Spec.Bastion = &gardencorev1beta1.Bastion{
				MachineType:  &gardencorev1beta1.BastionMachineType{Name: "m6g.large"},
				MachineImage: &gardencorev1beta1.BastionMachineImage{Name: "gardenlinux", Version: ptr("1877.3.0")},
			}
		}),
		capable("J-5 bastion architecture falls back to the capability definition", func(_ testing.TB, cp *cpT) {
			image(cp).Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{archFlavor("amd64")}
			cp.Spec.Bastion = &gardencorev1beta1.Bastion{
				MachineType:  &gardencorev1beta1.BastionMachineType{Name: "m6g.large"},
				MachineImage: &gardencorev1beta1.BastionMachineImage{Name: "gardenlinux"},
			}
		}),
	}
}

// TestDifferential_CloudProfileCreate compares, for each case, the package's verdict on creating a
// CloudProfile (ValidateCloudProfileRequest with old == nil) with gardener-apiserver's answer to a
// dry-run of the same object.
func TestDifferential_CloudProfileCreate(t *testing.T) {
	s := newServer(t)
	ctx := testContext(t)
	prefix := acctest.UniqueName("conf-create")
	cases := createCases()
	if len(cases) < 100 {
		t.Fatalf("only %d cases", len(cases))
	}
	seen := map[string]bool{}
	for i, c := range cases {
		if seen[c.name] {
			t.Fatalf("case name %q repeats", c.name)
		}
		seen[c.name] = true
		t.Run(c.name, func(t *testing.T) {
			cp := c.base(fmt.Sprintf("%s-%d", prefix, i))
			c.mutate(t, cp)
			opts := cloudprofile.OptionsWithAllGates(time.Now())
			pkg := cloudprofile.ValidateCloudProfileRequest(cp.DeepCopy(), nil, opts)
			v := s.dryRunCloudProfile(t, ctx, cp, c.post)
			if c.post {
				expectApplyRejectsDuplicates(t, s.dryRunCloudProfile(t, ctx, cp, false))
			}
			t.Logf("server %s; package: %d errors", v.summary(), len(pkg.Errors()))
			report(t, compareFieldErrors(pkg, v), pkg, v)
			if stored, _ := cloudprofile.StoredCloudProfile(cp.DeepCopy(), nil, opts); stored != nil {
				expectStoredAsPredicted(t, v, stored.Spec)
			}
		})
	}
}
