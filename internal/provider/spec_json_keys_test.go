package provider

import (
	"context"
	"strings"
	"testing"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"k8s.io/apimachinery/pkg/runtime"
)

func TestDuplicateJSONKey_NamesTheKeyAndItsJSONPath(t *testing.T) {
	for _, c := range []struct {
		json, key, at string
	}{
		{`{"kind":"A","kind":"B"}`, "kind", "kind"},
		{`{"machineImages":[{"name":"a","versions":[]},{"name":"b","name":"c"}]}`, "name", "machineImages[1].name"},
		{`{"a":{"b":{"c":1,"d":[[{"e":1,"e":2}]]}}}`, "e", "a.b.d[0][0].e"},
		{`{"x.y":{"k 1":1,"k 1":2}}`, "k 1", `["x.y"]["k 1"]`},
	} {
		key, at, found := duplicateJSONKey(c.json)
		if !found || key != c.key || at != c.at {
			t.Errorf("%s: got %q at %q (found %v), want %q at %q", c.json, key, at, found, c.key, c.at)
		}
	}
}

func TestDuplicateJSONKey_SameKeyInDifferentObjectsIsNoDuplicate(t *testing.T) {
	for _, s := range []string{
		`{"name":"a","nested":{"name":"b"},"list":[{"name":"c"},{"name":"d"}]}`,
		`{"a":1`, // not valid JSON: reported as such by the expansion
		`[]`,
	} {
		if key, at, found := duplicateJSONKey(s); found {
			t.Errorf("%s: reported %q at %q", s, key, at)
		}
	}
}

func TestValidateConfig_DuplicateProviderConfigKeysAreErrorsOnTheAttribute(t *testing.T) {
	spec := plainCloudProfileSpec()
	spec.ProviderConfig = &runtime.RawExtension{Raw: []byte(`{"kind":"CloudProfileConfig","machineImages":[{"name":"gardenlinux","name":"ubuntu"}]}`)}
	spec.MachineImages[0].Versions[0].CRI = []gardencorev1beta1.CRI{{Name: gardencorev1beta1.CRINameContainerD,
		ContainerRuntimes: []gardencorev1beta1.ContainerRuntime{{Type: "gvisor", ProviderConfig: &runtime.RawExtension{Raw: []byte(`{"configFlags":{"net-raw":"true","net-raw":"false"}}`)}}}}}
	cp := validationCase{t: t, resource: newCloudProfileResource(), root: cloudProfileSpecRoot}
	_, server := frameworkAndShim(t)
	resp, err := server.ValidateResourceConfig(context.Background(), cp.request(cp.spec(spec)))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		tftypes.NewAttributePath().WithAttributeName("spec").WithAttributeName("provider_config").String(): `"name" occurs more than once in one object, at machineImages[0].name`,
		tftypes.NewAttributePath().WithAttributeName("spec").WithAttributeName("machine_images").WithElementKeyString("gardenlinux").
			WithAttributeName("versions").WithElementKeyString("1877.3.0").WithAttributeName("cri").WithElementKeyString("containerd").
			WithAttributeName("container_runtimes").WithElementKeyString("gvisor").WithAttributeName("provider_config").String(): `"net-raw" occurs more than once in one object, at configFlags.net-raw`,
	}
	got := 0
	for _, d := range resp.Diagnostics {
		if d.Summary != "Duplicate key in provider_config" {
			continue
		}
		got++
		if d.Severity != tfprotov6.DiagnosticSeverityError || d.Attribute == nil || !strings.Contains(d.Detail, want[d.Attribute.String()]) || want[d.Attribute.String()] == "" {
			t.Errorf("unexpected diagnostic: %s", diagnosticText([]*tfprotov6.Diagnostic{d}))
		}
	}
	if got != len(want) {
		t.Fatalf("got %d duplicate-key errors, want %d: %s", got, len(want), diagnosticText(resp.Diagnostics))
	}
}

func TestValidateConfig_NamespacedProviderConfigKeysAreCheckedToo(t *testing.T) {
	spec := gardencorev1beta1.NamespacedCloudProfileSpec{
		Parent:         gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: "aws"},
		ProviderConfig: &runtime.RawExtension{Raw: []byte(`{"kind":"A","kind":"B"}`)},
	}
	ncp := validationCase{t: t, resource: newNamespacedCloudProfileResource(), root: namespacedCloudProfileSpecRoot}
	_, server := frameworkAndShim(t)
	resp, err := server.ValidateResourceConfig(context.Background(), ncp.request(ncp.spec(spec)))
	if err != nil {
		t.Fatal(err)
	}
	at := tftypes.NewAttributePath().WithAttributeName("spec").WithAttributeName("provider_config")
	for _, d := range resp.Diagnostics {
		if d.Summary == "Duplicate key in provider_config" && d.Attribute.Equal(at) && strings.Contains(d.Detail, `"kind"`) {
			return
		}
	}
	t.Fatalf("no duplicate-key error on spec.provider_config: %s", diagnosticText(resp.Diagnostics))
}
