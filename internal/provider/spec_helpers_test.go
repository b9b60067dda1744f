package provider

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"
)

var specPath = path.Root("spec")

func quantity(s string) *resource.Quantity {
	q := resource.MustParse(s)
	return &q
}

func at(year int, month time.Month, day int) *metav1.Time {
	t := metav1.NewTime(time.Date(year, month, day, 0, 0, 0, 0, time.UTC))
	return &t
}

// richCloudProfileSpec sets every field of a CloudProfile spec at least once, in the form
// Gardener stores (canonical quantities, UTC timestamps, compact JSON, no empty lists).
func richCloudProfileSpec() gardencorev1beta1.CloudProfileSpec {
	containerd := gardencorev1beta1.CRI{
		Name: gardencorev1beta1.CRINameContainerD,
		ContainerRuntimes: []gardencorev1beta1.ContainerRuntime{
			{Type: "gvisor", ProviderConfig: &runtime.RawExtension{Raw: []byte(`{"apiVersion":"gvisor.os.extensions.gardener.cloud/v1alpha1","kind":"GVisorConfiguration","configFlags":{"net-raw":"true"},"big":12345678901234567890}`)}},
			{Type: "kata"},
		},
	}
	return gardencorev1beta1.CloudProfileSpec{
		CABundle: ptr.To("-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n"),
		Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{
			{Version: "1.31.2"},
			{Version: "1.30.5", ExpirationDate: at(2027, time.March, 1), Classification: ptr.To(gardencorev1beta1.ClassificationDeprecated)},
			{Version: "1.29.9", Lifecycle: []gardencorev1beta1.LifecycleStage{
				{Classification: gardencorev1beta1.ClassificationSupported},
				{Classification: gardencorev1beta1.ClassificationDeprecated, StartTime: at(2026, time.June, 1)},
				{Classification: gardencorev1beta1.ClassificationExpired, StartTime: at(2027, time.January, 15)},
			}},
		}},
		MachineImages: []gardencorev1beta1.MachineImage{
			{
				Name:           "gardenlinux",
				UpdateStrategy: ptr.To(gardencorev1beta1.UpdateStrategyMinor),
				Versions: []gardencorev1beta1.MachineImageVersion{
					{
						ExpirableVersion:         gardencorev1beta1.ExpirableVersion{Version: "1592.1.0", Classification: ptr.To(gardencorev1beta1.ClassificationSupported)},
						CRI:                      []gardencorev1beta1.CRI{containerd},
						Architectures:            []string{"amd64", "arm64"},
						KubeletVersionConstraint: ptr.To(">= 1.26, < 1.32"),
						InPlaceUpdates:           &gardencorev1beta1.InPlaceUpdates{Supported: true, MinVersionForUpdate: ptr.To("1443.0.0")},
						CapabilityFlavors: []gardencorev1beta1.MachineImageFlavor{
							{Capabilities: gardencorev1beta1.Capabilities{"architecture": {"amd64"}, "network": {"standard", "accelerated"}}},
							{Capabilities: gardencorev1beta1.Capabilities{"architecture": {"arm64"}}},
						},
					},
					{
						ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1443.3.0", Lifecycle: []gardencorev1beta1.LifecycleStage{
							{Classification: gardencorev1beta1.ClassificationPreview, StartTime: at(2025, time.January, 1)},
							{Classification: gardencorev1beta1.ClassificationSupported, StartTime: at(2025, time.February, 1)},
						}},
						CRI:            []gardencorev1beta1.CRI{{Name: gardencorev1beta1.CRINameContainerD}},
						Architectures:  []string{"amd64"},
						InPlaceUpdates: &gardencorev1beta1.InPlaceUpdates{Supported: false},
					},
				},
			},
			{Name: "ubuntu", UpdateStrategy: ptr.To(gardencorev1beta1.UpdateStrategyMajor), Versions: []gardencorev1beta1.MachineImageVersion{
				{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "24.4.0", ExpirationDate: at(2029, time.April, 30)}, CRI: []gardencorev1beta1.CRI{{Name: gardencorev1beta1.CRINameContainerD}}, Architectures: []string{"amd64"}},
			}},
		},
		MachineTypes: []gardencorev1beta1.MachineType{
			{
				Name: "m5.large", CPU: resource.MustParse("2"), GPU: resource.MustParse("0"), Memory: resource.MustParse("8Gi"),
				Storage:                  &gardencorev1beta1.MachineTypeStorage{Class: "standard", StorageSize: quantity("50Gi"), Type: "gp3"},
				Usable:                   ptr.To(true),
				Architecture:             ptr.To("amd64"),
				Capabilities:             gardencorev1beta1.Capabilities{"architecture": {"amd64"}, "network": {"accelerated"}},
				MachineControllerManager: &gardencorev1beta1.CloudProfileMachineControllerManagerSettings{MachineCreationTimeout: &metav1.Duration{Duration: 20 * time.Minute}},
			},
			{
				Name: "m6g.large", CPU: resource.MustParse("500m"), GPU: resource.MustParse("1"), Memory: resource.MustParse("1536Mi"),
				Storage:      &gardencorev1beta1.MachineTypeStorage{Class: "premium", Type: "io1", MinSize: quantity("20Gi")},
				Usable:       ptr.To(false),
				Architecture: ptr.To("arm64"),
				Capabilities: gardencorev1beta1.Capabilities{"architecture": {"arm64"}},
			},
			{Name: "c5.xlarge", CPU: resource.MustParse("4"), GPU: resource.MustParse("0"), Memory: resource.MustParse("8Gi"), Usable: ptr.To(true), Architecture: ptr.To("amd64")},
			{Name: "p3.2xlarge", CPU: resource.MustParse("8"), GPU: resource.MustParse("1"), Memory: resource.MustParse("61Gi"), Usable: ptr.To(true), Architecture: ptr.To("amd64")},
		},
		ProviderConfig: &runtime.RawExtension{Raw: []byte(`{"apiVersion":"aws.provider.extensions.gardener.cloud/v1alpha1","kind":"CloudProfileConfig","machineImages":[{"name":"gardenlinux","versions":[{"version":"1592.1.0","regions":[{"name":"eu-west-1","ami":"ami-1"}]}]}]}`)},
		Regions: []gardencorev1beta1.Region{
			{
				Name: "eu-west-1",
				Zones: []gardencorev1beta1.AvailabilityZone{
					{Name: "eu-west-1a", UnavailableMachineTypes: []string{"p3.2xlarge"}, UnavailableVolumeTypes: []string{"io1"}},
					{Name: "eu-west-1b"},
				},
				Labels:             map[string]string{"quality": "high", "topology.gardener.cloud/tier": "gold"},
				AccessRestrictions: []gardencorev1beta1.AccessRestriction{{Name: "eu-access-only"}},
			},
			{Name: "us-east-1", Zones: []gardencorev1beta1.AvailabilityZone{{Name: "us-east-1a"}}},
		},
		SeedSelector: &gardencorev1beta1.SeedSelector{
			LabelSelector: metav1.LabelSelector{
				MatchLabels: map[string]string{"environment": "production"},
				MatchExpressions: []metav1.LabelSelectorRequirement{
					{Key: "seed.gardener.cloud/zone", Operator: metav1.LabelSelectorOpIn, Values: []string{"a", "b"}},
					{Key: "gpu", Operator: metav1.LabelSelectorOpExists},
				},
			},
			ProviderTypes: []string{"aws", "*"},
		},
		Type: "aws",
		VolumeTypes: []gardencorev1beta1.VolumeType{
			{Class: "standard", Name: "gp3", Usable: ptr.To(true), MinSize: quantity("20Gi")},
			{Class: "premium", Name: "io1", Usable: ptr.To(false)},
		},
		Bastion: &gardencorev1beta1.Bastion{
			MachineImage: &gardencorev1beta1.BastionMachineImage{Name: "gardenlinux", Version: ptr.To("1592.1.0")},
			MachineType:  &gardencorev1beta1.BastionMachineType{Name: "m5.large"},
		},
		Limits: &gardencorev1beta1.Limits{MaxNodesTotal: ptr.To[int32](500)},
		MachineCapabilities: []gardencorev1beta1.CapabilityDefinition{
			{Name: "architecture", Values: gardencorev1beta1.CapabilityValues{"amd64", "arm64"}},
			{Name: "network", Values: gardencorev1beta1.CapabilityValues{"standard", "accelerated"}},
		},
	}
}

// richNamespacedCloudProfileSpec sets every field of a NamespacedCloudProfile spec.
func richNamespacedCloudProfileSpec() gardencorev1beta1.NamespacedCloudProfileSpec {
	return gardencorev1beta1.NamespacedCloudProfileSpec{
		CABundle: ptr.To("-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----\n"),
		Kubernetes: &gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{
			{Version: "1.30.5", ExpirationDate: at(2028, time.January, 1)},
			{Version: "1.29.9", Classification: ptr.To(gardencorev1beta1.ClassificationPreview), Lifecycle: []gardencorev1beta1.LifecycleStage{{Classification: gardencorev1beta1.ClassificationSupported, StartTime: at(2025, time.May, 5)}}},
		}},
		MachineImages: []gardencorev1beta1.MachineImage{
			{Name: "gardenlinux", Versions: []gardencorev1beta1.MachineImageVersion{
				{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1592.1.0", ExpirationDate: at(2028, time.June, 30)}},
				{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1600.0.0", Lifecycle: []gardencorev1beta1.LifecycleStage{
					{Classification: gardencorev1beta1.ClassificationPreview},
					{Classification: gardencorev1beta1.ClassificationSupported, StartTime: at(2026, time.September, 1)},
				}}},
			}},
			{Name: "custom-os", UpdateStrategy: ptr.To(gardencorev1beta1.UpdateStrategyPatch), Versions: []gardencorev1beta1.MachineImageVersion{
				{
					ExpirableVersion:         gardencorev1beta1.ExpirableVersion{Version: "1.0.0", Classification: ptr.To(gardencorev1beta1.ClassificationPreview)},
					CRI:                      []gardencorev1beta1.CRI{{Name: gardencorev1beta1.CRINameContainerD, ContainerRuntimes: []gardencorev1beta1.ContainerRuntime{{Type: "gvisor", ProviderConfig: &runtime.RawExtension{Raw: []byte(`{"a":[1,2,{"b":null}]}`)}}}}},
					Architectures:            []string{"arm64"},
					KubeletVersionConstraint: ptr.To("~1.31"),
					InPlaceUpdates:           &gardencorev1beta1.InPlaceUpdates{Supported: true, MinVersionForUpdate: ptr.To("0.9.0")},
					CapabilityFlavors:        []gardencorev1beta1.MachineImageFlavor{{Capabilities: gardencorev1beta1.Capabilities{"architecture": {"arm64"}}}},
				},
			}},
		},
		MachineTypes: []gardencorev1beta1.MachineType{
			{
				Name: "custom.large", CPU: resource.MustParse("16"), GPU: resource.MustParse("2"), Memory: resource.MustParse("128Gi"),
				Storage:                  &gardencorev1beta1.MachineTypeStorage{Class: "standard", StorageSize: quantity("100Gi"), Type: "ssd", MinSize: quantity("10Gi")},
				Usable:                   ptr.To(true),
				Architecture:             ptr.To("amd64"),
				Capabilities:             gardencorev1beta1.Capabilities{"architecture": {"amd64"}},
				MachineControllerManager: &gardencorev1beta1.CloudProfileMachineControllerManagerSettings{MachineCreationTimeout: &metav1.Duration{Duration: 90 * time.Minute}},
			},
		},
		VolumeTypes:    []gardencorev1beta1.VolumeType{{Class: "premium", Name: "fast", Usable: ptr.To(true), MinSize: quantity("1Gi")}},
		Parent:         gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: "aws"},
		ProviderConfig: &runtime.RawExtension{Raw: []byte(`{"apiVersion":"aws.provider.extensions.gardener.cloud/v1alpha1","kind":"CloudProfileConfig"}`)},
		Limits:         &gardencorev1beta1.Limits{MaxNodesTotal: ptr.To[int32](50)},
	}
}

// mustFlattenCP flattens a CloudProfile spec and fails on diagnostics.
func mustFlattenCP(t testing.TB, spec gardencorev1beta1.CloudProfileSpec) types.Object {
	t.Helper()
	v, diags := flattenCloudProfileSpec(context.Background(), spec)
	requireNoDiags(t, diags)
	return v
}

func requireNoDiags(t testing.TB, diags diag.Diagnostics) {
	t.Helper()
	if len(diags) > 0 {
		t.Fatalf("unexpected diagnostics:\n%s", describeDiags(diags))
	}
}

func describeDiags(diags diag.Diagnostics) string {
	var b strings.Builder
	for _, d := range diags {
		p := "<no path>"
		if dp, ok := d.(diag.DiagnosticWithPath); ok {
			p = dp.Path().String()
		}
		fmt.Fprintf(&b, "  %s %s: %s — %s\n", d.Severity(), p, d.Summary(), d.Detail())
	}
	return b.String()
}

// errorPaths lists the paths of error diagnostics; an error without a path is reported as "".
func errorPaths(diags diag.Diagnostics) []string {
	var out []string
	for _, d := range diags.Errors() {
		if dp, ok := d.(diag.DiagnosticWithPath); ok {
			out = append(out, dp.Path().String())
		} else {
			out = append(out, "")
		}
	}
	sort.Strings(out)
	return out
}

// setAt returns v with the value at the steps replaced by nv. Types must agree.
func setAt(t testing.TB, v attr.Value, steps path.PathSteps, nv attr.Value) attr.Value {
	t.Helper()
	if len(steps) == 0 {
		return nv
	}
	ctx := context.Background()
	switch s := steps[0].(type) {
	case path.PathStepAttributeName:
		o, ok := v.(types.Object)
		if !ok {
			t.Fatalf("setAt: %s is not an object but %T", s, v)
		}
		attrs := maps.Clone(o.Attributes())
		attrs[string(s)] = setAt(t, attrs[string(s)], steps[1:], nv)
		out, diags := types.ObjectValue(o.AttributeTypes(ctx), attrs)
		requireNoDiags(t, diags)
		return out
	case path.PathStepElementKeyInt:
		l, ok := v.(types.List)
		if !ok {
			t.Fatalf("setAt: [%d] is not in a list but %T", s, v)
		}
		elems := slices.Clone(l.Elements())
		elems[int(s)] = setAt(t, elems[int(s)], steps[1:], nv)
		out, diags := types.ListValue(l.ElementType(ctx), elems)
		requireNoDiags(t, diags)
		return out
	case path.PathStepElementKeyString:
		m, ok := v.(types.Map)
		if !ok {
			t.Fatalf("setAt: [%q] is not in a map but %T", s, v)
		}
		elems := maps.Clone(m.Elements())
		elems[string(s)] = setAt(t, elems[string(s)], steps[1:], nv)
		out, diags := types.MapValue(m.ElementType(ctx), elems)
		requireNoDiags(t, diags)
		return out
	}
	t.Fatalf("setAt: unsupported step %T", steps[0])
	return nil
}

// getAt returns the value at the steps.
func getAt(t testing.TB, v attr.Value, steps path.PathSteps) attr.Value {
	t.Helper()
	for _, st := range steps {
		switch s := st.(type) {
		case path.PathStepAttributeName:
			v = v.(types.Object).Attributes()[string(s)]
		case path.PathStepElementKeyInt:
			v = v.(types.List).Elements()[int(s)]
		case path.PathStepElementKeyString:
			v = v.(types.Map).Elements()[string(s)]
		default:
			t.Fatalf("getAt: unsupported step %T", st)
		}
	}
	return v
}

// withSpecValue replaces the value at p (rooted at "spec") in the spec object.
func withSpecValue(t testing.TB, spec types.Object, p path.Path, nv attr.Value) types.Object {
	t.Helper()
	return setAt(t, spec, p.Steps()[1:], nv).(types.Object)
}

// unknownOf is the unknown value of a type.
func unknownOf(t attr.Type) attr.Value { return valueOfRaw(t, tftypes.UnknownValue) }

// semanticallyEqual compares two values as Terraform would after semantic equality: custom
// string values by meaning, everything else exactly.
func semanticallyEqual(a, b attr.Value) bool {
	ctx := context.Background()
	if a.IsNull() || b.IsNull() || a.IsUnknown() || b.IsUnknown() {
		return a.Equal(b)
	}
	switch av := a.(type) {
	case canonicalStringValue:
		eq, _ := av.StringSemanticEquals(ctx, b.(basetypes.StringValuable))
		return eq
	case jsontypes.Normalized:
		eq, _ := av.StringSemanticEquals(ctx, b.(basetypes.StringValuable))
		return eq
	case types.Object:
		bo := b.(types.Object)
		if len(av.Attributes()) != len(bo.Attributes()) {
			return false
		}
		for k, x := range av.Attributes() {
			y, ok := bo.Attributes()[k]
			if !ok || !semanticallyEqual(x, y) {
				return false
			}
		}
		return true
	case types.List:
		ae, be := av.Elements(), b.(types.List).Elements()
		if len(ae) != len(be) {
			return false
		}
		for i := range ae {
			if !semanticallyEqual(ae[i], be[i]) {
				return false
			}
		}
		return true
	case types.Map:
		ae, be := av.Elements(), b.(types.Map).Elements()
		if len(ae) != len(be) {
			return false
		}
		for k, x := range ae {
			y, ok := be[k]
			if !ok || !semanticallyEqual(x, y) {
				return false
			}
		}
		return true
	}
	return a.Equal(b)
}

// nonNullAttributePaths collects the attribute paths (without list indices or map keys, e.g.
// "machine_images.versions.cri.name") that are non-null somewhere in v.
func nonNullAttributePaths(v attr.Value, prefix string, out map[string]bool) {
	if v == nil || v.IsNull() || v.IsUnknown() {
		return
	}
	if prefix != "" {
		out[prefix] = true
	}
	join := func(name string) string {
		if prefix == "" {
			return name
		}
		return prefix + "." + name
	}
	switch x := v.(type) {
	case types.Object:
		for k, c := range x.Attributes() {
			nonNullAttributePaths(c, join(k), out)
		}
	case types.List:
		for _, e := range x.Elements() {
			nonNullEntryPaths(e, join, out)
		}
	case types.Map:
		for _, e := range x.Elements() {
			nonNullEntryPaths(e, join, out)
		}
	}
}

// nonNullEntryPaths is nonNullAttributePaths of an entry of a list or map: the paths of its
// attributes continue the list's or map's.
func nonNullEntryPaths(e attr.Value, join func(string) string, out map[string]bool) {
	if o, ok := e.(types.Object); ok {
		for k, c := range o.Attributes() {
			nonNullAttributePaths(c, join(k), out)
		}
	}
}

// inWireOrder returns spec with its keyed lists in the order the provider writes them (names
// ascending, versions newest first), as expanding a spec yields it.
func inWireOrder(spec gardencorev1beta1.CloudProfileSpec) gardencorev1beta1.CloudProfileSpec {
	out := *spec.DeepCopy()
	sortEntries(out.Kubernetes.Versions, newestVersionFirst, func(v gardencorev1beta1.ExpirableVersion) string { return v.Version })
	sortImages(out.MachineImages)
	sortEntries(out.MachineTypes, namesAscending, func(m gardencorev1beta1.MachineType) string { return m.Name })
	sortEntries(out.VolumeTypes, namesAscending, func(v gardencorev1beta1.VolumeType) string { return v.Name })
	sortEntries(out.Regions, namesAscending, func(r gardencorev1beta1.Region) string { return r.Name })
	for i := range out.Regions {
		sortEntries(out.Regions[i].Zones, namesAscending, func(z gardencorev1beta1.AvailabilityZone) string { return z.Name })
	}
	return out
}

// namespacedInWireOrder is inWireOrder of a NamespacedCloudProfile's spec.
func namespacedInWireOrder(spec gardencorev1beta1.NamespacedCloudProfileSpec) gardencorev1beta1.NamespacedCloudProfileSpec {
	out := *spec.DeepCopy()
	if out.Kubernetes != nil {
		sortEntries(out.Kubernetes.Versions, newestVersionFirst, func(v gardencorev1beta1.ExpirableVersion) string { return v.Version })
	}
	sortImages(out.MachineImages)
	sortEntries(out.MachineTypes, namesAscending, func(m gardencorev1beta1.MachineType) string { return m.Name })
	sortEntries(out.VolumeTypes, namesAscending, func(v gardencorev1beta1.VolumeType) string { return v.Name })
	return out
}

// sortImages sorts machine images, their versions, CRIs and container runtimes in wire order.
func sortImages(images []gardencorev1beta1.MachineImage) {
	sortEntries(images, namesAscending, func(m gardencorev1beta1.MachineImage) string { return m.Name })
	for i := range images {
		versions := images[i].Versions
		sortEntries(versions, newestVersionFirst, func(v gardencorev1beta1.MachineImageVersion) string { return v.Version })
		for j := range versions {
			sortEntries(versions[j].CRI, namesAscending, func(c gardencorev1beta1.CRI) string { return string(c.Name) })
			for k := range versions[j].CRI {
				sortEntries(versions[j].CRI[k].ContainerRuntimes, namesAscending, func(c gardencorev1beta1.ContainerRuntime) string { return c.Type })
			}
		}
	}
}

// sortEntries sorts entries in place by their keys in the given order.
func sortEntries[E any](entries []E, order entryOrder, key func(E) string) {
	keys := make([]string, len(entries))
	for i, e := range entries {
		keys[i] = key(e)
	}
	rank := map[string]int{}
	for i, k := range sortedEntryKeys(order, keys) {
		rank[k] = i
	}
	slices.SortStableFunc(entries, func(a, b E) int { return rank[key(a)] - rank[key(b)] })
}

// descriptorPaths lists every attribute path of the descriptor tree.
func descriptorPaths(fields []specField, prefix string, out map[string]bool) {
	for _, f := range fields {
		p := f.attr
		if prefix != "" {
			p = prefix + "." + f.attr
		}
		out[p] = true
		descriptorPaths(f.children, p, out)
	}
}

// newCanonicalValue returns a known value of the given type.
func newCanonicalValue(t canonicalStringType, s string) canonicalStringValue {
	return canonicalStringValue{StringValue: basetypes.NewStringValue(s), kind: t.kind}
}
