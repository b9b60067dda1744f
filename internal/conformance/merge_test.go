package conformance

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/gardener-community/terraform-provider-gardener/internal/acctest"
	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// statusTimeout bounds how long the test waits for Gardener's controllers to write all statuses.
const statusTimeout = 90 * time.Second

// Parents of the merge pairs, besides parentExample, parentCapability and parentLifecycle.
const (
	// parentPlain is a legacy parent with a providerConfig and neither caBundle nor limits.
	parentPlain = "plain"
	// parentGrowing is a legacy parent that gains, after its NamespacedCloudProfile was created, a
	// version that the NamespacedCloudProfile already defines (which then replaces the parent's
	// version wholesale).
	parentGrowing = "growing"
)

func plainParent(name string) *cpT {
	cp := legacyProfile(name)
	cp.Spec.ProviderConfig = &runtime.RawExtension{Raw: []byte(`{"apiVersion":"local.provider.extensions.gardener.cloud/v1alpha1","kind":"CloudProfileConfig","images":["a","b"]}`)}
	return cp
}

// grownParent is growingParent after the update: gardenlinux gains version 1600.1.0.
func grownParent(name string) *cpT {
	cp := legacyProfile(name)
	addImageVersion(cp, mivT{ExpirableVersion: evT{Version: "1600.1.0", Classification: cls(preview)}, Architectures: []string{"amd64"}})
	return cp
}

type mergePair struct {
	name   string
	parent string
	mutate func(t testing.TB, ncp *ncpT)
}

// documentedResults check, for some pairs, the server's merged status against the result Gardener's
// MergeCloudProfiles gives, written out independently of the package; they return the deviations.
var documentedResults = map[string]func(t testing.TB, status gardencorev1beta1.CloudProfileSpec) []string{
	"worked example": workedExampleDeviations,
	"NamespacedCloudProfile version replaces a version the parent gains later": wholesaleDeviations,
}

func mergePairs() []mergePair {
	e, p, c, l, g := parentExample, parentPlain, parentCapability, parentLifecycle, parentGrowing
	images := func(is ...miT) func(testing.TB, *ncpT) {
		return func(_ testing.TB, ncp *ncpT) { ncp.Spec.MachineImages = is }
	}
	types := func(ts ...mtT) func(testing.TB, *ncpT) {
		return func(_ testing.TB, ncp *ncpT) { ncp.Spec.MachineTypes = ts }
	}
	kubernetes := func(vs ...evT) func(testing.TB, *ncpT) {
		return func(_ testing.TB, ncp *ncpT) { ncp.Spec.Kubernetes = kubernetesOverrides(vs...) }
	}
	limits := func(l *gardencorev1beta1.Limits) func(testing.TB, *ncpT) {
		return func(_ testing.TB, ncp *ncpT) { ncp.Spec.Limits = l }
	}
	newVersion := mivT{ExpirableVersion: evT{Version: "1600.1.0"}, CRI: containerd()}
	customOS := func(vs ...mivT) miT {
		return miT{Name: "custom-os", UpdateStrategy: strategy(gardencorev1beta1.UpdateStrategyMajor), Versions: vs}
	}
	return []mergePair{
		{"only a parent", e, func(testing.TB, *ncpT) {}},
		{"Kubernetes expiration override", e, kubernetes(evT{Version: "1.30.5", ExpirationDate: date(2098, time.January, 1)})},
		{"two Kubernetes expiration overrides", e, kubernetes(evT{Version: "1.30.5", ExpirationDate: date(2098, time.January, 1)}, evT{Version: "1.30.4", ExpirationDate: date(2098, time.February, 1)})},
		{"image version expiration override", e, images(gardenlinux(nil, mivT{ExpirableVersion: evT{Version: "1592.9.0", ExpirationDate: date(2098, time.January, 1)}}))},
		{"image update strategy override", e, images(gardenlinux(strategy(gardencorev1beta1.UpdateStrategyPatch)))},
		{"new version of a parent image", e, images(gardenlinux(nil, newVersion))},
		{"override and new version with strategy", e, images(gardenlinux(strategy(gardencorev1beta1.UpdateStrategyMinor),
			mivT{ExpirableVersion: evT{Version: "1592.9.0", ExpirationDate: date(2098, time.January, 1)}},
			mivT{ExpirableVersion: evT{Version: "1600.1.0", Classification: cls(preview)}, CRI: containerd(), KubeletVersionConstraint: ptr(">= 1.30")}))},
		{"new version of a parent image with its own strategy", e, images(miT{Name: "ubuntu", Versions: []mivT{{ExpirableVersion: evT{Version: "22.4.2"}, CRI: containerd(), Architectures: []string{"amd64"}}}})},
		{"new arm64 image", e, images(customOS(mivT{ExpirableVersion: evT{Version: "1.0.0"}, CRI: containerd(), Architectures: []string{"arm64"}}))},
		{"new image with flavors under a legacy parent", e, images(customOS(mivT{ExpirableVersion: evT{Version: "1.0.0"}, CRI: containerd(),
			CapabilityFlavors: []gardencorev1beta1.MachineImageFlavor{archFlavor("amd64"), archFlavor("arm64")}}))},
		{"new image with two versions", e, images(customOS(
			mivT{ExpirableVersion: evT{Version: "1.0.0", Classification: cls(deprecated), ExpirationDate: date(2098, time.January, 1)}, CRI: containerd(), Architectures: []string{"amd64"}},
			mivT{ExpirableVersion: evT{Version: "1.1.0", Classification: cls(supported)}, CRI: containerd(), Architectures: []string{"amd64", "arm64"}}))},
		{"machine type replaced", e, types(mtT{Name: "m5.large", CPU: q("4"), GPU: q("0"), Memory: q("16Gi")})},
		{"machine type added without architecture", e, types(mtT{Name: "x1.metal", CPU: q("96"), GPU: q("0"), Memory: q("1Ti")})},
		{"arm64 machine type added", e, types(mtT{Name: "a1.large", CPU: q("2"), GPU: q("0"), Memory: q("4Gi"), Architecture: ptr("arm64"), Usable: ptr(false)})},
		{"machine type with capabilities under a legacy parent", e, types(mtT{Name: "z1.large", CPU: q("2"), GPU: q("0"), Memory: q("4Gi"), Capabilities: caps("architecture", "arm64")})},
		{"volume type replaced", e, func(_ testing.TB, ncp *ncpT) { ncp.Spec.VolumeTypes = []vtT{{Name: "gp3", Class: "premium"}} }},
		{"volume type added", e, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.VolumeTypes = []vtT{{Name: "io2", Class: "premium", MinSize: qp("10Gi"), Usable: ptr(false)}}
		}},
		{"caBundle concatenated", e, func(t testing.TB, ncp *ncpT) { ncp.Spec.CABundle = ptr(certificatePEM(t, 1)) }},
		{"limits lower than the parent's", e, limits(&gardencorev1beta1.Limits{MaxNodesTotal: ptr[int32](50)})},
		{"limits higher than the parent's", e, limits(&gardencorev1beta1.Limits{MaxNodesTotal: ptr[int32](500)})},
		{"empty limits keep the parent's", e, limits(&gardencorev1beta1.Limits{})},
		{"providerConfig is not merged", e, func(_ testing.TB, ncp *ncpT) {
			ncp.Spec.ProviderConfig = &runtime.RawExtension{Raw: []byte(`{"apiVersion":"local.provider.extensions.gardener.cloud/v1alpha1","kind":"CloudProfileConfig"}`)}
		}},
		{"worked example", e, func(t testing.TB, ncp *ncpT) { ncp.Spec = exampleNamespaced(t, ncp.Name, ncp.Spec.Parent.Name).Spec }},

		{"only a parent with providerConfig", p, func(testing.TB, *ncpT) {}},
		{"caBundle without a parent caBundle", p, func(t testing.TB, ncp *ncpT) { ncp.Spec.CABundle = ptr(certificatePEM(t, 1)) }},
		{"empty limits without parent limits", p, limits(&gardencorev1beta1.Limits{})},
		{"limits without parent limits", p, limits(&gardencorev1beta1.Limits{MaxNodesTotal: ptr[int32](20)})},
		{"Kubernetes override next to parent providerConfig", p, kubernetes(evT{Version: "1.30.5", ExpirationDate: at(future2)})},

		{"only a capability parent", c, func(testing.TB, *ncpT) {}},
		{"new version with architectures under a capability parent", c, images(gardenlinux(nil, mivT{ExpirableVersion: evT{Version: "1600.1.0"}, CRI: containerd(), Architectures: []string{"arm64"}}))},
		{"new version with flavors under a capability parent", c, images(gardenlinux(nil, mivT{ExpirableVersion: evT{Version: "1600.1.0"}, CRI: containerd(),
			CapabilityFlavors: []gardencorev1beta1.MachineImageFlavor{archFlavor("amd64"), flavor(map[string][]string{"architecture": {"arm64"}, "network": {"accelerated"}})}}))},
		{"machine type added under a capability parent", c, types(mtT{Name: "x1.metal", CPU: q("96"), GPU: q("0"), Memory: q("1Ti")})},
		{"arm64 machine type added under a capability parent", c, types(mtT{Name: "a1.large", CPU: q("2"), GPU: q("0"), Memory: q("4Gi"), Architecture: ptr("arm64")})},
		{"machine type replaced under a capability parent", c, types(mtT{Name: "m5.large", CPU: q("8"), GPU: q("0"), Memory: q("32Gi"), Capabilities: caps("architecture", "amd64", "network", "accelerated")})},
		{"new image under a capability parent", c, images(customOS(mivT{ExpirableVersion: evT{Version: "1.0.0"}, CRI: containerd(), CapabilityFlavors: []gardencorev1beta1.MachineImageFlavor{archFlavor("arm64")}}))},
		{"Kubernetes override under a capability parent", c, kubernetes(evT{Version: "1.30.5", ExpirationDate: date(2098, time.January, 1)})},
		{"image expiration override under a capability parent", c, images(gardenlinux(nil, mivT{ExpirableVersion: evT{Version: "1592.9.0", ExpirationDate: date(2098, time.January, 1)}}))},

		{"only a parent with lifecycles", l, func(testing.TB, *ncpT) {}},
		{"new version next to lifecycles", l, images(gardenlinux(nil, newVersion))},

		{"NamespacedCloudProfile version replaces a version the parent gains later", g, images(gardenlinux(nil,
			mivT{ExpirableVersion: evT{Version: "1600.1.0"}, CRI: containerd(), Architectures: []string{"arm64"}, KubeletVersionConstraint: ptr(">= 1.30")}))},
	}
}

// TestDifferential_MergeMatchesControllerStatus creates parents and NamespacedCloudProfiles for
// real, waits for Gardener's controllers, and compares
//   - each NamespacedCloudProfile's status.cloudProfileSpec with MergeNamespacedCloudProfile of the
//     parent's and the NamespacedCloudProfile's spec as the server serves them, and
//   - each parent's status with StatusAt(parent spec, now).
func TestDifferential_MergeMatchesControllerStatus(t *testing.T) {
	s := newServer(t)
	ctx := testContext(t)
	prefix := acctest.UniqueName("conf-merge")
	parentNames := map[string]string{}
	builders := map[string]func(string) *cpT{
		parentExample:    func(n string) *cpT { return exampleParent(t, n) },
		parentPlain:      plainParent,
		parentCapability: capabilityParent,
		parentLifecycle:  lifecycleParent,
		parentGrowing:    legacyProfile,
	}
	var parentList []string
	for _, key := range []string{parentExample, parentPlain, parentCapability, parentLifecycle, parentGrowing} {
		parentNames[key] = prefix + "-" + key
		parentList = append(parentList, parentNames[key])
	}
	pairs := mergePairs()
	if len(pairs) < 30 {
		t.Fatalf("only %d pairs", len(pairs))
	}
	for name := range documentedResults {
		if !slices.ContainsFunc(pairs, func(p mergePair) bool { return p.name == name }) {
			t.Fatalf("documentedResults names no pair %q", name)
		}
	}
	ncpNames := make([]string, len(pairs))
	for i := range pairs {
		ncpNames[i] = fmt.Sprintf("%s-%d", prefix, i)
	}
	// Cleanups run in reverse order: NamespacedCloudProfiles first, then their parents.
	t.Cleanup(func() { deleteCloudProfiles(t, s.client, parentList...) })
	t.Cleanup(func() { deleteNamespacedCloudProfiles(t, s.client, ncpNames...) })

	// Create everything first, then wait for all statuses at once.
	for _, key := range []string{parentExample, parentPlain, parentCapability, parentLifecycle, parentGrowing} {
		createCloudProfile(t, ctx, s, builders[key](parentNames[key]))
	}
	created := make([]bool, len(pairs))
	for i, p := range pairs {
		ncp := namespaced(ncpNames[i], parentNames[p.parent])
		p.mutate(t, ncp)
		if _, err := s.client.ApplyNamespacedCloudProfile(ctx, ncp, kube.ApplyOptions{}); err != nil {
			t.Errorf("pair %q: creating NamespacedCloudProfile %s: %v", p.name, ncp.Name, err)
			continue
		}
		created[i] = true
	}
	// The growing parent gains the version its NamespacedCloudProfile defines.
	grown := createCloudProfile(t, ctx, s, grownParent(parentNames[parentGrowing]))
	if n := len(grown.Spec.MachineImages[0].Versions); n != 3 {
		t.Fatalf("updating the growing parent: want 3 gardenlinux versions, got %d", n)
	}

	// Wait until every status is there and, for the merge, reflects the current parent.
	type check struct {
		what    string
		matched bool
		last    string // the last disagreement or missing status
	}
	checks := map[string]*check{}
	for _, n := range parentList {
		checks["parent "+n] = &check{what: "CloudProfile " + n + " status", last: "no status yet"}
	}
	for i, p := range pairs {
		if created[i] {
			checks["ncp "+ncpNames[i]] = &check{what: fmt.Sprintf("pair %q (NamespacedCloudProfile %s)", p.name, ncpNames[i]), last: "no status yet"}
		}
	}
	start := time.Now()
	deadline := start.Add(statusTimeout)
	for {
		parents := map[string]*cpT{}
		for _, n := range parentList {
			cp, err := s.client.GetCloudProfile(ctx, n)
			if err != nil {
				t.Fatalf("reading CloudProfile %s: %v", n, err)
			}
			parents[n] = cp
			c := checks["parent "+n]
			if c.matched {
				continue
			}
			if cp.Status.Kubernetes == nil {
				continue
			}
			want := cloudprofile.StatusAt(cp.Spec, time.Now())
			if d := jsonDiff(want, cp.Status); len(d) > 0 {
				c.last = "status differs from StatusAt:\n      " + strings.Join(d, "\n      ")
				continue
			}
			c.matched = true
		}
		for i, p := range pairs {
			c := checks["ncp "+ncpNames[i]]
			if c == nil || c.matched {
				continue
			}
			ncp, err := s.client.GetNamespacedCloudProfile(ctx, projectNamespace, ncpNames[i])
			if err != nil {
				t.Fatalf("reading NamespacedCloudProfile %s: %v", ncpNames[i], err)
			}
			if ncp.Status.ObservedGeneration != ncp.Generation || ncp.Status.CloudProfileSpec.Type == "" {
				c.last = fmt.Sprintf("status not written (observedGeneration %d, generation %d)", ncp.Status.ObservedGeneration, ncp.Generation)
				continue
			}
			parent := parents[parentNames[p.parent]]
			want := cloudprofile.MergeNamespacedCloudProfile(parent.Spec, ncp.Spec, cloudprofile.MergeOptions{})
			if d := jsonDiff(want, ncp.Status.CloudProfileSpec); len(d) > 0 {
				c.last = "status.cloudProfileSpec (server) differs from MergeNamespacedCloudProfile (package):\n      " + strings.Join(d, "\n      ")
				continue
			}
			if expect := documentedResults[p.name]; expect != nil {
				if d := expect(t, ncp.Status.CloudProfileSpec); len(d) > 0 {
					c.last = "status.cloudProfileSpec differs from the expected merge:\n      " + strings.Join(d, "\n      ")
					continue
				}
			}
			c.matched = true
		}
		pending := 0
		for _, c := range checks {
			if !c.matched {
				pending++
			}
		}
		if pending == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(2 * time.Second)
	}

	keys := make([]string, 0, len(checks))
	for k := range checks {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	matched := 0
	for _, k := range keys {
		c := checks[k]
		if c.matched {
			matched++
			continue
		}
		hint := ""
		if strings.HasPrefix(c.last, "no status") || strings.HasPrefix(c.last, "status not written") {
			hint = " (are Gardener's controllers running? The local Garden can pause them.)"
		}
		t.Errorf("%s after %s: %s%s", c.what, statusTimeout, c.last, hint)
	}
	t.Logf("%d of %d statuses match (%d parents, %d pairs); waited %s", matched, len(checks), len(parentList), len(pairs), time.Since(start).Round(time.Second))
}

// workedExampleDeviations checks the merged status of the worked example against the result the
// worked example of the Namespaced profiles guide states, independently of the package.
func workedExampleDeviations(t testing.TB, s gardencorev1beta1.CloudProfileSpec) []string {
	var out []string
	expect := func(what string, got, want any) {
		if !reflect.DeepEqual(got, want) {
			out = append(out, fmt.Sprintf("%s: got %v, want %v", what, got, want))
		}
	}
	expect("caBundle", ptrValue(s.CABundle), certificatePEM(t, 0)+certificatePEM(t, 1))
	if s.Limits != nil {
		expect("limits.maxNodesTotal", ptrValue(s.Limits.MaxNodesTotal), int32(50))
	} else {
		out = append(out, "limits: missing")
	}
	var k8s []string
	for _, v := range s.Kubernetes.Versions {
		k8s = append(k8s, v.Version+"@"+ptrValue(v.ExpirationDate).UTC().Format("2006-01-02"))
	}
	expect("kubernetes versions", k8s, []string{"1.31.2@0001-01-01", "1.30.5@2097-12-01", "1.30.4@2097-03-01"})
	var images []string
	for _, i := range s.MachineImages {
		entry := i.Name + "(" + string(ptrValue(i.UpdateStrategy)) + "):"
		for _, v := range i.Versions {
			archs := append([]string(nil), v.Architectures...)
			sort.Strings(archs)
			entry += fmt.Sprintf(" %s%v", v.Version, archs)
			if v.ExpirationDate != nil {
				entry += "@" + v.ExpirationDate.UTC().Format("2006-01-02")
			}
		}
		images = append(images, entry)
	}
	expect("machine images", images, []string{
		"gardenlinux(patch): 1877.3.0[amd64 arm64] 1592.9.0[amd64]@2097-09-30 1600.1.0[amd64]",
		"ubuntu(minor): 22.4.1[amd64]",
		"custom-os(major): 1.0.0[arm64]",
	})
	var types []string
	for _, m := range s.MachineTypes {
		types = append(types, fmt.Sprintf("%s cpu=%s memory=%s arch=%s usable=%t", m.Name, m.CPU.String(), m.Memory.String(), ptrValue(m.Architecture), ptrValue(m.Usable)))
	}
	expect("machine types", types, []string{
		"m5.large cpu=4 memory=16Gi arch=amd64 usable=true",
		"m6g.large cpu=2 memory=8Gi arch=arm64 usable=true",
		"x1.metal cpu=96 memory=1Ti arch=amd64 usable=true",
	})
	var volumes []string
	for _, v := range s.VolumeTypes {
		volumes = append(volumes, v.Name+"/"+v.Class)
	}
	expect("volume types", volumes, []string{"gp3/standard", "io2/premium"})
	return out
}

// wholesaleDeviations checks the growing parent's pair: its NamespacedCloudProfile defines
// gardenlinux 1600.1.0 with cri, architectures and a kubelet constraint; the parent later gains
// 1600.1.0 (preview, amd64). The NamespacedCloudProfile's version replaces the parent's wholesale
// (as MergeCloudProfiles does), in the parent's position.
func wholesaleDeviations(_ testing.TB, s gardencorev1beta1.CloudProfileSpec) []string {
	var versions []string
	for _, i := range s.MachineImages {
		for _, v := range i.Versions {
			versions = append(versions, fmt.Sprintf("%s/%s class=%s archs=%v kvc=%s cri=%d",
				i.Name, v.Version, ptrValue(v.Classification), v.Architectures, ptrValue(v.KubeletVersionConstraint), len(v.CRI)))
		}
	}
	want := []string{
		"gardenlinux/1877.3.0 class=supported archs=[amd64 arm64] kvc= cri=1",
		"gardenlinux/1592.9.0 class=deprecated archs=[amd64] kvc= cri=1",
		"gardenlinux/1600.1.0 class= archs=[arm64] kvc=>= 1.30 cri=1",
	}
	if !reflect.DeepEqual(versions, want) {
		return []string{fmt.Sprintf("machine image versions: got %q, want %q", versions, want)}
	}
	return nil
}

func ptrValue[T any](p *T) T {
	var zero T
	if p == nil {
		return zero
	}
	return *p
}

// jsonDiff compares two values as JSON after normalisation and describes the differences by path
// ("want" is the package's value, "got" the server's); nil means equal.
//
// Normalisation: every "architectures" list is sorted. Gardener derives such lists from sets
// (sets.New(...).UnsortedList() in SyncArchitectureCapabilityFields on CloudProfile writes, in
// TransformSpecToParentFormat and in the merge's architecture sync, and in
// SyncArchitectureCapabilityFields), so the server's order is random, while the package lists values in order of first
// occurrence; the order carries no meaning there.
func jsonDiff(want, got any) []string {
	w, g := normalised(want), normalised(got)
	var out []string
	diffValues("", w, g, &out)
	return out
}

func normalised(v any) any {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		panic(err)
	}
	sortArchitectures(out)
	return out
}

func sortArchitectures(v any) {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if list, ok := e.([]any); ok && k == "architectures" {
				sort.Slice(list, func(i, j int) bool { return fmt.Sprint(list[i]) < fmt.Sprint(list[j]) })
			}
			sortArchitectures(e)
		}
	case []any:
		for _, e := range t {
			sortArchitectures(e)
		}
	}
}

// diffValues appends "path: want X, got Y" for every difference, at most 20.
func diffValues(path string, want, got any, out *[]string) {
	if len(*out) >= 20 || reflect.DeepEqual(want, got) {
		return
	}
	wm, wok := want.(map[string]any)
	gm, gok := got.(map[string]any)
	if wok && gok {
		keys := map[string]bool{}
		for k := range wm {
			keys[k] = true
		}
		for k := range gm {
			keys[k] = true
		}
		for _, k := range sortedKeys(keys) {
			diffValues(path+"."+k, wm[k], gm[k], out)
		}
		return
	}
	wl, wok := want.([]any)
	gl, gok := got.([]any)
	if wok && gok && len(wl) == len(gl) {
		for i := range wl {
			diffValues(fmt.Sprintf("%s[%d]", path, i), wl[i], gl[i], out)
		}
		return
	}
	*out = append(*out, fmt.Sprintf("%s: package %s, server %s", strings.TrimPrefix(path, "."), compact(want), compact(got)))
}

func compact(v any) string {
	if v == nil {
		return "(absent)"
	}
	raw, _ := json.Marshal(v)
	s := string(raw)
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}
