package kube

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
)

// A create that fails after its object may have been stored reads the object of its name, with a
// context of its own (the create's may have run out). When the create request's answer named the
// UID of the object it stored, an object of another UID is not its own: its own was deleted and
// someone else created the name again, so the create leaves that object alone and fails with
// ErrCreatedObjectReplaced. Without a UID (the answer was lost), an object without the create's ID
// is not its own and is left alone. Its own object is deleted again, with a precondition on its
// UID, unless another manager manages it (an entry owning more than metadata.finalizers, which
// Gardener's controllers add to every new profile); an object it cannot delete is returned along
// with the failure, marked with ErrCreatedObjectKept, for the caller to record.

// ErrCreatedObjectKept marks the failure of a create whose object stays in the Garden; the create
// returns that object along with the failure.
var ErrCreatedObjectKept = errors.New("the object this create stored stays in the Garden")

// CreatedObjectReplaced is the failure of a create whose object was deleted before the create
// finished, while another object took its name: the create returns nothing to record, and it
// neither changed nor deleted that other object. It comes as the Err of an Error of KindReplaced.
type CreatedObjectReplaced struct {
	// Created is the UID of the object the create stored, Found that of the object of the name.
	Created, Found types.UID
	// Managers are the field managers of the object found.
	Managers []string
	// Failure is what made the create fail.
	Failure error
}

// Error says what happened.
func (e *CreatedObjectReplaced) Error() string {
	return fmt.Sprintf("%v; the object this create stored (UID %s) was deleted by someone else, and the object of its name now "+
		"(UID %s, field managers %s) is another, left alone", e.Failure, e.Created, e.Found, strings.Join(e.Managers, ", "))
}

// Unwrap is the failure of the create.
func (e *CreatedObjectReplaced) Unwrap() error { return e.Failure }

// undoTimeout bounds the reading and deleting of a failed create's object.
const undoTimeout = 30 * time.Second

// createdNothing tells a create request's failure after which nothing can have been stored: the
// server answered it with a client error (which includes "already exists").
func createdNothing(err error) bool {
	var status apierrors.APIStatus
	if !errors.As(err, &status) {
		return false
	}
	code := status.Status().Code
	return code >= http.StatusBadRequest && code < http.StatusInternalServerError &&
		code != http.StatusRequestTimeout && code != http.StatusTooManyRequests
}

// undoCreate removes the object a failed create (failure) of createID may have stored, uid when
// the create's answer named it, or reads it into into and marks failure with ErrCreatedObjectKept.
func (c *Client) undoCreate(ctx context.Context, k objectKind, createID string, uid types.UID, into runtime.Object, failure error) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), undoTimeout)
	defer cancel()
	found := emptyLike(into)
	if err := k.request(c.rest.Get()).Name(k.name).Do(ctx).Into(found); err != nil {
		if apierrors.IsNotFound(err) {
			return failure
		}
		return fmt.Errorf("%w; whether the create stored the object is unknown, reading it failed: %v", failure, err)
	}
	m, err := meta.Accessor(found)
	switch {
	case err != nil:
		return failure
	case uid != "" && m.GetUID() != uid:
		return &Error{Kind: KindReplaced, Object: k.ref, Err: &CreatedObjectReplaced{Created: uid, Found: m.GetUID(), Managers: managerNames(m.GetManagedFields()), Failure: failure}}
	case m.GetAnnotations()[CreateIDAnnotation] != createID:
		return failure // another object of the name: never this create's
	}
	copyInto(into, found)
	if others := othersManaging(m.GetManagedFields(), c.fieldManager); len(others) > 0 {
		return fmt.Errorf("%w; %w (UID %s): field managers %v manage it too", failure, ErrCreatedObjectKept, m.GetUID(), others)
	}
	if err := k.request(c.rest.Delete()).Name(k.name).Body(deleteOptions(m.GetUID())).Do(ctx).Error(); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("%w; %w (UID %s): deleting it failed: %v", failure, ErrCreatedObjectKept, m.GetUID(), err)
	}
	return fmt.Errorf("%w; the object it had stored (UID %s) was deleted again", failure, m.GetUID())
}

// managerNames lists the field managers of entries, each once, in order.
func managerNames(entries []metav1.ManagedFieldsEntry) []string {
	var out []string
	for _, e := range entries {
		if !slices.Contains(out, e.Manager) {
			out = append(out, e.Manager)
		}
	}
	return out
}

// othersManaging names the managers other than manager (and its creates) with an entry for the
// object itself that owns more than metadata.finalizers.
func othersManaging(entries []metav1.ManagedFieldsEntry, manager string) []string {
	var out []string
	for _, e := range entries {
		if e.Manager == manager || e.Manager == creatingManager(manager) || e.Subresource != "" || e.FieldsV1 == nil {
			continue
		}
		var set map[string]any
		if json.Unmarshal(e.FieldsV1.GetRawBytes(), &set) == nil && removeFieldPath(set, "f:metadata", "f:finalizers") {
			continue
		}
		out = append(out, e.Manager)
	}
	return out
}

// removeFieldPath removes the field at the keys from set, and every set on the way that it leaves
// empty; it tells whether set is empty afterwards.
func removeFieldPath(set map[string]any, keys ...string) bool {
	if len(keys) == 0 {
		return false
	}
	if len(keys) == 1 {
		delete(set, keys[0])
	} else if sub, ok := set[keys[0]].(map[string]any); ok && removeFieldPath(sub, keys[1:]...) {
		delete(set, keys[0])
	}
	return len(set) == 0
}
