package kube

import (
	"context"
	"errors"
	"fmt"
	"time"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	v1beta1constants "github.com/gardener/gardener/pkg/apis/core/v1beta1/constants"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// The release of Gardener a Garden runs: gardener-operator publishes gardener-apiserver's version
// in the ConfigMap gardener-info of the namespace gardener-system-public (data key
// gardenerAPIServer, YAML whose version is the server's git version, such as "v1.149.3"), and lets
// every authenticated user read it. Gardens that gardener-operator does not manage may lack it.

// GardenerInfoRef names the ConfigMap that publishes the Garden's release, as diagnostics name it.
var GardenerInfoRef = fmt.Sprintf("ConfigMap %q", gardencorev1beta1.GardenerSystemPublicNamespace+"/"+v1beta1constants.ConfigMapNameGardenerInfo)

// ErrGardenerInfoMalformed is the failure of a gardener-info whose data key gardenerAPIServer is
// missing, is not YAML of the expected shape or names no version.
var ErrGardenerInfoMalformed = errors.New("malformed gardener-info")

// apiServerInfo is the YAML of gardener-info's data key gardenerAPIServer (Gardener's
// APIServerInfo); only the version matters here.
type apiServerInfo struct {
	Version string `json:"version"`
}

// PublishedGardenerVersion returns the version of gardener-apiserver that the Garden publishes in
// gardener-info, as written there (such as "v1.149.3"), read with one GET at most once in the
// client's lifetime (see runValue), within InfoReadTimeout. It fails with KindNotFound when the Garden publishes none, with
// KindForbidden when the credentials may not read it, and with ErrGardenerInfoMalformed when its
// data holds no version.
func (c *Client) PublishedGardenerVersion(ctx context.Context) (string, error) {
	return c.gardenerVersion.get(ctx, c.readGardenerVersion)
}

// InfoReadTimeout bounds the reads of what a Garden publishes about itself (its release, the
// releases of its extensions), retries included: they refine the offline checks, and a Garden
// that does not answer them soon (one that cannot be reached) is not waited for as long as for the
// requests a run needs.
const InfoReadTimeout = 5 * time.Second

// readGardenerVersion reads gardener-info and the version in it.
func (c *Client) readGardenerVersion(ctx context.Context) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, InfoReadTimeout)
	defer cancel()
	cm := &corev1.ConfigMap{}
	err := c.rest.Get().AbsPath("/api/v1/namespaces", gardencorev1beta1.GardenerSystemPublicNamespace, "configmaps", v1beta1constants.ConfigMapNameGardenerInfo).
		Do(ctx).Into(cm)
	if err != nil {
		return "", classify(err, GardenerInfoRef)
	}
	raw, ok := cm.Data[v1beta1constants.GardenerInfoConfigMapDataKeyGardenerAPIServer]
	if !ok {
		return "", fmt.Errorf("%w: %s has no data key %s", ErrGardenerInfoMalformed, GardenerInfoRef, v1beta1constants.GardenerInfoConfigMapDataKeyGardenerAPIServer)
	}
	var info apiServerInfo
	if err := yaml.Unmarshal([]byte(raw), &info); err != nil {
		return "", fmt.Errorf("%w: %s: %s: %v", ErrGardenerInfoMalformed, GardenerInfoRef, v1beta1constants.GardenerInfoConfigMapDataKeyGardenerAPIServer, err)
	}
	if info.Version == "" {
		return "", fmt.Errorf("%w: %s: %s names no version", ErrGardenerInfoMalformed, GardenerInfoRef, v1beta1constants.GardenerInfoConfigMapDataKeyGardenerAPIServer)
	}
	return info.Version, nil
}
