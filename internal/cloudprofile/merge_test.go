package cloudprofile

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Golden tests of the merge, one test per step of Gardener's MergeCloudProfiles. Each subtest is named by the
// meaning of the Gardener test (the reconciler tests of pkg/controllermanager/controller/namespacedcloudprofile, the tests of pkg/utils/gardener/namespacedcloudprofile.go) it mirrors, states the rule by comparing the relevant
// top-level fields of the result with an expected JSON fragment, compares the whole result byte
// for byte with its golden file under testdata/merge/steps, checks that the inputs were not
// modified, and — when GARDENER_MERGE_REFERENCE is set — compares with Gardener's own merge.

// mergeStep is one golden case: parent and NCP spec as served (JSON), and the expected JSON of
// some top-level fields of the result.
type mergeStep struct {
	name   string
	parent string
	ncp    string
	want   map[string]string
}

func runMergeSteps(t *testing.T, steps []mergeStep) {
	t.Helper()
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			input := []byte(`{"parent":` + s.parent + `,"ncp":` + s.ncp + `}`)
			var c mergeCase
			if err := json.Unmarshal(input, &c); err != nil {
				t.Fatalf("bad test input: %v", err)
			}
			parentBefore, ncpBefore := ncpJSON(t, c.Parent), ncpJSON(t, c.NCP)

			got := mergeToJSON(t, c)

			if !bytes.Equal(parentBefore, ncpJSON(t, c.Parent)) || !bytes.Equal(ncpBefore, ncpJSON(t, c.NCP)) {
				t.Fatal("the merge modified its inputs")
			}
			expectMergedFields(t, got, s.want)
			expectGolden(t, stepGoldenFile(t), got)
			if ref, ok := gardenerMergeIfConfigured(t, input); ok && !sameUpToArchitectureOrder(got, ref) {
				t.Fatalf("differs from Gardener's merge\n     got: %s\ngardener: %s", got, ref)
			}
		})
	}
}

// expectMergedFields compares top-level fields of an encoded result with expected JSON ("null" or
// "absent" for a field that must not be encoded).
func expectMergedFields(t *testing.T, got []byte, want map[string]string) {
	t.Helper()
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(got, &fields); err != nil {
		t.Fatal(err)
	}
	for name, w := range want {
		g, present := fields[name]
		if w == "absent" {
			if present {
				t.Errorf("%s: want absent, got %s", name, g)
			}
			continue
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, []byte(w)); err != nil {
			t.Fatalf("bad expectation for %s: %v", name, err)
		}
		if !present {
			t.Errorf("%s: absent, want %s", name, compact.Bytes())
			continue
		}
		if !bytes.Equal(g, compact.Bytes()) {
			t.Errorf("%s:\n got: %s\nwant: %s", name, g, compact.Bytes())
		}
	}
}

var nonFileChars = regexp.MustCompile(`[^A-Za-z0-9_.-]+`)

func stepGoldenFile(t *testing.T) string {
	parts := strings.SplitN(t.Name(), "/", 2)
	return filepath.Join("testdata", "merge", "steps", parts[0], nonFileChars.ReplaceAllString(parts[1], "_")+".golden.json")
}

func gardenerMergeIfConfigured(t *testing.T, input []byte) ([]byte, bool) {
	t.Helper()
	var ref []byte
	ok := t.Run("gardener", func(t *testing.T) { ref = gardenerMerge(t, input) })
	return ref, ok && ref != nil
}

// Shared fragments of the step tests.
const (
	minimalParent = `{"type":"local","kubernetes":{"versions":[{"version":"1.0.0"}]},"machineImages":[],"machineTypes":[],"regions":[{"name":"r"}]}`
	minimalNCP    = `{"parent":{"kind":"CloudProfile","name":"local"}}`
)

func TestMergeStep1_StartFromParent(t *testing.T) {
	runMergeSteps(t, []mergeStep{
		{
			name: "should match the CloudProfile for no overrides",
			parent: `{"type":"local","machineCapabilities":[{"name":"architecture","values":["amd64","arm64"]},{"name":"cap-a","values":["featured","standard"]}],
				"kubernetes":{"versions":[{"version":"1.35.0"},{"version":"1.34.1"},{"version":"1.34.0"}]},
				"machineImages":[{"name":"image-a","versions":null},{"name":"image-b","versions":[
					{"version":"1.0","architectures":["amd64"],"capabilityFlavors":[{"architecture":["amd64"],"cap-a":["standard"]}]},
					{"version":"3.0","architectures":["arm64"],"capabilityFlavors":[{"architecture":["arm64"]}]}]}],
				"machineTypes":[{"name":"type-a","cpu":"0","gpu":"0","memory":"0","architecture":"amd64"}],
				"volumeTypes":[{"name":"volume-a","class":""}],"regions":null}`,
			ncp: minimalNCP,
			want: map[string]string{
				"machineImages": `[{"name":"image-a","versions":null},{"name":"image-b","versions":[
					{"version":"1.0","architectures":["amd64"],"capabilityFlavors":[{"architecture":["amd64"],"cap-a":["standard"]}]},
					{"version":"3.0","architectures":["arm64"],"capabilityFlavors":[{"architecture":["arm64"]}]}]}]`,
				"machineTypes": `[{"cpu":"0","gpu":"0","memory":"0","name":"type-a","architecture":"amd64"}]`,
				"regions":      `null`,
			},
		},
		{
			name: "copies every field the NamespacedCloudProfile cannot set",
			parent: `{"type":"aws","regions":[{"name":"eu","zones":[{"name":"eu-a","unavailableMachineTypes":["m1"]}],"labels":{"a":"b"},"accessRestrictions":[{"name":"eu-access-only"}]}],
				"seedSelector":{"matchLabels":{"x":"y"},"providerTypes":["aws"]},"bastion":{"machineType":{"name":"m5.large"}},
				"kubernetes":{"versions":[{"version":"1.0.0"}]},"machineImages":null,"machineTypes":null}`,
			ncp: minimalNCP,
			want: map[string]string{
				"type":         `"aws"`,
				"regions":      `[{"name":"eu","zones":[{"name":"eu-a","unavailableMachineTypes":["m1"]}],"labels":{"a":"b"},"accessRestrictions":[{"name":"eu-access-only"}]}]`,
				"seedSelector": `{"matchLabels":{"x":"y"},"providerTypes":["aws"]}`,
				"bastion":      `{"machineType":{"name":"m5.large"}}`,
				"limits":       "absent",
				"caBundle":     "absent",
			},
		},
	})
}

func TestMergeStep2_KeyedMergeKeepsParentOrder(t *testing.T) {
	runMergeSteps(t, []mergeStep{
		{
			name: "should add new elements and apply overrides consistently while keeping the existing elements ordered",
			parent: `{"type":"local","machineCapabilities":[{"name":"architecture","values":["amd64","arm64"]}],
				"kubernetes":{"versions":[{"version":"1.35.0"},{"version":"1.34.1"},{"version":"1.34.0"}]},
				"machineImages":[{"name":"image-a","versions":null},{"name":"image-b","versions":[
					{"version":"1.0","architectures":["amd64"],"capabilityFlavors":[{"architecture":["amd64"]}]},
					{"version":"2.0","architectures":["amd64"],"capabilityFlavors":[{"architecture":["amd64"]}]},
					{"version":"3.0","architectures":["arm64"],"capabilityFlavors":[{"architecture":["arm64"]}]}]},{"name":"image-c","versions":null}],
				"machineTypes":[{"name":"type-a","cpu":"0","gpu":"0","memory":"0","architecture":"amd64"},{"name":"type-b","cpu":"0","gpu":"0","memory":"0","architecture":"amd64"}],
				"volumeTypes":[{"name":"volume-a","class":""},{"name":"volume-b","class":""}],"regions":null}`,
			ncp: `{"parent":{"kind":"CloudProfile","name":"local"},
				"kubernetes":{"versions":[{"version":"1.34.1","expirationDate":"2027-02-01T00:00:00Z"}]},
				"machineImages":[{"name":"image-b","versions":[
					{"version":"2.0","expirationDate":"2027-02-01T00:00:00Z"},
					{"version":"4.0","architectures":["amd64"],"capabilityFlavors":[{"architecture":["amd64"]}]}]}],
				"machineTypes":[{"name":"type-d","cpu":"0","gpu":"0","memory":"0","architecture":"amd64"}],
				"volumeTypes":[{"name":"volume-d","class":""}]}`,
			want: map[string]string{
				"kubernetes": `{"versions":[{"version":"1.35.0"},{"version":"1.34.1","expirationDate":"2027-02-01T00:00:00Z"},{"version":"1.34.0"}]}`,
				"machineImages": `[{"name":"image-a","versions":null},{"name":"image-b","versions":[
					{"version":"1.0","architectures":["amd64"],"capabilityFlavors":[{"architecture":["amd64"]}]},
					{"version":"2.0","expirationDate":"2027-02-01T00:00:00Z","architectures":["amd64"],"capabilityFlavors":[{"architecture":["amd64"]}]},
					{"version":"3.0","architectures":["arm64"],"capabilityFlavors":[{"architecture":["arm64"]}]},
					{"version":"4.0","architectures":["amd64"],"capabilityFlavors":[{"architecture":["amd64"]}]}]},{"name":"image-c","versions":null}]`,
				"machineTypes": `[{"cpu":"0","gpu":"0","memory":"0","name":"type-a","architecture":"amd64"},{"cpu":"0","gpu":"0","memory":"0","name":"type-b","architecture":"amd64"},
					{"cpu":"0","gpu":"0","memory":"0","name":"type-d","architecture":"amd64","capabilities":{"architecture":["amd64"]}}]`,
				"volumeTypes": `[{"class":"","name":"volume-a"},{"class":"","name":"volume-b"},{"class":"","name":"volume-d"}]`,
			},
		},
		{
			name: "a key repeated in the parent keeps its first position and its last value",
			parent: `{"type":"local","kubernetes":{"versions":[{"version":"1.0.0"}]},"regions":null,"machineImages":null,
				"machineTypes":[{"name":"a","cpu":"1","gpu":"0","memory":"1Gi","architecture":"amd64"},{"name":"b","cpu":"1","gpu":"0","memory":"1Gi","architecture":"amd64"},{"name":"a","cpu":"2","gpu":"0","memory":"2Gi","architecture":"arm64"}]}`,
			ncp: minimalNCP,
			want: map[string]string{
				"machineTypes": `[{"cpu":"2","gpu":"0","memory":"2Gi","name":"a","architecture":"arm64"},{"cpu":"1","gpu":"0","memory":"1Gi","name":"b","architecture":"amd64"}]`,
			},
		},
		{
			name: "a key repeated in the NamespacedCloudProfile is applied twice and the last one wins",
			parent: `{"type":"local","kubernetes":{"versions":[{"version":"1.0.0"}]},"regions":null,"machineImages":null,
				"machineTypes":[{"name":"a","cpu":"1","gpu":"0","memory":"1Gi","architecture":"amd64"}]}`,
			ncp: `{"parent":{"kind":"CloudProfile","name":"local"},
				"machineTypes":[{"name":"n","cpu":"3","gpu":"0","memory":"3Gi"},{"name":"a","cpu":"4","gpu":"0","memory":"4Gi"},{"name":"n","cpu":"5","gpu":"0","memory":"5Gi"}]}`,
			want: map[string]string{
				"machineTypes": `[{"cpu":"4","gpu":"0","memory":"4Gi","name":"a","architecture":"amd64"},{"cpu":"5","gpu":"0","memory":"5Gi","name":"n","architecture":"amd64"}]`,
			},
		},
		{
			name:   "an empty result is the parent's list itself, so nil stays nil and empty stays empty",
			parent: `{"type":"local","kubernetes":{"versions":[]},"regions":null,"machineImages":null,"machineTypes":[]}`,
			ncp:    `{"parent":{"kind":"CloudProfile","name":"local"},"kubernetes":{"versions":[{"version":"1.0.0"}]},"machineImages":[],"machineTypes":[]}`,
			want: map[string]string{
				"kubernetes":    `{}`,
				"machineImages": `null`,
				"machineTypes":  `[]`,
			},
		},
	})
}

func TestMergeStep3_KubernetesExpirationOverride(t *testing.T) {
	parent := `{"type":"local","regions":null,"machineImages":null,"machineTypes":null,"kubernetes":{"versions":[
		{"version":"1.2.0","classification":"supported"},
		{"version":"1.1.0","classification":"deprecated","expirationDate":"2027-03-01T00:00:00Z"},
		{"version":"1.0.0","lifecycle":[{"classification":"supported"},{"classification":"deprecated","startTime":"2027-02-01T00:00:00Z"}]}]}}`
	runMergeSteps(t, []mergeStep{
		{
			name:   "should ignore versions specified only in NamespacedCloudProfile",
			parent: `{"type":"local","regions":null,"machineImages":null,"machineTypes":null,"kubernetes":{"versions":[{"version":"1.0.0"}]}}`,
			ncp:    `{"parent":{"kind":"CloudProfile","name":"local"},"kubernetes":{"versions":[{"version":"1.2.3"}]}}`,
			want:   map[string]string{"kubernetes": `{"versions":[{"version":"1.0.0"}]}`},
		},
		{
			name:   "should merge Kubernetes versions correctly",
			parent: `{"type":"local","regions":null,"machineImages":null,"machineTypes":null,"kubernetes":{"versions":[{"version":"1.0.0"}]}}`,
			ncp:    `{"parent":{"kind":"CloudProfile","name":"local"},"kubernetes":{"versions":[{"version":"1.0.0","expirationDate":"2027-06-01T00:00:00Z"}]}}`,
			want:   map[string]string{"kubernetes": `{"versions":[{"version":"1.0.0","expirationDate":"2027-06-01T00:00:00Z"}]}`},
		},
		{
			name:   "extends a parent expiration date and keeps the parent classification",
			parent: parent,
			ncp:    `{"parent":{"kind":"CloudProfile","name":"local"},"kubernetes":{"versions":[{"version":"1.1.0","expirationDate":"2027-12-01T00:00:00Z"}]}}`,
			want: map[string]string{"kubernetes": `{"versions":[{"version":"1.2.0","classification":"supported"},
				{"version":"1.1.0","expirationDate":"2027-12-01T00:00:00Z","classification":"deprecated"},
				{"version":"1.0.0","lifecycle":[{"classification":"supported"},{"classification":"deprecated","startTime":"2027-02-01T00:00:00Z"}]}]}`},
		},
		{
			name:   "an override without expiration date clears the parent's date",
			parent: parent,
			ncp:    `{"parent":{"kind":"CloudProfile","name":"local"},"kubernetes":{"versions":[{"version":"1.1.0"}]}}`,
			want: map[string]string{"kubernetes": `{"versions":[{"version":"1.2.0","classification":"supported"},
				{"version":"1.1.0","classification":"deprecated"},
				{"version":"1.0.0","lifecycle":[{"classification":"supported"},{"classification":"deprecated","startTime":"2027-02-01T00:00:00Z"}]}]}`},
		},
		{
			name:   "classification and lifecycle of an override are ignored, only the expiration date is taken",
			parent: parent,
			ncp: `{"parent":{"kind":"CloudProfile","name":"local"},"kubernetes":{"versions":[
				{"version":"1.2.0","classification":"preview"},
				{"version":"1.0.0","expirationDate":"2027-09-01T00:00:00Z","lifecycle":[{"classification":"expired","startTime":"2027-01-20T00:00:00Z"}]}]}}`,
			want: map[string]string{"kubernetes": `{"versions":[{"version":"1.2.0","classification":"supported"},
				{"version":"1.1.0","expirationDate":"2027-03-01T00:00:00Z","classification":"deprecated"},
				{"version":"1.0.0","expirationDate":"2027-09-01T00:00:00Z","lifecycle":[{"classification":"supported"},{"classification":"deprecated","startTime":"2027-02-01T00:00:00Z"}]}]}`},
		},
		{
			name:   "an empty list of overrides leaves the parent's versions unchanged",
			parent: parent,
			ncp:    `{"parent":{"kind":"CloudProfile","name":"local"},"kubernetes":{"versions":[]}}`,
			want: map[string]string{"kubernetes": `{"versions":[{"version":"1.2.0","classification":"supported"},
				{"version":"1.1.0","expirationDate":"2027-03-01T00:00:00Z","classification":"deprecated"},
				{"version":"1.0.0","lifecycle":[{"classification":"supported"},{"classification":"deprecated","startTime":"2027-02-01T00:00:00Z"}]}]}`},
		},
		{
			name:   "without spec.kubernetes the parent's list is not even deduplicated",
			parent: `{"type":"local","regions":null,"machineImages":null,"machineTypes":null,"kubernetes":{"versions":[{"version":"1.0.0"},{"version":"1.0.0","classification":"preview"}]}}`,
			ncp:    minimalNCP,
			want:   map[string]string{"kubernetes": `{"versions":[{"version":"1.0.0"},{"version":"1.0.0","classification":"preview"}]}`},
		},
		{
			name:   "with spec.kubernetes the parent's list is deduplicated like every keyed list",
			parent: `{"type":"local","regions":null,"machineImages":null,"machineTypes":null,"kubernetes":{"versions":[{"version":"1.0.0"},{"version":"1.0.0","classification":"preview"}]}}`,
			ncp:    `{"parent":{"kind":"CloudProfile","name":"local"},"kubernetes":{}}`,
			want:   map[string]string{"kubernetes": `{"versions":[{"version":"1.0.0","classification":"preview"}]}`},
		},
	})
}

func TestMergeStep4_TransformToParentFormat(t *testing.T) {
	capabilityParent := `{"type":"local","regions":null,"kubernetes":{"versions":[{"version":"1.0.0"}]},"machineImages":null,"machineTypes":null,
		"machineCapabilities":[{"name":"architecture","values":["amd64","arm64"]}]}`
	legacyParent := `{"type":"local","regions":null,"kubernetes":{"versions":[{"version":"1.0.0"}]},"machineImages":null,"machineTypes":null}`
	runMergeSteps(t, []mergeStep{
		{
			name:   "should transform legacy architectures to capability flavors when parent is in capability format",
			parent: capabilityParent,
			ncp:    `{"parent":{"kind":"CloudProfile","name":"local"},"machineImages":[{"name":"ubuntu","versions":[{"version":"20.04","architectures":["amd64","arm64"]}]}]}`,
			want: map[string]string{"machineImages": `[{"name":"ubuntu","versions":[{"version":"20.04","architectures":["amd64","arm64"],
				"capabilityFlavors":[{"architecture":["amd64"]},{"architecture":["arm64"]}]}]}]`},
		},
		{
			name:   "should preserve existing capability flavors",
			parent: capabilityParent,
			ncp: `{"parent":{"kind":"CloudProfile","name":"local"},"machineImages":[{"name":"ubuntu","versions":[{"version":"20.04","architectures":["arm64"],
				"capabilityFlavors":[{"architecture":["arm64"],"gpu":["nvidia"]}]}]}]}`,
			want: map[string]string{"machineImages": `[{"name":"ubuntu","versions":[{"version":"20.04","architectures":["arm64"],
				"capabilityFlavors":[{"architecture":["arm64"],"gpu":["nvidia"]}]}]}]`},
		},
		{
			name:   "should set architecture capabilities for machine types",
			parent: capabilityParent,
			ncp: `{"parent":{"kind":"CloudProfile","name":"local"},"machineTypes":[{"name":"m5.large","cpu":"2","gpu":"0","memory":"8Gi"},
				{"name":"m5.arm.large","cpu":"2","gpu":"0","memory":"8Gi","architecture":"arm64"}]}`,
			want: map[string]string{"machineTypes": `[{"cpu":"2","gpu":"0","memory":"8Gi","name":"m5.large","architecture":"amd64","capabilities":{"architecture":["amd64"]}},
				{"cpu":"2","gpu":"0","memory":"8Gi","name":"m5.arm.large","architecture":"arm64","capabilities":{"architecture":["arm64"]}}]`},
		},
		{
			name:   "a machine type with capabilities is left as it is under a capability parent",
			parent: capabilityParent,
			ncp:    `{"parent":{"kind":"CloudProfile","name":"local"},"machineTypes":[{"name":"m","cpu":"2","gpu":"0","memory":"8Gi","architecture":"amd64","capabilities":{"gpu":["nvidia"]}}]}`,
			want:   map[string]string{"machineTypes": `[{"cpu":"2","gpu":"0","memory":"8Gi","name":"m","architecture":"amd64","capabilities":{"gpu":["nvidia"]}}]`},
		},
		{
			name:   "should preserve existing architectures",
			parent: legacyParent,
			ncp:    `{"parent":{"kind":"CloudProfile","name":"local"},"machineImages":[{"name":"ubuntu","versions":[{"version":"20.04","architectures":["amd64","arm64"]}]}]}`,
			want:   map[string]string{"machineImages": `[{"name":"ubuntu","versions":[{"version":"20.04","architectures":["amd64","arm64"]}]}]`},
		},
		{
			name:   "should clear capabilities for machine types",
			parent: legacyParent,
			ncp:    `{"parent":{"kind":"CloudProfile","name":"local"},"machineTypes":[{"name":"m5.large","cpu":"2","gpu":"0","memory":"8Gi","capabilities":{"architecture":["amd64"],"gpu":["nvidia"]}}]}`,
			want:   map[string]string{"machineTypes": `[{"cpu":"2","gpu":"0","memory":"8Gi","name":"m5.large","architecture":"amd64"}]`},
		},
		{
			name:   "should handle multiple capability flavors with different architectures",
			parent: legacyParent,
			ncp: `{"parent":{"kind":"CloudProfile","name":"local"},"machineImages":[{"name":"ubuntu","versions":[{"version":"20.04",
				"capabilityFlavors":[{"architecture":["amd64"]},{"architecture":["arm64"]}]}]}]}`,
			want: map[string]string{"machineImages": `[{"name":"ubuntu","versions":[{"version":"20.04","architectures":["amd64","arm64"]}]}]`},
		},
		{
			name:   "should handle machine image versions with no architectures and no capability flavors",
			parent: `{"type":"local","regions":null,"kubernetes":{"versions":[{"version":"1.0.0"}]},"machineImages":null,"machineTypes":null,"machineCapabilities":[{"name":"architecture","values":["amd64"]}]}`,
			ncp:    `{"parent":{"kind":"CloudProfile","name":"local"},"machineImages":[{"name":"ubuntu","versions":[{"version":"20.04"}]}]}`,
			want:   map[string]string{"machineImages": `[{"name":"ubuntu","versions":[{"version":"20.04","architectures":["amd64"]}]}]`},
		},
		{
			name: "the transformed override replaces a parent version wholesale when it carries architectures",
			parent: `{"type":"local","regions":null,"kubernetes":{"versions":[{"version":"1.0.0"}]},"machineTypes":null,
				"machineCapabilities":[{"name":"architecture","values":["amd64","arm64"]}],
				"machineImages":[{"name":"ubuntu","updateStrategy":"major","versions":[{"version":"20.04","cri":[{"name":"containerd"}],"capabilityFlavors":[{"architecture":["amd64"]}]}]}]}`,
			ncp: `{"parent":{"kind":"CloudProfile","name":"local"},"machineImages":[{"name":"ubuntu","versions":[{"version":"20.04","architectures":["arm64"]}]}]}`,
			want: map[string]string{"machineImages": `[{"name":"ubuntu","versions":[{"version":"20.04","architectures":["arm64"],
				"capabilityFlavors":[{"architecture":["arm64"]}]}],"updateStrategy":"major"}]`},
		},
	})
}

func TestMergeStep5_MachineImages(t *testing.T) {
	parent := `{"type":"local","regions":null,"kubernetes":{"versions":[{"version":"1.0.0"}]},"machineTypes":null,
		"machineImages":[{"name":"test-image","updateStrategy":"major","versions":[
			{"version":"1.0.0","classification":"deprecated","expirationDate":"2027-04-01T00:00:00Z","cri":[{"name":"containerd"}],"architectures":["amd64"],"kubeletVersionConstraint":"==1.30.0"}]}]}`
	runMergeSteps(t, []mergeStep{
		{
			name:   "should add machine images specified only in NamespacedCloudProfile",
			parent: parent,
			ncp: `{"parent":{"kind":"CloudProfile","name":"local"},"machineImages":[{"name":"test-image-namespaced","updateStrategy":"major","versions":[
				{"version":"1.1.2","cri":[{"name":"containerd"}],"architectures":["arm64"],"kubeletVersionConstraint":"==1.30.0"}]}]}`,
			want: map[string]string{"machineImages": `[{"name":"test-image","versions":[
				{"version":"1.0.0","expirationDate":"2027-04-01T00:00:00Z","classification":"deprecated","cri":[{"name":"containerd"}],"architectures":["amd64"],"kubeletVersionConstraint":"==1.30.0"}],"updateStrategy":"major"},
				{"name":"test-image-namespaced","versions":[{"version":"1.1.2","cri":[{"name":"containerd"}],"architectures":["arm64"],"kubeletVersionConstraint":"==1.30.0"}],"updateStrategy":"major"}]`},
		},
		{
			name:   "should merge MachineImages correctly",
			parent: parent,
			ncp: `{"parent":{"kind":"CloudProfile","name":"local"},"machineImages":[{"name":"test-image","versions":[
				{"version":"1.0.0","expirationDate":"2027-09-30T00:00:00Z"},{"version":"1.1.2"}]}]}`,
			want: map[string]string{"machineImages": `[{"name":"test-image","versions":[
				{"version":"1.0.0","expirationDate":"2027-09-30T00:00:00Z","classification":"deprecated","cri":[{"name":"containerd"}],"architectures":["amd64"],"kubeletVersionConstraint":"==1.30.0"},
				{"version":"1.1.2","architectures":["amd64"]}],"updateStrategy":"major"}]`},
		},
		{
			name:   "should merge MachineImages with overridden updateStrategy correctly",
			parent: parent,
			ncp:    `{"parent":{"kind":"CloudProfile","name":"local"},"machineImages":[{"name":"test-image","updateStrategy":"minor"}]}`,
			want: map[string]string{"machineImages": `[{"name":"test-image","versions":[
				{"version":"1.0.0","expirationDate":"2027-04-01T00:00:00Z","classification":"deprecated","cri":[{"name":"containerd"}],"architectures":["amd64"],"kubeletVersionConstraint":"==1.30.0"}],"updateStrategy":"minor"}]`},
		},
		{
			name:   "an empty update strategy keeps the parent's",
			parent: parent,
			ncp:    `{"parent":{"kind":"CloudProfile","name":"local"},"machineImages":[{"name":"test-image","updateStrategy":""}]}`,
			want: map[string]string{"machineImages": `[{"name":"test-image","versions":[
				{"version":"1.0.0","expirationDate":"2027-04-01T00:00:00Z","classification":"deprecated","cri":[{"name":"containerd"}],"architectures":["amd64"],"kubeletVersionConstraint":"==1.30.0"}],"updateStrategy":"major"}]`},
		},
		{
			name:   "an override without expiration date clears the parent version's date",
			parent: parent,
			ncp:    `{"parent":{"kind":"CloudProfile","name":"local"},"machineImages":[{"name":"test-image","versions":[{"version":"1.0.0","lifecycle":[{"classification":"expired","startTime":"2027-02-01T00:00:00Z"}],"inPlaceUpdates":{"supported":true}}]}]}`,
			want: map[string]string{"machineImages": `[{"name":"test-image","versions":[
				{"version":"1.0.0","classification":"deprecated","cri":[{"name":"containerd"}],"architectures":["amd64"],"kubeletVersionConstraint":"==1.30.0"}],"updateStrategy":"major"}]`},
		},
		{
			name:   "an override with cri replaces the parent version wholesale",
			parent: parent,
			ncp:    `{"parent":{"kind":"CloudProfile","name":"local"},"machineImages":[{"name":"test-image","versions":[{"version":"1.0.0","cri":[{"name":"containerd"}]}]}]}`,
			want: map[string]string{"machineImages": `[{"name":"test-image","versions":[
				{"version":"1.0.0","cri":[{"name":"containerd"}],"architectures":["amd64"]}],"updateStrategy":"major"}]`},
		},
		{
			name:   "an override with a classification replaces the parent version wholesale",
			parent: parent,
			ncp:    `{"parent":{"kind":"CloudProfile","name":"local"},"machineImages":[{"name":"test-image","versions":[{"version":"1.0.0","classification":"supported","expirationDate":"2027-09-30T00:00:00Z"}]}]}`,
			want: map[string]string{"machineImages": `[{"name":"test-image","versions":[
				{"version":"1.0.0","expirationDate":"2027-09-30T00:00:00Z","classification":"supported","architectures":["amd64"]}],"updateStrategy":"major"}]`},
		},
		{
			name:   "an override with a kubelet version constraint replaces the parent version wholesale",
			parent: parent,
			ncp:    `{"parent":{"kind":"CloudProfile","name":"local"},"machineImages":[{"name":"test-image","versions":[{"version":"1.0.0","kubeletVersionConstraint":"~1.31"}]}]}`,
			want: map[string]string{"machineImages": `[{"name":"test-image","versions":[
				{"version":"1.0.0","architectures":["amd64"],"kubeletVersionConstraint":"~1.31"}],"updateStrategy":"major"}]`},
		},
		{
			name:   "empty strings of classification and kubelet version constraint do not replace wholesale",
			parent: parent,
			ncp:    `{"parent":{"kind":"CloudProfile","name":"local"},"machineImages":[{"name":"test-image","versions":[{"version":"1.0.0","classification":"","kubeletVersionConstraint":"","cri":[],"architectures":[]}]}]}`,
			want: map[string]string{"machineImages": `[{"name":"test-image","versions":[
				{"version":"1.0.0","classification":"deprecated","cri":[{"name":"containerd"}],"architectures":["amd64"],"kubeletVersionConstraint":"==1.30.0"}],"updateStrategy":"major"}]`},
		},
		{
			name: "should successfully reconcile with custom machine images being added to the parent CloudProfile",
			parent: `{"type":"local","regions":null,"kubernetes":{"versions":[{"version":"1.0.0"}]},"machineTypes":null,
				"machineImages":[{"name":"machine-image-1","updateStrategy":"minor","versions":[{"version":"1.0.0","cri":[{"name":"containerd"}],"architectures":["amd64"]}]}]}`,
			ncp: `{"parent":{"kind":"CloudProfile","name":"local"},"machineImages":[{"name":"machine-image-1","updateStrategy":"major",
				"versions":[{"version":"1.0.0","architectures":["amd64","arm64"]}]}]}`,
			want: map[string]string{"machineImages": `[{"name":"machine-image-1","versions":[{"version":"1.0.0","architectures":["amd64","arm64"]}],"updateStrategy":"major"}]`},
		},
		{
			name:   "a new image whose versions were all dropped keeps its nil versions",
			parent: parent,
			ncp:    `{"parent":{"kind":"CloudProfile","name":"local"},"machineImages":[{"name":"other","updateStrategy":"patch","versions":null}]}`,
			want: map[string]string{"machineImages": `[{"name":"test-image","versions":[
				{"version":"1.0.0","expirationDate":"2027-04-01T00:00:00Z","classification":"deprecated","cri":[{"name":"containerd"}],"architectures":["amd64"],"kubeletVersionConstraint":"==1.30.0"}],"updateStrategy":"major"},
				{"name":"other","versions":null,"updateStrategy":"patch"}]`},
		},
	})
}

func TestMergeStep6_MachineTypesReplacedWholesale(t *testing.T) {
	parent := `{"type":"local","regions":null,"kubernetes":{"versions":[{"version":"1.0.0"}]},"machineImages":null,
		"machineTypes":[{"name":"test-type","cpu":"2","gpu":"7","memory":"10Gi","usable":false,"storage":{"class":"ssd","size":"20Gi","type":"gp3"},"architecture":"arm64"}]}`
	runMergeSteps(t, []mergeStep{
		{
			name:   "should successfully add types specified only in NamespacedCloudProfile",
			parent: `{"type":"local","regions":null,"kubernetes":{"versions":[{"version":"1.0.0"}]},"machineImages":null,"machineTypes":[]}`,
			ncp:    `{"parent":{"kind":"CloudProfile","name":"local"},"machineTypes":[{"name":"test-type-namespaced","cpu":"1","gpu":"5","memory":"3Gi","usable":true}]}`,
			want:   map[string]string{"machineTypes": `[{"cpu":"1","gpu":"5","memory":"3Gi","name":"test-type-namespaced","usable":true,"architecture":"amd64"}]`},
		},
		{
			name:   "should successfully add types specified in CloudProfile and NamespacedCloudProfile",
			parent: `{"type":"local","regions":null,"kubernetes":{"versions":[{"version":"1.0.0"}]},"machineImages":null,"machineTypes":[{"name":"test-type","cpu":"2","gpu":"7","memory":"10Gi"}]}`,
			ncp:    `{"parent":{"kind":"CloudProfile","name":"local"},"machineTypes":[{"name":"test-type-namespaced","cpu":"1","gpu":"5","memory":"3Gi","usable":true}]}`,
			want: map[string]string{"machineTypes": `[{"cpu":"2","gpu":"7","memory":"10Gi","name":"test-type","architecture":"amd64"},
				{"cpu":"1","gpu":"5","memory":"3Gi","name":"test-type-namespaced","usable":true,"architecture":"amd64"}]`},
		},
		{
			name:   "a same-named type replaces the parent's type as a whole, without field merge",
			parent: parent,
			ncp:    `{"parent":{"kind":"CloudProfile","name":"local"},"machineTypes":[{"name":"test-type","cpu":"4","gpu":"0","memory":"16Gi","usable":true}]}`,
			want:   map[string]string{"machineTypes": `[{"cpu":"4","gpu":"0","memory":"16Gi","name":"test-type","usable":true,"architecture":"amd64"}]`},
		},
	})
}

func TestMergeStep7_VolumeTypesReplacedWholesale(t *testing.T) {
	runMergeSteps(t, []mergeStep{
		{
			name:   "a same-named volume type replaces the parent's as a whole and new ones are appended",
			parent: `{"type":"local","regions":null,"kubernetes":{"versions":[{"version":"1.0.0"}]},"machineImages":null,"machineTypes":null,"volumeTypes":[{"name":"gp3","class":"standard","usable":false,"minSize":"20Gi"},{"name":"st1","class":"hdd","usable":true}]}`,
			ncp:    `{"parent":{"kind":"CloudProfile","name":"local"},"volumeTypes":[{"name":"io2","class":"premium","usable":true},{"name":"gp3","class":"fast","usable":true}]}`,
			want: map[string]string{"volumeTypes": `[{"class":"fast","name":"gp3","usable":true},{"class":"hdd","name":"st1","usable":true},
				{"class":"premium","name":"io2","usable":true}]`},
		},
		{
			name:   "should allow a NamespacedCloudProfile to specify a VolumeType, if it has been added to the parent CloudProfile only afterwards",
			parent: `{"type":"local","regions":null,"kubernetes":{"versions":[{"version":"1.0.0"}]},"machineImages":null,"machineTypes":null,"volumeTypes":[{"name":"volume-type-1","class":"super-premium","usable":true}]}`,
			ncp:    `{"parent":{"kind":"CloudProfile","name":"local"},"volumeTypes":[{"name":"volume-type-1","class":"super-premium","usable":true}]}`,
			want:   map[string]string{"volumeTypes": `[{"class":"super-premium","name":"volume-type-1","usable":true}]`},
		},
	})
}

func TestMergeStep8_CABundleConcatenation(t *testing.T) {
	runMergeSteps(t, []mergeStep{
		{
			name:   "bundles are concatenated without separator",
			parent: `{"type":"local","regions":null,"kubernetes":{"versions":[{"version":"1.0.0"}]},"machineImages":null,"machineTypes":null,"caBundle":"AAA"}`,
			ncp:    `{"parent":{"kind":"CloudProfile","name":"local"},"caBundle":"BBB"}`,
			want:   map[string]string{"caBundle": `"AAABBB"`},
		},
		{
			name:   "the NamespacedCloudProfile's bundle alone when the parent has none",
			parent: minimalParent,
			ncp:    `{"parent":{"kind":"CloudProfile","name":"local"},"caBundle":"BBB"}`,
			want:   map[string]string{"caBundle": `"BBB"`},
		},
		{
			name:   "an empty bundle of the NamespacedCloudProfile makes the result non-nil",
			parent: minimalParent,
			ncp:    `{"parent":{"kind":"CloudProfile","name":"local"},"caBundle":""}`,
			want:   map[string]string{"caBundle": `""`},
		},
		{
			name:   "the parent's bundle when the NamespacedCloudProfile has none",
			parent: `{"type":"local","regions":null,"kubernetes":{"versions":[{"version":"1.0.0"}]},"machineImages":null,"machineTypes":null,"caBundle":"AAA"}`,
			ncp:    minimalNCP,
			want:   map[string]string{"caBundle": `"AAA"`},
		},
	})
}

func TestMergeStep8_Limits(t *testing.T) {
	withLimits := func(limits string) string {
		return `{"type":"local","regions":null,"kubernetes":{"versions":[{"version":"1.0.0"}]},"machineImages":null,"machineTypes":null,"limits":` + limits + `}`
	}
	ncpWithLimits := func(limits string) string {
		return `{"parent":{"kind":"CloudProfile","name":"local"},"limits":` + limits + `}`
	}
	runMergeSteps(t, []mergeStep{
		{name: "should stay nil if no value is provided at all", parent: minimalParent, ncp: minimalNCP, want: map[string]string{"limits": "absent"}},
		{name: "should apply only the value from the CloudProfile", parent: withLimits(`{"maxNodesTotal":10}`), ncp: minimalNCP, want: map[string]string{"limits": `{"maxNodesTotal":10}`}},
		{name: "should apply only the value from the NamespacedCloudProfile", parent: minimalParent, ncp: ncpWithLimits(`{"maxNodesTotal":10}`), want: map[string]string{"limits": `{"maxNodesTotal":10}`}},
		{name: "should apply the higher overridden value from the NamespacedCloudProfile", parent: withLimits(`{"maxNodesTotal":10}`), ncp: ncpWithLimits(`{"maxNodesTotal":99}`), want: map[string]string{"limits": `{"maxNodesTotal":99}`}},
		{name: "should apply a lower value from the NamespacedCloudProfile", parent: withLimits(`{"maxNodesTotal":124}`), ncp: ncpWithLimits(`{"maxNodesTotal":20}`), want: map[string]string{"limits": `{"maxNodesTotal":20}`}},
		{name: "empty limits keep the parent's value", parent: withLimits(`{"maxNodesTotal":10}`), ncp: ncpWithLimits(`{}`), want: map[string]string{"limits": `{"maxNodesTotal":10}`}},
		{name: "empty limits without parent limits give empty limits", parent: minimalParent, ncp: ncpWithLimits(`{}`), want: map[string]string{"limits": `{}`}},
		{name: "a value that is not positive is ignored", parent: withLimits(`{"maxNodesTotal":10}`), ncp: ncpWithLimits(`{"maxNodesTotal":0}`), want: map[string]string{"limits": `{"maxNodesTotal":10}`}},
	})
}

func TestMergeStep9_ProviderConfigIsTheParents(t *testing.T) {
	runMergeSteps(t, []mergeStep{
		{
			name:   "should apply the CloudProfile providerConfig to the NamespacedCloudProfile status on spec change",
			parent: `{"type":"local","regions":null,"kubernetes":{"versions":[{"version":"1.0.0"}]},"machineImages":null,"machineTypes":null,"providerConfig":{"key":"value"}}`,
			ncp:    minimalNCP,
			want:   map[string]string{"providerConfig": `{"key":"value"}`},
		},
		{
			name:   "should ignore an existing NamespacedCloudProfile status providerConfig on spec change",
			parent: `{"type":"local","regions":null,"kubernetes":{"versions":[{"version":"1.0.0"}]},"machineImages":null,"machineTypes":null,"providerConfig":{"key":"value"}}`,
			ncp:    `{"parent":{"kind":"CloudProfile","name":"local"},"providerConfig":{"key2":"value2"}}`,
			want:   map[string]string{"providerConfig": `{"key":"value"}`},
		},
		{
			name:   "no providerConfig when the parent has none",
			parent: minimalParent,
			ncp:    `{"parent":{"kind":"CloudProfile","name":"local"},"providerConfig":{"key2":"value2"}}`,
			want:   map[string]string{"providerConfig": "absent"},
		},
	})
}

func TestMergeStep10_ArchitectureDefaulting(t *testing.T) {
	runMergeSteps(t, []mergeStep{
		{
			name: "should sync the architecture capabilities",
			parent: `{"type":"local","regions":null,"kubernetes":{"versions":[{"version":"1.0.0"}]},"machineTypes":null,"machineImages":null,
				"machineCapabilities":[{"name":"architecture","values":["amd64","arm64"]}]}`,
			ncp: `{"parent":{"kind":"CloudProfile","name":"local"},"machineImages":[{"name":"test-image-namespaced","updateStrategy":"major","versions":[
				{"version":"1.1.2","cri":[{"name":"containerd"}],"architectures":["arm64"],"kubeletVersionConstraint":"==1.30.0"}]}]}`,
			want: map[string]string{"machineImages": `[{"name":"test-image-namespaced","versions":[{"version":"1.1.2","cri":[{"name":"containerd"}],"architectures":["arm64"],
				"kubeletVersionConstraint":"==1.30.0","capabilityFlavors":[{"architecture":["arm64"]}]}],"updateStrategy":"major"}]`},
		},
		{
			name: "parent entries are defaulted too, from their flavors or the capability definition",
			parent: `{"type":"local","regions":null,"kubernetes":{"versions":[{"version":"1.0.0"}]},
				"machineCapabilities":[{"name":"architecture","values":["arm64","amd64"]},{"name":"gpu","values":["none","nvidia"]}],
				"machineImages":[{"name":"img","updateStrategy":"major","versions":[
					{"version":"1.0.0","cri":[{"name":"containerd"}]},
					{"version":"1.1.0","cri":[{"name":"containerd"}],"capabilityFlavors":[{"gpu":["nvidia"]},{"architecture":["amd64"]}]},
					{"version":"1.2.0","cri":[{"name":"containerd"}],"capabilityFlavors":[{"architecture":[]}]}]}],
				"machineTypes":[{"name":"t1","cpu":"1","gpu":"0","memory":"1Gi"},{"name":"t2","cpu":"1","gpu":"0","memory":"1Gi","capabilities":{"architecture":["arm64"]}},
					{"name":"t3","cpu":"1","gpu":"0","memory":"1Gi","architecture":"amd64","capabilities":{"architecture":["arm64"]}},{"name":"t4","cpu":"1","gpu":"0","memory":"1Gi","architecture":""}]}`,
			ncp: minimalNCP,
			want: map[string]string{
				"machineImages": `[{"name":"img","versions":[
					{"version":"1.0.0","cri":[{"name":"containerd"}],"architectures":["arm64","amd64"]},
					{"version":"1.1.0","cri":[{"name":"containerd"}],"architectures":["arm64","amd64"],"capabilityFlavors":[{"gpu":["nvidia"]},{"architecture":["amd64"]}]},
					{"version":"1.2.0","cri":[{"name":"containerd"}],"architectures":["amd64"],"capabilityFlavors":[{"architecture":[]}]}],"updateStrategy":"major"}]`,
				"machineTypes": `[{"cpu":"1","gpu":"0","memory":"1Gi","name":"t1","architecture":"amd64"},
					{"cpu":"1","gpu":"0","memory":"1Gi","name":"t2","architecture":"arm64","capabilities":{"architecture":["arm64"]}},
					{"cpu":"1","gpu":"0","memory":"1Gi","name":"t3","architecture":"amd64","capabilities":{"architecture":["arm64"]}},
					{"cpu":"1","gpu":"0","memory":"1Gi","name":"t4","architecture":"amd64"}]`,
			},
		},
		{
			name:   "a legacy parent defaults missing architectures to amd64",
			parent: `{"type":"local","regions":null,"kubernetes":{"versions":[{"version":"1.0.0"}]},"machineImages":[{"name":"img","versions":[{"version":"1.0.0"}]}],"machineTypes":[{"name":"t","cpu":"1","gpu":"0","memory":"1Gi"}]}`,
			ncp:    minimalNCP,
			want: map[string]string{
				"machineImages": `[{"name":"img","versions":[{"version":"1.0.0","architectures":["amd64"]}]}]`,
				"machineTypes":  `[{"cpu":"1","gpu":"0","memory":"1Gi","name":"t","architecture":"amd64"}]`,
			},
		},
	})
}

func TestMergeStep11_ResultOrder(t *testing.T) {
	runMergeSteps(t, []mergeStep{
		{
			name: "parent entries in parent order, then NamespacedCloudProfile-only entries in NamespacedCloudProfile order",
			parent: `{"type":"local","regions":null,"kubernetes":{"versions":[{"version":"1.3.0"},{"version":"1.1.0"},{"version":"1.2.0"}]},"machineTypes":null,
				"machineImages":[{"name":"b","updateStrategy":"major","versions":[{"version":"2.0.0","architectures":["amd64"],"cri":[{"name":"containerd"}]},{"version":"1.0.0","architectures":["amd64"],"cri":[{"name":"containerd"}]}]},
					{"name":"a","updateStrategy":"major","versions":[{"version":"1.0.0","architectures":["amd64"],"cri":[{"name":"containerd"}]}]}]}`,
			ncp: `{"parent":{"kind":"CloudProfile","name":"local"},"kubernetes":{"versions":[{"version":"1.2.0","expirationDate":"2027-02-01T00:00:00Z"},{"version":"1.3.0","expirationDate":"2027-03-01T00:00:00Z"}]},
				"machineImages":[{"name":"z","updateStrategy":"patch","versions":[{"version":"9.0.0","cri":[{"name":"containerd"}]}]},
					{"name":"b","versions":[{"version":"3.0.0","cri":[{"name":"containerd"}]},{"version":"1.0.0","expirationDate":"2027-02-01T00:00:00Z"},{"version":"0.5.0","cri":[{"name":"containerd"}]}]},
					{"name":"c","updateStrategy":"patch","versions":[{"version":"1.0.0","cri":[{"name":"containerd"}]}]}]}`,
			want: map[string]string{
				"kubernetes": `{"versions":[{"version":"1.3.0","expirationDate":"2027-03-01T00:00:00Z"},{"version":"1.1.0"},{"version":"1.2.0","expirationDate":"2027-02-01T00:00:00Z"}]}`,
				"machineImages": `[{"name":"b","versions":[{"version":"2.0.0","cri":[{"name":"containerd"}],"architectures":["amd64"]},
						{"version":"1.0.0","expirationDate":"2027-02-01T00:00:00Z","cri":[{"name":"containerd"}],"architectures":["amd64"]},
						{"version":"3.0.0","cri":[{"name":"containerd"}],"architectures":["amd64"]},{"version":"0.5.0","cri":[{"name":"containerd"}],"architectures":["amd64"]}],"updateStrategy":"major"},
					{"name":"a","versions":[{"version":"1.0.0","cri":[{"name":"containerd"}],"architectures":["amd64"]}],"updateStrategy":"major"},
					{"name":"z","versions":[{"version":"9.0.0","cri":[{"name":"containerd"}],"architectures":["amd64"]}],"updateStrategy":"patch"},
					{"name":"c","versions":[{"version":"1.0.0","cri":[{"name":"containerd"}],"architectures":["amd64"]}],"updateStrategy":"patch"}]`,
			},
		},
	})
}

func TestMergeStep12_ClassificationsAreNotStored(t *testing.T) {
	runMergeSteps(t, []mergeStep{
		{
			name:   "an already expired override is rendered as it is; consumers classify at use time",
			parent: `{"type":"local","regions":null,"kubernetes":{"versions":[{"version":"1.2.0"},{"version":"1.1.0","classification":"deprecated","expirationDate":"2027-01-01T00:00:00Z"}]},"machineImages":null,"machineTypes":null}`,
			ncp:    `{"parent":{"kind":"CloudProfile","name":"local"},"kubernetes":{"versions":[{"version":"1.1.0","expirationDate":"2027-01-10T00:00:00Z"}]}}`,
			want:   map[string]string{"kubernetes": `{"versions":[{"version":"1.2.0"},{"version":"1.1.0","expirationDate":"2027-01-10T00:00:00Z","classification":"deprecated"}]}`},
		},
	})
}

// TestMergeWorkedExample is the worked example of the Namespaced profiles guide and its capability-parent variant, compared
// byte for byte with the golden files.
func TestMergeWorkedExample(t *testing.T) {
	for _, file := range mergeGoldenFiles(t) {
		name := strings.TrimSuffix(filepath.Base(file), ".input.json")
		t.Run(name, func(t *testing.T) {
			c := loadMergeCase(t, file)
			got := mergeToJSON(t, c)
			expectGolden(t, filepath.Join("testdata", "merge", name+".golden.json"), got)
			if ref, ok := gardenerMergeIfConfigured(t, ncpJSON(t, c)); ok && !sameUpToArchitectureOrder(got, ref) {
				t.Fatalf("differs from Gardener's merge\n     got: %s\ngardener: %s", got, ref)
			}
		})
	}
}

// TestMergeWorkedExample_Interpretation checks the classifications the worked example derives at 2027-01-15 and
// after the parent's date.
func TestMergeWorkedExample_Interpretation(t *testing.T) {
	c := loadMergeCase(t, filepath.Join("testdata", "merge", "worked_example.input.json"))
	merged := MergeNamespacedCloudProfile(c.Parent, c.NCP, MergeOptions{Now: testNow})
	v := merged.Kubernetes.Versions[1]
	if v.Version != "1.30.5" {
		t.Fatalf("unexpected version order: %v", merged.Kubernetes.Versions)
	}
	if got := Classify(v, testNow); got != deprecated {
		t.Errorf("1.30.5 at %s: %s, want deprecated", testNow, got)
	}
	later := testNow.AddDate(0, 6, 0) // 2027-07-15
	if got := Classify(v, later); got != deprecated {
		t.Errorf("1.30.5 for the NamespacedCloudProfile at %s: %s, want deprecated", later, got)
	}
	if got := Classify(c.Parent.Kubernetes.Versions[1], later); got != expired {
		t.Errorf("1.30.5 for the parent at %s: %s, want expired", later, got)
	}
}
