package kube

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"strings"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
)

// A server-side apply creates an object that does not exist and changes one that does: it cannot
// say "only if new". Create therefore writes with a create request, which the server refuses
// atomically when the name is taken (KindAlreadyExists), so that of two concurrent creates only
// one succeeds. The server records a create as an Update of the field manager; one JSON patch,
// guarded by tests of the object's UID and of the entry, then turns that entry into the manager's
// Apply entry with exactly the fields a server-side apply of the same object would own (taken
// from a dry-run apply). Afterwards the object is owned as if it had been applied.
//
// A JSON patch addresses the entry by its index. The server sorts the entries by operation, then
// by the second they were written in, then by manager name, and Gardener's controllers write to a
// new object right away (a finalizer, the status). The create therefore runs under a manager name
// that sorts before every usual name (creatingManager), so that the controllers' entries of the
// same second land after it and the patch, which also gives the entry the manager's own name,
// finds it where the create left it.
//
// The create request carries a random create ID, as the annotation CreateIDAnnotation and as the
// Idempotency-Key header, which lets the retrying transport repeat it: when a repeated create finds
// the name taken by an object with its own create ID, the earlier attempt created it and lost its
// answer. The ownership patch removes the annotation again.
//
// A create that fails once its object may have been stored (no answer, a server error, or a
// failed ownership patch) never leaves an object no state knows (see create_undo.go). Once the
// create request's answer named the stored object's UID, every later request of the create is
// about that UID: an object created again under the name by someone else is never patched, kept
// nor deleted.

// CreateIDAnnotation marks an object with the ID of the create request that made it, between the
// create and the ownership patch (only a create cut off in between leaves it behind).
const CreateIDAnnotation = "terraform-provider-gardener/create-id"

// createIDPointer is the JSON pointer of the create ID annotation.
var createIDPointer = "/metadata/annotations/" + strings.ReplaceAll(strings.ReplaceAll(CreateIDAnnotation, "~", "~0"), "/", "~1")

// idempotencyKeyHeader names a request that may be repeated: the client recognises its own
// earlier success (see RetryableRequest).
const idempotencyKeyHeader = "Idempotency-Key"

// maxOwnershipAttempts bounds the tries of the ownership patch; each failed test re-reads.
const maxOwnershipAttempts = 4

// creatingManagerPrefix makes the name the create runs under; "(" sorts before digits and letters.
const creatingManagerPrefix = "(creating) "

// maxFieldManagerLength is the longest field manager name the API server accepts.
const maxFieldManagerLength = 128

// creatingManager is the name a create of manager runs under until the ownership patch gives its
// entry the manager's name (see above).
func creatingManager(manager string) string {
	name := creatingManagerPrefix + manager
	return name[:min(len(name), maxFieldManagerLength)]
}

// objectKind names the API resource an object of this client lives at.
type objectKind struct {
	resource  string
	namespace string
	name      string
	ref       string
}

// cloudProfileToWrite is a copy of cp with its type set, and where it lives.
func cloudProfileToWrite(cp *gardencorev1beta1.CloudProfile) (*gardencorev1beta1.CloudProfile, objectKind) {
	cp = cp.DeepCopy()
	cp.TypeMeta = metav1.TypeMeta{APIVersion: gardencorev1beta1.SchemeGroupVersion.String(), Kind: "CloudProfile"}
	return cp, cloudProfileKind(cp.Name)
}

// namespacedToWrite is cloudProfileToWrite for a NamespacedCloudProfile.
func namespacedToWrite(ncp *gardencorev1beta1.NamespacedCloudProfile) (*gardencorev1beta1.NamespacedCloudProfile, objectKind) {
	ncp = ncp.DeepCopy()
	ncp.TypeMeta = metav1.TypeMeta{APIVersion: gardencorev1beta1.SchemeGroupVersion.String(), Kind: "NamespacedCloudProfile"}
	return ncp, namespacedKind(ncp.Namespace, ncp.Name)
}

// cloudProfileKind is where the CloudProfile of a name lives.
func cloudProfileKind(name string) objectKind {
	return objectKind{resource: resourceCloudProfiles, name: name, ref: cloudProfileRef(name)}
}

// namespacedKind is where the NamespacedCloudProfile of a namespace and name lives.
func namespacedKind(namespace, name string) objectKind {
	return objectKind{resource: resourceNamespacedCloudProfiles, namespace: namespace, name: name, ref: namespacedRef(namespace, name)}
}

// request starts a request on the object's resource (and namespace), without the name.
func (k objectKind) request(r *rest.Request) *rest.Request {
	if k.namespace != "" {
		r = r.Namespace(k.namespace)
	}
	return r.Resource(k.resource)
}

// CreateCloudProfile creates a CloudProfile under the client's field manager and returns it as
// stored. It fails with KindAlreadyExists when a CloudProfile of that name exists, never changing it.
func (c *Client) CreateCloudProfile(ctx context.Context, cp *gardencorev1beta1.CloudProfile) (*gardencorev1beta1.CloudProfile, error) {
	cp, k := cloudProfileToWrite(cp)
	out := &gardencorev1beta1.CloudProfile{}
	err := classify(c.create(ctx, k, cp, &gardencorev1beta1.CloudProfile{}, out), k.ref)
	if err == nil {
		c.parents.observe(out)
	}
	return out, err
}

// CreateNamespacedCloudProfile creates a NamespacedCloudProfile as CreateCloudProfile creates a
// CloudProfile.
func (c *Client) CreateNamespacedCloudProfile(ctx context.Context, ncp *gardencorev1beta1.NamespacedCloudProfile) (*gardencorev1beta1.NamespacedCloudProfile, error) {
	ncp, k := namespacedToWrite(ncp)
	out := &gardencorev1beta1.NamespacedCloudProfile{}
	return out, classify(c.create(ctx, k, ncp, &gardencorev1beta1.NamespacedCloudProfile{}, out), k.ref)
}

// create runs the three requests described above; dry receives the dry-run result.
func (c *Client) create(ctx context.Context, k objectKind, obj, dry, into runtime.Object) error {
	err := c.apply(ctx, k.request(c.rest.Patch(types.ApplyPatchType)).Name(k.name), obj, ApplyOptions{DryRun: true}, dry)
	if isApplyConflict(err) {
		// Only an existing object has owners to conflict with.
		return alreadyExistsError(k)
	}
	if err != nil {
		return err
	}
	dryMeta, err := meta.Accessor(dry)
	if err != nil {
		return err
	}
	if dryMeta.GetResourceVersion() != "" {
		return alreadyExistsError(k)
	}
	owned := appliedEntry(dryMeta.GetManagedFields(), c.fieldManager)
	if owned == nil {
		return fmt.Errorf("the dry-run apply of %s recorded no fields for field manager %q", k.ref, c.fieldManager)
	}
	createID, err := newCreateID()
	if err != nil {
		return err
	}
	body, err := createBody(obj, createID)
	if err != nil {
		return err
	}
	err = k.request(c.rest.Post()).SetHeader(idempotencyKeyHeader, createID).Param("fieldManager", creatingManager(c.fieldManager)).Body(body).Do(ctx).Into(into)
	if apierrors.IsAlreadyExists(err) {
		err = c.ownEarlierCreate(ctx, k, createID, into, err)
	}
	if err != nil && createdNothing(err) {
		return err
	}
	// uid is the UID of the object this create stored, once an answer named it: from then on only
	// that object is this create's, whatever else takes its name.
	var uid types.UID
	if err == nil {
		uid = uidOf(into)
		err = c.recordCreateAsApply(ctx, k, owned, createID, uid, into)
	}
	if err != nil {
		return c.undoCreate(ctx, k, createID, uid, into, err)
	}
	return nil
}

// uidOf is the UID of an object, empty when it has no metadata.
func uidOf(obj runtime.Object) types.UID {
	m, err := meta.Accessor(obj)
	if err != nil {
		return ""
	}
	return m.GetUID()
}

// emptyLike is a new, empty object of obj's type, to read into without merging into obj.
func emptyLike(obj runtime.Object) runtime.Object {
	return reflect.New(reflect.TypeOf(obj).Elem()).Interface().(runtime.Object)
}

// copyInto sets into to the object from (of the same type).
func copyInto(into, from runtime.Object) {
	reflect.ValueOf(into).Elem().Set(reflect.ValueOf(from).Elem())
}

// newCreateID is a random ID for one create.
func newCreateID() (string, error) {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("making a create ID: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// createBody is the apply body of obj with the create ID annotation.
func createBody(obj runtime.Object, createID string) ([]byte, error) {
	body, err := applyBody(obj)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := decodeJSON(body, &m); err != nil {
		return nil, err
	}
	meta, _ := m["metadata"].(map[string]any)
	annotations, _ := meta["annotations"].(map[string]any)
	if annotations == nil {
		annotations = map[string]any{}
	}
	annotations[CreateIDAnnotation] = createID
	meta["annotations"] = annotations
	return json.Marshal(m)
}

// ownEarlierCreate tells a create that found the name taken by its own earlier attempt (the
// object carries its create ID; it is read into into) from one that found another object (taken
// is returned).
func (c *Client) ownEarlierCreate(ctx context.Context, k objectKind, createID string, into runtime.Object, taken error) error {
	found := emptyLike(into)
	if err := k.request(c.rest.Get()).Name(k.name).Do(ctx).Into(found); err != nil {
		return taken
	}
	m, err := meta.Accessor(found)
	if err != nil || m.GetAnnotations()[CreateIDAnnotation] != createID {
		return taken
	}
	copyInto(into, found)
	return nil
}

// alreadyExistsError is the answer of a create whose name is taken, in the API server's form.
func alreadyExistsError(k objectKind) error {
	return apierrors.NewAlreadyExists(schema.GroupResource{Group: gardencorev1beta1.SchemeGroupVersion.Group, Resource: k.resource}, k.name)
}

// appliedEntry is the manager's Apply entry, or nil.
func appliedEntry(entries []metav1.ManagedFieldsEntry, manager string) *metav1.FieldsV1 {
	for _, e := range entries {
		if e.Manager == manager && e.Operation == metav1.ManagedFieldsOperationApply && e.Subresource == "" && e.FieldsV1 != nil {
			return e.FieldsV1
		}
	}
	return nil
}

// recordCreateAsApply turns the Update entry the create left in into, the object of uid, into the
// manager's Apply entry with the owned fields, re-reading when the object changed in between (a
// controller adding its finalizer moves the entries). An object of the name with another UID is
// not this create's: it is never patched nor read into into.
func (c *Client) recordCreateAsApply(ctx context.Context, k objectKind, owned *metav1.FieldsV1, createID string, uid types.UID, into runtime.Object) error {
	var last error
	for range maxOwnershipAttempts {
		m, err := meta.Accessor(into)
		if err != nil {
			return err
		}
		if appliedEntry(m.GetManagedFields(), c.fieldManager) != nil {
			return nil // an earlier attempt landed although its answer was lost
		}
		patch, err := ownershipPatch(m, c.fieldManager, owned, createID)
		if err != nil {
			return err
		}
		last = k.request(c.rest.Patch(types.JSONPatchType)).SetHeader(idempotencyKeyHeader, createID).Name(k.name).Body(patch).Do(ctx).Into(into)
		if last == nil {
			return nil
		}
		again := emptyLike(into)
		if err := k.request(c.rest.Get()).Name(k.name).Do(ctx).Into(again); err != nil {
			return fmt.Errorf("recording the create as field manager %q's apply: %w (and reading the object again: %v)", c.fieldManager, last, err)
		}
		if uidOf(again) != uid {
			break // not this create's object (see undoCreate)
		}
		copyInto(into, again)
	}
	return fmt.Errorf("recording the create as field manager %q's apply: %w", c.fieldManager, last)
}

// ownershipPatch is the JSON patch that turns the Update entry the create left in object m into
// the manager's Apply entry with the owned fields and removes the create ID annotation; its tests
// make it fail when the object or the entry changed.
func ownershipPatch(m metav1.Object, manager string, owned *metav1.FieldsV1, createID string) ([]byte, error) {
	creating := creatingManager(manager)
	index := -1
	for i, e := range m.GetManagedFields() {
		if e.Manager == creating && e.Operation == metav1.ManagedFieldsOperationUpdate && e.Subresource == "" {
			index = i
			break
		}
	}
	if index < 0 {
		return nil, fmt.Errorf("the created object has no entry of field manager %q", creating)
	}
	at := fmt.Sprintf("/metadata/managedFields/%d", index)
	ops := []map[string]any{
		{"op": "test", "path": "/metadata/uid", "value": string(m.GetUID())},
		{"op": "test", "path": at + "/manager", "value": creating},
		{"op": "test", "path": at + "/operation", "value": string(metav1.ManagedFieldsOperationUpdate)},
		{"op": "replace", "path": at + "/manager", "value": manager},
		{"op": "replace", "path": at + "/operation", "value": string(metav1.ManagedFieldsOperationApply)},
		{"op": "replace", "path": at + "/fieldsV1", "value": json.RawMessage(owned.GetRawBytes())},
	}
	if _, marked := m.GetAnnotations()[CreateIDAnnotation]; marked {
		ops = append(ops, map[string]any{"op": "test", "path": createIDPointer, "value": createID}, map[string]any{"op": "remove", "path": createIDPointer})
	}
	return json.Marshal(ops)
}

// isApplyConflict tells a field-ownership conflict of an apply.
func isApplyConflict(err error) bool {
	return err != nil && kindOf(err) == KindConflict
}

// AdoptCloudProfile server-side applies a CloudProfile (see ApplyCloudProfile) and tells whether
// the object existed before (the server answers 200 instead of 201 Created).
func (c *Client) AdoptCloudProfile(ctx context.Context, cp *gardencorev1beta1.CloudProfile, opts ApplyOptions) (*gardencorev1beta1.CloudProfile, bool, error) {
	cp, k := cloudProfileToWrite(cp)
	out := &gardencorev1beta1.CloudProfile{}
	code, err := c.applyTo(ctx, k, cp, opts, out)
	if err == nil && !opts.DryRun {
		c.parents.observe(out)
	}
	return out, code == http.StatusOK, classify(err, k.ref)
}

// AdoptNamespacedCloudProfile is AdoptCloudProfile for a NamespacedCloudProfile.
func (c *Client) AdoptNamespacedCloudProfile(ctx context.Context, ncp *gardencorev1beta1.NamespacedCloudProfile, opts ApplyOptions) (*gardencorev1beta1.NamespacedCloudProfile, bool, error) {
	ncp, k := namespacedToWrite(ncp)
	out := &gardencorev1beta1.NamespacedCloudProfile{}
	code, err := c.applyTo(ctx, k, ncp, opts, out)
	return out, code == http.StatusOK, classify(err, k.ref)
}
