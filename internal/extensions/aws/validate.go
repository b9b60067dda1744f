package aws

import (
	"fmt"
	"slices"
	"sort"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// ValidateCloudProfile checks a CloudProfile spec of type aws as the extension's CloudProfile
// admission webhook does (pkg/admission/validator/cloudprofile.go, then
// pkg/apis/aws/validation/cloudprofile.go ValidateCloudProfileConfig). spec is taken as the user
// wrote it and passes what gardener-apiserver does before it calls the webhook: defaulting, the
// extension's mutating webhook (MutateCloudProfile, whose decoding failure rejects the object
// first) and canonicalization.
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
		return cloudprofile.Problems{extcommon.Required(RuleProviderConfigRequired, extcommon.ProviderConfigPath(), "providerConfig must be set for AWS cloud profiles")}
	}
	cfg, err := decodeConfig(extcommon.ConfigBytes(spec.ProviderConfig))
	if err != nil {
		return cloudprofile.Problems{extcommon.Failure(RuleProviderConfigDecode, extcommon.ProviderConfigPath(), fmt.Sprintf("could not decode providerConfig of CloudProfile %q: %v", name, err))}
	}
	defs := spec.MachineCapabilities
	var ps cloudprofile.Problems
	imagesPath := extcommon.Config("machineImages")
	if len(cfg.MachineImages) == 0 {
		ps = append(ps, extcommon.Required(RuleConfigImagesRequired, imagesPath.Path(), "must provide at least one machine image"))
	} else {
		defined := extcommon.DefineCapabilities(defs)
		for i, img := range cfg.MachineImages {
			ps = append(ps, validateProviderImage(img, defs, defined, imagesPath.Index(i))...)
		}
	}
	ps = append(ps, validateImageMappings(spec.MachineImages, cfg, defs)...)
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
		hasRegions, hasFlavors := len(v.Regions) > 0, len(v.CapabilityFlavors) > 0
		switch {
		case len(defs) > 0 && hasRegions && hasFlavors:
			ps = append(ps, extcommon.Forbidden(RuleConfigFormat, vp.Child("regions").Path(), "must not be set together with capabilityFlavors. Use one format per version."))
		case len(defs) > 0 && hasFlavors:
			for k, f := range v.CapabilityFlavors {
				fp := vp.Child("capabilityFlavors").Index(k)
				ps = append(ps, extcommon.ValidateCapabilities(RuleConfigFlavorCapabilities, f.Capabilities, defined, fp.Child("capabilities"))...)
				ps = append(ps, validateRegions(f.Regions, img.Name, v.Version, true, fp)...)
			}
		default:
			ps = append(ps, validateRegions(v.Regions, img.Name, v.Version, false, vp)...)
			if len(defs) == 0 && hasFlavors {
				ps = append(ps, extcommon.Forbidden(RuleConfigFormat, vp.Child("capabilityFlavors").Path(), "must not be set as CloudProfile does not define capabilities. Use regions instead."))
			}
		}
	}
	return ps
}

func validateRegions(regions []RegionAMIMapping, name, version string, inFlavor bool, at extcommon.ConfigPath) cloudprofile.Problems {
	if len(regions) == 0 {
		return cloudprofile.Problems{extcommon.Required(RuleConfigRegions, at.Child("regions").Path(), fmt.Sprintf("must provide at least one region for machine image %q and version %q", name, version))}
	}
	var ps cloudprofile.Problems
	for k, r := range regions {
		rp := at.Child("regions").Index(k)
		if r.Name == "" {
			ps = append(ps, extcommon.Required(RuleConfigRegions, rp.Child("name").Path(), "must provide a name"))
		}
		if r.AMI == "" {
			ps = append(ps, extcommon.Required(RuleConfigRegions, rp.Child("ami").Path(), "must provide an ami"))
		}
		if inFlavor {
			if r.Architecture != nil {
				ps = append(ps, extcommon.Forbidden(RuleConfigRegionArchitecture, rp.Child("architecture").Path(), "must not be set in capability flavor regions as architecture is defined via capabilities"))
			}
		} else if arch := archOf(r); !slices.Contains(extcommon.ValidArchitectures, arch) {
			ps = append(ps, extcommon.NotSupported(RuleConfigRegionArchitecture, rp.Child("architecture").Path(), arch, extcommon.ValidArchitectures))
		}
	}
	return ps
}

func providerImages(cfg *CloudProfileConfig) extcommon.Images[MachineImages, MachineImageVersion] {
	return extcommon.NewImages(cfg.MachineImages,
		func(i MachineImages) string { return i.Name },
		func(i MachineImages) []MachineImageVersion { return i.Versions },
		func(v MachineImageVersion) string { return v.Version })
}

// regionArchitectures returns the architectures of a version's regions, sorted.
func regionArchitectures(v MachineImageVersion) []string {
	var out []string
	for _, r := range v.Regions {
		if a := archOf(r); !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	sort.Strings(out)
	return out
}

// validateImageMappings is the extension's validateMachineImageMapping: every version of every
// spec image needs a providerConfig entry for each of its architectures or capability flavors.
func validateImageMappings(images []gardencorev1beta1.MachineImage, cfg *CloudProfileConfig, defs []gardencorev1beta1.CapabilityDefinition) cloudprofile.Problems {
	var ps cloudprofile.Problems
	provider := providerImages(cfg)
	for i, img := range images {
		if len(img.Versions) == 0 {
			continue
		}
		ip := extcommon.MachineImagesPath().Index(i)
		if _, ok := provider.Image(img.Name); !ok {
			ps = append(ps, extcommon.Required(RuleImageMappingMissing, ip, fmt.Sprintf("must provide an image mapping for image %q in providerConfig", img.Name)))
			continue
		}
		for j, v := range img.Versions {
			vp := ip.Child("versions").Index(j)
			pv, ok := provider.Version(img.Name, v.Version)
			if len(defs) > 0 {
				if !ok {
					ps = append(ps, extcommon.Required(RuleVersionMappingMissing, vp, fmt.Sprintf("machine image version %s@%s is not defined in the providerConfig", img.Name, v.Version)))
					continue
				}
				ps = append(ps, validateFlavorMapping(img.Name, v, vp, defs, pv)...)
				continue
			}
			for _, arch := range v.Architectures {
				if !ok {
					ps = append(ps, extcommon.Required(RuleVersionMappingMissing, vp, fmt.Sprintf("machine image version %s@%s is not defined in the providerConfig", img.Name, v.Version)))
					continue
				}
				if !slices.Contains(extcommon.ValidArchitectures, arch) {
					ps = append(ps, extcommon.NotSupported(RuleSpecArchitecture, vp.Child("architectures"), arch, extcommon.ValidArchitectures))
				}
				if !slices.Contains(regionArchitectures(pv), arch) {
					ps = append(ps, extcommon.Required(RuleFlavorMappingMissing, vp, fmt.Sprintf("missing providerConfig mapping for machine image version %s@%s and architecture: %s", img.Name, v.Version, arch)))
				}
			}
		}
	}
	return ps
}

// validateFlavorMapping is the extension's validateImageFlavorMapping.
func validateFlavorMapping(name string, v gardencorev1beta1.MachineImageVersion, vp cloudprofile.Path, defs []gardencorev1beta1.CapabilityDefinition, pv MachineImageVersion) cloudprofile.Problems {
	var ps cloudprofile.Problems
	flavors := extcommon.ImageFlavorsWithDefaults(v.CapabilityFlavors, defs)
	switch {
	case len(pv.CapabilityFlavors) > 0:
		for k, f := range flavors {
			found := false
			for _, pf := range pv.CapabilityFlavors {
				if extcommon.CapabilitiesEqual(f.Capabilities, gardencorev1beta1.GetCapabilitiesWithAppliedDefaults(pf.Capabilities, defs)) {
					found = true
					break
				}
			}
			if !found {
				ps = append(ps, extcommon.Required(RuleFlavorMappingMissing, vp.Child("capabilityFlavors").Index(k), fmt.Sprintf("missing providerConfig mapping for machine image version %s@%s and capabilitySet %v", name, v.Version, f.Capabilities)))
			}
		}
	case len(pv.Regions) > 0:
		available := regionArchitectures(pv)
		for k, f := range flavors {
			for _, arch := range f.Capabilities[extcommon.ArchitectureName] {
				if !slices.Contains(available, arch) {
					ps = append(ps, extcommon.Required(RuleFlavorMappingMissing, vp.Child("capabilityFlavors").Index(k), fmt.Sprintf("missing providerConfig mapping for machine image version %s@%s and architecture: %s", name, v.Version, arch)))
				}
			}
		}
	default:
		for k, f := range flavors {
			ps = append(ps, extcommon.Required(RuleFlavorMappingMissing, vp.Child("capabilityFlavors").Index(k), fmt.Sprintf("missing providerConfig mapping for machine image version %s@%s and capabilitySet %v", name, v.Version, f.Capabilities)))
		}
	}
	return ps
}
