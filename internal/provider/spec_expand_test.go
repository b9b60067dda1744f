package provider

import (
	"context"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// parseTestPath turns `machine_types["p3.2xlarge"].memory` or `regions["eu-west-1"].labels["k"]` into a path below
// spec.
func parseTestPath(t testing.TB, s string) path.Path {
	t.Helper()
	p := specPath
	for rest := s; rest != ""; {
		switch {
		case rest[0] == '.':
			rest = rest[1:]
		case rest[0] == '[' && len(rest) > 1 && rest[1] == '"':
			q, err := strconv.QuotedPrefix(rest[1:])
			if err != nil || len(rest) < len(q)+2 || rest[len(q)+1] != ']' {
				t.Fatalf("bad map key in test path %q", s)
			}
			k, _ := strconv.Unquote(q)
			p = p.AtMapKey(k)
			rest = rest[len(q)+2:]
		case rest[0] == '[':
			end := strings.IndexByte(rest, ']')
			i, err := strconv.Atoi(rest[1:max(end, 1)])
			if end < 0 || err != nil {
				t.Fatalf("bad index in test path %q", s)
			}
			p = p.AtListIndex(i)
			rest = rest[end+1:]
		default:
			end := strings.IndexAny(rest, ".[")
			if end < 0 {
				end = len(rest)
			}
			p = p.AtName(rest[:end])
			rest = rest[end:]
		}
	}
	return p
}

func TestExpandErrorsOnExactPaths(t *testing.T) {
	ctx := context.Background()
	cp := mustFlattenCP(t, richCloudProfileSpec())
	ncp, diags := flattenNamespacedCloudProfileSpec(ctx, richNamespacedCloudProfileSpec())
	requireNoDiags(t, diags)

	cases := []struct {
		name      string
		ncp       bool
		at        string
		value     attr.Value
		summary   string
		inDetail  []string
		wantPaths []string // defaults to [at]
	}{
		{name: "bad quantity", at: `machine_types["p3.2xlarge"].memory`, value: newCanonicalValue(quantityType, "8 GiB"),
			summary: "Invalid quantity", inDetail: []string{`"8 GiB"`, "8Gi"}},
		{name: "empty quantity", at: `machine_types["m6g.large"].storage.min_size`, value: newCanonicalValue(quantityType, ""),
			summary: "Invalid quantity", inDetail: []string{`""`}},
		{name: "bad volume min size", at: `volume_types["gp3"].min_size`, value: newCanonicalValue(quantityType, "20Gb"),
			summary: "Invalid quantity"},
		{name: "bad expiration date", at: `kubernetes.versions["1.30.5"].expiration_date`, value: newCanonicalValue(timestampType, "2027-03-01"),
			summary: "Invalid timestamp", inDetail: []string{`"2027-03-01"`, "2027-03-01T00:00:00Z"}},
		{name: "bad lifecycle start", at: `machine_images["gardenlinux"].versions["1443.3.0"].lifecycle[1].start_time`, value: newCanonicalValue(timestampType, "tomorrow"),
			summary: "Invalid timestamp"},
		{name: "zero time", at: `kubernetes.versions["1.29.9"].lifecycle[1].start_time`, value: newCanonicalValue(timestampType, "0001-01-01T00:00:00Z"),
			summary: "Invalid timestamp", inDetail: []string{"0001-01-01T00:00:00Z"}},
		{name: "provider_config not JSON", at: "provider_config", value: jsontypes.NewNormalizedValue(`{"kind":`),
			summary: "Invalid provider_config", inDetail: []string{"jsonencode"}},
		{name: "provider_config not an object", at: `machine_images["gardenlinux"].versions["1592.1.0"].cri["containerd"].container_runtimes["gvisor"].provider_config`, value: jsontypes.NewNormalizedValue(`["a"]`),
			summary: "Invalid provider_config", inDetail: []string{"not an object"}},
		{name: "bad duration", at: `machine_types["m5.large"].machine_controller_manager.machine_creation_timeout`, value: newCanonicalValue(durationType, "20 minutes"),
			summary: "Invalid duration", inDetail: []string{"20m"}},
		{name: "null list element", at: `regions["eu-west-1"].zones["eu-west-1a"].unavailable_machine_types[0]`, value: types.StringNull(),
			summary: "Null element"},
		{name: "null object element", at: `regions["us-east-1"].zones["us-east-1a"]`, value: types.ObjectNull(objectTypeOf(mustChild(t, cloudProfileSpecRoot, "regions", "zones").children).AttrTypes),
			summary: "Null element"},
		{name: "null capability value", at: `machine_types["m5.large"].capabilities["network"][0]`, value: types.StringNull(),
			summary: "Null element"},
		{name: "NCP bad quantity", ncp: true, at: `machine_types["custom.large"].storage.size`, value: newCanonicalValue(quantityType, "100 Gi"),
			summary: "Invalid quantity"},
		{name: "NCP bad expiration", ncp: true, at: `machine_images["gardenlinux"].versions["1592.1.0"].expiration_date`, value: newCanonicalValue(timestampType, "2028-06-30 00:00:00"),
			summary: "Invalid timestamp"},
		{name: "NCP bad JSON", ncp: true, at: "provider_config", value: jsontypes.NewNormalizedValue(`kind: CloudProfileConfig`),
			summary: "Invalid provider_config"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := parseTestPath(t, tc.at)
			var errs []string
			if tc.ncp {
				_, _, d := expandNamespacedCloudProfileSpec(ctx, withSpecValue(t, ncp, p, tc.value), specPath)
				diags = d
			} else {
				_, _, d := expandCloudProfileSpec(ctx, withSpecValue(t, cp, p, tc.value), specPath)
				diags = d
			}
			errs = errorPaths(diags)
			want := tc.wantPaths
			if want == nil {
				want = []string{p.String()}
			}
			if !slices.Equal(errs, want) {
				t.Fatalf("error paths = %q, want %q\n%s", errs, want, describeDiags(diags))
			}
			d := diags.Errors()[0]
			if d.Summary() != tc.summary {
				t.Errorf("summary = %q, want %q", d.Summary(), tc.summary)
			}
			for _, s := range tc.inDetail {
				if !strings.Contains(d.Detail(), s) {
					t.Errorf("detail %q does not mention %q", d.Detail(), s)
				}
			}
		})
	}
}

func TestExpandSeveralErrorsAtOnce(t *testing.T) {
	ctx := context.Background()
	x := mustFlattenCP(t, richCloudProfileSpec())
	bad := map[string]attr.Value{
		`machine_types["m5.large"].cpu`:                 newCanonicalValue(quantityType, "two"),
		`machine_types["c5.xlarge"].gpu`:                newCanonicalValue(quantityType, "1 "),
		`kubernetes.versions["1.30.5"].expiration_date`: newCanonicalValue(timestampType, "2027-13-01T00:00:00Z"),
		"provider_config":                               jsontypes.NewNormalizedValue(`"just a string"`),
	}
	var want []string
	for at, v := range bad {
		p := parseTestPath(t, at)
		x = withSpecValue(t, x, p, v)
		want = append(want, p.String())
	}
	slices.Sort(want)
	_, _, diags := expandCloudProfileSpec(ctx, x, specPath)
	if got := errorPaths(diags); !slices.Equal(got, want) {
		t.Fatalf("error paths = %q, want %q", got, want)
	}
}

func TestExpandUnknown(t *testing.T) {
	ctx := context.Background()
	x := mustFlattenCP(t, richCloudProfileSpec())
	spec := cloudProfileSpecType()

	t.Run("whole spec", func(t *testing.T) {
		got, unknown, diags := expandCloudProfileSpec(ctx, types.ObjectUnknown(spec.AttrTypes), specPath)
		requireNoDiags(t, diags)
		if len(unknown) != 1 || !unknown[0].Equal(specPath) {
			t.Fatalf("unknown = %v", unknown)
		}
		if got.Type != "" || got.MachineTypes != nil {
			t.Fatalf("an unknown spec must expand to the zero spec, got %+v", got)
		}
	})

	t.Run("parts", func(t *testing.T) {
		typeAt := func(at string) attr.Type {
			return getAt(t, x, parseTestPath(t, at).Steps()[1:]).Type(ctx)
		}
		unknowns := []string{
			"type",                              // scalar
			`machine_types["m6g.large"].memory`, // quantity
			`kubernetes.versions["1.30.5"].expiration_date`,                        // timestamp
			`regions["eu-west-1"].zones`,                                           // whole list
			`machine_images["gardenlinux"].versions["1592.1.0"]`,                   // list element (object)
			`regions["eu-west-1"].zones["eu-west-1a"].unavailable_volume_types[0]`, // list element (string)
			"provider_config",                                                       // JSON
			`regions["eu-west-1"].labels["quality"]`,                                // map element
			`machine_types["m5.large"].capabilities`,                                // map(list)
			`machine_images["gardenlinux"].versions["1443.3.0"].capability_flavors`, // list(map(list))
		}
		// The whole-list unknown makes its elements unreachable: set it last.
		slices.SortFunc(unknowns, func(a, b string) int { return len(b) - len(a) })
		var want []string
		for _, at := range unknowns {
			p := parseTestPath(t, at)
			x = withSpecValue(t, x, p, unknownOf(typeAt(at)))
			want = append(want, p.String())
		}
		// regions[0].zones swallowed the zone element set before it.
		want = slices.DeleteFunc(want, func(s string) bool { return strings.HasPrefix(s, `spec.regions["eu-west-1"].zones[`) })
		slices.Sort(want)

		got, unknown, diags := expandCloudProfileSpec(ctx, x, specPath)
		requireNoDiags(t, diags)
		var paths []string
		for _, p := range unknown {
			paths = append(paths, p.String())
		}
		slices.Sort(paths)
		if !slices.Equal(paths, want) {
			t.Fatalf("unknown paths = %q\nwant %q", paths, want)
		}
		// Unknown values are left out; unknown elements keep their index (entries of keyed lists their key).
		if got.Type != "" || got.ProviderConfig != nil || got.Regions[0].Zones != nil {
			t.Errorf("unknown values must be left out: type=%q providerConfig=%v zones=%v", got.Type, got.ProviderConfig, got.Regions[0].Zones)
		}
		if !got.MachineTypes[2].Memory.IsZero() || got.Kubernetes.Versions[1].ExpirationDate != nil {
			t.Errorf("unknown memory/expiration must be zero/nil")
		}
		if n := len(got.MachineImages[0].Versions); n != 2 || got.MachineImages[0].Versions[0].Version != "1592.1.0" || got.MachineImages[0].Versions[0].Classification != nil || got.MachineImages[0].Versions[1].Version != "1443.3.0" {
			t.Errorf("an unknown entry must stay in place holding only its key: %+v", got.MachineImages[0].Versions)
		}
		if got.Regions[0].Labels["quality"] != "" || got.Regions[0].Labels["topology.gardener.cloud/tier"] != "gold" {
			t.Errorf("an unknown map element must stay as an empty value: %v", got.Regions[0].Labels)
		}
		if got.MachineTypes[1].Capabilities != nil {
			t.Errorf("unknown capabilities must be nil")
		}
		// Known values beside the unknown ones are intact.
		if got.MachineTypes[1].Name != "m5.large" || got.MachineTypes[1].CPU.String() != "2" {
			t.Errorf("known values changed: %+v", got.MachineTypes[1])
		}
	})

	t.Run("unknown next to an error", func(t *testing.T) {
		y := mustFlattenCP(t, richCloudProfileSpec())
		y = withSpecValue(t, y, parseTestPath(t, "type"), types.StringUnknown())
		y = withSpecValue(t, y, parseTestPath(t, `machine_types["m5.large"].gpu`), newCanonicalValue(quantityType, "x"))
		_, unknown, diags := expandCloudProfileSpec(ctx, y, specPath)
		if got := errorPaths(diags); !slices.Equal(got, []string{`spec.machine_types["m5.large"].gpu`}) {
			t.Fatalf("error paths = %q", got)
		}
		if len(unknown) != 1 {
			t.Fatalf("unknown = %v", unknown)
		}
	})
}

// TestExpandEmptyCollectionsAsGardenerDecodesThem: an empty list or map configured as such expands
// to what Gardener decodes from the JSON the provider sends: nothing for a field whose JSON leaves
// it out (omitempty), so that `{}` and leaving the attribute out are the same object to every check;
// an empty object stays.
func TestExpandEmptyCollectionsAsGardenerDecodesThem(t *testing.T) {
	ctx := context.Background()
	x := mustFlattenCP(t, richCloudProfileSpec())
	zones := parseTestPath(t, `regions["us-east-1"].zones`)
	x = withSpecValue(t, x, zones, types.MapValueMust(getAt(t, x, zones.Steps()[1:]).(types.Map).ElementType(ctx), nil))
	labels := parseTestPath(t, `regions["us-east-1"].labels`)
	x = withSpecValue(t, x, labels, types.MapValueMust(types.StringType, map[string]attr.Value{}))
	got, _, diags := expandCloudProfileSpec(ctx, x, specPath)
	requireNoDiags(t, diags)
	if got.Regions[1].Zones != nil {
		t.Errorf("an empty map of entries must expand to no zones, got %#v", got.Regions[1].Zones)
	}
	if got.Regions[1].Labels != nil {
		t.Errorf("an empty map must expand to no labels, got %#v", got.Regions[1].Labels)
	}
	left := mustFlattenCP(t, richCloudProfileSpec())
	left = withSpecValue(t, left, zones, types.MapNull(getAt(t, left, zones.Steps()[1:]).(types.Map).ElementType(ctx)))
	left = withSpecValue(t, left, labels, types.MapNull(types.StringType))
	leftOut, _, diags := expandCloudProfileSpec(ctx, left, specPath)
	requireNoDiags(t, diags)
	if !reflect.DeepEqual(got, leftOut) {
		t.Errorf("configured empty and left out expand to different objects:\n%#v\n%#v", got.Regions[1], leftOut.Regions[1])
	}
}

func TestExpandWrongTypeIsAnErrorNotAPanic(t *testing.T) {
	ctx := context.Background()
	// An object whose attributes have the wrong types, as a bug elsewhere might produce.
	bad := types.ObjectValueMust(map[string]attr.Type{
		"type":            types.BoolType,
		"machine_types":   types.StringType,
		"limits":          types.ListType{ElemType: types.StringType},
		"kubernetes":      types.Int64Type,
		"provider_config": types.Int64Type,
	}, map[string]attr.Value{
		"type":            types.BoolValue(true),
		"machine_types":   types.StringValue("m5.large"),
		"limits":          types.ListValueMust(types.StringType, []attr.Value{types.StringValue("x")}),
		"kubernetes":      types.Int64Value(1),
		"provider_config": types.Int64Value(2),
	})
	_, _, diags := expandCloudProfileSpec(ctx, bad, specPath)
	got := errorPaths(diags)
	want := []string{"spec.kubernetes", "spec.limits", "spec.machine_types", "spec.provider_config", "spec.type"}
	if !slices.Equal(got, want) {
		t.Fatalf("error paths = %q, want %q\n%s", got, want, describeDiags(diags))
	}
}

func mustChild(t testing.TB, f specField, names ...string) specField {
	t.Helper()
	for _, n := range names {
		c, ok := f.child(n)
		if !ok {
			t.Fatalf("no child %q in %q", n, f.attr)
		}
		f = c
	}
	return f
}

func TestCheckJSONObject_NestingBelowTheAPIServersLimit(t *testing.T) {
	nested := func(n int) string { return strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n) }
	if err := checkJSONObject(nested(maxProviderConfigDepth)); err != nil {
		t.Fatalf("nesting at the limit must pass: %v", err)
	}
	err := checkJSONObject(nested(10000))
	if err == nil || !strings.Contains(err.Error(), "nested 10000 levels deep") {
		t.Fatalf("want the depth named, got %v", err)
	}
	if got := jsonDepth(`{"s":"{[{[\"{"}`); got != 1 {
		t.Fatalf("brackets in strings must not count: depth %d", got)
	}
}

func TestLazyPath_BuildsTheFrameworksPathOfItsSteps(t *testing.T) {
	root := path.Root("spec")
	lazy := (&lazyPath{root: root}).atName("machine_images").atMapKey("gardenlinux").atName("versions").atListIndex(3).atName("cri")
	want := root.AtName("machine_images").AtMapKey("gardenlinux").AtName("versions").AtListIndex(3).AtName("cri")
	if got := lazy.path(); !got.Equal(want) {
		t.Errorf("path() = %s, want %s", got, want)
	}
	if got := (&lazyPath{root: root}).path(); !got.Equal(root) {
		t.Errorf("the root's path() = %s, want %s", got, root)
	}
}
