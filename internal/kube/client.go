package kube

import (
	"context"
	"encoding/json"
	"fmt"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/rest"
)

// Resource names of the two kinds in core.gardener.cloud/v1beta1.
const (
	resourceCloudProfiles           = "cloudprofiles"
	resourceNamespacedCloudProfiles = "namespacedcloudprofiles"
)

// Client reads and writes CloudProfiles and NamespacedCloudProfiles. Every method makes exactly
// one API request, repeated only when it failed transiently and repeating it is safe (see
// RetryPolicy).
type Client struct {
	rest         rest.Interface
	fieldManager string
}

// NewClient builds a client for core.gardener.cloud/v1beta1 from a rest.Config. It does no request.
func NewClient(cfg *rest.Config, fieldManager string) (*Client, error) {
	scheme := runtime.NewScheme()
	if err := gardencorev1beta1.AddToScheme(scheme); err != nil {
		return nil, fmt.Errorf("registering Gardener's API types: %w", err)
	}
	metav1.AddToGroupVersion(scheme, metav1.SchemeGroupVersion)
	c := rest.CopyConfig(cfg)
	c.GroupVersion = &gardencorev1beta1.SchemeGroupVersion
	c.APIPath = "/apis"
	c.NegotiatedSerializer = serializer.NewCodecFactory(scheme).WithoutConversion()
	c.ContentType = runtime.ContentTypeJSON
	if c.UserAgent == "" {
		c.UserAgent = fieldManager
	}
	withRequestLog(c) // request log for make bench (GARDENER_PROVIDER_REQUEST_LOG); see requestcount.go
	// Retries of transient failures (see RetryPolicy): one wrapper around the transport.
	c.Wrap(DefaultRetryPolicy.RoundTripper)
	rc, err := rest.RESTClientFor(c)
	if err != nil {
		return nil, fmt.Errorf("building REST client: %w", err)
	}
	if fieldManager == "" {
		fieldManager = DefaultFieldManager
	}
	return &Client{rest: rc, fieldManager: fieldManager}, nil
}

// FieldManager is the name under which the client applies.
func (c *Client) FieldManager() string { return c.fieldManager }

// GetCloudProfile reads one CloudProfile.
func (c *Client) GetCloudProfile(ctx context.Context, name string) (*gardencorev1beta1.CloudProfile, error) {
	out := &gardencorev1beta1.CloudProfile{}
	err := c.rest.Get().Resource(resourceCloudProfiles).Name(name).Do(ctx).Into(out)
	return out, classify(err, cloudProfileRef(name))
}

// GetNamespacedCloudProfile reads one NamespacedCloudProfile.
func (c *Client) GetNamespacedCloudProfile(ctx context.Context, namespace, name string) (*gardencorev1beta1.NamespacedCloudProfile, error) {
	out := &gardencorev1beta1.NamespacedCloudProfile{}
	err := c.rest.Get().Namespace(namespace).Resource(resourceNamespacedCloudProfiles).Name(name).Do(ctx).Into(out)
	return out, classify(err, namespacedRef(namespace, name))
}

// ApplyOptions tune a server-side apply.
type ApplyOptions struct {
	// Force takes over fields owned by other field managers instead of failing with a conflict.
	Force bool
	// DryRun asks the server to validate and admit the object without storing it.
	DryRun bool
}

// ApplyCloudProfile server-side applies a CloudProfile under the client's field manager and
// returns the object as stored.
func (c *Client) ApplyCloudProfile(ctx context.Context, cp *gardencorev1beta1.CloudProfile, opts ApplyOptions) (*gardencorev1beta1.CloudProfile, error) {
	cp = cp.DeepCopy()
	cp.TypeMeta = metav1.TypeMeta{APIVersion: gardencorev1beta1.SchemeGroupVersion.String(), Kind: "CloudProfile"}
	out := &gardencorev1beta1.CloudProfile{}
	req := c.rest.Patch(types.ApplyPatchType).Resource(resourceCloudProfiles).Name(cp.Name)
	return out, classify(c.apply(ctx, req, cp, opts, out), cloudProfileRef(cp.Name))
}

// ApplyNamespacedCloudProfile server-side applies a NamespacedCloudProfile under the client's field
// manager and returns the object as stored.
func (c *Client) ApplyNamespacedCloudProfile(ctx context.Context, ncp *gardencorev1beta1.NamespacedCloudProfile, opts ApplyOptions) (*gardencorev1beta1.NamespacedCloudProfile, error) {
	ncp = ncp.DeepCopy()
	ncp.TypeMeta = metav1.TypeMeta{APIVersion: gardencorev1beta1.SchemeGroupVersion.String(), Kind: "NamespacedCloudProfile"}
	out := &gardencorev1beta1.NamespacedCloudProfile{}
	req := c.rest.Patch(types.ApplyPatchType).Namespace(ncp.Namespace).Resource(resourceNamespacedCloudProfiles).Name(ncp.Name)
	return out, classify(c.apply(ctx, req, ncp, opts, out), namespacedRef(ncp.Namespace, ncp.Name))
}

func (c *Client) apply(ctx context.Context, req *rest.Request, obj runtime.Object, opts ApplyOptions, into runtime.Object) error {
	body, err := applyBody(obj)
	if err != nil {
		return err
	}
	req = req.Param("fieldManager", c.fieldManager).Body(body)
	if opts.Force {
		req = req.Param("force", "true")
	}
	if opts.DryRun {
		req = req.Param("dryRun", metav1.DryRunAll)
	}
	return req.Do(ctx).Into(into)
}

// applyBody encodes an object as an apply configuration: only the fields that are set, never
// status (it belongs to Gardener's controllers) and never server-owned metadata, so that the field
// manager owns exactly what the user configured.
func applyBody(obj runtime.Object) ([]byte, error) {
	raw, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("encoding the object: %w", err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("encoding the object: %w", err)
	}
	delete(m, "status")
	if meta, ok := m["metadata"].(map[string]any); ok {
		for _, k := range []string{"creationTimestamp", "resourceVersion", "uid", "generation", "managedFields", "deletionTimestamp", "finalizers"} {
			delete(meta, k)
		}
	}
	return json.Marshal(pruneNulls(m))
}

// pruneNulls removes null values from decoded JSON, at every depth.
func pruneNulls(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			if e == nil {
				delete(t, k)
				continue
			}
			t[k] = pruneNulls(e)
		}
	case []any:
		for i, e := range t {
			t[i] = pruneNulls(e)
		}
	}
	return v
}

// DeleteCloudProfile asks the server to delete a CloudProfile. Gardener keeps it until its
// finalizer is removed; a profile that is already gone is not an error.
func (c *Client) DeleteCloudProfile(ctx context.Context, name string) error {
	err := c.rest.Delete().Resource(resourceCloudProfiles).Name(name).Do(ctx).Error()
	return ignoreNotFound(classify(err, cloudProfileRef(name)))
}

// DeleteNamespacedCloudProfile asks the server to delete a NamespacedCloudProfile; one that is
// already gone is not an error.
func (c *Client) DeleteNamespacedCloudProfile(ctx context.Context, namespace, name string) error {
	err := c.rest.Delete().Namespace(namespace).Resource(resourceNamespacedCloudProfiles).Name(name).Do(ctx).Error()
	return ignoreNotFound(classify(err, namespacedRef(namespace, name)))
}
