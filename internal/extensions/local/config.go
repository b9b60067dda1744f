package local

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Type is the provider type whose profiles provider-local's admission judges. Gardener labels a
// profile `provider.extensions.gardener.cloud/<spec.type>: "true"`, and the extension's webhooks
// select on that label.
const Type = "local"

// APIVersion and Kind identify provider-local's profile configuration; the extension decodes
// nothing else from spec.providerConfig.
const (
	APIVersion = "local.provider.extensions.gardener.cloud/v1alpha1"
	Kind       = "CloudProfileConfig"
)

// AppliesTo reports whether provider-local's admission judges profiles of providerType.
func AppliesTo(providerType string) bool { return providerType == Type }

// CloudProfileConfig is what provider-local reads from spec.providerConfig of a CloudProfile or
// NamespacedCloudProfile: for every machine image version, the image a machine boots (one image, or
// one per capability flavor when the profile defines machine capabilities).
//
// Encoded with encoding/json it is written the way the extension writes it into a
// NamespacedCloudProfile's status: loadBalancer always, capabilityFlavors as null when empty.
type CloudProfileConfig struct {
	APIVersion    string         `json:"apiVersion,omitempty"`
	Kind          string         `json:"kind,omitempty"`
	MachineImages []MachineImage `json:"machineImages"`
	LoadBalancer  LoadBalancer   `json:"loadBalancer"`
}

// MachineImage maps the versions of one machine image (by its name in spec.machineImages).
type MachineImage struct {
	Name     string                `json:"name"`
	Versions []MachineImageVersion `json:"versions"`
}

// MachineImageVersion maps one version to an image, or to one image per capability flavor.
type MachineImageVersion struct {
	Version           string        `json:"version"`
	Image             string        `json:"image,omitempty"`
	CapabilityFlavors []ImageFlavor `json:"capabilityFlavors"`
}

// ImageFlavor is the image of a version for machines with the given capabilities.
type ImageFlavor struct {
	Image        string                         `json:"image"`
	Capabilities gardencorev1beta1.Capabilities `json:"capabilities,omitempty"`
}

// LoadBalancer is the load balancer image of the local provider; admission does not check it.
type LoadBalancer struct {
	Image string `json:"image"`
}

// known lists the JSON fields of each object in a CloudProfileConfig, for strict decoding.
var known = map[string][]string{
	"config":  {"apiVersion", "kind", "machineImages", "loadBalancer"},
	"image":   {"name", "versions"},
	"version": {"version", "image", "capabilityFlavors"},
	"flavor":  {"image", "capabilities"},
	"lb":      {"image"},
}

// DecodeCloudProfileConfig decodes raw strictly, as the extension does: raw must be a JSON object with apiVersion APIVersion and kind Kind; a field that is unknown, written
// in another case, or given twice is an error, as is a value of the wrong JSON type. The error
// messages are this package's own; Gardener's decoder words them differently.
func DecodeCloudProfileConfig(raw []byte) (*CloudProfileConfig, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(raw, &top); err != nil {
		return nil, fmt.Errorf("not a JSON object: %w", err)
	}
	if top == nil {
		return nil, errors.New("not a JSON object")
	}
	if err := checkStrict(raw, "config"); err != nil {
		return nil, fmt.Errorf("strict decoding error: %w", err)
	}
	cfg := &CloudProfileConfig{}
	if err := json.Unmarshal(raw, cfg); err != nil {
		return nil, err
	}
	switch {
	case cfg.Kind == "":
		return nil, errors.New("kind is missing")
	case cfg.APIVersion == "":
		return nil, errors.New("apiVersion is missing")
	case cfg.APIVersion != APIVersion || cfg.Kind != Kind:
		return nil, fmt.Errorf("no kind %q is registered for version %q", cfg.Kind, cfg.APIVersion)
	}
	return cfg, nil
}

// checkStrict walks raw, an object of the given kind, and reports unknown, differently cased and
// repeated fields.
func checkStrict(raw []byte, kind string) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := walk(dec, kind, ""); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("unexpected data after the object")
	}
	return nil
}

// walk reads one JSON value from dec. kind names the object schema the value must follow ("" for
// any value, "capabilities" for a map of string lists).
func walk(dec *json.Decoder, kind, at string) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return nil
	}
	switch d {
	case '[':
		elem := ""
		switch kind {
		case "images":
			elem = "image"
		case "versions":
			elem = "version"
		case "flavors":
			elem = "flavor"
		}
		for i := 0; dec.More(); i++ {
			if err := walk(dec, elem, fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
		_, err = dec.Token()
		return err
	case '{':
		seen := map[string]bool{}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return err
			}
			name, _ := tok.(string)
			if seen[name] {
				return fmt.Errorf("duplicate field %q", joinField(at, name))
			}
			seen[name] = true
			child := ""
			if fields, ok := known[kind]; ok {
				if !slices.Contains(fields, name) {
					return fmt.Errorf("unknown field %q", joinField(at, name))
				}
				child = childKind(kind, name)
			}
			if err := walk(dec, child, joinField(at, name)); err != nil {
				return err
			}
		}
		_, err = dec.Token()
		return err
	}
	return nil
}

// childKind is the schema of field name of an object of kind.
func childKind(kind, name string) string {
	switch kind + "." + name {
	case "config.machineImages":
		return "images"
	case "config.loadBalancer":
		return "lb"
	case "image.versions":
		return "versions"
	case "version.capabilityFlavors":
		return "flavors"
	}
	return ""
}

func joinField(at, name string) string {
	if at == "" {
		return name
	}
	return at + "." + name
}

// imageIndex maps image names to versions to mappings; a name or version given twice keeps its
// last entry, as the extension's lookups do.
type imageIndex map[string]map[string]MachineImageVersion

func indexImages(images []MachineImage) imageIndex {
	idx := imageIndex{}
	for _, mi := range images {
		versions := map[string]MachineImageVersion{}
		for _, v := range mi.Versions {
			versions[v.Version] = v
		}
		idx[mi.Name] = versions
	}
	return idx
}

func (idx imageIndex) hasImage(name string) bool { _, ok := idx[name]; return ok }

func (idx imageIndex) version(name, version string) (MachineImageVersion, bool) {
	v, ok := idx[name][version]
	return v, ok
}

// specImageIndex is imageIndex for the machine images of a profile's spec.
func specImageIndex(images []gardencorev1beta1.MachineImage) map[string]map[string]bool {
	idx := map[string]map[string]bool{}
	for _, mi := range images {
		versions := map[string]bool{}
		for _, v := range mi.Versions {
			versions[v.Version] = true
		}
		idx[mi.Name] = versions
	}
	return idx
}
