package kube

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	gardencorev1 "github.com/gardener/gardener/pkg/apis/core/v1"
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// The extensions a Garden runs: a ControllerRegistration (core.gardener.cloud/v1beta1, readable by
// every authenticated user) says which kinds and types an extension serves and names its
// ControllerDeployments (core.gardener.cloud/v1, usually readable by operators only), whose Helm
// chart comes from an OCI repository with a tag: gardener-operator copies an Extension's
// repository and tag there, and the tag is the extension's release. A provider extension serves
// the kinds Infrastructure, ControlPlane and Worker of its provider type (a profile's spec.type).

// providerKinds are the extension kinds only a provider extension serves.
var providerKinds = []string{"Infrastructure", "ControlPlane", "Worker"}

// ExtensionDeployment is the release of an extension that a Garden runs.
type ExtensionDeployment struct {
	// Registration is the name of the ControllerRegistration that serves the provider type.
	Registration string
	// Deployment is the name of its ControllerDeployment.
	Deployment string
	// Chart is the OCI repository of the deployment's Helm chart.
	Chart string
	// Version is the chart's tag, such as "v1.73.0".
	Version string
}

// extensionCache holds the ControllerRegistrations of the client's run and the ControllerDeployments
// read for them, each read at most once (see runValue).
type extensionCache struct {
	registrations runValue[[]gardencorev1beta1.ControllerRegistration]
	mu            sync.Mutex
	deployments   map[string]*runValue[*gardencorev1.ControllerDeployment]
}

// deployment is the runValue of the ControllerDeployment of a name.
func (e *extensionCache) deployment(name string) *runValue[*gardencorev1.ControllerDeployment] {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.deployments == nil {
		e.deployments = map[string]*runValue[*gardencorev1.ControllerDeployment]{}
	}
	v, ok := e.deployments[name]
	if !ok {
		v = &runValue[*gardencorev1.ControllerDeployment]{}
		e.deployments[name] = v
	}
	return v
}

// ProviderExtension returns the release of the extension that the Garden runs for a provider type:
// the first ControllerDeployment, in the order its ControllerRegistration names them, whose chart
// has a tag. found is false when no ControllerRegistration serves the type as a provider or none of
// its deployments names a tagged chart (a raw chart, a digest). Each run lists the
// ControllerRegistrations once and reads each ControllerDeployment it needs once (one GET); an
// error is the first failed request (KindForbidden where the credentials may not read them).
func (c *Client) ProviderExtension(ctx context.Context, providerType string) (ext ExtensionDeployment, found bool, err error) {
	registrations, err := c.extensions.registrations.get(ctx, c.listControllerRegistrations)
	if err != nil {
		return ExtensionDeployment{}, false, err
	}
	for _, reg := range registrations {
		if !servesProvider(reg, providerType) || reg.Spec.Deployment == nil {
			continue
		}
		for _, ref := range reg.Spec.Deployment.DeploymentRefs {
			d, err := c.extensions.deployment(ref.Name).get(ctx, func(ctx context.Context) (*gardencorev1.ControllerDeployment, error) {
				return c.getControllerDeployment(ctx, ref.Name)
			})
			if err != nil {
				return ExtensionDeployment{}, false, err
			}
			if chart, version, ok := chartRelease(d); ok {
				return ExtensionDeployment{Registration: reg.Name, Deployment: d.Name, Chart: chart, Version: version}, true, nil
			}
		}
	}
	return ExtensionDeployment{}, false, nil
}

// servesProvider tells whether a ControllerRegistration serves a provider kind of the type.
func servesProvider(reg gardencorev1beta1.ControllerRegistration, providerType string) bool {
	return slices.ContainsFunc(reg.Spec.Resources, func(r gardencorev1beta1.ControllerResource) bool {
		return r.Type == providerType && slices.Contains(providerKinds, r.Kind)
	})
}

// listControllerRegistrations lists every ControllerRegistration (one request, within
// InfoReadTimeout).
func (c *Client) listControllerRegistrations(ctx context.Context) ([]gardencorev1beta1.ControllerRegistration, error) {
	ctx, cancel := context.WithTimeout(ctx, InfoReadTimeout)
	defer cancel()
	list := &gardencorev1beta1.ControllerRegistrationList{}
	if err := c.rest.Get().Resource("controllerregistrations").Do(ctx).Into(list); err != nil {
		return nil, classify(err, "ControllerRegistrations")
	}
	return list.Items, nil
}

// getControllerDeployment reads one ControllerDeployment of core.gardener.cloud/v1 (one GET, within
// InfoReadTimeout).
func (c *Client) getControllerDeployment(ctx context.Context, name string) (*gardencorev1.ControllerDeployment, error) {
	ctx, cancel := context.WithTimeout(ctx, InfoReadTimeout)
	defer cancel()
	d := &gardencorev1.ControllerDeployment{}
	err := c.rest.Get().AbsPath("/apis", gardencorev1.SchemeGroupVersion.Group, gardencorev1.SchemeGroupVersion.Version, "controllerdeployments", name).Do(ctx).Into(d)
	return d, classify(err, fmt.Sprintf("ControllerDeployment %q", name))
}

// chartRelease is the OCI repository and tag of a deployment's Helm chart: the tag as set, or the
// tag of the full reference (without "oci://" and a digest); false without a tag.
func chartRelease(d *gardencorev1.ControllerDeployment) (chart, tag string, ok bool) {
	if d == nil || d.Helm == nil || d.Helm.OCIRepository == nil {
		return "", "", false
	}
	oci := d.Helm.OCIRepository
	if oci.Ref != nil {
		ref := strings.TrimPrefix(*oci.Ref, "oci://")
		ref, _, _ = strings.Cut(ref, "@")
		i := strings.LastIndex(ref, ":")
		if i < 0 || strings.Contains(ref[i:], "/") {
			return "", "", false // no tag: the colon, if any, is a registry's port
		}
		return ref[:i], ref[i+1:], ref[i+1:] != ""
	}
	if oci.Repository == nil || oci.Tag == nil || *oci.Tag == "" {
		return "", "", false
	}
	return strings.TrimPrefix(*oci.Repository, "oci://"), *oci.Tag, true
}
