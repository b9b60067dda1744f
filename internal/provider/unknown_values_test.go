package provider

import (
	"context"
	"strings"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// withUnknownAt is v with the value at each path made unknown.
func withUnknownAt(t *testing.T, v tftypes.Value, paths ...*tftypes.AttributePath) tftypes.Value {
	t.Helper()
	out, err := tftypes.Transform(v, func(at *tftypes.AttributePath, value tftypes.Value) (tftypes.Value, error) {
		for _, p := range paths {
			if at.Equal(p) {
				return tftypes.NewValue(value.Type(), tftypes.UnknownValue), nil
			}
		}
		return value, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// versionsPath is the path of the Kubernetes versions in a spec value.
var versionsPath = tftypes.NewAttributePath().WithAttributeName("kubernetes").WithAttributeName("versions")

// validationErrors validates a CloudProfile whose spec is given with the provider's server and
// returns the summaries of its errors.
func validationErrors(t *testing.T, spec tftypes.Value) []string {
	t.Helper()
	c := validationCase{t: t, resource: newCloudProfileResource(), root: cloudProfileSpecRoot}
	_, shim := frameworkAndShim(t)
	resp, err := shim.ValidateResourceConfig(context.Background(), c.request(spec))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range resp.Diagnostics {
		if d.Severity.String() == "ERROR" {
			out = append(out, d.Summary)
		}
	}
	return out
}

// TestValidate_UnknownValuesAreNotWrong: a Kubernetes version, a lifecycle start time and a
// machine type name that are unknown until apply (module inputs, other resources' attributes) give
// no error, not even the rules about the whole list (C-2, the highest version) or about the order
// of the stages (D-8); what is known is still checked: the lifecycle needs its feature gate (D-1)
// and a known bad machine type name is reported (G-2).
func TestValidate_UnknownValuesAreNotWrong(t *testing.T) {
	spec := plainCloudProfileSpec()
	spec.Kubernetes.Versions = append(spec.Kubernetes.Versions, gardencorev1beta1.ExpirableVersion{Version: "1.31.4", Lifecycle: []gardencorev1beta1.LifecycleStage{
		{Classification: gardencorev1beta1.ClassificationSupported},
		{Classification: gardencorev1beta1.ClassificationDeprecated, StartTime: at(2027, time.January, 1)},
	}})
	value := validationCase{t: t, root: cloudProfileSpecRoot}.spec(spec)
	unknownVersion := versionsPath.WithElementKeyInt(0).WithAttributeName("version")
	unknownStart := versionsPath.WithElementKeyInt(2).WithAttributeName("lifecycle").WithElementKeyInt(1).WithAttributeName("start_time")
	got := validationErrors(t, withUnknownAt(t, value, unknownVersion, unknownStart))
	if len(got) != 1 || !strings.Contains(got[0], "feature gate") {
		t.Errorf("with an unknown version and start time the errors are %q, want only D-1's (the lifecycle needs its feature gate)", got)
	}

	spec.Kubernetes.Versions = spec.Kubernetes.Versions[:2]
	spec.MachineTypes = append(spec.MachineTypes, gardencorev1beta1.MachineType{Name: "M5 large!", CPU: spec.MachineTypes[0].CPU, GPU: spec.MachineTypes[0].GPU, Memory: spec.MachineTypes[0].Memory})
	value = validationCase{t: t, root: cloudProfileSpecRoot}.spec(spec)
	unknownType := tftypes.NewAttributePath().WithAttributeName("machine_types").WithElementKeyInt(0).WithAttributeName("name")
	got = validationErrors(t, withUnknownAt(t, value, unknownVersion, unknownType))
	if len(got) != 1 || !strings.Contains(got[0], "machine type name") {
		t.Errorf("with an unknown version and machine type name the errors are %q, want only G-2 of the known bad name", got)
	}
}
