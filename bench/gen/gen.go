// Package gen generates the big CloudProfile of make bench and a set of NamespacedCloudProfiles
// that override parts of it, as Gardener API objects, as JSON for client-go and as Terraform
// configuration (.tf.json) for the provider's resources.
//
// The objects are valid for Gardener at any instant before 2090: every date is fixed and far in
// the future, so that the same files stay valid (and plans stay empty) run after run.
package gen

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// Sizes of the big profile (the "realistic big profile").
const (
	KubernetesVersions     = 150
	KubernetesMinors       = 8
	MachineImages          = 15
	ImageVersions          = 80 // per image
	MachineTypes           = 400
	VolumeTypes            = 20
	Regions                = 40
	ZonesPerRegion         = 3
	NamespacedProfileCount = 200
)

// BigProfileName is the name of the big CloudProfile.
const BigProfileName = "bench-big"

// Sizes are the dimensions of a generated CloudProfile.
type Sizes struct {
	KubernetesVersions, KubernetesMinors int
	MachineImages, ImageVersions         int // images, and versions per image
	MachineTypes, VolumeTypes            int
	Regions, ZonesPerRegion              int
}

// BigSizes are the dimensions of the big profile.
var BigSizes = Sizes{KubernetesVersions, KubernetesMinors, MachineImages, ImageVersions, MachineTypes, VolumeTypes, Regions, ZonesPerRegion}

// Sizes of the workspace of many namespaced profiles: one parent of a typical size and
// WorkspaceProfileCount namespaced profiles of it.
const (
	WorkspaceParentName   = "bench-ws-parent"
	WorkspaceProfileCount = 300
)

// WorkspaceSizes are the dimensions of the workspace's parent.
var WorkspaceSizes = Sizes{KubernetesVersions: 43, KubernetesMinors: 6, MachineImages: 4, ImageVersions: 20, MachineTypes: 60, VolumeTypes: 5, Regions: 10, ZonesPerRegion: 3}

var (
	supported  = gardencorev1beta1.ClassificationSupported
	deprecated = gardencorev1beta1.ClassificationDeprecated
	preview    = gardencorev1beta1.ClassificationPreview
	expired    = gardencorev1beta1.ClassificationExpired
)

// date returns a fixed far-future instant: year 2090+y, day d of the year.
func date(y, d int) *metav1.Time {
	t := metav1.NewTime(time.Date(2090+y, time.January, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, d))
	return &t
}

func cls(c gardencorev1beta1.VersionClassification) *gardencorev1beta1.VersionClassification {
	return &c
}

func ptr[T any](v T) *T { return &v }

// kubernetesVersion returns patch p of minor m (of patches patches), newest minor last.
//
// Even minors use the legacy fields: the newest patch is supported, the others deprecated with an
// expiration date. Odd minors use lifecycles: the newest patch is supported and later deprecated
// and expired, the others are deprecated and later expired. The newest version of all is in
// preview until 2090 and supported afterwards.
func kubernetesVersion(minor, m, p, patches int, newest bool) gardencorev1beta1.ExpirableVersion {
	v := gardencorev1beta1.ExpirableVersion{Version: fmt.Sprintf("1.%d.%d", minor, p)}
	latestPatch := p == patches-1
	switch {
	case newest:
		v.Lifecycle = []gardencorev1beta1.LifecycleStage{
			{Classification: preview},
			{Classification: supported, StartTime: date(0, 0)},
		}
	case m%2 == 0 && latestPatch:
		v.Classification = cls(supported)
	case m%2 == 0:
		v.Classification = cls(deprecated)
		v.ExpirationDate = date(5+m, p)
	case latestPatch:
		v.Lifecycle = []gardencorev1beta1.LifecycleStage{
			{Classification: supported},
			{Classification: deprecated, StartTime: date(3+m, 0)},
			{Classification: expired, StartTime: date(6+m, 0)},
		}
	default:
		v.Lifecycle = []gardencorev1beta1.LifecycleStage{
			{Classification: deprecated},
			{Classification: expired, StartTime: date(4+m, p)},
		}
	}
	return v
}

// BigProfile returns the big CloudProfile.
func BigProfile() *gardencorev1beta1.CloudProfile {
	return Profile(BigProfileName, "big", BigSizes)
}

// WorkspaceParent returns the parent CloudProfile of the workspace of many namespaced profiles.
func WorkspaceParent() *gardencorev1beta1.CloudProfile {
	return Profile(WorkspaceParentName, "workspace", WorkspaceSizes)
}

// Profile returns a CloudProfile of the given sizes, labelled bench.gardener.cloud/profile=label.
func Profile(name, label string, z Sizes) *gardencorev1beta1.CloudProfile {
	cp := &gardencorev1beta1.CloudProfile{
		TypeMeta:   metav1.TypeMeta{APIVersion: gardencorev1beta1.SchemeGroupVersion.String(), Kind: "CloudProfile"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"bench.gardener.cloud/profile": label}},
		Spec:       gardencorev1beta1.CloudProfileSpec{Type: "local"},
	}

	// Kubernetes: the versions across the minors from 1.28 on, newest first as Gardener lists them.
	firstMinor := 28
	var versions []gardencorev1beta1.ExpirableVersion
	for m := z.KubernetesMinors - 1; m >= 0; m-- {
		patches := z.KubernetesVersions / z.KubernetesMinors
		if m < z.KubernetesVersions%z.KubernetesMinors {
			patches++
		}
		for p := patches - 1; p >= 0; p-- {
			newest := m == z.KubernetesMinors-1 && p == patches-1
			versions = append(versions, kubernetesVersion(firstMinor+m, m, p, patches, newest))
		}
	}
	cp.Spec.Kubernetes.Versions = versions

	// Machine images: versions in majors of 8 minors; the newest minor of each major is
	// supported, the others deprecated with an expiration date; every 4th image uses lifecycles
	// for its deprecated versions.
	for i := 0; i < z.MachineImages; i++ {
		image := gardencorev1beta1.MachineImage{Name: fmt.Sprintf("image-%02d", i), UpdateStrategy: ptr(gardencorev1beta1.UpdateStrategyMajor)}
		for k := z.ImageVersions - 1; k >= 0; k-- {
			major, minor := 1000+k/8, k%8
			v := gardencorev1beta1.MachineImageVersion{
				ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: fmt.Sprintf("%d.%d.0", major, minor)},
				CRI:              []gardencorev1beta1.CRI{{Name: gardencorev1beta1.CRINameContainerD}},
				Architectures:    []string{"amd64", "arm64"},
			}
			switch {
			case minor == 7:
				v.Classification = cls(supported)
			case i%4 == 3:
				v.Lifecycle = []gardencorev1beta1.LifecycleStage{
					{Classification: deprecated},
					{Classification: expired, StartTime: date(4, k)},
				}
			default:
				v.Classification = cls(deprecated)
				v.ExpirationDate = date(4, k)
			}
			if k%5 == 0 {
				v.KubeletVersionConstraint = ptr(">= 1.28")
			}
			image.Versions = append(image.Versions, v)
		}
		cp.Spec.MachineImages = append(cp.Spec.MachineImages, image)
	}

	// Machine types: in families of 8 sizes; every 5th family is arm64.
	for i := 0; i < z.MachineTypes; i++ {
		family, size := i/8, i%8
		cpu := 1 << size
		arch := "amd64"
		if family%5 == 4 {
			arch = "arm64"
		}
		gpu := "0"
		if family%10 == 9 {
			gpu = "1"
		}
		cp.Spec.MachineTypes = append(cp.Spec.MachineTypes, gardencorev1beta1.MachineType{
			Name:         fmt.Sprintf("f%02d.x%d", family, cpu),
			CPU:          resource.MustParse(fmt.Sprint(cpu)),
			GPU:          resource.MustParse(gpu),
			Memory:       resource.MustParse(fmt.Sprintf("%dGi", cpu*4)),
			Architecture: ptr(arch),
			Usable:       ptr(true),
		})
	}

	// Volume types.
	for i := 0; i < z.VolumeTypes; i++ {
		class := "standard"
		if i%4 == 3 {
			class = "premium"
		}
		cp.Spec.VolumeTypes = append(cp.Spec.VolumeTypes, gardencorev1beta1.VolumeType{Name: fmt.Sprintf("vol-%02d", i), Class: class, Usable: ptr(true)})
	}

	// Regions with their zones; in every 4th region zone c lacks the GPU families.
	var gpuFamilies []string
	for _, t := range []string{"f09.x1", "f19.x1", "f29.x1"} {
		if slices.ContainsFunc(cp.Spec.MachineTypes, func(m gardencorev1beta1.MachineType) bool { return m.Name == t }) {
			gpuFamilies = append(gpuFamilies, t)
		}
	}
	for r := 0; r < z.Regions; r++ {
		region := gardencorev1beta1.Region{Name: fmt.Sprintf("region-%02d", r)}
		for zi := 0; zi < z.ZonesPerRegion; zi++ {
			zone := gardencorev1beta1.AvailabilityZone{Name: fmt.Sprintf("region-%02d%c", r, 'a'+zi)}
			if r%4 == 0 && zi == 2 && len(gpuFamilies) > 0 {
				zone.UnavailableMachineTypes = gpuFamilies
			}
			region.Zones = append(region.Zones, zone)
		}
		cp.Spec.Regions = append(cp.Spec.Regions, region)
	}
	cp.Spec.ProviderConfig = localProviderConfig(cp.Spec.MachineImages)
	return cp
}

// localProviderConfig is the provider config that provider-local's admission requires of a
// profile of type local without machine capabilities: an image for each machine image, given for
// its first version.
func localProviderConfig(images []gardencorev1beta1.MachineImage) *runtime.RawExtension {
	return localProviderConfigOf(images, nil)
}

// localProviderConfigOf is localProviderConfig for a profile with the given machine capabilities:
// with capabilities, provider-local maps each version's capability flavors (an image per flavor of
// the version, which the version's capabilityFlavors list) instead of an image.
func localProviderConfigOf(images []gardencorev1beta1.MachineImage, capabilities []gardencorev1beta1.CapabilityDefinition) *runtime.RawExtension {
	type flavor struct {
		Image        string                         `json:"image"`
		Capabilities gardencorev1beta1.Capabilities `json:"capabilities,omitempty"`
	}
	type version struct {
		Version           string   `json:"version"`
		Image             string   `json:"image,omitempty"`
		CapabilityFlavors []flavor `json:"capabilityFlavors,omitempty"`
	}
	type image struct {
		Name     string    `json:"name"`
		Versions []version `json:"versions"`
	}
	config := struct {
		APIVersion    string  `json:"apiVersion"`
		Kind          string  `json:"kind"`
		MachineImages []image `json:"machineImages"`
	}{APIVersion: "local.provider.extensions.gardener.cloud/v1alpha1", Kind: "CloudProfileConfig"}
	for _, mi := range images {
		if len(mi.Versions) == 0 {
			continue
		}
		first := mi.Versions[0]
		v := version{Version: first.Version}
		if len(capabilities) == 0 {
			v.Image = "local/" + mi.Name + ":" + first.Version
		}
		for _, f := range first.CapabilityFlavors {
			v.CapabilityFlavors = append(v.CapabilityFlavors, flavor{Image: "local/" + mi.Name + ":" + first.Version, Capabilities: f.Capabilities})
		}
		config.MachineImages = append(config.MachineImages, image{Name: mi.Name, Versions: []version{v}})
	}
	raw, _ := json.Marshal(config) // structs of strings always marshal
	return &runtime.RawExtension{Raw: raw}
}

// NamespacedProfileNamespace is the namespace of the namespaced profiles (the local Garden's
// project "demo").
const NamespacedProfileNamespace = "garden-demo"

// NamespacedProfile returns namespaced profile i of the set: it extends the expiration date of
// three deprecated Kubernetes versions and of one machine image version of parent, and adds two
// machine types and one volume type of its own.
func NamespacedProfile(parent *gardencorev1beta1.CloudProfile, i int) *gardencorev1beta1.NamespacedCloudProfile {
	return namespacedProfile(parent, fmt.Sprintf("bench-ns-%03d", i), i)
}

// WorkspaceProfile returns namespaced profile i of the workspace, made as NamespacedProfile.
func WorkspaceProfile(parent *gardencorev1beta1.CloudProfile, i int) *gardencorev1beta1.NamespacedCloudProfile {
	return namespacedProfile(parent, fmt.Sprintf("bench-ws-%03d", i), i)
}

// WorkspaceProfiles returns the WorkspaceProfileCount namespaced profiles of the workspace.
func WorkspaceProfiles(parent *gardencorev1beta1.CloudProfile) []*gardencorev1beta1.NamespacedCloudProfile {
	out := make([]*gardencorev1beta1.NamespacedCloudProfile, WorkspaceProfileCount)
	for i := range out {
		out[i] = WorkspaceProfile(parent, i)
	}
	return out
}

func namespacedProfile(parent *gardencorev1beta1.CloudProfile, name string, i int) *gardencorev1beta1.NamespacedCloudProfile {
	ncp := &gardencorev1beta1.NamespacedCloudProfile{
		TypeMeta:   metav1.TypeMeta{APIVersion: gardencorev1beta1.SchemeGroupVersion.String(), Kind: "NamespacedCloudProfile"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: NamespacedProfileNamespace},
		Spec: gardencorev1beta1.NamespacedCloudProfileSpec{
			Parent: gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: parent.Name},
		},
	}
	var legacy []gardencorev1beta1.ExpirableVersion
	for _, v := range parent.Spec.Kubernetes.Versions {
		if v.ExpirationDate != nil {
			legacy = append(legacy, v)
		}
	}
	k8s := &gardencorev1beta1.KubernetesSettings{}
	for j := 0; j < 3 && len(legacy) > 0; j++ {
		v := legacy[(i*3+j)%len(legacy)]
		k8s.Versions = append(k8s.Versions, gardencorev1beta1.ExpirableVersion{Version: v.Version, ExpirationDate: date(15, i%300)})
	}
	ncp.Spec.Kubernetes = k8s

	image := parent.Spec.MachineImages[i%len(parent.Spec.MachineImages)]
	for _, v := range image.Versions {
		if v.ExpirationDate != nil {
			ncp.Spec.MachineImages = []gardencorev1beta1.MachineImage{{
				Name:     image.Name,
				Versions: []gardencorev1beta1.MachineImageVersion{{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: v.Version, ExpirationDate: date(15, i%300)}}},
			}}
			break
		}
	}
	for j := 0; j < 2; j++ {
		ncp.Spec.MachineTypes = append(ncp.Spec.MachineTypes, gardencorev1beta1.MachineType{
			Name:         fmt.Sprintf("ns%03d.x%d", i, 64<<j),
			CPU:          resource.MustParse(fmt.Sprint(64 << j)),
			GPU:          resource.MustParse("0"),
			Memory:       resource.MustParse(fmt.Sprintf("%dGi", 256<<j)),
			Architecture: ptr("amd64"),
			Usable:       ptr(true),
		})
	}
	ncp.Spec.VolumeTypes = []gardencorev1beta1.VolumeType{{Name: fmt.Sprintf("ns%03d-vol", i), Class: "premium", Usable: ptr(true)}}
	return ncp
}

// NamespacedProfiles returns the whole set of NamespacedProfileCount namespaced profiles.
func NamespacedProfiles(parent *gardencorev1beta1.CloudProfile) []*gardencorev1beta1.NamespacedCloudProfile {
	out := make([]*gardencorev1beta1.NamespacedCloudProfile, NamespacedProfileCount)
	for i := range out {
		out[i] = NamespacedProfile(parent, i)
	}
	return out
}

// TerraformValue converts an API object into the value of the provider's resource: metadata
// (name, namespace, labels, annotations) and spec, with every JSON name in snake_case (the
// provider's naming rule), the keyed lists as maps by key whose entries leave the key out (as the
// resources' schema has them), provider configurations as JSON strings, and without status.
func TerraformValue(obj any) (map[string]any, error) {
	raw, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, err
	}
	meta := map[string]any{}
	if om, ok := m["metadata"].(map[string]any); ok {
		for _, k := range []string{"name", "namespace", "labels", "annotations"} {
			if v, ok := om[k]; ok {
				meta[k] = v
			}
		}
	}
	return map[string]any{"metadata": meta, "spec": snake(m["spec"])}, nil
}

// keyedLists are the lists of a spec that the resources hold as maps, by JSON name, with the
// JSON name of the key of their entries.
var keyedLists = map[string]string{
	"versions": "version", "machineImages": "name", "machineTypes": "name", "volumeTypes": "name",
	"regions": "name", "zones": "name", "cri": "name", "containerRuntimes": "type",
}

func snake(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			if k == "providerConfig" {
				raw, _ := json.Marshal(e) // decoded from JSON, so it encodes again
				out["provider_config"] = string(raw)
				continue
			}
			if key, keyed := keyedLists[k]; keyed {
				if entries, ok := e.([]any); ok {
					out[cloudprofile.SnakeCase(k)] = byKey(entries, key)
					continue
				}
			}
			out[cloudprofile.SnakeCase(k)] = snake(e)
		}
		return out
	case []any:
		for i, e := range t {
			t[i] = snake(e)
		}
		return t
	}
	return v
}

// byKey turns the entries of a keyed list into the map by key.
func byKey(entries []any, key string) map[string]any {
	out := make(map[string]any, len(entries))
	for _, e := range entries {
		entry, ok := e.(map[string]any)
		if !ok {
			continue
		}
		k, _ := entry[key].(string)
		delete(entry, key)
		out[k] = snake(entry)
	}
	return out
}
