package main

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func TestMetadataOf_ReadsNamespaceAndNameOfAState(t *testing.T) {
	meta := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"name": tftypes.String, "namespace": tftypes.String, "labels": tftypes.Map{ElementType: tftypes.String}}}
	typ := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"id": tftypes.String, "metadata": meta, "spec": tftypes.List{ElementType: tftypes.Number}}}
	state, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, map[string]tftypes.Value{
		"id": tftypes.NewValue(tftypes.String, "garden-demo/bench-ws-007"),
		"metadata": tftypes.NewValue(meta, map[string]tftypes.Value{
			"name":      tftypes.NewValue(tftypes.String, "bench-ws-007"),
			"namespace": tftypes.NewValue(tftypes.String, "garden-demo"),
			"labels":    tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, nil),
		}),
		"spec": tftypes.NewValue(tftypes.List{ElementType: tftypes.Number}, []tftypes.Value{tftypes.NewValue(tftypes.Number, 1)}),
	}))
	if err != nil {
		t.Fatal(err)
	}
	ns, name, err := metadataOf(&state)
	if err != nil || ns != "garden-demo" || name != "bench-ws-007" {
		t.Errorf("got %q/%q (%v), want garden-demo/bench-ws-007", ns, name, err)
	}
	if _, _, err := metadataOf(&tfprotov6.DynamicValue{JSON: []byte(`{}`)}); err == nil {
		t.Error("a JSON state was read; the request floor reads msgpack states only")
	}
}

func TestIsRequestFloor_ByTheFolderItIsStartedFrom(t *testing.T) {
	if !isRequestFloor("/w/run/requestfloor/terraform-provider-gardener") {
		t.Error("the request floor's link was not recognised")
	}
	if isRequestFloor("/w/run/provider/terraform-provider-gardener") || isRequestFloor("bench") {
		t.Error("the provider's link or the harness was taken for the request floor")
	}
}
