package openstack

import (
	"fmt"
	"slices"
	"sort"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// ValidateCloudProfile checks a CloudProfile spec of type openstack as the extension's
// CloudProfile admission webhook does (pkg/admission/validator/cloudprofile.go, then
// pkg/apis/openstack/validation/cloudprofile.go ValidateCloudProfileConfig). spec is taken as the user wrote it and passes what gardener-apiserver does before it calls the
// webhook: defaulting, the extension's mutating webhook (MutateCloudProfile, whose decoding
// failure rejects the object first) and canonicalization.
// name is metadata.name, which the decoding failures quote as the webhooks do.
func ValidateCloudProfile(name string, spec gardencorev1beta1.CloudProfileSpec) cloudprofile.Problems {
	spec = extcommon.Defaulted(spec)
	if spec.ProviderConfig != nil && len(spec.MachineCapabilities) > 0 {
		if _, err := decodeForMutation(extcommon.ConfigBytes(spec.ProviderConfig)); err != nil {
			return cloudprofile.Problems{extcommon.Failure(RuleProviderConfigDecode, extcommon.ProviderConfigPath(), fmt.Sprintf("could not decode providerConfig of cloudProfile for '%s': %v", name, err))}
		}
	}
	return validateCloudProfile(extcommon.Canonicalized(MutateCloudProfile(spec)))
}

// validateCloudProfile is the validating webhook alone, given the spec it receives.
func validateCloudProfile(spec gardencorev1beta1.CloudProfileSpec) cloudprofile.Problems {
	if spec.ProviderConfig == nil {
		return cloudprofile.Problems{extcommon.Required(RuleProviderConfigRequired, extcommon.ProviderConfigPath(), "providerConfig must be set for OpenStack cloud profiles")}
	}
	cfg, err := decodeConfig(extcommon.ConfigBytes(spec.ProviderConfig))
	if err != nil {
		return cloudprofile.Problems{extcommon.Failure(RuleProviderConfigDecode, extcommon.ProviderConfigPath(), err.Error())}
	}
	defs := spec.MachineCapabilities
	root := extcommon.Config()
	ps := validateConstraints(cfg.Constraints, root)
	imagesPath := root.Child("machineImages")
	if len(cfg.MachineImages) == 0 {
		ps = append(ps, extcommon.Required(RuleConfigImagesRequired, imagesPath.Path(), "must provide at least one machine image"))
	}
	defined := extcommon.DefineCapabilities(defs)
	for i, img := range cfg.MachineImages {
		ps = append(ps, validateProviderImage(img, defs, defined, imagesPath.Index(i))...)
	}
	ps = append(ps, validateImageMappings(spec.MachineImages, cfg, defs)...)
	ps = append(ps, validateEndpoints(cfg, root)...)
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
		if len(defs) > 0 {
			switch {
			case hasRegions && hasFlavors:
				ps = append(ps, extcommon.Forbidden(RuleConfigFormat, vp.Path(), "must not set both regions and capabilityFlavors on the same version"))
			case hasFlavors:
				for k, f := range v.CapabilityFlavors {
					fp := vp.Child("capabilityFlavors").Index(k)
					ps = append(ps, extcommon.ValidateCapabilities(RuleConfigFlavorCapabilities, f.Capabilities, defined, fp.Child("capabilities"))...)
					ps = append(ps, validateRegions(f.Regions, true, fp)...)
				}
			case hasRegions:
				ps = append(ps, validateRegions(v.Regions, false, vp)...)
			}
			continue
		}
		ps = append(ps, validateRegions(v.Regions, false, vp)...)
		if hasFlavors {
			ps = append(ps, extcommon.Forbidden(RuleConfigFormat, vp.Child("capabilityFlavors").Path(), "must not be set as CloudProfile does not define capabilities. Use regions instead."))
		}
	}
	return ps
}

func validateRegions(regions []RegionIDMapping, inFlavor bool, at extcommon.ConfigPath) cloudprofile.Problems {
	var ps cloudprofile.Problems
	for k, r := range regions {
		rp := at.Child("regions").Index(k)
		if r.Name == "" {
			ps = append(ps, extcommon.Required(RuleConfigRegions, rp.Child("name").Path(), "must provide a name"))
		}
		if r.ID == "" {
			ps = append(ps, extcommon.Required(RuleConfigRegions, rp.Child("id").Path(), "must provide an image ID"))
		}
		if !inFlavor {
			if arch := archOf(r); !slices.Contains(extcommon.ValidArchitectures, arch) {
				ps = append(ps, extcommon.NotSupported(RuleConfigRegionArchitecture, rp.Child("architecture").Path(), arch, extcommon.ValidArchitectures))
			}
		} else if r.Architecture != nil {
			ps = append(ps, extcommon.Forbidden(RuleConfigRegionArchitecture, rp.Child("architecture").Path(), "must be defined in .capabilities.architecture"))
		}
	}
	return ps
}

// regionArchitectures returns the architectures of a version's regions, sorted.
func regionArchitectures(regions []RegionIDMapping) []string {
	var out []string
	for _, r := range regions {
		if a := archOf(r); !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	sort.Strings(out)
	return out
}

// validateImageMappings is the extension's validateMachineImageMapping.
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
				if !slices.Contains(extcommon.ValidArchitectures, arch) {
					ps = append(ps, extcommon.NotSupported(RuleSpecArchitecture, vp.Child("architectures"), arch, extcommon.ValidArchitectures))
				}
				if !ok {
					ps = append(ps, extcommon.Required(RuleVersionMappingMissing, vp, fmt.Sprintf("machine image version %s@%s is not defined in the providerConfig", img.Name, v.Version)))
					continue
				}
				// Regions are optional: a version without regions maps every architecture.
				if len(pv.Regions) > 0 && !slices.Contains(regionArchitectures(pv.Regions), arch) {
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
		available := regionArchitectures(pv.Regions)
		for k, f := range flavors {
			archs := f.Capabilities[extcommon.ArchitectureName]
			if len(archs) == 0 {
				continue
			}
			if !slices.Contains(available, archs[0]) {
				ps = append(ps, extcommon.Required(RuleFlavorMappingMissing, vp.Child("capabilityFlavors").Index(k), fmt.Sprintf("missing providerConfig mapping for machine image version %s@%s and architecture %s", name, v.Version, archs[0])))
			}
		}
	default:
		for k, f := range flavors {
			ps = append(ps, extcommon.Required(RuleFlavorMappingMissing, vp.Child("capabilityFlavors").Index(k), fmt.Sprintf("missing providerConfig mapping for machine image version %s@%s and capabilitySet %v", name, v.Version, f.Capabilities)))
		}
	}
	return ps
}
