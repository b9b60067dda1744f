package kube

import (
	"context"
	"sync"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Reads of one object ask for a list of that one name (field selector metadata.name) instead of a
// GET. Both are consistent reads (no resourceVersion: the newest state), but the API server answers
// a GET from etcd, decoding the stored object on every request, while it answers such a list from
// its watch cache once it has confirmed that the cache is current (consistent lists from the
// cache, on by default since Kubernetes 1.31). For a NamespacedCloudProfile, whose status carries
// the merged parent, that halves what gardener-apiserver spends on a refresh. Servers without that feature
// answer the list from etcd, as they answer a GET. Credentials that may get but not list the
// resource in a scope get a 403 for the list: the client then reads that scope with GETs for the
// rest of its life.

// listDenials are the scopes (resource and namespace) in which listing was forbidden.
type listDenials struct{ scopes sync.Map }

// denied tells whether listing in the scope of k was forbidden before.
func (d *listDenials) denied(k objectKind) bool {
	_, ok := d.scopes.Load(k.resource + "/" + k.namespace)
	return ok
}

// deny records that listing in the scope of k is forbidden.
func (d *listDenials) deny(k objectKind) { d.scopes.Store(k.resource+"/"+k.namespace, struct{}{}) }

// getCloudProfile reads one CloudProfile (see readOne).
func (c *Client) getCloudProfile(ctx context.Context, name string) (*gardencorev1beta1.CloudProfile, error) {
	out, list := &gardencorev1beta1.CloudProfile{}, &gardencorev1beta1.CloudProfileList{}
	return out, c.readOne(ctx, cloudProfileKind(name), out, list, firstOf(out, &list.Items))
}

// GetNamespacedCloudProfile reads one NamespacedCloudProfile (see readOne).
func (c *Client) GetNamespacedCloudProfile(ctx context.Context, namespace, name string) (*gardencorev1beta1.NamespacedCloudProfile, error) {
	out, list := &gardencorev1beta1.NamespacedCloudProfile{}, &gardencorev1beta1.NamespacedCloudProfileList{}
	return out, c.readOne(ctx, namespacedKind(namespace, name), out, list, firstOf(out, &list.Items))
}

// firstOf is readOne's found for a list's items: it copies the first into out and counts them.
func firstOf[T any](out *T, items *[]T) func() int {
	return func() int {
		if len(*items) > 0 {
			*out = (*items)[0]
		}
		return len(*items)
	}
}

// readOne reads the object k with one request: a list of its name (see the comment above), or a
// GET into out where listing is forbidden. found tells how many objects the list answered and
// copies the first into out. An object that does not exist fails with KindNotFound either way.
func (c *Client) readOne(ctx context.Context, k objectKind, out, list runtime.Object, found func() int) error {
	if !c.listDenials.denied(k) {
		selector := fields.OneTermEqualSelector("metadata.name", k.name).String()
		err := classify(k.request(c.rest.Get()).Param("fieldSelector", selector).Do(ctx).Into(list), k.ref)
		switch {
		case err == nil && found() == 0:
			return classify(notFound(k), k.ref)
		case KindOf(err) != KindForbidden:
			return err
		}
		c.listDenials.deny(k)
	}
	return classify(k.request(c.rest.Get()).Name(k.name).Do(ctx).Into(out), k.ref)
}

// notFound is the API server's answer to a GET of the object k that does not exist.
func notFound(k objectKind) error {
	return apierrors.NewNotFound(schema.GroupResource{Group: gardencorev1beta1.GroupName, Resource: k.resource}, k.name)
}
