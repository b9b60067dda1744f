package azure

import (
	"fmt"
	"slices"
	"strings"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// ValidateCloudProfile checks a CloudProfile spec of type azure as the extension's CloudProfile
// admission webhook does (pkg/admission/validator/cloudprofile.go, then
// pkg/apis/azure/validation/cloudprofile.go ValidateCloudProfileConfig). spec is taken as the user wrote it and passes what gardener-apiserver does before it calls the
// webhook: defaulting, the extension's mutating webhook (MutateCloudProfile, whose decoding
// failure rejects the object first) and canonicalization. As in the extension, the image mappings are only
// checked when the domain counts and the providerConfig's machine images are valid.
// name is metadata.name, which the decoding failures quote as the webhooks do.
func ValidateCloudProfile(name string, spec gardencorev1beta1.CloudProfileSpec) cloudprofile.Problems {
	spec = extcommon.Defaulted(spec)
	if spec.ProviderConfig != nil && len(spec.MachineCapabilities) > 0 {
		if _, err := decodeForMutation(extcommon.ConfigBytes(spec.ProviderConfig)); err != nil {
			return cloudprofile.Problems{extcommon.Failure(RuleProviderConfigDecode, extcommon.ProviderConfigPath(), fmt.Sprintf("could not decode providerConfig of cloudProfile for '%s': %v", name, err))}
		}
	}
	return validateCloudProfile(name, extcommon.Canonicalized(MutateCloudProfile(spec)))
}

// validateCloudProfile is the validating webhook alone, given the spec it receives.
func validateCloudProfile(name string, spec gardencorev1beta1.CloudProfileSpec) cloudprofile.Problems {
	if spec.ProviderConfig == nil {
		return cloudprofile.Problems{extcommon.Required(RuleProviderConfigRequired, extcommon.ProviderConfigPath(), "providerConfig must be set for Azure cloud profiles")}
	}
	cfg, err := decodeConfig(extcommon.ConfigBytes(spec.ProviderConfig))
	if err != nil {
		return cloudprofile.Problems{extcommon.Failure(RuleProviderConfigDecode, extcommon.ProviderConfigPath(), fmt.Sprintf("could not decode providerConfig of CloudProfile %q: %v", name, err))}
	}
	defs := spec.MachineCapabilities
	root := extcommon.Config()
	var ps cloudprofile.Problems
	ps = append(ps, validateDomainCount(cfg.CountFaultDomains, root.Child("countFaultDomains"))...)
	ps = append(ps, validateDomainCount(cfg.CountUpdateDomains, root.Child("countUpdateDomains"))...)
	imagesPath := root.Child("machineImages")
	if len(cfg.MachineImages) == 0 {
		ps = append(ps, extcommon.Required(RuleConfigImagesRequired, imagesPath.Path(), "must provide at least one machine image"))
	}
	defined := extcommon.DefineCapabilities(defs)
	for i, img := range cfg.MachineImages {
		ps = append(ps, validateProviderImage(img, defs, defined, imagesPath.Index(i))...)
	}
	if len(ps) > 0 {
		return ps
	}
	return validateImageMappings(spec.MachineImages, cfg, defs)
}

func validateDomainCount(counts []DomainCount, at extcommon.ConfigPath) cloudprofile.Problems {
	var ps cloudprofile.Problems
	if len(counts) == 0 {
		ps = append(ps, extcommon.Required(RuleDomainCounts, at.Path(), "must provide at least one domain count"))
	}
	for i, c := range counts {
		if c.Region == "" {
			ps = append(ps, extcommon.Required(RuleDomainCounts, at.Index(i).Child("region").Path(), "must provide a region"))
		}
		if c.Count < 0 {
			ps = append(ps, extcommon.Invalid(RuleDomainCounts, at.Index(i).Child("count").Path(), c.Count, "count must not be negative"))
		}
	}
	return ps
}

// validateProviderImage is the extension's ValidateProviderMachineImage.
func validateProviderImage(img MachineImages, defs []gardencorev1beta1.CapabilityDefinition, defined extcommon.DefinedCapabilities, at extcommon.ConfigPath) cloudprofile.Problems {
	var ps cloudprofile.Problems
	if img.Name == "" {
		ps = append(ps, extcommon.Required(RuleConfigImageIncomplete, at.Child("name").Path(), "must provide a name"))
	}
	if len(img.Versions) == 0 {
		ps = append(ps, extcommon.Required(RuleConfigImageIncomplete, at.Child("versions").Path(), fmt.Sprintf("must provide at least one version for machine image %q", img.Name)))
	}
	for j, v := range img.Versions {
		vp := at.Child("versions").Index(j)
		if v.Version == "" {
			ps = append(ps, extcommon.Required(RuleConfigVersionRequired, vp.Child("version").Path(), "must provide a version"))
		}
		hasFlavors, hasImage := len(v.CapabilityFlavors) > 0, !v.empty()
		hasLegacyFields := v.Architecture != nil || v.AcceleratedNetworking != nil
		if len(defs) == 0 {
			if hasFlavors {
				ps = append(ps, extcommon.Forbidden(RuleConfigFormat, vp.Child("capabilityFlavors").Path(), "capabilityFlavors must not be set when cloudprofile is not using capabilities"))
			}
			ps = append(ps, validateImage(v.ImageRef, vp)...)
			ps = append(ps, validateArchitecture(v, vp)...)
			continue
		}
		const oneFormat = "must not be set together with capabilityFlavors. Use one format per version."
		switch {
		case hasFlavors && (hasImage || hasLegacyFields):
			if hasImage {
				ps = append(ps, extcommon.Forbidden(RuleConfigFormat, vp.Child("image").Path(), oneFormat))
			}
			if v.Architecture != nil {
				ps = append(ps, extcommon.Forbidden(RuleConfigFormat, vp.Child("architecture").Path(), oneFormat))
			}
			if v.AcceleratedNetworking != nil {
				ps = append(ps, extcommon.Forbidden(RuleConfigFormat, vp.Child("acceleratedNetworking").Path(), oneFormat))
			}
		case hasFlavors:
			for k, f := range v.CapabilityFlavors {
				fp := vp.Child("capabilityFlavors").Index(k)
				ps = append(ps, extcommon.ValidateCapabilities(RuleConfigFlavorCapabilities, f.Capabilities, defined, fp.Child("capabilities"))...)
				ps = append(ps, validateImage(f.ImageRef, fp)...)
			}
		case hasImage:
			ps = append(ps, validateArchitecture(v, vp)...)
			ps = append(ps, validateImage(v.ImageRef, vp)...)
		default:
			ps = append(ps, extcommon.Required(RuleConfigFormat, vp.Child("image").Path(), fmt.Sprintf("must provide either image or capabilityFlavors for machine image %s@%s", img.Name, v.Version)))
		}
	}
	return ps
}

func validateArchitecture(v MachineImageVersion, vp extcommon.ConfigPath) cloudprofile.Problems {
	if arch := archOf(v); !slices.Contains(extcommon.ValidArchitectures, arch) {
		return cloudprofile.Problems{extcommon.NotSupported(RuleConfigArchitecture, vp.Child("architecture").Path(), arch, extcommon.ValidArchitectures)}
	}
	return nil
}

// validateImage is the extension's validateProvidedImageIdCount and validateProviderImageId:
// exactly one of urn, id, communityGalleryImageID and sharedGalleryImageID, each well-formed.
func validateImage(img ImageRef, at extcommon.ConfigPath) cloudprofile.Problems {
	var ps cloudprofile.Problems
	count := 0
	for _, p := range []*string{img.URN, img.ID, img.CommunityGalleryImageID, img.SharedGalleryImageID} {
		if p != nil {
			count++
		}
	}
	if count != 1 {
		ps = append(ps, extcommon.Required(RuleImageIDCount, at.Path(), "must provide either urn, id, sharedGalleryImageID or communityGalleryImageID"))
	}
	if img.URN != nil {
		if *img.URN == "" {
			ps = append(ps, extcommon.Required(RuleImageID, at.Child("urn").Path(), "urn cannot be empty when defined"))
		} else if len(strings.Split(*img.URN, ":")) != 4 {
			ps = append(ps, extcommon.Invalid(RuleImageID, at.Child("urn").Path(), *img.URN, "please use the format `Publisher:Offer:Sku:Version` for the urn"))
		}
	}
	if img.ID != nil && *img.ID == "" {
		ps = append(ps, extcommon.Required(RuleImageID, at.Child("id").Path(), "id cannot be empty when defined"))
	}
	if id := img.CommunityGalleryImageID; id != nil {
		parts := strings.Split(*id, "/")
		switch {
		case *id == "":
			ps = append(ps, extcommon.Required(RuleImageID, at.Child("communityGalleryImageID").Path(), "communityGalleryImageID cannot be empty when defined"))
		case len(parts) != 7:
			ps = append(ps, extcommon.Invalid(RuleImageID, at.Child("communityGalleryImageID").Path(), *id, "please use the format `/CommunityGalleries/<gallery id>/Images/<image id>/versions/<version id>` for the communityGalleryImageID"))
		case !strings.EqualFold(parts[1], "CommunityGalleries"):
			ps = append(ps, extcommon.Invalid(RuleImageID, at.Child("communityGalleryImageID").Path(), *id, "communityGalleryImageID must start with '/CommunityGalleries/' prefix"))
		}
	}
	if id := img.SharedGalleryImageID; id != nil {
		parts := strings.Split(*id, "/")
		switch {
		case *id == "":
			ps = append(ps, extcommon.Required(RuleImageID, at.Child("sharedGalleryImageID").Path(), "SharedGalleryImageID cannot be empty when defined"))
		case len(parts) != 7:
			ps = append(ps, extcommon.Invalid(RuleImageID, at.Child("sharedGalleryImageID").Path(), *id, "please use the format `/SharedGalleries/<sharedGalleryName>/Images/<sharedGalleryImageName>/Versions/<sharedGalleryImageVersionName>` for the SharedGalleryImageID"))
		case !strings.EqualFold(parts[1], "SharedGalleries"):
			ps = append(ps, extcommon.Invalid(RuleImageID, at.Child("sharedGalleryImageID").Path(), *id, "SharedGalleryImageID must start with '/SharedGalleries/' prefix"))
		}
	}
	return ps
}

// validateImageMappings is the extension's validateProviderImagesMapping. Unlike the other
// extensions it also requires a mapping for images without versions.
func validateImageMappings(images []gardencorev1beta1.MachineImage, cfg *CloudProfileConfig, defs []gardencorev1beta1.CapabilityDefinition) cloudprofile.Problems {
	var ps cloudprofile.Problems
	provider := providerImages(cfg)
	byArch := providerImagesByArchitecture(cfg)
	for i, img := range images {
		ip := extcommon.MachineImagesPath().Index(i)
		pimg, ok := provider.Image(img.Name)
		if !ok {
			ps = append(ps, extcommon.Required(RuleImageMappingMissing, ip, fmt.Sprintf("must provide a provider image mapping for image %q", img.Name)))
			continue
		}
		for j, v := range img.Versions {
			vp := ip.Child("versions").Index(j)
			if len(defs) == 0 {
				for _, arch := range v.Architectures {
					if !slices.Contains(extcommon.ValidArchitectures, arch) {
						ps = append(ps, extcommon.NotSupported(RuleSpecArchitecture, vp.Child("architectures"), arch, extcommon.ValidArchitectures))
					}
					if _, ok := byArch.Version(img.Name, v.Version+"-"+arch); !ok {
						ps = append(ps, extcommon.Required(RuleFlavorMappingMissing, vp, fmt.Sprintf("machine image version %s@%s and architecture: %s is not defined in the providerConfig", img.Name, v.Version, arch)))
					}
				}
				continue
			}
			pvs := versionsNamed(pimg, v.Version)
			if len(pvs) == 0 {
				ps = append(ps, extcommon.Required(RuleVersionMappingMissing, vp, fmt.Sprintf("machine image version %s@%s is not defined in the providerConfig", img.Name, v.Version)))
				continue
			}
			flavors := extcommon.ImageFlavorsWithDefaults(v.CapabilityFlavors, defs)
			var missing []int
			if fv := firstFlavored(pvs); fv != nil {
				missing = missingFlavors(flavors, fv.CapabilityFlavors, defs)
			} else {
				missing = missingArchitectures(flavors, architectures(pvs))
			}
			for _, k := range missing {
				ps = append(ps, extcommon.Required(RuleFlavorMappingMissing, vp.Child("capabilityFlavors").Index(k), fmt.Sprintf("machine image version %s@%s and capabilityFlavor %v is not defined in the providerConfig", img.Name, v.Version, flavors[k].Capabilities)))
			}
		}
	}
	return ps
}
