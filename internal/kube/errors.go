package kube

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// ErrorKind tells what went wrong with a request, so that callers can say what to do about it.
type ErrorKind int

const (
	// KindOther is any failure not classified below.
	KindOther ErrorKind = iota
	// KindNotFound means the object does not exist.
	KindNotFound
	// KindConflict means another field manager owns fields the apply wanted to change, or the
	// object changed in between.
	KindConflict
	// KindForbidden means the credentials may not do this.
	KindForbidden
	// KindUnauthorized means the credentials were not accepted.
	KindUnauthorized
	// KindInvalid means Gardener rejected the object (validation or admission).
	KindInvalid
	// KindUnreachable means no answer came from the API server.
	KindUnreachable
	// KindAPIUnavailable means the API server answered but does not serve Gardener's API
	// (gardener-apiserver down or core.gardener.cloud not registered).
	KindAPIUnavailable
	// KindAlreadyExists means a create found an object of the same name.
	KindAlreadyExists
	// KindReplaced means the object of this name is not the one expected: it was deleted and
	// created again (its UID differs).
	KindReplaced
	// KindTooLarge means the object is too large for the Garden to store (see size.go).
	KindTooLarge
)

// ErrStoredWithoutManagedFields is the failure of a create whose object the API server stored
// only without its managed fields, which it drops when etcd finds the object too large with them.
var ErrStoredWithoutManagedFields = errors.New("the Garden stored the created object only without its managed fields (etcdserver: request is too large)")

// Cause is one field-level reason the server gave, e.g. a validation error on a field path.
type Cause struct {
	Field   string
	Type    string
	Message string
}

// Error is a classified failure of a request about one object.
type Error struct {
	Kind   ErrorKind
	Object string
	Causes []Cause
	Err    error
}

// Error renders the failure with the object it concerns.
func (e *Error) Error() string { return fmt.Sprintf("%s: %v", e.Object, e.Err) }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// KindOf returns the kind of a classified error, KindOther for anything else.
func KindOf(err error) ErrorKind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return KindOther
}

// IsNotFound tells whether err means the object does not exist.
func IsNotFound(err error) bool { return KindOf(err) == KindNotFound }

func cloudProfileRef(name string) string { return fmt.Sprintf("CloudProfile %q", name) }

func namespacedRef(namespace, name string) string {
	return fmt.Sprintf("NamespacedCloudProfile %q", namespace+"/"+name)
}

func ignoreNotFound(err error) error {
	if IsNotFound(err) {
		return nil
	}
	return err
}

// classify wraps err with its kind and the server's causes; nil and classified errors stay as they are.
func classify(err error, object string) error {
	var classified *Error
	if err == nil || errors.As(err, &classified) {
		return err
	}
	return &Error{Kind: kindOf(err), Object: object, Causes: causesOf(err), Err: err}
}

func kindOf(err error) ErrorKind {
	switch {
	case isTooLarge(err):
		return KindTooLarge
	case isAPIMissing(err):
		return KindAPIUnavailable
	case isGoneUnderUID(err):
		return KindNotFound
	case isUIDMismatch(err):
		return KindReplaced
	case apierrors.IsAlreadyExists(err):
		return KindAlreadyExists
	case apierrors.IsNotFound(err):
		return KindNotFound
	case apierrors.IsConflict(err):
		return KindConflict
	case apierrors.IsForbidden(err) && isRBACDenial(err):
		return KindForbidden
	case apierrors.IsForbidden(err):
		// Gardener's admission plugins answer 403 too, e.g. for removing a version still in use.
		return KindInvalid
	case apierrors.IsUnauthorized(err):
		return KindUnauthorized
	case apierrors.IsInvalid(err), apierrors.IsBadRequest(err):
		return KindInvalid
	case apierrors.IsServiceUnavailable(err):
		return KindAPIUnavailable
	case isNetwork(err):
		return KindUnreachable
	}
	return KindOther
}

// isTooLarge recognises the answers to a write of an object too large to store: etcd's
// ("etcdserver: request is too large", which the API server passes on as a server error), the API
// server's for a body over its limit (413, "Request entity too large: limit is 3145728"), and a
// create stored without its managed fields.
func isTooLarge(err error) bool {
	return apierrors.IsRequestEntityTooLargeError(err) || errors.Is(err, ErrStoredWithoutManagedFields) ||
		strings.Contains(err.Error(), "etcdserver: request is too large")
}

// isAPIMissing tells a 404 for the resource type (the group is not served) from a 404 for the
// object: only the latter names the object in its details.
func isAPIMissing(err error) bool {
	var status apierrors.APIStatus
	if !errors.As(err, &status) || !apierrors.IsNotFound(err) {
		return false
	}
	d := status.Status().Details
	return d == nil || d.Name == ""
}

// isGoneUnderUID recognises the answer to a write that named the object's UID when no object of
// that name exists any more: the API server refuses to create it ("uid mismatch ... no existing
// object was found").
func isGoneUnderUID(err error) bool {
	return apierrors.IsConflict(err) && strings.Contains(err.Error(), "no existing object was found")
}

// isUIDMismatch recognises the answers to a write or delete that named a UID other than the
// object's: an apply is invalid on metadata.uid (immutable), a delete fails its precondition.
func isUIDMismatch(err error) bool {
	if apierrors.IsConflict(err) && strings.Contains(err.Error(), "the UID in the precondition") {
		return true // "the UID in the precondition (…) does not match the UID in record (…)"
	}
	if !apierrors.IsInvalid(err) {
		return false
	}
	for _, c := range causesOf(err) {
		if c.Field == "metadata.uid" {
			return true
		}
	}
	return false
}

// isRBACDenial tells the authorizer's 403 ("User \"x\" cannot create resource ...") from the 403 of
// an admission plugin.
func isRBACDenial(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, " cannot ") && strings.Contains(msg, "resource ")
}

func isNetwork(err error) bool {
	var netErr net.Error
	var urlErr *url.Error
	return errors.As(err, &netErr) || errors.As(err, &urlErr) || strings.Contains(err.Error(), "connection refused")
}

func causesOf(err error) []Cause {
	var status apierrors.APIStatus
	if !errors.As(err, &status) || status.Status().Details == nil {
		return nil
	}
	var out []Cause
	for _, c := range status.Status().Details.Causes {
		out = append(out, Cause{Field: c.Field, Type: string(c.Type), Message: c.Message})
	}
	return out
}
