package kube

import (
	"context"
	"strconv"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"k8s.io/client-go/rest"
)

// ListPage asks for one page of a list: the objects matching LabelSelector ("" for all), at most
// Limit of them (0 for no limit), after the Continue token the previous page returned.
type ListPage struct {
	LabelSelector string
	Limit         int64
	Continue      string
}

// params adds the page's query parameters to a list request.
func (p ListPage) params(req *rest.Request) *rest.Request {
	if p.LabelSelector != "" {
		req = req.Param("labelSelector", p.LabelSelector)
	}
	if p.Limit > 0 {
		req = req.Param("limit", strconv.FormatInt(p.Limit, 10))
	}
	if p.Continue != "" {
		req = req.Param("continue", p.Continue)
	}
	return req
}

// CloudProfilesPage lists one page of CloudProfiles and returns the token of the next page ("" after
// the last). One request.
func (c *Client) CloudProfilesPage(ctx context.Context, page ListPage) ([]gardencorev1beta1.CloudProfile, string, error) {
	list := &gardencorev1beta1.CloudProfileList{}
	if err := page.params(c.rest.Get().Resource(resourceCloudProfiles)).Do(ctx).Into(list); err != nil {
		return nil, "", classify(err, "CloudProfiles")
	}
	return list.Items, list.Continue, nil
}

// NamespacedCloudProfilesPage lists one page of the NamespacedCloudProfiles of a namespace (of all
// namespaces when namespace is "") and returns the token of the next page ("" after the last). One
// request.
func (c *Client) NamespacedCloudProfilesPage(ctx context.Context, namespace string, page ListPage) ([]gardencorev1beta1.NamespacedCloudProfile, string, error) {
	list := &gardencorev1beta1.NamespacedCloudProfileList{}
	req := c.rest.Get().Resource(resourceNamespacedCloudProfiles)
	if namespace != "" {
		req = req.Namespace(namespace)
	}
	if err := page.params(req).Do(ctx).Into(list); err != nil {
		return nil, "", classify(err, listRef("NamespacedCloudProfiles", namespace))
	}
	return list.Items, list.Continue, nil
}
