package kube

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// A create that fails after its object may have been stored reads the object of its name, with a
// context of its own (the create's may have run out): an object without the create's ID is not
// its own and is left alone. Its own object is deleted again, with a precondition on its UID,
// unless another manager manages it (an entry owning more than metadata.finalizers, which
// Gardener's controllers add to every new profile); an object it cannot delete is returned along
// with the failure, marked with ErrCreatedObjectKept, for the caller to record.

// ErrCreatedObjectKept marks the failure of a create whose object stays in the Garden; the create
// returns that object along with the failure.
var ErrCreatedObjectKept = errors.New("the object this create stored stays in the Garden")

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

// undoCreate removes the object a failed create (failure) of createID may have stored, or reads it
// into into and marks failure with ErrCreatedObjectKept.
func (c *Client) undoCreate(ctx context.Context, k objectKind, createID string, into runtime.Object, failure error) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), undoTimeout)
	defer cancel()
	if err := k.request(c.rest.Get()).Name(k.name).Do(ctx).Into(into); err != nil {
		if apierrors.IsNotFound(err) {
			return failure
		}
		return fmt.Errorf("%w; whether the create stored the object is unknown, reading it failed: %v", failure, err)
	}
	m, err := meta.Accessor(into)
	if err != nil || m.GetAnnotations()[CreateIDAnnotation] != createID {
		return failure // another object of the name: never this create's
	}
	if others := othersManaging(m.GetManagedFields(), c.fieldManager); len(others) > 0 {
		return fmt.Errorf("%w; %w (UID %s): field managers %v manage it too", failure, ErrCreatedObjectKept, m.GetUID(), others)
	}
	if err := k.request(c.rest.Delete()).Name(k.name).Body(deleteOptions(m.GetUID())).Do(ctx).Error(); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("%w; %w (UID %s): deleting it failed: %v", failure, ErrCreatedObjectKept, m.GetUID(), err)
	}
	return fmt.Errorf("%w; the object it had stored (UID %s) was deleted again", failure, m.GetUID())
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
