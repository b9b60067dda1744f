package provider

import (
	"fmt"
	"slices"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// TestEntriesToRetire: a CloudProfile update that removes a Kubernetes version and an image
// version retires the entries of its NamespacedCloudProfiles that name them, where the provider's
// field manager alone wrote them (an image left without versions goes whole); the reference checks
// then see the profiles without them. Entries another manager wrote, and profiles of another
// parent, stay as they are.
func TestEntriesToRetire(t *testing.T) {
	cp := func(versions []string, images ...string) *gardencorev1beta1.CloudProfile {
		out := &gardencorev1beta1.CloudProfile{ObjectMeta: metav1.ObjectMeta{Name: "parent"}}
		for _, v := range versions {
			out.Spec.Kubernetes.Versions = append(out.Spec.Kubernetes.Versions, gardencorev1beta1.ExpirableVersion{Version: v})
		}
		image := gardencorev1beta1.MachineImage{Name: "gardenlinux"}
		for _, v := range images {
			image.Versions = append(image.Versions, gardencorev1beta1.MachineImageVersion{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: v}})
		}
		out.Spec.MachineImages = []gardencorev1beta1.MachineImage{image}
		return out
	}
	old, updated := cp([]string{"1.31.2", "1.31.1"}, "1.1.0", "1.0.0"), cp([]string{"1.31.2"}, "1.1.0")
	ncp := func(name, parent, manager string) gardencorev1beta1.NamespacedCloudProfile {
		return gardencorev1beta1.NamespacedCloudProfile{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "garden-dev", UID: "uid-of-" + types.UID(name),
				ManagedFields: []metav1.ManagedFieldsEntry{{Manager: manager, Operation: metav1.ManagedFieldsOperationApply, FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(
					`{"f:spec":{"f:kubernetes":{"f:versions":{"k:{\"version\":\"1.31.1\"}":{}}},"f:machineImages":{"k:{\"name\":\"gardenlinux\"}":{"f:versions":{"k:{\"version\":\"1.0.0\"}":{}}}}}}`)}}},
			Spec: gardencorev1beta1.NamespacedCloudProfileSpec{
				Parent:     gardencorev1beta1.CloudProfileReference{Kind: "CloudProfile", Name: parent},
				Kubernetes: &gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{{Version: "1.31.1"}}},
				MachineImages: []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: []gardencorev1beta1.MachineImageVersion{
					{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1.0.0"}}}}},
			},
		}
	}
	ncps := []gardencorev1beta1.NamespacedCloudProfile{ncp("mine", "parent", "tf"), ncp("theirs", "parent", "kubectl-edit"), ncp("other-parent", "other", "tf")}
	retired, seen := entriesToRetire(updated, old, ncps, "tf")
	if len(retired) != 1 || retired[0].Name != "mine" || !slices.Equal(retired[0].Entries.KubernetesVersions, []string{"1.31.1"}) ||
		!slices.Equal(retired[0].Entries.Images, []string{"gardenlinux"}) || len(retired[0].Entries.ImageVersions) != 0 {
		t.Fatalf("got retirements %+v, want the override of 1.31.1 and the gardenlinux image of mine", retired)
	}
	if len(seen[0].Spec.Kubernetes.Versions) != 0 || len(seen[0].Spec.MachineImages) != 0 {
		t.Errorf("the reference checks see mine with %+v, want its retired entries gone", seen[0].Spec)
	}
	if len(ncps[0].Spec.Kubernetes.Versions) != 1 {
		t.Errorf("the listed profile changed: %+v", ncps[0].Spec)
	}
	if len(seen[1].Spec.Kubernetes.Versions) != 1 || len(seen[2].Spec.Kubernetes.Versions) != 1 {
		t.Errorf("theirs and the profile of another parent must stay as listed: %+v, %+v", seen[1].Spec, seen[2].Spec)
	}
	if problems := len(cloudprofile.ValidateCloudProfileReferences(updated, old, seen, nil).Errors()); problems != 2 {
		t.Errorf("got %d reference errors, want the two of theirs (1.31.1 and gardenlinux 1.0.0)", problems)
	}
}

// TestWithoutRetired_ManyEntriesInLinearTime: a NamespacedCloudProfile without 200,000 retired
// Kubernetes versions and as many image versions, keeping one of each. Looking each version up in
// the list of retired entries takes about 8·10¹⁰ comparisons (minutes); each is found in a set.
func TestWithoutRetired_ManyEntriesInLinearTime(t *testing.T) {
	const n = 200_000
	ncp := gardencorev1beta1.NamespacedCloudProfile{Spec: gardencorev1beta1.NamespacedCloudProfileSpec{
		Kubernetes:    &gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{{Version: "9.9.9"}}},
		MachineImages: []gardencorev1beta1.MachineImage{{Name: "gardenlinux", Versions: []gardencorev1beta1.MachineImageVersion{{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "9.9.9"}}}}},
	}}
	entries := kube.NamespacedEntries{ImageVersions: map[string][]string{}}
	for i := range n {
		v := fmt.Sprintf("1.%d.0", i)
		ncp.Spec.Kubernetes.Versions = append(ncp.Spec.Kubernetes.Versions, gardencorev1beta1.ExpirableVersion{Version: v})
		ncp.Spec.MachineImages[0].Versions = append(ncp.Spec.MachineImages[0].Versions, gardencorev1beta1.MachineImageVersion{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: v}})
		entries.KubernetesVersions = append(entries.KubernetesVersions, v)
		entries.ImageVersions["gardenlinux"] = append(entries.ImageVersions["gardenlinux"], v)
	}
	done := make(chan gardencorev1beta1.NamespacedCloudProfile, 1)
	go func() { done <- withoutRetired(ncp, entries) }()
	select {
	case out := <-done:
		if k, images := out.Spec.Kubernetes.Versions, out.Spec.MachineImages; len(k) != 1 || k[0].Version != "9.9.9" || len(images) != 1 || len(images[0].Versions) != 1 || images[0].Versions[0].Version != "9.9.9" {
			t.Errorf("want only 9.9.9 left, got %d Kubernetes versions and images %d", len(k), len(images))
		}
	case <-time.After(30 * time.Second):
		t.Fatal("removing 400,000 retired entries took longer than 30 s: the lookup is not linear")
	}
}
