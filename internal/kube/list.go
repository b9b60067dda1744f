package kube

import (
	"context"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// resourceShoots is the resource name of Shoots in core.gardener.cloud/v1beta1.
const resourceShoots = "shoots"

// ListNamespacedCloudProfiles lists the NamespacedCloudProfiles of a namespace, or of all namespaces
// when namespace is "". One request.
func (c *Client) ListNamespacedCloudProfiles(ctx context.Context, namespace string) ([]gardencorev1beta1.NamespacedCloudProfile, error) {
	list := &gardencorev1beta1.NamespacedCloudProfileList{}
	req := c.rest.Get().Resource(resourceNamespacedCloudProfiles)
	if namespace != "" {
		req = req.Namespace(namespace)
	}
	if err := req.Do(ctx).Into(list); err != nil {
		return nil, classify(err, listRef("NamespacedCloudProfiles", namespace))
	}
	return list.Items, nil
}

// ListShoots lists the Shoots of a namespace, or of all namespaces when namespace is "". One
// request.
func (c *Client) ListShoots(ctx context.Context, namespace string) ([]gardencorev1beta1.Shoot, error) {
	list := &gardencorev1beta1.ShootList{}
	req := c.rest.Get().Resource(resourceShoots)
	if namespace != "" {
		req = req.Namespace(namespace)
	}
	if err := req.Do(ctx).Into(list); err != nil {
		return nil, classify(err, listRef("Shoots", namespace))
	}
	return list.Items, nil
}

// listRef names what a list request asked for, e.g. `Shoots in namespace "garden-demo"`.
func listRef(kind, namespace string) string {
	if namespace == "" {
		return kind + " (all namespaces)"
	}
	return kind + " in namespace " + `"` + namespace + `"`
}
