package kube

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"strconv"
	"strings"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// Entries of a NamespacedCloudProfile that a change of its parent CloudProfile removes first:
// Gardener refuses to remove a Kubernetes version or a machine image version from a CloudProfile
// while a NamespacedCloudProfile of it still names it, and Terraform applies the parent before the
// NamespacedCloudProfiles that refer to it. The parent's apply removes such entries when this
// client's field manager alone wrote them (NamespacedEntries, OwnsEntriesAlone), with one JSON
// patch that tests every entry it removes (RemoveNamespacedEntries).

// NamespacedEntries are entries of a NamespacedCloudProfile's spec, by their keys.
type NamespacedEntries struct {
	// KubernetesVersions are entries of spec.kubernetes.versions.
	KubernetesVersions []string `json:"kubernetesVersions,omitempty"`
	// ImageVersions are entries of spec.machineImages[].versions, by image name.
	ImageVersions map[string][]string `json:"imageVersions,omitempty"`
	// Images are whole entries of spec.machineImages.
	Images []string `json:"images,omitempty"`
}

// Empty tells whether there are no entries.
func (e NamespacedEntries) Empty() bool {
	return len(e.KubernetesVersions) == 0 && len(e.ImageVersions) == 0 && len(e.Images) == 0
}

// OwnsEntriesAlone tells whether manager's server-side apply is the only field manager of each
// of the entries of ncp (of its spec; the status's managers do not count), so that removing them
// takes nothing from another manager.
func OwnsEntriesAlone(ncp *gardencorev1beta1.NamespacedCloudProfile, manager string, entries NamespacedEntries) (bool, error) {
	var paths [][]string
	for _, v := range entries.KubernetesVersions {
		paths = append(paths, []string{"f:spec", "f:kubernetes", "f:versions", fieldsKey("version", v)})
	}
	for image, versions := range entries.ImageVersions {
		for _, v := range versions {
			paths = append(paths, []string{"f:spec", "f:machineImages", fieldsKey("name", image), "f:versions", fieldsKey("version", v)})
		}
	}
	for _, image := range entries.Images {
		paths = append(paths, []string{"f:spec", "f:machineImages", fieldsKey("name", image)})
	}
	sets, err := specFieldSets(ncp.ManagedFields)
	if err != nil {
		return false, err
	}
	for _, p := range paths {
		owners := 0
		for i, set := range sets {
			if !holdsPath(set, p) {
				continue
			}
			if e := ncp.ManagedFields[i]; e.Manager != manager || e.Operation != metav1.ManagedFieldsOperationApply {
				return false, nil
			}
			owners++
		}
		if owners == 0 {
			return false, nil
		}
	}
	return true, nil
}

// specFieldSets decodes the field set of each entry once, at the entry's index; nil for an entry
// of a subresource or without a set.
func specFieldSets(entries []metav1.ManagedFieldsEntry) ([]map[string]any, error) {
	sets := make([]map[string]any, len(entries))
	for i, e := range entries {
		if e.Subresource != "" || e.FieldsV1 == nil {
			continue
		}
		if err := json.Unmarshal(e.FieldsV1.GetRawBytes(), &sets[i]); err != nil {
			return nil, fmt.Errorf("decoding managed fields of %q: %w", e.Manager, err)
		}
		canonicalElementKeys(sets[i])
	}
	return sets, nil
}

// canonicalElementKeys rewrites, in place and at every depth, each element key of the set
// (k:{...}) as fieldsKey writes it, however the server escaped it.
func canonicalElementKeys(set map[string]any) {
	renamed := map[string]any{}
	for k, v := range set {
		if child, ok := v.(map[string]any); ok {
			canonicalElementKeys(child)
		}
		if c := canonicalElementKey(k); c != k {
			delete(set, k)
			renamed[c] = v
		}
	}
	maps.Copy(set, renamed)
}

// canonicalElementKey is the element key k (k:{...}) encoded as fieldsKey encodes it; any other
// key as it is.
func canonicalElementKey(k string) string {
	var key map[string]any
	if !strings.HasPrefix(k, "k:") || json.Unmarshal([]byte(k[2:]), &key) != nil {
		return k
	}
	raw, err := json.Marshal(key)
	if err != nil {
		return k
	}
	return "k:" + string(raw)
}

// fieldsKey is the key of an element of an associative list in a fieldsV1 set, as the API server
// writes it (k:{"version":"1.31.1"}).
func fieldsKey(field, value string) string {
	raw, _ := json.Marshal(map[string]string{field: value})
	return "k:" + string(raw)
}

// holdsPath tells whether the fieldsV1 set, its element keys canonical (canonicalElementKeys),
// has the path (any field at or below it).
func holdsPath(set map[string]any, p []string) bool {
	for _, step := range p {
		next, ok := set[step].(map[string]any)
		if !ok {
			return false
		}
		set = next
	}
	return true
}

// RemoveNamespacedEntries removes the entries from the NamespacedCloudProfile namespace/name of
// the UID uid, under the client's field manager: it reads the object (one request) and sends one
// JSON patch (one more) that tests the UID and each entry's key at its position before removing
// it, so that it removes exactly these entries or nothing. Entries the object no longer has are
// left out; without any, nothing is sent.
func (c *Client) RemoveNamespacedEntries(ctx context.Context, namespace, name string, uid types.UID, entries NamespacedEntries) error {
	k := namespacedKind(namespace, name)
	ncp, err := c.GetNamespacedCloudProfile(ctx, namespace, name)
	if err != nil {
		return err
	}
	ops := removalOps(ncp, entries)
	if len(ops) == 0 {
		return nil
	}
	ops = append([]patchOp{{Op: "test", Path: "/metadata/uid", Value: string(uid)}}, ops...)
	body, err := json.Marshal(ops)
	if err != nil {
		return err
	}
	err = k.request(c.rest.Patch(types.JSONPatchType)).Name(name).Param("fieldManager", c.fieldManager).Body(body).Do(ctx).Error()
	if err != nil {
		return classify(err, k.ref)
	}
	return nil
}

// setOf is the set of keys.
func setOf(keys []string) map[string]bool {
	set := make(map[string]bool, len(keys))
	for _, k := range keys {
		set[k] = true
	}
	return set
}

// patchOp is one operation of a JSON patch.
type patchOp struct {
	Op    string `json:"op"`
	Path  string `json:"path"`
	Value any    `json:"value,omitempty"`
}

// removalOps are the operations that remove the entries ncp has: a test of each entry's key
// and its removal, the later positions of a list first, so that each position stays right.
func removalOps(ncp *gardencorev1beta1.NamespacedCloudProfile, entries NamespacedEntries) []patchOp {
	var tests, removals []patchOp
	remove := func(at, keyField, key string, i int) {
		p := at + "/" + strconv.Itoa(i)
		tests = append(tests, patchOp{Op: "test", Path: p + "/" + keyField, Value: key})
		removals = append(removals, patchOp{Op: "remove", Path: p})
	}
	versions, images := setOf(entries.KubernetesVersions), setOf(entries.Images)
	if k := ncp.Spec.Kubernetes; k != nil {
		for i := len(k.Versions) - 1; i >= 0; i-- {
			if versions[k.Versions[i].Version] {
				remove("/spec/kubernetes/versions", "version", k.Versions[i].Version, i)
			}
		}
	}
	for i, image := range ncp.Spec.MachineImages {
		if images[image.Name] {
			continue
		}
		at := "/spec/machineImages/" + strconv.Itoa(i) + "/versions"
		imageVersions := setOf(entries.ImageVersions[image.Name])
		for j := len(image.Versions) - 1; j >= 0; j-- {
			if imageVersions[image.Versions[j].Version] {
				remove(at, "version", image.Versions[j].Version, j)
			}
		}
	}
	for i := len(ncp.Spec.MachineImages) - 1; i >= 0; i-- {
		if name := ncp.Spec.MachineImages[i].Name; images[name] {
			remove("/spec/machineImages", "name", name, i)
		}
	}
	return append(tests, removals...)
}
