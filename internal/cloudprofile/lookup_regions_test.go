package cloudprofile

import (
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// The usability rules involve no instant: they read `usable`, architectures and the zones'
// unavailable lists only.

func utMachineType(name, cpu, memory, gpu, arch string) gardencorev1beta1.MachineType {
	m := gardencorev1beta1.MachineType{Name: name, CPU: resource.MustParse(cpu), Memory: resource.MustParse(memory), GPU: resource.MustParse(gpu)}
	if arch != "" {
		m.Architecture = &arch
	}
	return m
}

func utBool(b bool) *bool { return &b }

// utSpec: an amd64 and an arm64 family in spec order largest first, a retired type, two volume
// types; eu-west-1 has a zone without arm64's m6g.xlarge and io2, and a region without zones.
func utSpec() gardencorev1beta1.CloudProfileSpec {
	retired := utMachineType("m4.retired", "1", "2Gi", "0", "amd64")
	retired.Usable = utBool(false)
	return gardencorev1beta1.CloudProfileSpec{
		MachineTypes: []gardencorev1beta1.MachineType{
			utMachineType("m5.2xlarge", "8", "32Gi", "0", "amd64"),
			utMachineType("m5.large", "2", "8Gi", "0", ""),
			utMachineType("m6g.2xlarge", "8", "32Gi", "0", "arm64"),
			utMachineType("m6g.xlarge", "4", "16Gi", "0", "arm64"),
			utMachineType("c6g.xlarge", "4", "8Gi", "0", "arm64"),
			retired,
		},
		VolumeTypes: []gardencorev1beta1.VolumeType{{Name: "io2", Class: "premium"}, {Name: "gp3", Class: "standard"},
			{Name: "st1", Class: "throughput", Usable: utBool(false)}},
		Regions: []gardencorev1beta1.Region{
			{Name: "eu-west-1", Zones: []gardencorev1beta1.AvailabilityZone{
				{Name: "eu-west-1a", UnavailableMachineTypes: []string{"m6g.xlarge"}, UnavailableVolumeTypes: []string{"io2"}},
				{Name: "eu-west-1b"},
			}},
			{Name: "local"},
		},
	}
}

func names(types []gardencorev1beta1.MachineType) []string {
	out := make([]string, len(types))
	for i, m := range types {
		out[i] = m.Name
	}
	return out
}

func TestUsableTypes_RuleUnusableMachineTypeIsUsableNowhere(t *testing.T) {
	u := UsableTypes(utSpec(), "")
	for _, r := range u.Regions {
		for _, lists := range append([][]string{r.MachineTypes}, zoneMachineTypes(r)...) {
			for _, n := range lists {
				if n == "m4.retired" {
					t.Fatalf("m4.retired (usable: false) is offered in %s", r.Name)
				}
			}
		}
	}
}

func zoneMachineTypes(r RegionUsability) [][]string {
	var out [][]string
	for _, z := range r.Zones {
		out = append(out, z.MachineTypes)
	}
	return out
}

func TestUsableTypes_RuleUnsetUsableCountsAsUsable(t *testing.T) {
	spec := utSpec()
	if spec.MachineTypes[1].Usable != nil || spec.VolumeTypes[0].Usable != nil {
		t.Fatal("fixture: m5.large and io2 must leave usable unset")
	}
	u := UsableTypes(spec, "")
	if got := names(u.MachineTypes); !contains(got, "m5.large") {
		t.Errorf("machine types %v lack m5.large (usable unset)", got)
	}
	if len(u.VolumeTypes) == 0 || u.VolumeTypes[0].Name != "io2" {
		t.Errorf("volume types %v lack io2 (usable unset)", u.VolumeTypes)
	}
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}

func TestUsableTypes_RuleZoneUnavailableTypesAreLeftOutOfThatZoneOnly(t *testing.T) {
	u := UsableTypes(utSpec(), "")
	a, b := u.Regions[0].Zones[0], u.Regions[0].Zones[1]
	if contains(a.MachineTypes, "m6g.xlarge") || contains(a.VolumeTypes, "io2") {
		t.Errorf("eu-west-1a offers a type it lists as unavailable: %v %v", a.MachineTypes, a.VolumeTypes)
	}
	if !contains(b.MachineTypes, "m6g.xlarge") || !contains(b.VolumeTypes, "io2") {
		t.Errorf("eu-west-1b lacks types only eu-west-1a lists as unavailable: %v %v", b.MachineTypes, b.VolumeTypes)
	}
}

func TestUsableTypes_RuleRegionOffersWhatSomeZoneOffers(t *testing.T) {
	spec := utSpec()
	spec.Regions[0].Zones[1].UnavailableMachineTypes = []string{"m5.large"}
	spec.Regions[0].Zones[0].UnavailableMachineTypes = []string{"m5.large", "m6g.xlarge"}
	u := UsableTypes(spec, "")
	want := []string{"c6g.xlarge", "m6g.xlarge", "m5.2xlarge", "m6g.2xlarge"}
	if got := u.Regions[0].MachineTypes; !reflect.DeepEqual(got, want) {
		t.Errorf("eu-west-1 offers %v, want %v (m5.large is unavailable in both zones)", got, want)
	}
	if got := u.Regions[0].VolumeTypes; !reflect.DeepEqual(got, []string{"io2", "gp3"}) {
		t.Errorf("eu-west-1 volume types %v, want io2 (available in eu-west-1b) and gp3", got)
	}
}

func TestUsableTypes_RuleRegionWithoutZonesOffersEveryUsableType(t *testing.T) {
	u := UsableTypes(utSpec(), "")
	local := u.Regions[1]
	if !reflect.DeepEqual(local.MachineTypes, names(u.MachineTypes)) || len(local.Zones) != 0 {
		t.Errorf("local offers %v with zones %v, want every usable type %v and no zones", local.MachineTypes, local.Zones, names(u.MachineTypes))
	}
	if !reflect.DeepEqual(local.VolumeTypes, []string{"io2", "gp3"}) {
		t.Errorf("local volume types %v, want io2 and gp3 (st1 is not usable)", local.VolumeTypes)
	}
}

func TestUsableTypes_RuleSmallestFirstByCPUThenMemoryThenGPU(t *testing.T) {
	spec := utSpec()
	spec.MachineTypes = append(spec.MachineTypes, utMachineType("g4.xlarge", "4", "16Gi", "1", "amd64"),
		utMachineType("m5.large-copy", "2", "8Gi", "0", "amd64"))
	got := names(UsableTypes(spec, "").MachineTypes)
	// m5.large and its copy tie: spec order. c6g.xlarge has less memory than m6g.xlarge; g4.xlarge
	// has as much memory as m6g.xlarge and a GPU more.
	want := []string{"m5.large", "m5.large-copy", "c6g.xlarge", "m6g.xlarge", "g4.xlarge", "m5.2xlarge", "m6g.2xlarge"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}

func TestUsableTypes_RuleArchitectureFilterKeepsMachineTypesOfThatArchitecture(t *testing.T) {
	u := UsableTypes(utSpec(), "arm64")
	if got, want := names(u.MachineTypes), []string{"c6g.xlarge", "m6g.xlarge", "m6g.2xlarge"}; !reflect.DeepEqual(got, want) {
		t.Errorf("arm64 machine types %v, want %v", got, want)
	}
	if got, want := u.Regions[0].Zones[0].MachineTypes, []string{"c6g.xlarge", "m6g.2xlarge"}; !reflect.DeepEqual(got, want) {
		t.Errorf("arm64 types in eu-west-1a %v, want %v", got, want)
	}
	if len(u.VolumeTypes) != 2 {
		t.Errorf("volume types have no architecture and are never filtered: %v", u.VolumeTypes)
	}
	// m5.large has no architecture: amd64.
	if got := names(UsableTypes(utSpec(), "amd64").MachineTypes); !reflect.DeepEqual(got, []string{"m5.large", "m5.2xlarge"}) {
		t.Errorf("amd64 machine types %v, want m5.large (architecture unset) and m5.2xlarge", got)
	}
}

func TestMachineTypeArchitecture_RuleCapabilityThenFieldThenAMD64(t *testing.T) {
	defs := []gardencorev1beta1.CapabilityDefinition{{Name: "architecture", Values: []string{"amd64", "arm64"}}}
	arm := utMachineType("a", "1", "1Gi", "0", "")
	arm.Capabilities = gardencorev1beta1.Capabilities{"architecture": {"arm64"}}
	cases := map[string]struct {
		m    gardencorev1beta1.MachineType
		defs []gardencorev1beta1.CapabilityDefinition
		want string
	}{
		"single architecture capability":                    {arm, defs, "arm64"},
		"architecture field without capability definitions": {utMachineType("b", "1", "1Gi", "0", "arm64"), nil, "arm64"},
		// Two defined values (the default) are not one architecture: the field decides, else amd64.
		"defaulted capability with two values, no field": {utMachineType("c", "1", "1Gi", "0", ""), defs, "amd64"},
		"nothing set": {utMachineType("d", "1", "1Gi", "0", ""), nil, "amd64"},
	}
	for name, c := range cases {
		if got := MachineTypeArchitecture(c.m, c.defs); got != c.want {
			t.Errorf("%s: %q, want %q", name, got, c.want)
		}
	}
}

// A shoot module's question, "the smallest arm64 type with at least 4 CPUs usable in zone X", is
// the first zone entry with enough CPUs: the zone list is smallest first and already filtered.
func TestUsableTypes_SmallestArm64TypeWithFourCPUsInAZone(t *testing.T) {
	u := UsableTypes(utSpec(), "arm64")
	byName := map[string]gardencorev1beta1.MachineType{}
	for _, m := range u.MachineTypes {
		byName[m.Name] = m
	}
	pick := func(zone ZoneUsability) string {
		four := resource.MustParse("4")
		for _, n := range zone.MachineTypes {
			if cpu := byName[n].CPU; cpu.Cmp(four) >= 0 {
				return n
			}
		}
		return ""
	}
	if got := pick(u.Regions[0].Zones[0]); got != "c6g.xlarge" {
		t.Errorf("eu-west-1a: %q, want c6g.xlarge", got)
	}
	spec := utSpec()
	spec.Regions[0].Zones[1].UnavailableMachineTypes = []string{"c6g.xlarge"}
	u = UsableTypes(spec, "arm64")
	if got := pick(u.Regions[0].Zones[1]); got != "m6g.xlarge" {
		t.Errorf("eu-west-1b without c6g.xlarge: %q, want m6g.xlarge", got)
	}
}
