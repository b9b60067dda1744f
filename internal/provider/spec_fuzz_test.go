package provider

import (
	"context"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

var hugeExponent = regexp.MustCompile(`[eE][-+]?0*[0-9]{5,}`)

// fuzzTarget is an attribute of the rich CloudProfile that receives the fuzzer's string.
type fuzzTarget struct {
	at    string
	value func(string) attr.Value
	// invalid returns why expand must reject the string, or nil if it must accept it.
	invalid func(string) error
}

var fuzzTargets = []fuzzTarget{
	{`machine_types["b"].memory`, func(s string) attr.Value { return newCanonicalValue(quantityType, s) },
		func(s string) error { _, err := parseQuantity(s); return err }},
	{`machine_types["a"].storage.min_size`, func(s string) attr.Value { return newCanonicalValue(quantityType, s) },
		func(s string) error { _, err := parseQuantity(s); return err }},
	{`kubernetes.versions["1.30.5"].expiration_date`, func(s string) attr.Value { return newCanonicalValue(timestampType, s) },
		func(s string) error { _, err := parseTimestamp(s); return err }},
	{`machine_images["gardenlinux"].versions["1443.3.0"].lifecycle[0].start_time`, func(s string) attr.Value { return newCanonicalValue(timestampType, s) },
		func(s string) error { _, err := parseTimestamp(s); return err }},
	{`machine_types["a"].machine_controller_manager.machine_creation_timeout`, func(s string) attr.Value { return newCanonicalValue(durationType, s) },
		func(s string) error { return checkCanonical(durationKind, s) }},
	{"provider_config", func(s string) attr.Value { return jsontypes.NewNormalizedValue(s) }, checkJSONObject},
	{`machine_images["gardenlinux"].versions["1592.1.0"].cri["containerd"].container_runtimes["gvisor"].provider_config`, func(s string) attr.Value { return jsontypes.NewNormalizedValue(s) }, checkJSONObject},
	{"type", func(s string) attr.Value { return types.StringValue(s) }, func(string) error { return nil }},
	{`regions["eu-west-1"].labels["quality"]`, func(s string) attr.Value { return types.StringValue(s) }, func(string) error { return nil }},
}

// fuzzBaseSpec is a small CloudProfile spec that holds every fuzz target (small, so that a fuzz
// execution stays fast under coverage instrumentation).
func fuzzBaseSpec() gardencorev1beta1.CloudProfileSpec {
	return gardencorev1beta1.CloudProfileSpec{
		Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{
			{Version: "1.31.2"}, {Version: "1.30.5", ExpirationDate: at(2027, time.March, 1)},
		}},
		MachineImages: []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: []gardencorev1beta1.MachineImageVersion{
			{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1592.1.0"}, CRI: []gardencorev1beta1.CRI{{
				Name: gardencorev1beta1.CRINameContainerD, ContainerRuntimes: []gardencorev1beta1.ContainerRuntime{{Type: "gvisor"}},
			}}},
			{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1443.3.0", Lifecycle: []gardencorev1beta1.LifecycleStage{
				{Classification: gardencorev1beta1.ClassificationSupported, StartTime: at(2025, time.January, 1)},
			}}},
		}}},
		MachineTypes: []gardencorev1beta1.MachineType{
			{Name: "a", Storage: &gardencorev1beta1.MachineTypeStorage{MinSize: quantity("20Gi")},
				MachineControllerManager: &gardencorev1beta1.CloudProfileMachineControllerManagerSettings{MachineCreationTimeout: &metav1.Duration{Duration: time.Minute}}},
			{Name: "b", Memory: resource.MustParse("8Gi")},
		},
		ProviderConfig: &runtime.RawExtension{Raw: []byte(`{}`)},
		Regions:        []gardencorev1beta1.Region{{Name: "eu-west-1", Labels: map[string]string{"quality": "high"}}},
		Type:           "aws",
	}
}

// requirePathsOnErrors fails if an error diagnostic has no attribute path.
func requirePathsOnErrors(t *testing.T, diags diag.Diagnostics) {
	t.Helper()
	for _, p := range errorPaths(diags) {
		if p == "" {
			t.Fatalf("an error without an attribute path:\n%s", describeDiags(diags))
		}
	}
}

// FuzzExpandCloudProfileSpec checks two things for arbitrary input:
//  1. data, read as the JSON of a CloudProfile spec (and of a NamespacedCloudProfile spec), goes
//     through flatten and expand without a panic, every error names an attribute, and where expand
//     succeeds flatten(expand(x)) == x;
//  2. s, put into quantity, timestamp, duration, JSON and plain string attributes, is rejected
//     exactly where Kubernetes would reject it, with one error on exactly each such attribute, and
//     is otherwise stored in a semantically equal form.
func FuzzExpandCloudProfileSpec(f *testing.F) {
	rich, err := json.Marshal(richCloudProfileSpec())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(rich, "8Gi")
	base := mustFlattenCP(f, fuzzBaseSpec())

	f.Fuzz(func(t *testing.T, data []byte, s string) {
		ctx := context.Background()

		// Kubernetes' own quantity parser takes seconds on exponents such as 1e-9999999; such
		// JSON would only measure apimachinery, not this provider.
		if hugeExponent.Match(data) {
			data = nil
		}
		var cp gardencorev1beta1.CloudProfileSpec
		if json.Unmarshal(data, &cp) == nil {
			x, diags := flattenCloudProfileSpec(ctx, cp)
			requireNoDiags(t, diags)
			got, unknown, diags := expandCloudProfileSpec(ctx, x, specPath)
			if len(unknown) > 0 {
				t.Fatalf("known value reported unknown at %v", unknown)
			}
			requirePathsOnErrors(t, diags)
			if !diags.HasError() {
				y, diags := flattenCloudProfileSpec(ctx, got)
				requireNoDiags(t, diags)
				if !y.Equal(x) {
					t.Fatalf("flatten(expand(x)) != x\n x: %s\n y: %s", x, y)
				}
			}
		}
		var ncp gardencorev1beta1.NamespacedCloudProfileSpec
		if json.Unmarshal(data, &ncp) == nil {
			x, diags := flattenNamespacedCloudProfileSpec(ctx, ncp)
			requireNoDiags(t, diags)
			got, _, diags := expandNamespacedCloudProfileSpec(ctx, x, specPath)
			requirePathsOnErrors(t, diags)
			if !diags.HasError() {
				y, diags := flattenNamespacedCloudProfileSpec(ctx, got)
				requireNoDiags(t, diags)
				if !y.Equal(x) {
					t.Fatalf("NCP flatten(expand(x)) != x\n x: %s\n y: %s", x, y)
				}
			}
		}

		// Terraform strings are valid UTF-8. First s goes into every target at once: expand must
		// report exactly the targets that reject s, one error each. Then s goes only into the
		// targets that accept it: expand must succeed and Gardener's form of s must mean s.
		s = strings.ToValidUTF8(s, "\uFFFD")
		all, valid := base, base
		var wantErrs []string
		var accepted []fuzzTarget
		for _, tg := range fuzzTargets {
			p := parseTestPath(t, tg.at)
			all = withSpecValue(t, all, p, tg.value(s))
			if tg.invalid(s) != nil {
				wantErrs = append(wantErrs, p.String())
			} else {
				valid = withSpecValue(t, valid, p, tg.value(s))
				accepted = append(accepted, tg)
			}
		}
		slices.Sort(wantErrs)
		_, _, diags := expandCloudProfileSpec(ctx, all, specPath)
		if paths := errorPaths(diags); !slices.Equal(paths, wantErrs) {
			t.Fatalf("s = %q: error paths %q, want %q\n%s", s, paths, wantErrs, describeDiags(diags))
		}
		got, _, diags := expandCloudProfileSpec(ctx, valid, specPath)
		requireNoDiags(t, diags)
		y, diags := flattenCloudProfileSpec(ctx, got)
		requireNoDiags(t, diags)
		for _, tg := range accepted {
			steps := parseTestPath(t, tg.at).Steps()[1:]
			want, stored := getAt(t, valid, steps), getAt(t, y, steps)
			if s == "" && stored.IsNull() {
				continue // Gardener sends no empty strings back
			}
			if !semanticallyEqual(want, stored) {
				t.Fatalf("%s = %q stored as %s", tg.at, s, stored)
			}
		}
	})
}

// The fuzz corpus entries also run as a plain test; this names the path helper's contract.
func TestParseTestPath(t *testing.T) {
	got := parseTestPath(t, `regions["eu-west-1"].labels["a.b/c"]`)
	want := path.Root("spec").AtName("regions").AtMapKey("eu-west-1").AtName("labels").AtMapKey("a.b/c")
	if !got.Equal(want) {
		t.Fatalf("%s != %s", got, want)
	}
}
