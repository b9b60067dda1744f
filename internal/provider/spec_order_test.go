package provider

import (
	"math/rand/v2"
	"slices"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// TestKeptInOrder: a write keeps the Garden's order of the entries that exist, and puts each new
// one next to its nearest neighbour in the wire order, on the side the list runs: a list sorted
// either way stays sorted.
func TestKeptInOrder(t *testing.T) {
	cases := []struct {
		name        string
		order       entryOrder
		keys, garde []string
		want        []string
	}{
		{"no order recorded: the wire order", newestVersionFirst, []string{"1.30.5", "1.31.2", "1.32.0"}, nil, []string{"1.32.0", "1.31.2", "1.30.5"}},
		{"newest first stays newest first", newestVersionFirst, []string{"1.30.5", "1.31.2", "1.32.0", "1.31.0"}, []string{"1.31.2", "1.30.5"}, []string{"1.32.0", "1.31.2", "1.31.0", "1.30.5"}},
		{"oldest first stays oldest first", newestVersionFirst, []string{"1.30.5", "1.31.2", "1.32.0", "1.31.0", "1.29.0"}, []string{"1.30.5", "1.31.2"}, []string{"1.29.0", "1.30.5", "1.31.0", "1.31.2", "1.32.0"}},
		{"names descending stay descending", namesAscending, []string{"a", "b", "c", "d"}, []string{"c", "a"}, []string{"d", "c", "b", "a"}},
		{"any other order gains the entry beside its neighbour", namesAscending, []string{"m5.xlarge", "c5.large", "m5.large", "m5.2xlarge"}, []string{"m5.xlarge", "c5.large", "m5.large"}, []string{"m5.xlarge", "c5.large", "m5.2xlarge", "m5.large"}},
		{"removed and foreign entries drop out", namesAscending, []string{"b", "z"}, []string{"c", "b", "x", "a"}, []string{"b", "z"}},
		{"one kept entry: new ones in the wire order around it", namesAscending, []string{"a", "b", "c"}, []string{"b"}, []string{"a", "b", "c"}},
	}
	for _, c := range cases {
		if got := keptInOrder(c.order, slices.Clone(c.keys), c.garde); !slices.Equal(got, c.want) {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
}

// TestInOrder: the orders a refresh records (only those that are not the wire order) put the
// keyed lists of a written spec, nested ones too, back in the Garden's order.
func TestInOrder(t *testing.T) {
	garden := gardencorev1beta1.CloudProfileSpec{
		Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{{Version: "1.30.5"}, {Version: "1.31.2"}}},
		Regions: []gardencorev1beta1.Region{
			{Name: "us-east-1", Zones: []gardencorev1beta1.AvailabilityZone{{Name: "us-east-1b"}, {Name: "us-east-1a"}}},
			{Name: "eu-west-1", Zones: []gardencorev1beta1.AvailabilityZone{{Name: "eu-west-1a"}, {Name: "eu-west-1b"}}},
		},
	}
	orders, err := keyOrdersOf(cloudProfileSpecRoot, garden)
	if err != nil {
		t.Fatal(err)
	}
	want := keyOrders{
		"spec.kubernetes.versions":        {"1.30.5", "1.31.2"},
		"spec.regions":                    {"us-east-1", "eu-west-1"},
		`spec.regions["us-east-1"].zones`: {"us-east-1b", "us-east-1a"},
	}
	if len(orders) != len(want) {
		t.Fatalf("got orders %q, want %q", orders, want)
	}
	for at, keys := range want {
		if !slices.Equal(orders[at], keys) {
			t.Errorf("%s: got %q, want %q", at, orders[at], keys)
		}
	}
	desired := gardencorev1beta1.CloudProfileSpec{
		Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{{Version: "1.32.0"}, {Version: "1.31.2"}, {Version: "1.30.5"}}},
		Regions: []gardencorev1beta1.Region{
			{Name: "eu-west-1", Zones: []gardencorev1beta1.AvailabilityZone{{Name: "eu-west-1a"}, {Name: "eu-west-1b"}}},
			{Name: "us-east-1", Zones: []gardencorev1beta1.AvailabilityZone{{Name: "us-east-1a"}, {Name: "us-east-1b"}, {Name: "us-east-1c"}}},
		},
	}
	got, sent, err := inOrder(cloudProfileSpecRoot, desired, orders)
	if err != nil {
		t.Fatal(err)
	}
	var versions, regions, zones []string
	for _, v := range got.Kubernetes.Versions {
		versions = append(versions, v.Version)
	}
	for _, r := range got.Regions {
		regions = append(regions, r.Name)
	}
	for _, z := range got.Regions[0].Zones {
		zones = append(zones, z.Name)
	}
	if w := []string{"1.30.5", "1.31.2", "1.32.0"}; !slices.Equal(versions, w) {
		t.Errorf("versions: got %q, want %q", versions, w)
	}
	if w := []string{"us-east-1", "eu-west-1"}; !slices.Equal(regions, w) {
		t.Errorf("regions: got %q, want %q", regions, w)
	}
	if w := []string{"us-east-1c", "us-east-1b", "us-east-1a"}; !slices.Equal(zones, w) {
		t.Errorf("zones of us-east-1: got %q, want %q", zones, w)
	}
	if !slices.Equal(sent["spec.kubernetes.versions"], versions) || len(sent) != 3 {
		t.Errorf("sent orders: got %q", sent)
	}
}

// TestSortedEntryKeys_AgreesWithWireOrder: sorting a list's keys once parsed gives the order of
// the comparison every other write uses: versions newest first (equal versions by spelling),
// then the keys that are no version by name; names by name.
func TestSortedEntryKeys_AgreesWithWireOrder(t *testing.T) {
	keys := []string{"1.30.5", "v1.30.5", "1.30", "a", "1.31.0-rc.1", "1.31.0", "b", "1.29.10", "1.29.9", "zz", "1.30.5+build", "010"}
	r := rand.New(rand.NewPCG(5, 5))
	for range 200 {
		r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		for _, order := range []entryOrder{newestVersionFirst, namesAscending} {
			want := slices.SortedFunc(slices.Values(keys), wireOrder(order, keys))
			if got := sortedEntryKeys(order, slices.Clone(keys)); !slices.Equal(got, want) {
				t.Fatalf("order %d of %q: got %q, want %q", order, keys, got, want)
			}
		}
	}
	if got := sortedEntryKeys(newestVersionFirst, []string{"a", "1.2.0", "1.10.0"}); !slices.Equal(got, []string{"1.10.0", "1.2.0", "a"}) {
		t.Fatalf("got %q", got)
	}
}
