package cloudprofile

import (
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestWarnNamespacedCloudProfile(t *testing.T) {
	now := time.Date(2027, 1, 15, 0, 0, 0, 0, time.UTC)
	at := func(d time.Duration) *metav1.Time { m := metav1.NewTime(now.Add(d)); return &m }
	parent := &gardencorev1beta1.CloudProfile{Spec: gardencorev1beta1.CloudProfileSpec{
		Kubernetes: gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{
			{Version: "1.31.2"}, {Version: "1.30.5", ExpirationDate: at(90 * 24 * time.Hour)},
		}},
		MachineImages: []gardencorev1beta1.MachineImage{{Name: "gl", Versions: []gardencorev1beta1.MachineImageVersion{
			{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1.0.0", ExpirationDate: at(90 * 24 * time.Hour)}},
		}}},
		MachineTypes: []gardencorev1beta1.MachineType{{Name: "m5", CPU: resource.MustParse("2"), GPU: resource.MustParse("0"), Memory: resource.MustParse("8Gi")}},
	}}
	ncp := &gardencorev1beta1.NamespacedCloudProfile{Spec: gardencorev1beta1.NamespacedCloudProfileSpec{
		Kubernetes: &gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{
			{Version: "1.30.5", ExpirationDate: at(90 * 24 * time.Hour)}, // same as the parent: no-op
			{Version: "1.31.2", ExpirationDate: at(-time.Hour)},          // new and expired: dropped
		}},
		MachineImages: []gardencorev1beta1.MachineImage{{Name: "gl", Versions: []gardencorev1beta1.MachineImageVersion{
			{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1.0.0", ExpirationDate: at(10 * 24 * time.Hour)}}, // expires soon
		}}},
		MachineTypes: []gardencorev1beta1.MachineType{{Name: "m5", CPU: resource.MustParse("2000m"), GPU: resource.MustParse("0"), Memory: resource.MustParse("8Gi")}}, // equal quantity: no-op
	}}
	opts := OptionsWithAllGates(now)
	got := map[string]string{}
	for _, p := range WarnNamespacedCloudProfile(ncp, nil, parent, opts) {
		if p.Severity != SeverityWarning {
			t.Errorf("%v is not a warning", p)
		}
		got[p.Path.Attribute()] = p.Rule
	}
	want := map[string]string{
		"spec.kubernetes.versions[0].expiration_date": "W-no-op",
		"spec.kubernetes.versions[1]":                 "W-dropped",
		"spec.machine_images[0].versions[0]":          "W-expires-soon",
		"spec.machine_types[0]":                       "W-no-op",
	}
	for path, rule := range want {
		if got[path] != rule {
			t.Errorf("%s: got %q, want %q (all: %v)", path, got[path], rule, got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("unexpected warnings: %v", got)
	}
	// On update, a version that already existed is kept by Gardener: expired, not dropped.
	remind := opts
	remind.RemindUnchanged = true
	rules := map[string]string{}
	for _, p := range WarnNamespacedCloudProfile(ncp, ncp, nil, remind) {
		rules[p.Path.Attribute()] = p.Rule
	}
	if rules["spec.kubernetes.versions[1]"] != "W-expired" {
		t.Errorf("an existing expired version is reported as expired, not dropped, on update: %v", rules)
	}
}
