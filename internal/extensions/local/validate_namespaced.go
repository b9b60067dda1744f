package local

import (
	"fmt"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
)

// ValidateNamespacedCloudProfile checks spec as provider-local's NamespacedCloudProfile validator does
// when a NamespacedCloudProfile whose parent is of type local is created or updated (not while it is
// being deleted). parent is the parent CloudProfile's spec; name is metadata.name, which only
// appears in the decoding error.
//
// A NamespacedCloudProfile needs no providerConfig. If it has one, it must decode (EXT-LOCAL-2) and
// may map only what the NamespacedCloudProfile adds: every image and version of spec.machineImages
// the parent lacks needs a mapping (EXT-LOCAL-13, EXT-LOCAL-14); a mapping may not repeat a version
// of the parent (EXT-LOCAL-15) and must belong to an image and version of spec.machineImages
// (EXT-LOCAL-16, EXT-LOCAL-17). The mappings themselves (images, flavors) are not checked here.
//
// Before checking, the extension converts both the providerConfig and spec.machineImages to the
// parent's format (capability flavors or architectures); that changes no image name and no version,
// which is all these checks compare, so it is left out.
//
// The caller decides whether the extension applies: Gardener labels a NamespacedCloudProfile with
// its parent's provider type, so AppliesTo(parent.Type).
func ValidateNamespacedCloudProfile(name string, spec gardencorev1beta1.NamespacedCloudProfileSpec, parent gardencorev1beta1.CloudProfileSpec) cloudprofile.Problems {
	cfg := &CloudProfileConfig{}
	if spec.ProviderConfig != nil {
		decoded, err := DecodeCloudProfileConfig(spec.ProviderConfig.Raw)
		if err != nil {
			return cloudprofile.Problems{decodeProblem(providerConfigPath(),
				fmt.Sprintf("could not decode providerConfig of NamespacedCloudProfile for '%s': %v", name, err))}
		}
		cfg = decoded
	}
	if spec.Parent.Kind != "CloudProfile" {
		return cloudprofile.Problems{{Rule: "EXT-LOCAL-18", Type: cloudprofile.Invalid, Path: cloudprofile.NewPath("spec").Child("parent").Child("kind"),
			Detail: fmt.Sprintf("parent reference must be of kind CloudProfile (unsupported kind: %s)", spec.Parent.Kind)}}
	}

	own := specImageIndex(spec.MachineImages)
	inherited := specImageIndex(parent.MachineImages)
	mapped := indexImages(cfg.MachineImages)
	images := inConfig("machineImages")

	var ps cloudprofile.Problems
	for i, mi := range spec.MachineImages {
		if _, ok := inherited[mi.Name]; !ok && !mapped.hasImage(mi.Name) {
			ps = append(ps, required("EXT-LOCAL-13", onSpecEntry(images, i),
				fmt.Sprintf("machine image %s is not defined in the NamespacedCloudProfile providerConfig", mi.Name)))
			continue
		}
		for j, v := range mi.Versions {
			_, isMapped := mapped.version(mi.Name, v.Version)
			if !inherited[mi.Name][v.Version] && !isMapped {
				ps = append(ps, required("EXT-LOCAL-14", onSpecEntry(images, i, j),
					fmt.Sprintf("machine image version %s@%s is not defined in the NamespacedCloudProfile providerConfig", mi.Name, v.Version)))
			}
		}
	}
	for i, mi := range cfg.MachineImages {
		ip := sub("machineImages", "[%d]", i)
		if parentVersions, ok := inherited[mi.Name]; ok {
			for j, v := range mi.Versions {
				if parentVersions[v.Version] {
					ps = append(ps, forbidden("EXT-LOCAL-15", inConfig(sub(ip, "versions[%d]", j)),
						fmt.Sprintf("machine image version %s@%s is already defined in the parent CloudProfile", mi.Name, v.Version)))
				}
			}
		}
		ownVersions, ok := own[mi.Name]
		if !ok {
			ps = append(ps, required("EXT-LOCAL-16", inConfig(ip),
				fmt.Sprintf("machine image %s is not defined in the NamespacedCloudProfile .spec.machineImages", mi.Name)))
			continue
		}
		for j, v := range mi.Versions {
			if !ownVersions[v.Version] {
				ps = append(ps, invalid("EXT-LOCAL-17", inConfig(sub(ip, "versions[%d]", j)), mi.Name+"@"+v.Version,
					"machine image version is not defined in the NamespacedCloudProfile"))
			}
		}
	}
	return ps
}
