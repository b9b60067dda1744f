package cloudprofile

import (
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Tests of StoredNamespacedCloudProfile, named after Gardener's strategy tests (pkg/apiserver/registry/core/namespacedcloudprofile/strategy_test.go).

func ncpObject(spec gardencorev1beta1.NamespacedCloudProfileSpec) *gardencorev1beta1.NamespacedCloudProfile {
	if spec.Parent == (gardencorev1beta1.CloudProfileReference{}) {
		spec.Parent = gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: "parent"}
	}
	return &gardencorev1beta1.NamespacedCloudProfile{
		ObjectMeta: metav1.ObjectMeta{Name: "profile", Namespace: "garden-team"},
		Spec:       spec,
	}
}

func imageVersionOnly(version string, expiration *metav1.Time) gardencorev1beta1.MachineImageVersion {
	return gardencorev1beta1.MachineImageVersion{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: version, ExpirationDate: expiration}}
}

func ncpVersionStrings(versions []gardencorev1beta1.ExpirableVersion) []string {
	var out []string
	for _, v := range versions {
		out = append(out, v.Version)
	}
	return out
}

func ncpImageVersionStrings(images []gardencorev1beta1.MachineImage) map[string][]string {
	out := map[string][]string{}
	for _, image := range images {
		out[image.Name] = nil
		for _, v := range image.Versions {
			out[image.Name] = append(out[image.Name], v.Version)
		}
	}
	return out
}

// The fixture of Gardener's strategy tests: valid dates lie 144h and 24h ahead, expired ones 1h and 24h behind.
func ncpsKubernetes() *gardencorev1beta1.KubernetesSettings {
	return &gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{
		{Version: "1.27.3"},
		{Version: "1.26.4", ExpirationDate: at(144 * hour)},
		{Version: "1.25.6", ExpirationDate: at(24 * hour)},
		{Version: "1.24.8", ExpirationDate: at(-hour)},
		{Version: "1.24.6", ExpirationDate: at(-24 * hour)},
	}}
}

func ncpsMachineImages() []gardencorev1beta1.MachineImage {
	return []gardencorev1beta1.MachineImage{
		{Name: "machineImage1", Versions: []gardencorev1beta1.MachineImageVersion{
			imageVersionOnly("2.1.0", nil), imageVersionOnly("2.0.3", at(144*hour)), imageVersionOnly("1.9.7", at(-24*hour)),
		}},
		{Name: "machineImage2", Versions: []gardencorev1beta1.MachineImageVersion{
			imageVersionOnly("4.3.0", at(24*hour)), imageVersionOnly("4.2.3", nil), imageVersionOnly("4.1.8", at(-hour)),
		}},
	}
}

func TestNCPStore_DropsInactiveVersionsOnCreate(t *testing.T) {
	for _, tt := range []struct {
		name               string
		kubernetes, images bool
	}{
		{"only machineImage set", false, true},
		{"only kubernetes set", true, false},
		{"both kubernetes and machineImages set", true, true},
	} {
		t.Run("should drop expired versions from the NamespacedCloudProfile: "+tt.name, func(t *testing.T) {
			var spec gardencorev1beta1.NamespacedCloudProfileSpec
			if tt.kubernetes {
				spec.Kubernetes = ncpsKubernetes()
			}
			if tt.images {
				spec.MachineImages = ncpsMachineImages()
			}
			ncp := ncpObject(spec)
			before := ncpJSON(t, ncp)

			stored, dropped := StoredNamespacedCloudProfile(ncp, nil, gateOff())

			if string(before) != string(ncpJSON(t, ncp)) {
				t.Fatal("the input was modified")
			}
			var wantDropped []DroppedVersion
			if tt.kubernetes {
				if got, want := ncpVersionStrings(stored.Spec.Kubernetes.Versions), []string{"1.27.3", "1.26.4", "1.25.6"}; !reflect.DeepEqual(got, want) {
					t.Errorf("kubernetes versions %v, want %v", got, want)
				}
				versions := NewPath("spec").Child("kubernetes").Child("versions")
				wantDropped = append(wantDropped,
					DroppedVersion{Path: versions.Index(3), Version: "1.24.8", Classification: expired},
					DroppedVersion{Path: versions.Index(4), Version: "1.24.6", Classification: expired})
			}
			if tt.images {
				want := map[string][]string{"machineImage1": {"2.1.0", "2.0.3"}, "machineImage2": {"4.3.0", "4.2.3"}}
				if got := ncpImageVersionStrings(stored.Spec.MachineImages); !reflect.DeepEqual(got, want) {
					t.Errorf("machine image versions %v, want %v", got, want)
				}
				images := NewPath("spec").Child("machineImages")
				wantDropped = append(wantDropped,
					DroppedVersion{Path: images.Index(0).Child("versions").Index(2), Image: "machineImage1", Version: "1.9.7", Classification: expired},
					DroppedVersion{Path: images.Index(1).Child("versions").Index(2), Image: "machineImage2", Version: "4.1.8", Classification: expired})
			}
			expectDropped(t, dropped, wantDropped)
		})
	}
}

func expectDropped(t *testing.T, got, want []DroppedVersion) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("dropped %v, want %v", describeDropped(got), describeDropped(want))
	}
	for i := range got {
		if got[i].Path.Field() != want[i].Path.Field() || got[i].Path.Attribute() != want[i].Path.Attribute() ||
			got[i].Image != want[i].Image || got[i].Version != want[i].Version || got[i].Classification != want[i].Classification {
			t.Fatalf("dropped %v, want %v", describeDropped(got), describeDropped(want))
		}
	}
}

func describeDropped(ds []DroppedVersion) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Path.Field()+"("+d.Path.Attribute()+")="+d.Image+"@"+d.Version+":"+string(d.Classification))
	}
	return out
}

func TestNCPStore_RemovesEmptiedMachineImageEntries(t *testing.T) {
	t.Run("should drop empty machine image entries from NamespacedCloudProfile after dropping expired versions", func(t *testing.T) {
		ncp := ncpObject(gardencorev1beta1.NamespacedCloudProfileSpec{MachineImages: []gardencorev1beta1.MachineImage{
			{Name: "machineImage1", Versions: []gardencorev1beta1.MachineImageVersion{imageVersionOnly("1.0.0", at(-hour))}},
			{Name: "machineImage2", Versions: []gardencorev1beta1.MachineImageVersion{imageVersionOnly("1.2.0", nil)}},
		}})
		stored, dropped := StoredNamespacedCloudProfile(ncp, nil, gateOff())
		want := []gardencorev1beta1.MachineImage{{Name: "machineImage2", Versions: []gardencorev1beta1.MachineImageVersion{imageVersionOnly("1.2.0", nil)}}}
		if !reflect.DeepEqual(stored.Spec.MachineImages, want) {
			t.Errorf("machine images %s, want %s", ncpJSON(t, stored.Spec.MachineImages), ncpJSON(t, want))
		}
		images := NewPath("spec").Child("machineImages")
		expectDropped(t, dropped, []DroppedVersion{
			{Path: images.Index(0).Child("versions").Index(0), Image: "machineImage1", Version: "1.0.0", Classification: expired},
			{Path: images.Index(0), Image: "machineImage1"},
		})
	})
	t.Run("should not drop a machine image entry from NamespacedCloudProfile if the updateStrategy is set", func(t *testing.T) {
		ncp := ncpObject(gardencorev1beta1.NamespacedCloudProfileSpec{MachineImages: []gardencorev1beta1.MachineImage{
			{Name: "machineImage1", UpdateStrategy: ptrTo(gardencorev1beta1.UpdateStrategyMajor), Versions: []gardencorev1beta1.MachineImageVersion{imageVersionOnly("1.0.0", at(-hour))}},
			{Name: "machineImage2", UpdateStrategy: ptrTo(gardencorev1beta1.UpdateStrategyMajor)},
		}})
		stored, _ := StoredNamespacedCloudProfile(ncp, nil, gateOff())
		want := []gardencorev1beta1.MachineImage{
			{Name: "machineImage1", UpdateStrategy: ptrTo(gardencorev1beta1.UpdateStrategyMajor)},
			{Name: "machineImage2", UpdateStrategy: ptrTo(gardencorev1beta1.UpdateStrategyMajor)},
		}
		if !reflect.DeepEqual(stored.Spec.MachineImages, want) {
			t.Errorf("machine images %s, want %s", ncpJSON(t, stored.Spec.MachineImages), ncpJSON(t, want))
		}
	})
	t.Run("an entry without versions and without update strategy is removed even if it never had versions", func(t *testing.T) {
		ncp := ncpObject(gardencorev1beta1.NamespacedCloudProfileSpec{MachineImages: []gardencorev1beta1.MachineImage{
			{Name: "empty"}, {Name: "blank", UpdateStrategy: ptrTo(gardencorev1beta1.MachineImageUpdateStrategy(""))},
		}})
		stored, dropped := StoredNamespacedCloudProfile(ncp, nil, gateOff())
		if stored.Spec.MachineImages != nil {
			t.Errorf("machine images %s, want none", ncpJSON(t, stored.Spec.MachineImages))
		}
		images := NewPath("spec").Child("machineImages")
		expectDropped(t, dropped, []DroppedVersion{{Path: images.Index(0), Image: "empty"}, {Path: images.Index(1), Image: "blank"}})
	})
	t.Run("the Kubernetes section is kept when all its versions are dropped", func(t *testing.T) {
		ncp := ncpObject(gardencorev1beta1.NamespacedCloudProfileSpec{Kubernetes: &gardencorev1beta1.KubernetesSettings{
			Versions: []gardencorev1beta1.ExpirableVersion{{Version: "1.24.8", ExpirationDate: at(-hour)}},
		}})
		stored, _ := StoredNamespacedCloudProfile(ncp, nil, gateOff())
		if stored.Spec.Kubernetes == nil || stored.Spec.Kubernetes.Versions != nil {
			t.Errorf("kubernetes %s, want {}", ncpJSON(t, stored.Spec.Kubernetes))
		}
	})
}

func TestNCPStore_DropsUnavailableVersions(t *testing.T) {
	ncp := ncpObject(gardencorev1beta1.NamespacedCloudProfileSpec{
		Kubernetes: &gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{
			{Version: "1.30.0", Lifecycle: lc{stageAt(supported, day)}},
			{Version: "1.29.0", Lifecycle: lc{stageAt(supported, -day)}},
		}},
		MachineImages: []gardencorev1beta1.MachineImage{{Name: "image", Versions: []gardencorev1beta1.MachineImageVersion{
			{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1.0.0", Lifecycle: lc{stageAt(preview, day)}}},
			{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1.1.0", Lifecycle: lc{stageOpen(preview), stageAt(expired, hour)}}},
		}}},
	})
	stored, dropped := StoredNamespacedCloudProfile(ncp, nil, gateOn())
	if got := ncpVersionStrings(stored.Spec.Kubernetes.Versions); !reflect.DeepEqual(got, []string{"1.29.0"}) {
		t.Errorf("kubernetes versions %v", got)
	}
	if got := ncpImageVersionStrings(stored.Spec.MachineImages); !reflect.DeepEqual(got, map[string][]string{"image": {"1.1.0"}}) {
		t.Errorf("machine image versions %v", got)
	}
	expectDropped(t, dropped, []DroppedVersion{
		{Path: NewPath("spec").Child("kubernetes").Child("versions").Index(0), Version: "1.30.0", Classification: unavailable},
		{Path: NewPath("spec").Child("machineImages").Index(0).Child("versions").Index(0), Image: "image", Version: "1.0.0", Classification: unavailable},
	})
}

func TestNCPStore_KeepsInactiveVersionsOfTheOldSpecOnUpdate(t *testing.T) {
	oldNCP := ncpObject(gardencorev1beta1.NamespacedCloudProfileSpec{
		Kubernetes: &gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{{Version: "1.24.8", ExpirationDate: at(-hour)}}},
		MachineImages: []gardencorev1beta1.MachineImage{{Name: "machineImage1", Versions: []gardencorev1beta1.MachineImageVersion{
			imageVersionOnly("1.9.7", at(-24*hour)),
		}}},
	})
	oldNCP.Generation = 4
	newNCP := ncpObject(gardencorev1beta1.NamespacedCloudProfileSpec{
		Kubernetes: &gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{
			{Version: "1.24.8", ExpirationDate: at(-2 * hour)},
			{Version: "1.24.6", ExpirationDate: at(-24 * hour)},
		}},
		MachineImages: []gardencorev1beta1.MachineImage{
			{Name: "machineImage1", Versions: []gardencorev1beta1.MachineImageVersion{imageVersionOnly("1.9.7", at(-24*hour)), imageVersionOnly("1.9.6", at(-24*hour))}},
			{Name: "machineImage2", Versions: []gardencorev1beta1.MachineImageVersion{imageVersionOnly("1.9.7", at(-24*hour))}},
		},
	})
	stored, dropped := StoredNamespacedCloudProfile(newNCP, oldNCP, gateOff())

	t.Run("should not drop expired Kubernetes versions already present in the NamespacedCloudProfile", func(t *testing.T) {
		if got := ncpVersionStrings(stored.Spec.Kubernetes.Versions); !reflect.DeepEqual(got, []string{"1.24.8"}) {
			t.Errorf("kubernetes versions %v", got)
		}
	})
	t.Run("should not drop expired MachineImage versions already present in the NamespacedCloudProfile", func(t *testing.T) {
		if got := ncpImageVersionStrings(stored.Spec.MachineImages); !reflect.DeepEqual(got, map[string][]string{"machineImage1": {"1.9.7"}}) {
			t.Errorf("machine image versions %v", got)
		}
	})
	t.Run("should drop expired Kubernetes and MachineImage versions not already present in the NamespacedCloudProfile", func(t *testing.T) {
		images := NewPath("spec").Child("machineImages")
		expectDropped(t, dropped, []DroppedVersion{
			{Path: NewPath("spec").Child("kubernetes").Child("versions").Index(1), Version: "1.24.6", Classification: expired},
			{Path: images.Index(0).Child("versions").Index(1), Image: "machineImage1", Version: "1.9.6", Classification: expired},
			{Path: images.Index(1).Child("versions").Index(0), Image: "machineImage2", Version: "1.9.7", Classification: expired},
			{Path: images.Index(1), Image: "machineImage2"},
		})
	})
	t.Run("should increment generation if spec has changed", func(t *testing.T) {
		if stored.Generation != 5 {
			t.Errorf("generation %d, want 5", stored.Generation)
		}
	})
}

func TestNCPStore_Generation(t *testing.T) {
	spec := gardencorev1beta1.NamespacedCloudProfileSpec{
		MachineTypes: []gardencorev1beta1.MachineType{{Name: "m"}},
		VolumeTypes:  []gardencorev1beta1.VolumeType{{Name: "v", Class: "c"}},
	}
	t.Run("should set generation to 1 initially", func(t *testing.T) {
		ncp := ncpObject(spec)
		ncp.Generation = 9
		stored, _ := StoredNamespacedCloudProfile(ncp, nil, gateOff())
		if stored.Generation != 1 {
			t.Errorf("generation %d, want 1", stored.Generation)
		}
	})
	old := ncpObject(spec)
	old.Generation = 3
	t.Run("should not increment generation if spec has not changed", func(t *testing.T) {
		ncp := ncpObject(spec)
		ncp.Generation = 1 // the client's value is ignored: the API server takes the old generation
		// The old object is stored defaulted; the new one only after defaulting: still equal.
		oldStored, _ := StoredNamespacedCloudProfile(old, nil, gateOff())
		oldStored.Generation = 3
		stored, _ := StoredNamespacedCloudProfile(ncp, oldStored, gateOff())
		if stored.Generation != 3 {
			t.Errorf("generation %d, want 3", stored.Generation)
		}
	})
	t.Run("should increment generation if spec has changed", func(t *testing.T) {
		ncp := ncpObject(spec)
		ncp.Spec.CABundle = ptrTo("bundle")
		stored, _ := StoredNamespacedCloudProfile(ncp, old, gateOff())
		if stored.Generation != 4 {
			t.Errorf("generation %d, want 4", stored.Generation)
		}
	})
	t.Run("should increment generation if deletion timestamp is set", func(t *testing.T) {
		ncp := ncpObject(spec)
		ncp.DeletionTimestamp = at(0)
		stored, _ := StoredNamespacedCloudProfile(ncp, old, gateOff())
		if stored.Generation != 4 {
			t.Errorf("generation %d, want 4", stored.Generation)
		}
	})
	t.Run("an empty and a missing list are the same spec", func(t *testing.T) {
		ncp := ncpObject(spec)
		ncp.Spec.MachineImages = []gardencorev1beta1.MachineImage{}
		stored, _ := StoredNamespacedCloudProfile(ncp, old, gateOff())
		if stored.Generation != 3 {
			t.Errorf("generation %d, want 3", stored.Generation)
		}
	})
}

func TestNCPStore_Status(t *testing.T) {
	status := gardencorev1beta1.NamespacedCloudProfileStatus{
		CloudProfileSpec:   gardencorev1beta1.CloudProfileSpec{Type: "aws"},
		ObservedGeneration: 2,
	}
	t.Run("create resets the status", func(t *testing.T) {
		ncp := ncpObject(gardencorev1beta1.NamespacedCloudProfileSpec{})
		ncp.Status = status
		stored, _ := StoredNamespacedCloudProfile(ncp, nil, gateOff())
		if !reflect.DeepEqual(stored.Status, gardencorev1beta1.NamespacedCloudProfileStatus{}) {
			t.Errorf("status %s, want empty", ncpJSON(t, stored.Status))
		}
	})
	t.Run("should prevent manual updates of the status field", func(t *testing.T) {
		old := ncpObject(gardencorev1beta1.NamespacedCloudProfileSpec{})
		old.Status = status
		ncp := ncpObject(gardencorev1beta1.NamespacedCloudProfileSpec{})
		ncp.Status = gardencorev1beta1.NamespacedCloudProfileStatus{CloudProfileSpec: gardencorev1beta1.CloudProfileSpec{Type: "gcp"}, ObservedGeneration: 7}
		stored, _ := StoredNamespacedCloudProfile(ncp, old, gateOff())
		if !reflect.DeepEqual(stored.Status, status) {
			t.Errorf("status %s, want the old one %s", ncpJSON(t, stored.Status), ncpJSON(t, status))
		}
	})
}

func TestNCPStore_Defaulting(t *testing.T) {
	ncp := ncpObject(gardencorev1beta1.NamespacedCloudProfileSpec{
		MachineImages: []gardencorev1beta1.MachineImage{{Name: "image", Versions: []gardencorev1beta1.MachineImageVersion{imageVersionOnly("1.0.0", nil)}}},
		MachineTypes:  []gardencorev1beta1.MachineType{{Name: "m"}},
		VolumeTypes:   []gardencorev1beta1.VolumeType{{Name: "v", Class: "c"}},
	})
	stored, _ := StoredNamespacedCloudProfile(ncp, nil, gateOff())
	want := `{"machineImages":[{"name":"image","versions":[{"version":"1.0.0"}]}],"machineTypes":[{"cpu":"0","gpu":"0","memory":"0","name":"m","usable":true}],"volumeTypes":[{"class":"c","name":"v","usable":true}],"parent":{"kind":"CloudProfile","name":"parent"}}`
	if string(ncpJSON(t, stored.Spec)) != want {
		t.Errorf("only usable is defaulted, machine images are not:\n got: %s\nwant: %s", ncpJSON(t, stored.Spec), want)
	}
}
