package largevalue

import (
	"reflect"
	"testing"

	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestReducedSchema_APlaceholderKeepsTheFlagsAndTheNestingLeadsToIt: the framework behind the
// Server sees a string with the large attribute's Required, Optional and Computed in its place,
// inside a copy of the single nested attribute that holds it (without a custom type naming the
// attributes it had); every other attribute is as it was.
func TestReducedSchema_APlaceholderKeepsTheFlagsAndTheNestingLeadsToIt(t *testing.T) {
	spec := rschema.SingleNestedAttribute{Required: true, Attributes: map[string]rschema.Attribute{"type": rschema.StringAttribute{Required: true}}}
	status := rschema.SingleNestedAttribute{Computed: true, CustomType: types.ObjectType{}, Attributes: map[string]rschema.Attribute{
		"observed_generation": rschema.Int64Attribute{Computed: true},
		"cloud_profile_spec":  rschema.SingleNestedAttribute{Computed: true, Attributes: map[string]rschema.Attribute{"type": rschema.StringAttribute{Computed: true}}},
	}}
	id := rschema.StringAttribute{Computed: true}
	reduced, err := reduceAttributes(map[string]rschema.Attribute{"id": id, "spec": spec, "status": status},
		[]Path{{"spec"}, {"status", "cloud_profile_spec"}}, resourcePlaceholder, resourceSingleNested)
	if err != nil {
		t.Fatal(err)
	}
	if got, ok := reduced["spec"].(rschema.StringAttribute); !ok || !got.Required || got.Optional || got.Computed {
		t.Errorf("spec = %#v, want a required string", reduced["spec"])
	}
	nested, ok := reduced["status"].(rschema.SingleNestedAttribute)
	if !ok || !nested.Computed || nested.CustomType != nil {
		t.Fatalf("status = %#v, want a computed single nested attribute without a custom type", reduced["status"])
	}
	if got, ok := nested.Attributes["cloud_profile_spec"].(rschema.StringAttribute); !ok || !got.Computed || got.Required || got.Optional {
		t.Errorf("status.cloud_profile_spec = %#v, want a computed string", nested.Attributes["cloud_profile_spec"])
	}
	if _, ok := nested.Attributes["observed_generation"].(rschema.Int64Attribute); !ok || !reflect.DeepEqual(reduced["id"], rschema.Attribute(id)) {
		t.Error("an attribute off the large paths changed")
	}
	if _, ok := status.Attributes["cloud_profile_spec"].(rschema.SingleNestedAttribute); !ok {
		t.Error("reducing changed the schema it was given")
	}
	if _, err := reduceAttributes(map[string]rschema.Attribute{"id": id}, []Path{{"id", "x"}}, resourcePlaceholder, resourceSingleNested); err == nil {
		t.Error("a large path through a string reduces without an error")
	}
}
