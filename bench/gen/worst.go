package gen

import (
	"fmt"
	"strings"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The worst cases of validation cost: profiles whose keyed collections hold n entries, one
// collection at a time and all at once, valid or with an error in every entry. The provider must
// validate each in time and memory linear in n (the bench's budgets are for n = WorstCaseEntries,
// more than etcd stores of any collection).

// WorstCaseEntries is the number of entries per collection of make bench's worst cases: what
// the flood tests use, above the about 8,000 entries per collection that fit into etcd.
const WorstCaseEntries = 10000

// WorstCase is one configuration of the worst cases: CloudProfiles and NamespacedCloudProfiles
// (whose parents are among the CloudProfiles) to validate together.
type WorstCase struct {
	// Name says which collections are large and how, e.g. "kubernetes/supported-one-minor".
	Name string
	// Valid tells that the rules find no error in the profiles (with every feature gate on; a
	// profile may still be too large for the Garden); the other cases have an error in each of
	// their large collections' entries.
	Valid      bool
	Profiles   []*gardencorev1beta1.CloudProfile
	Namespaced []*gardencorev1beta1.NamespacedCloudProfile
}

// Entries is the number of entries of the case's collections: of every keyed collection, list
// and map in its profiles (machine images, their versions, regions, zones, lifecycles, ...).
func (c WorstCase) Entries() int {
	n := 0
	for _, cp := range c.Profiles {
		n += specEntries(cp.Spec.Kubernetes.Versions, cp.Spec.MachineImages, len(cp.Spec.MachineTypes), len(cp.Spec.VolumeTypes), len(cp.Spec.MachineCapabilities))
		for _, d := range cp.Spec.MachineCapabilities {
			n += len(d.Values)
		}
		for _, r := range cp.Spec.Regions {
			n += 1 + len(r.Zones) + len(r.Labels)
			for _, z := range r.Zones {
				n += len(z.UnavailableMachineTypes) + len(z.UnavailableVolumeTypes)
			}
		}
	}
	for _, ncp := range c.Namespaced {
		var versions []gardencorev1beta1.ExpirableVersion
		if ncp.Spec.Kubernetes != nil {
			versions = ncp.Spec.Kubernetes.Versions
		}
		n += specEntries(versions, ncp.Spec.MachineImages, len(ncp.Spec.MachineTypes), len(ncp.Spec.VolumeTypes), 0)
	}
	return n
}

func specEntries(versions []gardencorev1beta1.ExpirableVersion, images []gardencorev1beta1.MachineImage, others ...int) int {
	n := len(versions) + len(images)
	for _, v := range versions {
		n += len(v.Lifecycle)
	}
	for _, image := range images {
		n += len(image.Versions)
		for _, v := range image.Versions {
			n += len(v.Lifecycle)
		}
	}
	for _, o := range others {
		n += o
	}
	return n
}

// WorstCases returns the worst cases with n entries per large collection.
func WorstCases(n int) []WorstCase {
	one := func(name string, shape func(cp *gardencorev1beta1.CloudProfile)) WorstCase {
		cp := smallProfile("worst")
		shape(cp)
		cp.Spec.ProviderConfig = localProviderConfigOf(cp.Spec.MachineImages, cp.Spec.MachineCapabilities)
		return WorstCase{Name: name, Valid: validCases[name], Profiles: []*gardencorev1beta1.CloudProfile{cp}}
	}
	cases := []WorstCase{
		one("kubernetes/valid", func(cp *gardencorev1beta1.CloudProfile) { cp.Spec.Kubernetes.Versions = validVersions(n) }),
		one("kubernetes/lifecycles", func(cp *gardencorev1beta1.CloudProfile) { cp.Spec.Kubernetes.Versions = lifecycleVersions(n) }),
		one("kubernetes/supported-one-minor", func(cp *gardencorev1beta1.CloudProfile) { cp.Spec.Kubernetes.Versions = supportedOneMinor(n) }),
		one("kubernetes/supported-one-minor-with-lifecycles", func(cp *gardencorev1beta1.CloudProfile) {
			cp.Spec.Kubernetes.Versions = supportedOneMinorWithLifecycles(n)
		}),
		one("kubernetes/same-version", func(cp *gardencorev1beta1.CloudProfile) { cp.Spec.Kubernetes.Versions = sameVersion(n) }),
		one("kubernetes/bad-keys", func(cp *gardencorev1beta1.CloudProfile) { cp.Spec.Kubernetes.Versions = badVersions(n) }),
		one("kubernetes/expired", func(cp *gardencorev1beta1.CloudProfile) { cp.Spec.Kubernetes.Versions = expiredVersions(n) }),
		one("kubernetes/lifecycle-stages", func(cp *gardencorev1beta1.CloudProfile) {
			cp.Spec.Kubernetes.Versions = []gardencorev1beta1.ExpirableVersion{{Version: "1.30.0", Lifecycle: manyStages(n)}}
		}),
		one("machine-images/valid", func(cp *gardencorev1beta1.CloudProfile) { cp.Spec.MachineImages = manyImages(n) }),
		one("machine-images/bad-names", func(cp *gardencorev1beta1.CloudProfile) { cp.Spec.MachineImages = badImages(n) }),
		one("image-versions/valid", func(cp *gardencorev1beta1.CloudProfile) { cp.Spec.MachineImages = oneImage(validVersions(n)) }),
		one("image-versions/supported-one-minor", func(cp *gardencorev1beta1.CloudProfile) {
			cp.Spec.MachineImages = oneImage(supportedOneMinor(n))
		}),
		one("image-versions/same-version", func(cp *gardencorev1beta1.CloudProfile) { cp.Spec.MachineImages = oneImage(sameVersion(n)) }),
		one("image-versions/bad-keys", func(cp *gardencorev1beta1.CloudProfile) { cp.Spec.MachineImages = oneImage(badVersions(n)) }),
		one("image-versions/expired", func(cp *gardencorev1beta1.CloudProfile) { cp.Spec.MachineImages = oneImage(expiredVersions(n)) }),
		one("machine-types/valid", func(cp *gardencorev1beta1.CloudProfile) { cp.Spec.MachineTypes = machineTypes(n, "m%d.large", "2") }),
		one("machine-types/bad", func(cp *gardencorev1beta1.CloudProfile) { cp.Spec.MachineTypes = machineTypes(n, "bad/%d", "-1") }),
		one("machine-types/capabilities", func(cp *gardencorev1beta1.CloudProfile) { withCapabilities(cp, n) }),
		one("machine-types/undefined-capabilities", func(cp *gardencorev1beta1.CloudProfile) {
			withCapabilities(cp, n)
			for i := range cp.Spec.MachineTypes {
				cp.Spec.MachineTypes[i].Capabilities["gpu-model"] = []string{fmt.Sprintf("undefined-%d", i)}
			}
		}),
		one("volume-types/valid", func(cp *gardencorev1beta1.CloudProfile) { cp.Spec.VolumeTypes = volumeTypes(n, "vol-%d", "standard") }),
		one("volume-types/bad", func(cp *gardencorev1beta1.CloudProfile) { cp.Spec.VolumeTypes = volumeTypes(n, "bad/%d", "bad/class") }),
		one("regions/valid", func(cp *gardencorev1beta1.CloudProfile) { cp.Spec.Regions = regions(n, 1, "") }),
		one("regions/bad-labels", func(cp *gardencorev1beta1.CloudProfile) { cp.Spec.Regions = regions(n, 1, "bad label %d") }),
		one("zones/valid", func(cp *gardencorev1beta1.CloudProfile) { cp.Spec.Regions = regions(1, n, "") }),
		one("zones/unavailable-types", func(cp *gardencorev1beta1.CloudProfile) { unavailableTypes(cp, n) }),
		namespacedOverrides(n),
		namespacedBad(n),
		one("all/valid", func(cp *gardencorev1beta1.CloudProfile) {
			cp.Spec.Kubernetes.Versions = validVersions(n)
			cp.Spec.MachineImages = append(manyImages(n), oneImage(validVersions(n))...)
			cp.Spec.MachineTypes = machineTypes(n, "m%d.large", "2")
			cp.Spec.VolumeTypes = volumeTypes(n, "vol-%d", "standard")
			cp.Spec.Regions = append(regions(n, 1, ""), regions(1, n, "")[0])
			cp.Spec.Regions[len(cp.Spec.Regions)-1].Name = "zones"
		}),
		one("all/errors", func(cp *gardencorev1beta1.CloudProfile) {
			cp.Spec.Kubernetes.Versions = supportedOneMinor(n)
			cp.Spec.MachineImages = append(badImages(n), oneImage(supportedOneMinor(n))...)
			cp.Spec.MachineTypes = machineTypes(n, "bad/%d", "-1")
			cp.Spec.VolumeTypes = volumeTypes(n, "bad/%d", "bad/class")
			cp.Spec.Regions = regions(n, 1, "bad label %d")
		}),
	}
	return cases
}

// validCases are the names of the worst cases whose profiles Gardener accepts.
var validCases = map[string]bool{
	"kubernetes/valid": true, "kubernetes/lifecycles": true, "machine-images/valid": true, "image-versions/valid": true,
	"machine-types/valid": true, "machine-types/capabilities": true, "volume-types/valid": true, "regions/valid": true,
	"zones/valid": true, "zones/unavailable-types": true, "namespaced/overrides": true, "all/valid": true,
	// Spellings of one version with leading zeros are distinct versions to Gardener (C-6 compares
	// the strings, C-8 skips an equal semantic version as itself): valid, and costly to compare.
	"kubernetes/same-version": true, "image-versions/same-version": true,
}

// ManyEntries is a valid CloudProfile named name with the given numbers of Kubernetes versions,
// versions of one machine image and machine types, whose image versions leave out the container
// runtimes and architectures that Gardener fills in: a profile larger in the Garden than its
// configuration.
func ManyEntries(name string, versions, imageVersions, types int) *gardencorev1beta1.CloudProfile {
	cp := smallProfile(name)
	cp.Spec.Kubernetes.Versions = validVersions(versions)
	cp.Spec.MachineImages = oneImage(validVersions(imageVersions))
	for i := range cp.Spec.MachineImages[0].Versions {
		cp.Spec.MachineImages[0].Versions[i].CRI, cp.Spec.MachineImages[0].Versions[i].Architectures = nil, nil
	}
	cp.Spec.MachineTypes = machineTypes(types, "m%d.large", "2")
	cp.Spec.ProviderConfig = localProviderConfig(cp.Spec.MachineImages)
	return cp
}

// smallProfile is a valid CloudProfile of type local with one entry in each collection.
func smallProfile(name string) *gardencorev1beta1.CloudProfile {
	return &gardencorev1beta1.CloudProfile{
		TypeMeta:   metav1.TypeMeta{APIVersion: gardencorev1beta1.SchemeGroupVersion.String(), Kind: "CloudProfile"},
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: gardencorev1beta1.CloudProfileSpec{
			Type:          "local",
			Kubernetes:    gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{{Version: "1.30.0", Classification: cls(supported)}}},
			MachineImages: oneImage([]gardencorev1beta1.ExpirableVersion{{Version: "1.0.0", Classification: cls(supported)}}),
			MachineTypes:  machineTypes(1, "m%d.large", "2"),
			VolumeTypes:   volumeTypes(1, "vol-%d", "standard"),
			Regions:       regions(1, 1, ""),
		},
	}
}

// validVersions are n versions across n/10 minors: the highest patch of each minor supported,
// the others deprecated until a far-future date.
func validVersions(n int) []gardencorev1beta1.ExpirableVersion {
	out := make([]gardencorev1beta1.ExpirableVersion, n)
	for i := range out {
		minor, patch := i/10, i%10
		out[i] = gardencorev1beta1.ExpirableVersion{Version: fmt.Sprintf("1.%d.%d", minor, patch), Classification: cls(supported)}
		if patch < 9 && i < n-1 {
			out[i].Classification, out[i].ExpirationDate = cls(deprecated), date(5, i%365)
		}
	}
	return out
}

// lifecycleVersions are n versions across n/10 minors with GEP-32 lifecycles: each supported
// for a day after the one before it, then deprecated and expired, the highest never expired.
func lifecycleVersions(n int) []gardencorev1beta1.ExpirableVersion {
	out := make([]gardencorev1beta1.ExpirableVersion, n)
	for i := range out {
		out[i] = gardencorev1beta1.ExpirableVersion{Version: fmt.Sprintf("1.%d.%d", i/10, i%10), Lifecycle: []gardencorev1beta1.LifecycleStage{
			{Classification: preview},
			{Classification: supported, StartTime: date(0, i%365)},
			{Classification: deprecated, StartTime: date(1, i%365)},
			{Classification: expired, StartTime: date(2, i%365)},
		}}
	}
	last := &out[len(out)-1]
	last.Lifecycle = last.Lifecycle[:3] // the highest version must not end expired (C-4)
	return out
}

// supportedOneMinor are n versions of one minor, all supported: every pair breaks the rule "one
// supported version per minor" (C-8, F-8), n·(n−1) errors.
func supportedOneMinor(n int) []gardencorev1beta1.ExpirableVersion {
	out := make([]gardencorev1beta1.ExpirableVersion, n)
	for i := range out {
		out[i] = gardencorev1beta1.ExpirableVersion{Version: fmt.Sprintf("1.24.%d", i), Classification: cls(supported)}
	}
	return out
}

// supportedOneMinorWithLifecycles are supportedOneMinor with lifecycles besides the legacy
// classification (an error of its own), supported from different days on, a third of them
// deprecated later: the overlaps of lifecycles decide which pairs conflict.
func supportedOneMinorWithLifecycles(n int) []gardencorev1beta1.ExpirableVersion {
	out := supportedOneMinor(n)
	for i := range out {
		out[i].Lifecycle = []gardencorev1beta1.LifecycleStage{{Classification: supported, StartTime: pastDate(i % 700)}}
		if i%3 == 0 {
			out[i].Lifecycle = append(out[i].Lifecycle, gardencorev1beta1.LifecycleStage{Classification: deprecated, StartTime: date(0, i%365)})
		}
	}
	return out
}

// sameVersion are n spellings of the version 1.24.0 (leading zeros in each component), all
// supported: duplicates of one another as semantic versions.
func sameVersion(n int) []gardencorev1beta1.ExpirableVersion {
	out := make([]gardencorev1beta1.ExpirableVersion, 0, n)
	for width := 1; len(out) < n; width++ {
		for a := 0; a < width && len(out) < n; a++ {
			for b := 0; a+b < width && len(out) < n; b++ {
				c := width - 1 - a - b
				v := strings.Repeat("0", a) + "1." + strings.Repeat("0", b) + "24." + strings.Repeat("0", c) + "0"
				out = append(out, gardencorev1beta1.ExpirableVersion{Version: v, Classification: cls(supported)})
			}
		}
	}
	return out
}

// badVersions are n versions that are no semantic versions.
func badVersions(n int) []gardencorev1beta1.ExpirableVersion {
	out := make([]gardencorev1beta1.ExpirableVersion, n)
	for i := range out {
		out[i] = gardencorev1beta1.ExpirableVersion{Version: fmt.Sprintf("bad-%d", i)}
	}
	return out
}

// expiredVersions are n versions deprecated until a date in the past, the highest too.
func expiredVersions(n int) []gardencorev1beta1.ExpirableVersion {
	out := make([]gardencorev1beta1.ExpirableVersion, n)
	for i := range out {
		out[i] = gardencorev1beta1.ExpirableVersion{Version: fmt.Sprintf("1.%d.%d", i/10, i%10), Classification: cls(deprecated), ExpirationDate: pastDate(i % 700)}
	}
	return out
}

// manyStages is a lifecycle of n stages that cycle through the classifications with rising
// start times: every stage after the fourth breaks the order of the stages.
func manyStages(n int) []gardencorev1beta1.LifecycleStage {
	classes := []gardencorev1beta1.VersionClassification{preview, supported, deprecated, expired}
	out := make([]gardencorev1beta1.LifecycleStage, n)
	for i := range out {
		out[i] = gardencorev1beta1.LifecycleStage{Classification: classes[i%len(classes)], StartTime: date(i/365, i%365)}
	}
	return out
}

// oneImage is the machine image "image" with the given versions.
func oneImage(versions []gardencorev1beta1.ExpirableVersion) []gardencorev1beta1.MachineImage {
	image := gardencorev1beta1.MachineImage{Name: "image", Versions: make([]gardencorev1beta1.MachineImageVersion, len(versions))}
	for i, v := range versions {
		image.Versions[i] = imageVersion(v)
	}
	return []gardencorev1beta1.MachineImage{image}
}

func imageVersion(v gardencorev1beta1.ExpirableVersion) gardencorev1beta1.MachineImageVersion {
	return gardencorev1beta1.MachineImageVersion{
		ExpirableVersion: v,
		CRI:              []gardencorev1beta1.CRI{{Name: gardencorev1beta1.CRINameContainerD}},
		Architectures:    []string{"amd64"},
	}
}

// manyImages are n machine images with the same one version each.
func manyImages(n int) []gardencorev1beta1.MachineImage {
	out := make([]gardencorev1beta1.MachineImage, n)
	for i := range out {
		out[i] = gardencorev1beta1.MachineImage{Name: fmt.Sprintf("image-%d", i), Versions: []gardencorev1beta1.MachineImageVersion{
			imageVersion(gardencorev1beta1.ExpirableVersion{Version: "1.0.0", Classification: cls(supported)}),
		}}
	}
	return out
}

// badImages are n machine images whose names are no qualified names and whose one version is no
// semantic version.
func badImages(n int) []gardencorev1beta1.MachineImage {
	out := manyImages(n)
	for i := range out {
		out[i].Name = fmt.Sprintf("bad/%d", i)
		out[i].Versions[0].Version = "bad"
	}
	return out
}

// machineTypes are n machine types named by format (with the index) with cpu CPUs.
func machineTypes(n int, format, cpu string) []gardencorev1beta1.MachineType {
	out := make([]gardencorev1beta1.MachineType, n)
	for i := range out {
		out[i] = gardencorev1beta1.MachineType{
			Name: fmt.Sprintf(format, i), CPU: resource.MustParse(cpu), GPU: resource.MustParse("0"), Memory: resource.MustParse("8Gi"),
			Architecture: ptr("amd64"), Usable: ptr(true),
		}
	}
	return out
}

// withCapabilities gives cp capability definitions, one with n values, and n machine types that
// each have one of them (an error that lists the n values where it is not).
func withCapabilities(cp *gardencorev1beta1.CloudProfile, n int) {
	values := make([]string, n)
	for i := range values {
		values[i] = fmt.Sprintf("model-%d", i)
	}
	cp.Spec.MachineCapabilities = []gardencorev1beta1.CapabilityDefinition{
		{Name: "architecture", Values: []string{"amd64"}},
		{Name: "gpu-model", Values: values},
	}
	cp.Spec.MachineTypes = machineTypes(n, "m%d.large", "2")
	for i := range cp.Spec.MachineTypes {
		cp.Spec.MachineTypes[i].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"amd64"}, "gpu-model": {values[i]}}
	}
	for i := range cp.Spec.MachineImages {
		for j := range cp.Spec.MachineImages[i].Versions {
			cp.Spec.MachineImages[i].Versions[j].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{{Capabilities: gardencorev1beta1.Capabilities{"architecture": {"amd64"}}}}
		}
	}
}

// volumeTypes are n volume types named by format (with the index) of the class.
func volumeTypes(n int, format, class string) []gardencorev1beta1.VolumeType {
	out := make([]gardencorev1beta1.VolumeType, n)
	for i := range out {
		out[i] = gardencorev1beta1.VolumeType{Name: fmt.Sprintf(format, i), Class: class, Usable: ptr(true)}
	}
	return out
}

// regions are n regions of zones zones each; with a label format, each region has a label whose
// key is made by it.
func regions(n, zones int, label string) []gardencorev1beta1.Region {
	out := make([]gardencorev1beta1.Region, n)
	for i := range out {
		out[i] = gardencorev1beta1.Region{Name: fmt.Sprintf("region-%d", i), Zones: make([]gardencorev1beta1.AvailabilityZone, zones)}
		for z := range out[i].Zones {
			out[i].Zones[z] = gardencorev1beta1.AvailabilityZone{Name: fmt.Sprintf("region-%d-zone-%d", i, z)}
		}
		if label != "" {
			out[i].Labels = map[string]string{fmt.Sprintf(label, i): "x"}
		}
	}
	return out
}

// unavailableTypes gives cp n machine types and n volume types that its one zone lists as
// unavailable.
func unavailableTypes(cp *gardencorev1beta1.CloudProfile, n int) {
	cp.Spec.MachineTypes = machineTypes(n, "m%d.large", "2")
	cp.Spec.VolumeTypes = volumeTypes(n, "vol-%d", "standard")
	zone := &cp.Spec.Regions[0].Zones[0]
	for i := range n {
		zone.UnavailableMachineTypes = append(zone.UnavailableMachineTypes, cp.Spec.MachineTypes[i].Name)
		zone.UnavailableVolumeTypes = append(zone.UnavailableVolumeTypes, cp.Spec.VolumeTypes[i].Name)
	}
}

// namespacedOverrides is a parent with n Kubernetes versions, n image versions, and a
// NamespacedCloudProfile that extends the expiration of each and adds n machine and volume types.
func namespacedOverrides(n int) WorstCase {
	parent := smallProfile("worst-parent")
	parent.Spec.Kubernetes.Versions = validVersions(n)
	parent.Spec.MachineImages = oneImage(validVersions(n))
	parent.Spec.ProviderConfig = localProviderConfig(parent.Spec.MachineImages)
	ncp := worstNamespaced(parent.Name)
	for _, v := range parent.Spec.Kubernetes.Versions {
		if v.ExpirationDate != nil {
			ncp.Spec.Kubernetes.Versions = append(ncp.Spec.Kubernetes.Versions, gardencorev1beta1.ExpirableVersion{Version: v.Version, ExpirationDate: date(15, 0)})
		}
	}
	image := gardencorev1beta1.MachineImage{Name: "image"}
	for _, v := range parent.Spec.MachineImages[0].Versions {
		if v.ExpirationDate != nil {
			image.Versions = append(image.Versions, gardencorev1beta1.MachineImageVersion{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: v.Version, ExpirationDate: date(15, 0)}})
		}
	}
	ncp.Spec.MachineImages = []gardencorev1beta1.MachineImage{image}
	ncp.Spec.MachineTypes = machineTypes(n, "ns%d.large", "2")
	ncp.Spec.VolumeTypes = volumeTypes(n, "ns-vol-%d", "standard")
	return WorstCase{Name: "namespaced/overrides", Valid: true, Profiles: []*gardencorev1beta1.CloudProfile{parent}, Namespaced: []*gardencorev1beta1.NamespacedCloudProfile{ncp}}
}

// namespacedBad is a small parent and a NamespacedCloudProfile with an error in each of its n
// Kubernetes versions, n image versions, n machine types and n volume types.
func namespacedBad(n int) WorstCase {
	parent := smallProfile("worst-parent")
	parent.Spec.ProviderConfig = localProviderConfig(parent.Spec.MachineImages)
	ncp := worstNamespaced(parent.Name)
	ncp.Spec.Kubernetes.Versions = supportedOneMinor(n)
	ncp.Spec.MachineImages = oneImage(badVersions(n))
	ncp.Spec.MachineTypes = machineTypes(n, "bad/%d", "-1")
	ncp.Spec.VolumeTypes = volumeTypes(n, "bad/%d", "bad/class")
	return WorstCase{Name: "namespaced/errors", Profiles: []*gardencorev1beta1.CloudProfile{parent}, Namespaced: []*gardencorev1beta1.NamespacedCloudProfile{ncp}}
}

func worstNamespaced(parent string) *gardencorev1beta1.NamespacedCloudProfile {
	return &gardencorev1beta1.NamespacedCloudProfile{
		TypeMeta:   metav1.TypeMeta{APIVersion: gardencorev1beta1.SchemeGroupVersion.String(), Kind: "NamespacedCloudProfile"},
		ObjectMeta: metav1.ObjectMeta{Name: "worst", Namespace: NamespacedProfileNamespace},
		Spec: gardencorev1beta1.NamespacedCloudProfileSpec{
			Parent:     gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: parent},
			Kubernetes: &gardencorev1beta1.KubernetesSettings{},
		},
	}
}

// pastDate is day d after 2020-01-01, an instant every run of the bench lies after.
func pastDate(d int) *metav1.Time {
	t := metav1.NewTime(time.Date(2020, time.January, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, d))
	return &t
}
