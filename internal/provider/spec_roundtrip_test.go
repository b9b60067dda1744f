package provider

import (
	"context"
	"encoding/json"
	"sort"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
)

func TestCloudProfileSpecRoundTrip(t *testing.T) {
	ctx := context.Background()
	want := inWireOrder(richCloudProfileSpec())

	x := mustFlattenCP(t, richCloudProfileSpec())
	if !x.Type(ctx).Equal(cloudProfileSpecType()) {
		t.Fatalf("flattened type differs from the schema type:\n got %s\nwant %s", x.Type(ctx), cloudProfileSpecType())
	}

	got, unknown, diags := expandCloudProfileSpec(ctx, x, specPath)
	requireNoDiags(t, diags)
	if len(unknown) != 0 {
		t.Fatalf("a known value reported unknown paths %v", unknown)
	}
	if !apiequality.Semantic.DeepEqual(want, got) {
		w, _ := json.Marshal(want)
		g, _ := json.Marshal(got)
		t.Fatalf("expand(flatten(spec)) != spec\nwant %s\n got %s", w, g)
	}

	// flatten(expand(x)) == x, exactly.
	again := mustFlattenCP(t, got)
	if !again.Equal(x) {
		t.Fatalf("flatten(expand(x)) != x\n got %s\nwant %s", again, x)
	}
}

func TestNamespacedCloudProfileSpecRoundTrip(t *testing.T) {
	ctx := context.Background()
	want := namespacedInWireOrder(richNamespacedCloudProfileSpec())

	x, diags := flattenNamespacedCloudProfileSpec(ctx, richNamespacedCloudProfileSpec())
	requireNoDiags(t, diags)
	if !x.Type(ctx).Equal(namespacedCloudProfileSpecType()) {
		t.Fatalf("flattened type differs from the schema type")
	}
	got, unknown, diags := expandNamespacedCloudProfileSpec(ctx, x, specPath)
	requireNoDiags(t, diags)
	if len(unknown) != 0 {
		t.Fatalf("a known value reported unknown paths %v", unknown)
	}
	if !apiequality.Semantic.DeepEqual(want, got) {
		w, _ := json.Marshal(want)
		g, _ := json.Marshal(got)
		t.Fatalf("expand(flatten(spec)) != spec\nwant %s\n got %s", w, g)
	}
	again, diags := flattenNamespacedCloudProfileSpec(ctx, got)
	requireNoDiags(t, diags)
	if !again.Equal(x) {
		t.Fatalf("flatten(expand(x)) != x\n got %s\nwant %s", again, x)
	}
}

// The rich fixtures must exercise every attribute, so the round trips above cover every field.
func TestRichFixturesCoverEveryAttribute(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name   string
		fields []specField
		value  func() attr.Value
	}{
		{"CloudProfile", cloudProfileSpecFields, func() attr.Value { return mustFlattenCP(t, richCloudProfileSpec()) }},
		{"NamespacedCloudProfile", namespacedCloudProfileSpecFields, func() attr.Value {
			v, diags := flattenNamespacedCloudProfileSpec(ctx, richNamespacedCloudProfileSpec())
			requireNoDiags(t, diags)
			return v
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			all := map[string]bool{}
			descriptorPaths(tc.fields, "", all)
			set := map[string]bool{}
			nonNullAttributePaths(tc.value(), "", set)
			var missing []string
			for p := range all {
				if !set[p] {
					missing = append(missing, p)
				}
			}
			sort.Strings(missing)
			if len(missing) > 0 {
				t.Fatalf("the fixture leaves these attributes null: %v", missing)
			}
		})
	}
}

func TestFlattenEmptyAndNull(t *testing.T) {
	ctx := context.Background()

	// An empty spec flattens to an object whose attributes are all null: absent lists, maps,
	// pointers, the always-serialised `kubernetes` struct and empty required strings.
	empty := mustFlattenCP(t, gardencorev1beta1.CloudProfileSpec{})
	for name, v := range empty.Attributes() {
		if !v.IsNull() {
			t.Errorf("%s: want null, got %s", name, v)
		}
	}
	// Empty (non-nil) lists and maps are null as well.
	spec := gardencorev1beta1.CloudProfileSpec{
		Kubernetes:    gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{}},
		MachineImages: []gardencorev1beta1.MachineImage{},
		Regions:       []gardencorev1beta1.Region{{Name: "r", Labels: map[string]string{}, Zones: []gardencorev1beta1.AvailabilityZone{}}},
		Limits:        &gardencorev1beta1.Limits{},
	}
	v := mustFlattenCP(t, spec)
	attrs := v.Attributes()
	if !attrs["kubernetes"].IsNull() || !attrs["machine_images"].IsNull() {
		t.Errorf("empty lists must be null: kubernetes=%s machine_images=%s", attrs["kubernetes"], attrs["machine_images"])
	}
	region := attrs["regions"].(types.Map).Elements()["r"].(types.Object).Attributes()
	if !region["labels"].IsNull() || !region["zones"].IsNull() {
		t.Errorf("empty map and list must be null: %s %s", region["labels"], region["zones"])
	}
	// A non-nil pointer to an empty struct is an object of nulls, so `limits = {}` round-trips.
	limits := attrs["limits"].(types.Object)
	if limits.IsNull() || !limits.Attributes()["max_nodes_total"].IsNull() {
		t.Errorf("limits: want {max_nodes_total = null}, got %s", limits)
	}

	// Expanding a null spec gives the zero spec; null optional fields give nil.
	got, unknown, diags := expandCloudProfileSpec(ctx, types.ObjectNull(cloudProfileSpecType().AttrTypes), specPath)
	requireNoDiags(t, diags)
	if len(unknown) != 0 || !apiequality.Semantic.DeepEqual(got, gardencorev1beta1.CloudProfileSpec{}) {
		t.Fatalf("null spec: got %+v unknown %v", got, unknown)
	}
	got, _, diags = expandCloudProfileSpec(ctx, empty, specPath)
	requireNoDiags(t, diags)
	if got.MachineImages != nil || got.CABundle != nil || got.Limits != nil || got.Kubernetes.Versions != nil || got.ProviderConfig != nil {
		t.Fatalf("null attributes must expand to nil: %+v", got)
	}

	// NCP: an unset parent is null.
	ncp, diags := flattenNamespacedCloudProfileSpec(ctx, gardencorev1beta1.NamespacedCloudProfileSpec{})
	requireNoDiags(t, diags)
	if !ncp.Attributes()["parent"].IsNull() || !ncp.Attributes()["kubernetes"].IsNull() {
		t.Errorf("parent and kubernetes of an empty NCP must be null: %s", ncp)
	}
}

// Configurations may spell quantities, timestamps, durations and JSON differently from what
// Gardener stores; expand accepts them, and the flattened result is semantically equal.
func TestExpandAcceptsOtherSpellings(t *testing.T) {
	ctx := context.Background()
	x := mustFlattenCP(t, richCloudProfileSpec())
	edits := []struct {
		p     string
		value attr.Value
		check func(t *testing.T, s gardencorev1beta1.CloudProfileSpec)
	}{
		{`machine_types["m5.large"].cpu`, newCanonicalValue(quantityType, "2000m"), func(t *testing.T, s gardencorev1beta1.CloudProfileSpec) {
			if s.MachineTypes[1].CPU.String() != "2" { // m5.large, after c5.xlarge
				t.Errorf("cpu = %s", s.MachineTypes[1].CPU.String())
			}
		}},
		{`machine_types["m5.large"].memory`, newCanonicalValue(quantityType, "8192Mi"), nil},
		{`kubernetes.versions["1.30.5"].expiration_date`, newCanonicalValue(timestampType, "2027-03-01T01:00:00.75+01:00"), func(t *testing.T, s gardencorev1beta1.CloudProfileSpec) {
			if got := s.Kubernetes.Versions[1].ExpirationDate.UTC().Format("2006-01-02T15:04:05.000Z07:00"); got != "2027-03-01T00:00:00.000Z" {
				t.Errorf("expiration date = %s", got)
			}
		}},
		{`machine_types["m5.large"].machine_controller_manager.machine_creation_timeout`, newCanonicalValue(durationType, "1200s"), nil},
		{"provider_config", jsontypes.NewNormalizedValue(`{
			"kind": "CloudProfileConfig",
			"apiVersion": "aws.provider.extensions.gardener.cloud/v1alpha1",
			"machineImages": [{"versions": [{"regions": [{"ami": "ami-1", "name": "eu-west-1"}], "version": "1592.1.0"}], "name": "gardenlinux"}]
		}`), nil},
	}
	for _, e := range edits {
		x = withSpecValue(t, x, parseTestPath(t, e.p), e.value)
	}
	spec, _, diags := expandCloudProfileSpec(ctx, x, specPath)
	requireNoDiags(t, diags)
	for _, e := range edits {
		if e.check != nil {
			e.check(t, spec)
		}
	}
	back := mustFlattenCP(t, spec)
	if back.Equal(x) {
		t.Fatalf("expected the stored form to differ in spelling")
	}
	if !semanticallyEqual(x, back) {
		t.Fatalf("the stored form is not semantically equal to the configuration\nconfig %s\nstored %s", x, back)
	}
}
