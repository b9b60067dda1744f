package provider

import (
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/gardener-community/terraform-provider-gardener/internal/tfvalue"
)

// TestSpecStepsOfFields: the field paths of the API server, in the form of validation errors and
// in the form of apply conflicts (keyed entries), land on the resource's attributes, entries of
// keyed lists by key (positions count in the order the provider writes them: names ascending,
// versions newest first); the path ends where the schema ends.
func TestSpecStepsOfFields(t *testing.T) {
	ls := largeSchemaOf(newCloudProfileResource())
	config := cloudProfileResourceValue(t, ls.Type(), richCloudProfileSpec(), false)
	spec, _ := tfvalue.At(config, specLargePath)
	images := path.Root("spec").AtName("machine_images")
	cases := []struct {
		field string
		want  path.Path
	}{
		{"spec.machineImages[1].versions[0].cri", images.AtMapKey("ubuntu").AtName("versions").AtMapKey("24.4.0").AtName("cri")},
		{"spec.machineImages[0].versions[1].cri[0].name", images.AtMapKey("gardenlinux").AtName("versions").AtMapKey("1443.3.0").AtName("cri").AtMapKey("containerd")},
		{`.spec.machineImages[name="ubuntu"].versions[version="24.4.0"].architectures`, images.AtMapKey("ubuntu").AtName("versions").AtMapKey("24.4.0").AtName("architectures")},
		{`.spec.machineImages[name="gardenlinux"].versions[version="1443.3.0"].classification`, images.AtMapKey("gardenlinux").AtName("versions").AtMapKey("1443.3.0").AtName("classification")},
		{"spec.kubernetes.versions[0].expirationDate", path.Root("spec").AtName("kubernetes").AtName("versions").AtMapKey("1.31.2").AtName("expiration_date")},
		{"spec.providerConfig.machineImages[0].image", path.Root("spec").AtName("provider_config")},
		{"spec.machineImages[7].versions", images},
		{"spec.machineImages[].versions", images},
		{"spec.noSuchField.x", path.Root("spec")},
		{"spec.limits.maxNodesTotal", path.Root("spec").AtName("limits").AtName("max_nodes_total")},
		{".metadata.labels.team", path.Root("metadata").AtName("labels").AtMapKey("team")},
		{".metadata.annotations.team.example.com/cost-center", path.Root("metadata").AtName("annotations").AtMapKey("team.example.com/cost-center")},
		{".metadata.name", path.Root("metadata").AtName("name")},
	}
	for _, c := range cases {
		if got := attributePath(stepsThrough(spec).field(c.field)); !got.Equal(c.want) {
			t.Errorf("%s: got %s, want %s", c.field, got, c.want)
		}
	}
	for _, field := range []string{"status.kubernetes", ""} {
		if steps := stepsThrough(spec).field(field); steps != nil {
			t.Errorf("%q: got %v, want no steps", field, steps)
		}
	}
}

// TestFieldPathsIn finds the field paths a message of an admission webhook names.
func TestFieldPathsIn(t *testing.T) {
	got := fieldPathsIn(`admission webhook "x" denied the request: [spec.providerConfig.machineImages[0].image: Required value, ` +
		`spec.regions[2].name: Invalid value: "a.b", spec.providerConfig.machineImages[0].image: Required value]`)
	want := []string{"spec.providerConfig.machineImages[0].image", "spec.regions[2].name"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// TestConflictManager reads the other manager from a conflict cause.
func TestConflictManager(t *testing.T) {
	if m, ok := conflictManager(`conflict with "team-a" using core.gardener.cloud/v1beta1`); !ok || m != "team-a" {
		t.Fatalf("got %q %v", m, ok)
	}
	if _, ok := conflictManager("something else"); ok {
		t.Fatal("a message without a manager named one")
	}
}
