package kube

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// entriesProfile is a NamespacedCloudProfile with two Kubernetes overrides and two images, whose
// spec the managers own as given (fieldsV1 sets).
func entriesProfile(managers ...metav1.ManagedFieldsEntry) *gardencorev1beta1.NamespacedCloudProfile {
	return &gardencorev1beta1.NamespacedCloudProfile{
		ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "garden-dev", ManagedFields: managers},
		Spec: gardencorev1beta1.NamespacedCloudProfileSpec{
			Kubernetes: &gardencorev1beta1.KubernetesSettings{Versions: []gardencorev1beta1.ExpirableVersion{{Version: "1.31.1"}, {Version: "1.31.0"}}},
			MachineImages: []gardencorev1beta1.MachineImage{
				{Name: "gardenlinux", Versions: []gardencorev1beta1.MachineImageVersion{{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1.0.0"}}, {ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "1.1.0"}}}},
				{Name: "ubuntu", Versions: []gardencorev1beta1.MachineImageVersion{{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: "24.4.0"}}}},
			},
		},
	}
}

// managerEntry is a managed fields entry of the spec's fields set.
func managerEntry(manager string, op metav1.ManagedFieldsOperationType, set string) metav1.ManagedFieldsEntry {
	return metav1.ManagedFieldsEntry{Manager: manager, Operation: op, FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(set)}
}

// TestOwnsEntriesAlone: an entry is the manager's alone when its apply entry holds it and no other
// manager's entry does; the status subresource's managers do not count.
func TestOwnsEntriesAlone(t *testing.T) {
	mine := managerEntry("tf", metav1.ManagedFieldsOperationApply,
		`{"f:spec":{"f:kubernetes":{"f:versions":{"k:{\"version\":\"1.31.1\"}":{".":{},"f:version":{}},"k:{\"version\":\"1.31.0\"}":{".":{}}}},`+
			`"f:machineImages":{"k:{\"name\":\"gardenlinux\"}":{"f:versions":{"k:{\"version\":\"1.0.0\"}":{}}}}}}`)
	theirs := managerEntry("kubectl-edit", metav1.ManagedFieldsOperationUpdate, `{"f:spec":{"f:kubernetes":{"f:versions":{"k:{\"version\":\"1.31.0\"}":{"f:expirationDate":{}}}}}}`)
	status := managerEntry("gardener", metav1.ManagedFieldsOperationUpdate, `{"f:spec":{"f:kubernetes":{"f:versions":{"k:{\"version\":\"1.31.1\"}":{}}}}}`)
	status.Subresource = "status"
	ncp := entriesProfile(mine, theirs, status)
	for _, c := range []struct {
		name    string
		entries NamespacedEntries
		want    bool
	}{
		{"an override only the manager wrote", NamespacedEntries{KubernetesVersions: []string{"1.31.1"}}, true},
		{"an override another manager changed", NamespacedEntries{KubernetesVersions: []string{"1.31.0"}}, false},
		{"an image version only the manager wrote", NamespacedEntries{ImageVersions: map[string][]string{"gardenlinux": {"1.0.0"}}}, true},
		{"an image version nobody's entry holds", NamespacedEntries{ImageVersions: map[string][]string{"gardenlinux": {"1.1.0"}}}, false},
		{"an image another manager wrote", NamespacedEntries{Images: []string{"ubuntu"}}, false},
	} {
		if got, err := OwnsEntriesAlone(ncp, "tf", c.entries); err != nil || got != c.want {
			t.Errorf("%s: got %v (%v), want %v", c.name, got, err, c.want)
		}
	}
}

// TestRemovalOps: the patch tests each entry's key before it removes it, removes later positions
// first, the versions of an image before whole images, and leaves out what the object lacks.
func TestRemovalOps(t *testing.T) {
	ops := removalOps(entriesProfile(), NamespacedEntries{
		KubernetesVersions: []string{"1.31.1", "1.31.0", "1.29.0"},
		ImageVersions:      map[string][]string{"gardenlinux": {"1.1.0"}},
		Images:             []string{"ubuntu"},
	})
	raw, _ := json.Marshal(ops)
	want := `[{"op":"test","path":"/spec/kubernetes/versions/1/version","value":"1.31.0"},` +
		`{"op":"test","path":"/spec/kubernetes/versions/0/version","value":"1.31.1"},` +
		`{"op":"test","path":"/spec/machineImages/0/versions/1/version","value":"1.1.0"},` +
		`{"op":"test","path":"/spec/machineImages/1/name","value":"ubuntu"},` +
		`{"op":"remove","path":"/spec/kubernetes/versions/1"},{"op":"remove","path":"/spec/kubernetes/versions/0"},` +
		`{"op":"remove","path":"/spec/machineImages/0/versions/1"},{"op":"remove","path":"/spec/machineImages/1"}]`
	if string(raw) != want {
		t.Errorf("got  %s\nwant %s", raw, want)
	}
}

// TestRemovalOps_ManyEntriesInLinearTime: removing 200,000 Kubernetes versions and as many image
// versions that the profile has. Looking each of the profile's versions up in the list of
// entries takes about 8·10¹⁰ comparisons (minutes); each is found in a set.
func TestRemovalOps_ManyEntriesInLinearTime(t *testing.T) {
	const n = 200_000
	ncp := &gardencorev1beta1.NamespacedCloudProfile{Spec: gardencorev1beta1.NamespacedCloudProfileSpec{
		Kubernetes:    &gardencorev1beta1.KubernetesSettings{},
		MachineImages: []gardencorev1beta1.MachineImage{{Name: "gardenlinux"}},
	}}
	entries := NamespacedEntries{ImageVersions: map[string][]string{}}
	for i := range n {
		v := fmt.Sprintf("1.%d.0", i)
		ncp.Spec.Kubernetes.Versions = append(ncp.Spec.Kubernetes.Versions, gardencorev1beta1.ExpirableVersion{Version: v})
		ncp.Spec.MachineImages[0].Versions = append(ncp.Spec.MachineImages[0].Versions, gardencorev1beta1.MachineImageVersion{ExpirableVersion: gardencorev1beta1.ExpirableVersion{Version: v}})
		entries.KubernetesVersions = append(entries.KubernetesVersions, v)
		entries.ImageVersions["gardenlinux"] = append(entries.ImageVersions["gardenlinux"], v)
	}
	done := make(chan []patchOp, 1)
	go func() { done <- removalOps(ncp, entries) }()
	select {
	case ops := <-done:
		if len(ops) != 4*n {
			t.Errorf("got %d operations, want a test and a removal of each of %d entries", len(ops), 2*n)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the removal of 400,000 entries took longer than 30 s: the lookup is not linear")
	}
}

// TestOwnsEntriesAlone_MatchesKeysHoweverTheServerEscapedThem: the API server writes an element
// key with characters encoding/json escapes (<, >, &) as they are; it is the same key.
func TestOwnsEntriesAlone_MatchesKeysHoweverTheServerEscapedThem(t *testing.T) {
	mine := managerEntry("tf", metav1.ManagedFieldsOperationApply, `{"f:spec":{"f:kubernetes":{"f:versions":{"k:{\"version\":\"1.31.1\"}":{}}}}}`)
	theirs := managerEntry("kubectl-edit", metav1.ManagedFieldsOperationUpdate, `{"f:spec":{"f:kubernetes":{"f:versions":{"k:{\"version\":\"1.31.0+a<b\"}":{"f:expirationDate":{}}}}}}`)
	ncp := entriesProfile(mine, theirs)
	if got, err := OwnsEntriesAlone(ncp, "tf", NamespacedEntries{KubernetesVersions: []string{"1.31.0+a<b"}}); err != nil || got {
		t.Errorf("an entry another manager holds under an unescaped key: got %v (%v), want false", got, err)
	}
	if got, err := OwnsEntriesAlone(ncp, "tf", NamespacedEntries{KubernetesVersions: []string{"1.31.1"}}); err != nil || !got {
		t.Errorf("the manager's own entry: got %v (%v), want true", got, err)
	}
}

// TestOwnsEntriesAlone_ManyEntriesInLinearTime: 20,000 overrides the manager wrote, beside another
// manager's 20,000 entries of other versions. Decoding every manager's field set again for each
// entry, and decoding each key of a set that lacks the entry, takes minutes; each set is decoded
// once.
func TestOwnsEntriesAlone_ManyEntriesInLinearTime(t *testing.T) {
	const n = 20_000
	var mine, theirs strings.Builder
	var entries NamespacedEntries
	for i := range n {
		sep := map[bool]string{true: "", false: ","}[i == 0]
		v := fmt.Sprintf("1.%d.0", i)
		fmt.Fprintf(&mine, `%s"k:{\"version\":\"%s\"}":{".":{},"f:version":{}}`, sep, v)
		fmt.Fprintf(&theirs, `%s"k:{\"version\":\"2.%d.0\"}":{"f:expirationDate":{}}`, sep, i)
		entries.KubernetesVersions = append(entries.KubernetesVersions, v)
	}
	ncp := entriesProfile(
		managerEntry("tf", metav1.ManagedFieldsOperationApply, `{"f:spec":{"f:kubernetes":{"f:versions":{`+mine.String()+`}}}}`),
		managerEntry("kubectl-edit", metav1.ManagedFieldsOperationUpdate, `{"f:spec":{"f:kubernetes":{"f:versions":{`+theirs.String()+`}}}}`))
	type result struct {
		alone bool
		err   error
	}
	done := make(chan result, 1)
	go func() {
		alone, err := OwnsEntriesAlone(ncp, "tf", entries)
		done <- result{alone, err}
	}()
	select {
	case r := <-done:
		if r.err != nil || !r.alone {
			t.Errorf("got %v (%v), want the manager's alone", r.alone, r.err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the ownership of 20,000 entries took longer than 30 s: the field sets are not decoded once")
	}
}
