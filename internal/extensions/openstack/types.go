package openstack

import (
	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// Type is the provider type the extension serves.
const Type = "openstack"

// codec decodes a CloudProfileConfig as the extension's webhooks do: strictly, from the only
// registered version v1alpha1. The extension registers no defaults for it.
var codec = extcommon.Codec{
	Group:    "openstack.provider.extensions.gardener.cloud",
	Versions: []string{"v1alpha1"},
	Kind:     "CloudProfileConfig",
	Scheme:   "gardener-extension-provider-openstack",
}

// CloudProfileConfig is the providerConfig of an OpenStack CloudProfile or NamespacedCloudProfile
// (openstack.provider.extensions.gardener.cloud/v1alpha1). All fields of the extension's type are
// declared so that strict decoding accepts what the extension accepts; the validation reads most
// of them.
type CloudProfileConfig struct {
	APIVersion                 string                   `json:"apiVersion,omitempty"`
	Kind                       string                   `json:"kind,omitempty"`
	Constraints                Constraints              `json:"constraints"`
	DNSServers                 []string                 `json:"dnsServers,omitempty"`
	DHCPDomain                 *string                  `json:"dhcpDomain,omitempty"`
	KeyStoneURL                string                   `json:"keystoneURL,omitempty"`
	KeyStoneCACert             *string                  `json:"keystoneCACert,omitempty"`
	KeyStoneForceInsecure      bool                     `json:"keystoneForceInsecure,omitempty"`
	KeyStoneURLs               []KeyStoneURL            `json:"keystoneURLs,omitempty"`
	MachineImages              []MachineImages          `json:"machineImages"`
	RequestTimeout             *metav1.Duration         `json:"requestTimeout,omitempty"`
	RescanBlockStorageOnResize *bool                    `json:"rescanBlockStorageOnResize,omitempty"`
	IgnoreVolumeAZ             *bool                    `json:"ignoreVolumeAZ,omitempty"`
	NodeVolumeAttachLimit      *int32                   `json:"nodeVolumeAttachLimit,omitempty"`
	UseSNAT                    *bool                    `json:"useSNAT,omitempty"`
	ServerGroupPolicies        []string                 `json:"serverGroupPolicies,omitempty"`
	ResolvConfOptions          []string                 `json:"resolvConfOptions,omitempty"`
	StorageClasses             []StorageClassDefinition `json:"storageClasses,omitempty"`
}

// Constraints are the floating pools and load balancer providers shoots may use.
type Constraints struct {
	FloatingPools         []FloatingPool         `json:"floatingPools"`
	LoadBalancerProviders []LoadBalancerProvider `json:"loadBalancerProviders"`
}

// FloatingPool is a floating IP pool, optionally per region and domain.
type FloatingPool struct {
	Name                  string              `json:"name"`
	Region                *string             `json:"region,omitempty"`
	Domain                *string             `json:"domain,omitempty"`
	DefaultFloatingSubnet *string             `json:"defaultFloatingSubnet,omitempty"`
	NonConstraining       *bool               `json:"nonConstraining,omitempty"`
	LoadBalancerClasses   []LoadBalancerClass `json:"loadBalancerClasses,omitempty"`
}

// KeyStoneURL is the KeyStone endpoint of a region.
type KeyStoneURL struct {
	Region string  `json:"region"`
	URL    string  `json:"url"`
	CACert *string `json:"caCert,omitempty"`
}

// LoadBalancerClass is a class of load balancers of a floating pool.
type LoadBalancerClass struct {
	Name               string  `json:"name"`
	Purpose            *string `json:"purpose"`
	FloatingSubnetID   *string `json:"floatingSubnetID,omitempty"`
	FloatingSubnetTags *string `json:"floatingSubnetTags,omitempty"`
	FloatingSubnetName *string `json:"floatingSubnetName,omitempty"`
	FloatingNetworkID  *string `json:"floatingNetworkID,omitempty"`
	SubnetID           *string `json:"subnetID,omitempty"`
}

// LoadBalancerProvider is a load balancer provider, optionally per region.
type LoadBalancerProvider struct {
	Name   string  `json:"name"`
	Region *string `json:"region,omitempty"`
}

// MachineImages maps the versions of one machine image to OpenStack images.
type MachineImages struct {
	Name     string                `json:"name"`
	Versions []MachineImageVersion `json:"versions"`
}

// MachineImageVersion holds the image of a version: by name, per region (with an architecture),
// or per capability flavor.
type MachineImageVersion struct {
	Version           string               `json:"version"`
	Image             string               `json:"image,omitempty"`
	Regions           []RegionIDMapping    `json:"regions,omitempty"`
	CapabilityFlavors []MachineImageFlavor `json:"capabilityFlavors,omitempty"`
}

// MachineImageFlavor holds the images of one capability flavor.
type MachineImageFlavor struct {
	Regions      []RegionIDMapping              `json:"regions,omitempty"`
	Image        string                         `json:"image,omitempty"`
	Capabilities gardencorev1beta1.Capabilities `json:"capabilities,omitempty"`
}

// RegionIDMapping is the image id of a version in a region.
type RegionIDMapping struct {
	Name         string  `json:"name"`
	ID           string  `json:"id"`
	Architecture *string `json:"architecture,omitempty"`
}

// StorageClassDefinition is a storage class the extension deploys into shoots.
type StorageClassDefinition struct {
	Name              string            `json:"name"`
	Default           *bool             `json:"default,omitempty"`
	Provisioner       *string           `json:"provisioner,omitempty"`
	Parameters        map[string]string `json:"parameters,omitempty"`
	Annotations       map[string]string `json:"annotations,omitempty"`
	Labels            map[string]string `json:"labels,omitempty"`
	ReclaimPolicy     *string           `json:"reclaimPolicy,omitempty"`
	VolumeBindingMode *string           `json:"volumeBindingMode,omitempty"`
}

// onlyMachineImages tells whether nothing but machineImages is set, as the extension's
// equality.Semantic.DeepEqual comparison finds it (nil and empty lists count as equal).
func (c *CloudProfileConfig) onlyMachineImages() bool {
	return len(c.Constraints.FloatingPools) == 0 && len(c.Constraints.LoadBalancerProviders) == 0 &&
		len(c.DNSServers) == 0 && c.DHCPDomain == nil && c.KeyStoneURL == "" && c.KeyStoneCACert == nil &&
		!c.KeyStoneForceInsecure && len(c.KeyStoneURLs) == 0 && c.RequestTimeout == nil &&
		c.RescanBlockStorageOnResize == nil && c.IgnoreVolumeAZ == nil && c.NodeVolumeAttachLimit == nil &&
		c.UseSNAT == nil && len(c.ServerGroupPolicies) == 0 && len(c.ResolvConfOptions) == 0 && len(c.StorageClasses) == 0
}

func decodeConfig(raw []byte) (*CloudProfileConfig, error) {
	cfg := &CloudProfileConfig{}
	if err := codec.Decode(raw, cfg); err != nil {
		return nil, err
	}
	return cfg, nil
}

const amd64 = "amd64"

func archOf(r RegionIDMapping) string {
	if r.Architecture == nil {
		return amd64
	}
	return *r.Architecture
}

func providerImages(cfg *CloudProfileConfig) extcommon.Images[MachineImages, MachineImageVersion] {
	return extcommon.NewImages(cfg.MachineImages,
		func(i MachineImages) string { return i.Name },
		func(i MachineImages) []MachineImageVersion { return i.Versions },
		func(v MachineImageVersion) string { return v.Version })
}
