package cloudprofile

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

func cpVersionStrings(versions []ev) []string {
	out := make([]string, len(versions))
	for i, v := range versions {
		out[i] = v.Version
	}
	return out
}

func cpImageVersionStrings(versions []gardencorev1beta1.MachineImageVersion) []string {
	out := make([]string, len(versions))
	for i, v := range versions {
		out[i] = v.Version
	}
	return out
}

func plainImageVersion(version string, expiration *metav1.Time, lifecycle lc) gardencorev1beta1.MachineImageVersion {
	return gardencorev1beta1.MachineImageVersion{ExpirableVersion: ev{Version: version, ExpirationDate: expiration, Lifecycle: lifecycle}}
}

// What PrepareForCreate drops (the CloudProfile strategy test "should drop the expired Kubernetes and MachineImage
// versions from the cloudprofile", with its asymmetry).
func TestRule51_DropInactiveVersionsOnCreate(t *testing.T) {
	cp := &gardencorev1beta1.CloudProfile{Spec: gardencorev1beta1.CloudProfileSpec{
		Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: []ev{
			{Version: "1.27.3"},
			{Version: "1.26.4", ExpirationDate: at(144 * hour)},
			{Version: "1.25.6", Lifecycle: lc{stageOpen(supported), stageAt(expired, 24*hour)}},
			{Version: "1.24.8", ExpirationDate: at(-hour)},
			{Version: "1.24.6", Lifecycle: lc{stageOpen(supported), stageAt(expired, -24*hour)}},
			{Version: "1.28.0", Lifecycle: lc{stageAt(preview, hour)}},
		}},
		MachineImages: []gardencorev1beta1.MachineImage{
			{Name: "machineImage1", Versions: []gardencorev1beta1.MachineImageVersion{
				plainImageVersion("2.1.0", nil, nil), plainImageVersion("2.0.3", at(144*hour), nil), plainImageVersion("1.9.7", at(-24*hour), nil),
			}},
			{Name: "machineImage2", Versions: []gardencorev1beta1.MachineImageVersion{
				plainImageVersion("4.3.0", at(24*hour), nil), plainImageVersion("4.2.3", nil, nil), plainImageVersion("4.1.8", at(-hour), nil),
			}},
			{Name: "machineImage3", Versions: []gardencorev1beta1.MachineImageVersion{
				plainImageVersion("1.3.0", nil, lc{stageOpen(supported), stageAt(expired, 144*hour)}),
				plainImageVersion("1.2.3", nil, lc{stageOpen(supported)}),
				plainImageVersion("1.1.8", nil, lc{stageOpen(supported), stageAt(expired, -hour)}),
				plainImageVersion("1.4.0", nil, lc{stageAt(preview, hour)}),
			}},
		},
	}, Status: gardencorev1beta1.CloudProfileStatus{Kubernetes: &gardencorev1beta1.KubernetesStatus{}}}

	prepared, dropped := PrepareCloudProfileForCreate(cp, gateOn())

	t.Run("expired and unavailable kubernetes versions are dropped", func(t *testing.T) {
		if got, want := cpVersionStrings(prepared.Spec.Kubernetes.Versions), []string{"1.27.3", "1.26.4", "1.25.6"}; !slices.Equal(got, want) {
			t.Fatalf("kubernetes versions = %v, want %v", got, want)
		}
	})
	t.Run("only expired machine image versions are dropped, unavailable ones are kept", func(t *testing.T) {
		want := [][]string{{"2.1.0", "2.0.3"}, {"4.3.0", "4.2.3"}, {"1.3.0", "1.2.3", "1.4.0"}}
		for i, image := range prepared.Spec.MachineImages {
			if got := cpImageVersionStrings(image.Versions); !slices.Equal(got, want[i]) {
				t.Fatalf("image %s versions = %v, want %v", image.Name, got, want[i])
			}
		}
	})
	t.Run("the dropped versions are reported with path and classification", func(t *testing.T) {
		type d struct {
			field, attr, image, version string
			c                           gardencorev1beta1.VersionClassification
		}
		var got []d
		for _, x := range dropped {
			got = append(got, d{x.Path.Field(), x.Path.Attribute(), x.Image, x.Version, x.Classification})
		}
		want := []d{
			{"spec.kubernetes.versions[3]", "spec.kubernetes.versions[3]", "", "1.24.8", expired},
			{"spec.kubernetes.versions[4]", "spec.kubernetes.versions[4]", "", "1.24.6", expired},
			{"spec.kubernetes.versions[5]", "spec.kubernetes.versions[5]", "", "1.28.0", unavailable},
			{"spec.machineImages[0].versions[2]", "spec.machine_images[0].versions[2]", "machineImage1", "1.9.7", expired},
			{"spec.machineImages[1].versions[2]", "spec.machine_images[1].versions[2]", "machineImage2", "4.1.8", expired},
			{"spec.machineImages[2].versions[2]", "spec.machine_images[2].versions[2]", "machineImage3", "1.1.8", expired},
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("dropped = %+v\nwant %+v", got, want)
		}
	})
	t.Run("the status is reset and the input is not modified", func(t *testing.T) {
		if prepared.Status.Kubernetes != nil {
			t.Fatal("status not reset")
		}
		if len(cp.Spec.Kubernetes.Versions) != 6 || cp.Spec.MachineImages[0].UpdateStrategy != nil {
			t.Fatal("input modified")
		}
	})
	t.Run("dropping can empty a list, which validation then reports", func(t *testing.T) {
		cp := withKubernetes(ev{Version: "1.2.3", ExpirationDate: at(-hour)})
		expectProblems(t, ValidateCloudProfileRequest(cp, nil, gateOff()),
			want{rule: "C-1", field: "spec.kubernetes.versions"}, want{rule: "C-2", field: "spec.kubernetes.versions"})
	})
	t.Run("nothing is dropped on update", func(t *testing.T) {
		oldCP := validCloudProfile()
		newCP := withKubernetes(ev{Version: "1.12.0"}, ev{Version: "1.11.4", ExpirationDate: at(-hour)})
		stored, dropped := StoredCloudProfile(newCP, oldCP, gateOff())
		if len(dropped) != 0 || len(stored.Spec.Kubernetes.Versions) != 2 {
			t.Fatalf("dropped %v, stored %v", dropped, cpVersionStrings(stored.Spec.Kubernetes.Versions))
		}
	})
}

// Create-time dropping and the request pipeline: problem attributes name the user's indices after dropping.
func TestRule51_ProblemAttributesPointAtTheUsersIndices(t *testing.T) {
	cp := withKubernetes(
		ev{Version: "1.10.0", ExpirationDate: at(-hour)},
		ev{Version: "1.11.0", Classification: cls("bogus")},
	)
	cp.Spec.MachineImages[0].Versions = []gardencorev1beta1.MachineImageVersion{
		{ExpirableVersion: ev{Version: "0.9.0", ExpirationDate: at(-hour)}},
		classified(imageVersion("1.0.0"), "bogus"),
	}
	expectProblems(t, ValidateCloudProfileRequest(cp, nil, gateOff()),
		want{rule: "D-2", field: "spec.kubernetes.versions[0].classification", attr: "spec.kubernetes.versions[1].classification"},
		want{rule: "D-2", field: "spec.machineImages[0].versions[0].classification", attr: "spec.machine_images[0].versions[1].classification"})
}

// The architecture/capability synchronisation (Gardener's tests of SyncArchitectureCapabilityFields).
func TestRule53_SyncArchitectureCapabilities(t *testing.T) {
	newSpec := func() gardencorev1beta1.CloudProfileSpec {
		return gardencorev1beta1.CloudProfileSpec{
			MachineCapabilities: []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"arm64", "amd64", "custom"}}},
			MachineImages:       []gardencorev1beta1.MachineImage{{Versions: []gardencorev1beta1.MachineImageVersion{{}}}},
			MachineTypes:        []gardencorev1beta1.MachineType{{}},
		}
	}
	emptyOld := &gardencorev1beta1.CloudProfileSpec{}

	t.Run("nothing happens if it is not the initial migration", func(t *testing.T) {
		spec := newSpec()
		spec.MachineImages[0].Versions[0].Architectures = []string{"amd64"}
		spec.MachineTypes[0].Architecture = ptrTo("amd64")
		before := *spec.DeepCopy()
		SyncArchitectureCapabilities(&spec, &gardencorev1beta1.CloudProfileSpec{MachineCapabilities: []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"arm64", "amd64"}}}})
		if !reflect.DeepEqual(spec, before) {
			t.Fatalf("spec changed: %+v", spec)
		}
	})
	t.Run("nothing happens if less than two architectures are supported", func(t *testing.T) {
		spec := newSpec()
		spec.MachineCapabilities[0].Values = []string{"amd64"}
		spec.MachineImages[0].Versions[0].Architectures = []string{"amd64"}
		spec.MachineTypes[0].Architecture = ptrTo("amd64")
		before := *spec.DeepCopy()
		SyncArchitectureCapabilities(&spec, emptyOld)
		if !reflect.DeepEqual(spec, before) {
			t.Fatalf("spec changed: %+v", spec)
		}
	})
	t.Run("capabilities and flavors are created from the architecture fields", func(t *testing.T) {
		spec := newSpec()
		spec.MachineImages[0].Versions[0].Architectures = []string{"amd64", "arm64"}
		spec.MachineTypes[0].Architecture = ptrTo("arm64")
		SyncArchitectureCapabilities(&spec, emptyOld)
		v, m := spec.MachineImages[0].Versions[0], spec.MachineTypes[0]
		if !reflect.DeepEqual(v.CapabilityFlavors, []gardencorev1beta1.MachineImageFlavor{flavor("amd64"), flavor("arm64")}) || !slices.Equal(v.Architectures, []string{"amd64", "arm64"}) {
			t.Fatalf("version = %+v", v)
		}
		if *m.Architecture != "arm64" || !slices.Equal(m.Capabilities["architecture"], gardencorev1beta1.CapabilityValues{"arm64"}) {
			t.Fatalf("machine type = %+v", m)
		}
	})
	t.Run("capabilities that are already set are not written", func(t *testing.T) {
		spec := newSpec()
		spec.MachineImages[0].Versions[0].Architectures = []string{"amd64", "arm64"}
		spec.MachineImages[0].Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor("custom")}
		spec.MachineTypes[0].Architecture = ptrTo("amd64")
		spec.MachineTypes[0].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"custom"}}
		spec.MachineTypes = append(spec.MachineTypes, gardencorev1beta1.MachineType{Architecture: ptrTo("amd64")})
		SyncArchitectureCapabilities(&spec, emptyOld)
		v := spec.MachineImages[0].Versions[0]
		if len(v.CapabilityFlavors) != 1 || v.CapabilityFlavors[0].Capabilities["architecture"][0] != "custom" || !slices.Equal(v.Architectures, []string{"amd64", "arm64"}) {
			t.Fatalf("version = %+v", v)
		}
		if spec.MachineTypes[0].Capabilities["architecture"][0] != "custom" || *spec.MachineTypes[0].Architecture != "amd64" {
			t.Fatalf("machine type 0 = %+v", spec.MachineTypes[0])
		}
		if spec.MachineTypes[1].Capabilities["architecture"][0] != "amd64" || *spec.MachineTypes[1].Architecture != "amd64" {
			t.Fatalf("machine type 1 = %+v", spec.MachineTypes[1])
		}
	})
	t.Run("amd64 is the default if the architecture fields and capabilities are empty", func(t *testing.T) {
		spec := newSpec()
		SyncArchitectureCapabilities(&spec, emptyOld)
		v, m := spec.MachineImages[0].Versions[0], spec.MachineTypes[0]
		if !slices.Equal(v.Architectures, []string{"amd64"}) || !reflect.DeepEqual(v.CapabilityFlavors, []gardencorev1beta1.MachineImageFlavor{flavor("amd64")}) {
			t.Fatalf("version = %+v", v)
		}
		if *m.Architecture != "amd64" || m.Capabilities["architecture"][0] != "amd64" {
			t.Fatalf("machine type = %+v", m)
		}
	})
	t.Run("capabilities and flavors are cleared on migration to the legacy format", func(t *testing.T) {
		spec := newSpec()
		spec.MachineCapabilities = []gardencorev1beta1.CapabilityDefinition{}
		spec.MachineImages[0].Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor("amd64"), flavor("arm64")}
		spec.MachineTypes[0].Capabilities = gardencorev1beta1.Capabilities{"architecture": {"arm64"}}
		SyncArchitectureCapabilities(&spec, &gardencorev1beta1.CloudProfileSpec{MachineCapabilities: []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"arm64", "amd64"}}}})
		if spec.MachineImages[0].Versions[0].CapabilityFlavors != nil || spec.MachineTypes[0].Capabilities != nil {
			t.Fatalf("spec = %+v", spec)
		}
	})
	t.Run("PrepareForUpdate syncs the architecture fields on migration to capabilities", func(t *testing.T) {
		oldCP := &gardencorev1beta1.CloudProfile{Spec: gardencorev1beta1.CloudProfileSpec{
			MachineTypes:  []gardencorev1beta1.MachineType{{Name: "machineType1", Architecture: ptrTo("amd64")}},
			MachineImages: []gardencorev1beta1.MachineImage{{Versions: []gardencorev1beta1.MachineImageVersion{{ExpirableVersion: ev{Version: "1.0.0"}, Architectures: []string{"amd64"}}}}},
		}}
		newCP := oldCP.DeepCopy()
		newCP.Spec.MachineCapabilities = []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"amd64", "arm64"}}}
		prepared, _ := PrepareCloudProfileForUpdate(newCP, oldCP)
		m, v := prepared.Spec.MachineTypes[0], prepared.Spec.MachineImages[0].Versions[0]
		if *m.Architecture != "amd64" || !slices.Equal(m.Capabilities["architecture"], gardencorev1beta1.CapabilityValues{"amd64"}) {
			t.Fatalf("machine type = %+v", m)
		}
		if !slices.Equal(v.Architectures, []string{"amd64"}) || !reflect.DeepEqual(v.CapabilityFlavors, []gardencorev1beta1.MachineImageFlavor{flavor("amd64")}) {
			t.Fatalf("version = %+v", v)
		}
	})
	t.Run("Canonicalize syncs capability architectures to empty architecture fields", func(t *testing.T) {
		cp := &gardencorev1beta1.CloudProfile{Spec: gardencorev1beta1.CloudProfileSpec{
			MachineCapabilities: []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"amd64"}}},
			MachineImages:       []gardencorev1beta1.MachineImage{{Versions: []gardencorev1beta1.MachineImageVersion{{CapabilityFlavors: []gardencorev1beta1.MachineImageFlavor{flavor("amd64")}}}}},
			MachineTypes:        []gardencorev1beta1.MachineType{{Capabilities: gardencorev1beta1.Capabilities{"architecture": {"amd64"}}}},
		}}
		stored, _ := StoredCloudProfile(cp, nil, gateOff())
		if *stored.Spec.MachineTypes[0].Architecture != "amd64" || !slices.Equal(stored.Spec.MachineImages[0].Versions[0].Architectures, []string{"amd64"}) {
			t.Fatalf("stored = %+v", stored.Spec)
		}
	})
	t.Run("on create Canonicalize migrates a multi-architecture profile", func(t *testing.T) {
		cp := capabilityCloudProfile()
		cp.Spec.MachineCapabilities = []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"amd64", "arm64"}}}
		cp.Spec.MachineImages[0].Versions[0].CapabilityFlavors = []gardencorev1beta1.MachineImageFlavor{flavor("arm64")}
		stored, _ := StoredCloudProfile(cp, nil, gateOff())
		m := stored.Spec.MachineTypes[0]
		if *m.Architecture != "amd64" || m.Capabilities["architecture"][0] != "amd64" {
			t.Fatalf("machine type = %+v", m)
		}
		if got := stored.Spec.MachineImages[0].Versions[0].Architectures; !slices.Equal(got, []string{"arm64"}) {
			t.Fatalf("architectures = %v", got)
		}
	})
	t.Run("update keeps the old status", func(t *testing.T) {
		oldCP := validCloudProfile()
		oldCP.Status = StatusAt(oldCP.Spec, testNow)
		newCP := validCloudProfile()
		newCP.Status = gardencorev1beta1.CloudProfileStatus{}
		stored, _ := StoredCloudProfile(newCP, oldCP, gateOff())
		if !reflect.DeepEqual(stored.Status, oldCP.Status) {
			t.Fatalf("status = %+v", stored.Status)
		}
	})
}

// Defaulting is Gardener's own.
func TestDefaults_CloudProfile(t *testing.T) {
	t.Run("architectures, update strategy, CRI and usable are defaulted", func(t *testing.T) {
		cp := capabilityCloudProfile()
		cp.Spec.MachineImages[0].UpdateStrategy = nil
		cp.Spec.MachineImages[0].Versions[0].CRI = nil
		cp.Spec.VolumeTypes = []gardencorev1beta1.VolumeType{{Name: "v", Class: "c"}}
		d := DefaultedCloudProfile(cp)
		v := d.Spec.MachineImages[0].Versions[0]
		if *d.Spec.MachineImages[0].UpdateStrategy != gardencorev1beta1.UpdateStrategyMajor || !slices.Equal(v.Architectures, []string{"amd64"}) ||
			len(v.CRI) != 1 || v.CRI[0].Name != gardencorev1beta1.CRINameContainerD || *d.Spec.MachineTypes[0].Architecture != "amd64" ||
			!*d.Spec.MachineTypes[0].Usable || !*d.Spec.VolumeTypes[0].Usable {
			t.Fatalf("defaulted = %+v", d.Spec)
		}
		if cp.Spec.MachineImages[0].UpdateStrategy != nil {
			t.Fatal("input modified")
		}
	})
	t.Run("architectures are not defaulted with capability definitions", func(t *testing.T) {
		cp := capabilityCloudProfile()
		cp.Spec.MachineCapabilities = []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"arm64"}}}
		d := DefaultedCloudProfile(cp)
		if d.Spec.MachineImages[0].Versions[0].Architectures != nil || d.Spec.MachineTypes[0].Architecture != nil {
			t.Fatalf("defaulted = %+v", d.Spec)
		}
	})
}

// TestStoredCloudProfile_GenerationIsNeverSet: Gardener's CloudProfile strategy leaves
// metadata.generation alone, so it is 0 after a create and stays what it was on update.
func TestStoredCloudProfile_GenerationIsNeverSet(t *testing.T) {
	opts := gateOn()
	cp := validCloudProfile()
	cp.Generation = 7 // whatever a request carries is not what the server stores
	if stored, _ := StoredCloudProfile(cp, nil, opts); stored.Generation != 0 {
		t.Errorf("create: generation %d, want 0", stored.Generation)
	}
	old := validCloudProfile()
	old.Generation = 3
	changed := validCloudProfile()
	changed.Spec.Type = "other"
	if stored, _ := StoredCloudProfile(changed, old, opts); stored.Generation != 3 {
		t.Errorf("update: generation %d, want 3", stored.Generation)
	}
}

// TestPreparation_NeverChangesItsInputsAndReturnsItsOwnCopies: validation and the stored-object
// prediction copy only the lists that defaulting and the architecture/capability sync assign to
// and share the rest with their inputs; neither the inputs nor (through the returned objects)
// anything they share may change. The pairs cover every path that assigns: defaults missing
// everywhere, the initial migration to capabilities with two or more architectures (create and
// update from an old spec without definitions), dropping versions on create, and an update
// back to architectures.
func TestPreparation_NeverChangesItsInputsAndReturnsItsOwnCopies(t *testing.T) {
	undefaulted := func() *gardencorev1beta1.CloudProfile {
		cp := capabilityCloudProfile()
		cp.Spec.MachineImages[0].UpdateStrategy = nil
		cp.Spec.MachineImages[0].Versions[0].CRI = nil
		cp.Spec.VolumeTypes = []gardencorev1beta1.VolumeType{{Name: "v", Class: "c"}}
		return cp
	}
	migrating := func() *gardencorev1beta1.CloudProfile {
		cp := undefaulted()
		cp.Spec.MachineCapabilities = []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"arm64", "amd64"}}}
		cp.Spec.MachineImages[0].Versions[0].Architectures = []string{"arm64"}
		cp.Spec.MachineImages[0].Versions[0].CapabilityFlavors = make([]gardencorev1beta1.MachineImageFlavor, 0, 4)
		return cp
	}
	pairs := map[string]struct {
		cp, old *gardencorev1beta1.CloudProfile
	}{
		"create without defaults":       {undefaulted(), nil},
		"update without defaults":       {undefaulted(), undefaulted()},
		"create migrating":              {migrating(), nil},
		"update migrating":              {migrating(), undefaulted()},
		"update back to architectures":  {undefaulted(), migrating()},
		"create dropping versions":      {genCloudProfile(40), nil},
		"update of many versions":       {genCloudProfile(40), genCloudProfile(40)},
		"update of a profile to itself": {validCloudProfile(), validCloudProfile()},
	}
	opts := gateOn()
	for name, p := range pairs {
		t.Run(name, func(t *testing.T) {
			cpBefore, oldBefore := p.cp.DeepCopy(), p.old.DeepCopy()
			unchanged := func(step string) {
				t.Helper()
				if !reflect.DeepEqual(p.cp, cpBefore) {
					t.Fatalf("%s changed the new object", step)
				}
				if !reflect.DeepEqual(p.old, oldBefore) {
					t.Fatalf("%s changed the old object", step)
				}
			}
			_ = ValidateCloudProfileRequest(p.cp, p.old, opts)
			unchanged("ValidateCloudProfileRequest")
			stored, _ := StoredCloudProfile(p.cp, p.old, opts)
			unchanged("StoredCloudProfile")
			scribble(&stored.Spec)
			unchanged("changing StoredCloudProfile's result")
			var prepared, preparedOld *gardencorev1beta1.CloudProfile
			if p.old == nil {
				prepared, _ = PrepareCloudProfileForCreate(p.cp, opts)
			} else {
				prepared, preparedOld = PrepareCloudProfileForUpdate(p.cp, p.old)
				scribble(&preparedOld.Spec)
			}
			scribble(&prepared.Spec)
			unchanged("changing the prepared objects")
		})
	}
}

// scribble changes every value below the lists of spec that a copy could share with its source.
func scribble(spec *gardencorev1beta1.CloudProfileSpec) {
	other := gardencorev1beta1.ClassificationExpired
	scribbleVersion := func(v *gardencorev1beta1.ExpirableVersion) {
		v.Version += "-changed"
		if v.Classification != nil {
			*v.Classification = other
		}
		for k := range v.Lifecycle {
			v.Lifecycle[k].Classification = other
		}
	}
	for i := range spec.Kubernetes.Versions {
		scribbleVersion(&spec.Kubernetes.Versions[i])
	}
	for i := range spec.MachineImages {
		image := &spec.MachineImages[i]
		*image.UpdateStrategy = gardencorev1beta1.UpdateStrategyPatch
		for j := range image.Versions {
			v := &image.Versions[j]
			scribbleVersion(&v.ExpirableVersion)
			for k := range v.Architectures {
				v.Architectures[k] = "changed"
			}
			for k := range v.CRI {
				v.CRI[k].Name = "changed"
			}
			for k := range v.CapabilityFlavors {
				if v.CapabilityFlavors[k].Capabilities != nil {
					v.CapabilityFlavors[k].Capabilities["changed"] = nil
				}
			}
		}
	}
	for i := range spec.MachineTypes {
		m := &spec.MachineTypes[i]
		if m.Architecture != nil {
			*m.Architecture = "changed"
		}
		*m.Usable = false
		if m.Capabilities != nil {
			m.Capabilities["changed"] = nil
		}
	}
	for i := range spec.VolumeTypes {
		*spec.VolumeTypes[i].Usable = false
	}
	for i := range spec.Regions {
		spec.Regions[i].Name += "-changed"
	}
}

// TestRule53_AnUpdateWithManyDefinedArchitecturesValidatesInLinearTime: on an update, every image
// version without architectures or flavors gets every defined architecture (Gardener's sync).
// Building that union value by value against the list built so far, for each version, takes
// about 4·10¹⁰ comparisons for 200 versions and 20,000 values (minutes); the versions share one
// union. Gardener's findings stay: each value is no valid architecture (I-4), and each version's
// architectures conflict with its (missing) flavors (F-6).
func TestRule53_AnUpdateWithManyDefinedArchitecturesValidatesInLinearTime(t *testing.T) {
	const values, versions = 20_000, 200
	cp := capabilityCloudProfile()
	defined := make([]string, values)
	for i := range defined {
		defined[i] = fmt.Sprintf("arch-%d", i)
	}
	cp.Spec.MachineCapabilities = []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: defined}}
	for i := 0; i < versions; i++ {
		cp.Spec.MachineImages[0].Versions = append(cp.Spec.MachineImages[0].Versions,
			gardencorev1beta1.MachineImageVersion{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: fmt.Sprintf("1.%d.0", i)}})
	}
	done := make(chan Problems, 1)
	go func() { done <- ValidateCloudProfileRequest(cp, cp.DeepCopy(), gateOn()) }()
	select {
	case ps := <-done:
		byRule := map[string]int{}
		for _, p := range ps {
			byRule[p.Rule]++
		}
		if want := map[string]int{"I-4": values, "F-6": versions + 1}; !reflect.DeepEqual(byRule, want) {
			t.Errorf("problems by rule %v, want %v", byRule, want)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("validating an update with 20,000 defined architectures took longer than 30 s: the sync is not linear")
	}
}

// TestArchSet_KeepsFirstAdditionOrderBelowAndAboveTheMapThreshold: a set of architecture values
// dedups in the order of first addition, looked up in its list while small and through its map
// once past smallArchSet values.
func TestArchSet_KeepsFirstAdditionOrderBelowAndAboveTheMapThreshold(t *testing.T) {
	for _, n := range []int{0, 1, smallArchSet, smallArchSet + 1, 3 * smallArchSet} {
		var s archSet
		var want []string
		for i := n - 1; i >= 0; i-- {
			v := fmt.Sprintf("arch-%d", i)
			s.add(v, v)
			s.add(v)
			want = append(want, v)
		}
		if !slices.Equal(s.order, want) {
			t.Fatalf("n=%d: order %v, want %v", n, s.order, want)
		}
		for _, v := range want {
			if !s.has(v) {
				t.Fatalf("n=%d: %s missing", n, v)
			}
		}
		if s.has("other") || (s.index != nil) != (n > smallArchSet) {
			t.Fatalf("n=%d: has(other) %v, indexed %v", n, s.has("other"), s.index != nil)
		}
	}
}
