package gcp

import (
	"fmt"
	"slices"
	"sort"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

func contains(s []string, v string) bool { return slices.Contains(s, v) }

func sortStrings(s []string) { sort.Strings(s) }

// ValidateCloudProfile checks a CloudProfile spec of type gcp as the extension's CloudProfile
// admission webhook does (pkg/admission/validator/cloudprofile.go, then
// pkg/apis/gcp/validation/cloudprofile.go ValidateCloudProfileConfig). spec is taken as the user wrote it and passes what gardener-apiserver does before it calls the
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
	return validateCloudProfile(name, extcommon.Canonicalized(MutateCloudProfile(spec)))
}

// validateCloudProfile is the validating webhook alone, given the spec it receives.
func validateCloudProfile(name string, spec gardencorev1beta1.CloudProfileSpec) cloudprofile.Problems {
	if spec.ProviderConfig == nil {
		return cloudprofile.Problems{extcommon.Required(RuleProviderConfigRequired, extcommon.ProviderConfigPath(), "providerConfig must be set for GCP cloud profiles")}
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
		hasFlavors, hasImage := len(v.CapabilityFlavors) > 0, v.Image != ""
		if len(defs) > 0 {
			switch {
			case hasFlavors && hasImage:
				ps = append(ps, extcommon.Forbidden(RuleConfigFormat, vp.Child("image").Path(), "must not be set together with capabilityFlavors. Use one format per version."))
			case hasFlavors:
				for k, f := range v.CapabilityFlavors {
					fp := vp.Child("capabilityFlavors").Index(k)
					ps = append(ps, extcommon.ValidateCapabilities(RuleConfigFlavorCapabilities, f.Capabilities, defined, fp.Child("capabilities"))...)
					if f.Image == "" {
						ps = append(ps, extcommon.Required(RuleConfigImage, fp.Child("image").Path(), fmt.Sprintf("must provide the image field for image version %s@%s and capabilityFlavor: {%v %s}", img.Name, v.Version, f.Capabilities, f.Image)))
					}
				}
				if v.Architecture != nil && *v.Architecture != "" {
					ps = append(ps, extcommon.Forbidden(RuleConfigFormat, vp.Child("architecture").Path(), "must not set architecture when capabilityFlavors is defined"))
				}
			case hasImage:
				if arch := archOf(v); !slices.Contains(extcommon.ValidArchitectures, arch) {
					ps = append(ps, extcommon.NotSupported(RuleConfigArchitecture, vp.Child("architecture").Path(), arch, extcommon.ValidArchitectures))
				}
			default:
				ps = append(ps, extcommon.Required(RuleConfigFormat, vp.Child("image").Path(), fmt.Sprintf("must provide either image or capabilityFlavors for machine image %s@%s", img.Name, v.Version)))
			}
			continue
		}
		if hasFlavors {
			ps = append(ps, extcommon.Forbidden(RuleConfigFormat, vp.Child("capabilityFlavors").Path(), "capabilityFlavors must not be set when cloudprofile is not using capabilities"))
		}
		arch := archOf(v)
		if v.Image == "" {
			ps = append(ps, extcommon.Required(RuleConfigImage, vp.Child("image").Path(), fmt.Sprintf("must provide the image field for image version %s@%s and architecture: %s", img.Name, v.Version, arch)))
		}
		if !slices.Contains(extcommon.ValidArchitectures, arch) {
			ps = append(ps, extcommon.NotSupported(RuleConfigArchitecture, vp.Child("architecture").Path(), arch, extcommon.ValidArchitectures))
		}
	}
	return ps
}

// validateImageMappings is the extension's validateProviderImagesMapping.
func validateImageMappings(images []gardencorev1beta1.MachineImage, cfg *CloudProfileConfig, defs []gardencorev1beta1.CapabilityDefinition) cloudprofile.Problems {
	var ps cloudprofile.Problems
	provider := providerImages(cfg)
	byArch := providerImagesByArchitecture(cfg)
	for i, img := range images {
		if len(img.Versions) == 0 {
			continue
		}
		ip := extcommon.MachineImagesPath().Index(i)
		pimg, ok := provider.Image(img.Name)
		if !ok {
			ps = append(ps, extcommon.Required(RuleImageMappingMissing, ip, fmt.Sprintf("must provide an image mapping for image %q in providerConfig", img.Name)))
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
			if fv := firstFlavored(pvs); fv != nil {
				for _, k := range missingFlavors(flavors, fv.CapabilityFlavors, defs) {
					ps = append(ps, extcommon.Required(RuleFlavorMappingMissing, vp.Child("capabilityFlavors").Index(k), fmt.Sprintf("machine image version %s@%s and capabilityFlavor %v is not defined in the providerConfig", img.Name, v.Version, flavors[k].Capabilities)))
				}
			} else {
				for _, m := range missingArchitectures(flavors, architectures(pvs)) {
					ps = append(ps, extcommon.Required(RuleFlavorMappingMissing, vp.Child("capabilityFlavors").Index(m), fmt.Sprintf("machine image version %s@%s and capabilityFlavor %v is not defined in the providerConfig", img.Name, v.Version, flavors[m].Capabilities)))
				}
			}
		}
	}
	return ps
}

// missingFlavors returns, by index, the defaulted spec flavors that no provider flavor equals (the
// extension's ValidateMissingCapabilityFlavors).
func missingFlavors(flavors []gardencorev1beta1.MachineImageFlavor, provider []MachineImageFlavor, defs []gardencorev1beta1.CapabilityDefinition) []int {
	var out []int
	for k, f := range flavors {
		found := false
		for _, pf := range provider {
			if extcommon.CapabilitiesEqual(f.Capabilities, gardencorev1beta1.GetCapabilitiesWithAppliedDefaults(pf.Capabilities, defs)) {
				found = true
				break
			}
		}
		if !found {
			out = append(out, k)
		}
	}
	return out
}

// missingArchitectures returns the index of a spec flavor once for each of its architectures that
// is not available (the extension's ValidateMissingArchitectures).
func missingArchitectures(flavors []gardencorev1beta1.MachineImageFlavor, available []string) []int {
	var out []int
	for k, f := range flavors {
		for _, arch := range f.Capabilities[extcommon.ArchitectureName] {
			if !slices.Contains(available, arch) {
				out = append(out, k)
			}
		}
	}
	return out
}

// excessArchitectures returns the available architectures no spec flavor names (the extension's
// ValidateExcessArchitectures).
func excessArchitectures(flavors []gardencorev1beta1.MachineImageFlavor, available []string) []string {
	var out []string
	for _, arch := range available {
		found := false
		for _, f := range flavors {
			if slices.Contains(f.Capabilities[extcommon.ArchitectureName], arch) {
				found = true
				break
			}
		}
		if !found {
			out = append(out, arch)
		}
	}
	return out
}
