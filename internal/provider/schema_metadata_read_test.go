package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
)

// TestMetadataOf_ReadsAsTheFrameworksConversion: metadataOf, which reads the attributes directly,
// gives what the framework's conversion of the object into the model gives (null and unknown
// parts read as they are, a null or unknown object as the empty model), for both scopes.
func TestMetadataOf_ReadsAsTheFrameworksConversion(t *testing.T) {
	ctx := context.Background()
	labels := types.MapValueMust(types.StringType, map[string]attr.Value{"team": types.StringValue("a")})
	full := map[string]attr.Value{
		"name": types.StringValue("p"), "namespace": types.StringValue("garden-dev"), "labels": labels,
		"annotations": types.MapNull(types.StringType), "uid": types.StringUnknown(),
		"resource_version": types.StringValue("7"), "generation": types.Int64Value(3),
	}
	cluster := map[string]attr.Value{}
	for name, v := range full {
		if name != "namespace" {
			cluster[name] = v
		}
	}
	options := basetypes.ObjectAsOptions{UnhandledNullAsEmpty: true, UnhandledUnknownAsEmpty: true}
	for _, tc := range []struct {
		name string
		obj  types.Object
	}{
		{"namespaced", types.ObjectValueMust(namespacedMetadataType().AttrTypes, full)},
		{"null", types.ObjectNull(namespacedMetadataType().AttrTypes)},
		{"unknown", types.ObjectUnknown(namespacedMetadataType().AttrTypes)},
	} {
		var want metadataModel
		if diags := tc.obj.As(ctx, &want, options); diags.HasError() {
			t.Fatalf("%s: %v", tc.name, diags)
		}
		if got := metadataOf(tc.obj); describeMetadata(got) != describeMetadata(want) {
			t.Errorf("%s: metadataOf = %s, the framework reads %s", tc.name, describeMetadata(got), describeMetadata(want))
		}
	}
	var want clusterMetadataModel
	obj := types.ObjectValueMust(clusterMetadataType().AttrTypes, cluster)
	if diags := obj.As(ctx, &want, options); diags.HasError() {
		t.Fatal(diags)
	}
	wantNamespaced := metadataModel{Name: want.Name, Labels: want.Labels, Annotations: want.Annotations, UID: want.UID,
		ResourceVersion: want.ResourceVersion, Generation: want.Generation}
	if got := metadataOf(obj); describeMetadata(got) != describeMetadata(wantNamespaced) {
		t.Errorf("cluster-scoped: metadataOf = %s, the framework reads %s", describeMetadata(got), describeMetadata(wantNamespaced))
	}
}

// describeMetadata renders every field of the model as the framework renders values.
func describeMetadata(m metadataModel) string {
	return strings.Join([]string{m.Name.String(), m.Namespace.String(), m.Labels.String(), m.Annotations.String(), m.UID.String(),
		m.ResourceVersion.String(), m.Generation.String()}, " | ")
}

// TestWithTakenOver: a label the state holds that another manager took over is recorded with the
// Garden's value; one the object lost, or the state never held, stays out; the view's map is not
// changed.
func TestWithTakenOver(t *testing.T) {
	prior := types.MapValueMust(types.StringType, map[string]attr.Value{
		"owner": types.StringValue("platform"), "gone": types.StringValue("x"), "mine": types.StringValue("m"),
	})
	owned := map[string]string{"mine": "m"}
	stored := map[string]string{"mine": "m", "owner": "team-a", "foreign": "f"}
	got := withTakenOver(prior, owned, stored)
	if len(got) != 2 || got["owner"] != "team-a" || got["mine"] != "m" {
		t.Errorf("got %v, want mine=m and owner=team-a", got)
	}
	if len(owned) != 1 {
		t.Errorf("the owned view's labels changed: %v", owned)
	}
	if got := withTakenOver(types.MapNull(types.StringType), owned, stored); len(got) != 1 {
		t.Errorf("without prior labels: got %v, want the owned ones", got)
	}
}
