package gcp

import (
	"fmt"
	"slices"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// ValidateNamespacedCloudProfile checks a NamespacedCloudProfile spec whose parent is of type gcp
// as the extension's NamespacedCloudProfile admission webhook does
// (pkg/admission/validator/namespacedcloudprofile.go). parent is the spec of the parent
// CloudProfile. A providerConfig is optional; the versions it maps must be new (not in the parent)
// and listed in spec.machineImages with the mapped architectures, and every new version in
// spec.machineImages needs a mapping. Versions inherited from the parent need none, so a
// NamespacedCloudProfile that only sets an expiration date passes.
// Before, the spec passes defaulting and the extension's mutating webhook
// (MutateNamespacedCloudProfile, whose decoding failure rejects the object first).
// name is metadata.name, which the decoding failures quote as the webhooks do.
func ValidateNamespacedCloudProfile(name string, spec gardencorev1beta1.NamespacedCloudProfileSpec, parent gardencorev1beta1.CloudProfileSpec) cloudprofile.Problems {
	spec = extcommon.DefaultedNamespacedSpec(spec)
	parent = extcommon.DefaultedSpec(parent)
	if spec.ProviderConfig != nil {
		if _, err := decodeForMutation(extcommon.ConfigBytes(spec.ProviderConfig)); err != nil {
			return cloudprofile.Problems{extcommon.Failure(RuleProviderConfigDecode, extcommon.ProviderConfigPath(), fmt.Sprintf("could not decode providerConfig of namespacedCloudProfile spec for '%s': %v", name, err))}
		}
	}
	return validateNamespaced(MutateNamespacedCloudProfile(spec, parent), parent)
}

// validateNamespaced is the validating webhook alone, given the spec it receives and the parent
// as stored.
func validateNamespaced(spec gardencorev1beta1.NamespacedCloudProfileSpec, parent gardencorev1beta1.CloudProfileSpec) cloudprofile.Problems {
	cfg := &CloudProfileConfig{}
	if spec.ProviderConfig != nil {
		var err error
		if cfg, err = decodeConfig(extcommon.ConfigBytes(spec.ProviderConfig)); err != nil {
			// The extension returns the decoder's error as it is.
			return cloudprofile.Problems{extcommon.Failure(RuleProviderConfigDecode, extcommon.ProviderConfigPath(), err.Error())}
		}
	}
	if spec.Parent.Kind != "CloudProfile" {
		return cloudprofile.Problems{extcommon.Failure(RuleParentKind, extcommon.SpecPath().Child("parent").Child("kind"), fmt.Sprintf("parent reference must be of kind CloudProfile (unsupported kind: %s)", spec.Parent.Kind))}
	}
	defs := parent.MachineCapabilities

	var ps cloudprofile.Problems
	imagesPath := extcommon.Config("machineImages")
	defined := extcommon.DefineCapabilities(defs)
	for i, img := range cfg.MachineImages {
		ps = append(ps, validateProviderImage(img, defs, defined, imagesPath.Index(i))...)
	}

	profile := specImages(spec.MachineImages)
	parentImages := specImages(parent.MachineImages)
	byArch := providerImagesByArchitecture(cfg)
	// The extension groups the versions of the last providerConfig image of each name.
	lastImage := map[string]MachineImages{}
	for _, img := range cfg.MachineImages {
		lastImage[img.Name] = img
	}

	for _, img := range profile.Sorted() {
		_, inParent := parentImages.Image(img.Name)
		if _, inProvider := byArch.Image(img.Name); !inParent && !inProvider {
			ps = append(ps, extcommon.Required(RuleNamespacedMappingMissing, imagesPath.Path(), fmt.Sprintf("machine image %s is not defined in the NamespacedCloudProfile providerConfig", img.Name)))
			continue
		}
		for _, v := range img.Versions {
			if _, ok := parentImages.Version(img.Name, v.Version); ok {
				continue // inherited; only metadata such as the expiration date may change
			}
			if len(defs) == 0 {
				for _, arch := range v.Architectures {
					if _, ok := byArch.Version(img.Name, v.Version+"-"+arch); !ok {
						ps = append(ps, extcommon.Required(RuleNamespacedFlavors, imagesPath.Path(), fmt.Sprintf("machine image version %s@%s and architecture: %q is not defined in the NamespacedCloudProfile providerConfig", img.Name, v.Version, arch)))
					}
				}
				continue
			}
			pimg, ok := lastImage[img.Name]
			pvs := versionsNamed(pimg, v.Version)
			if !ok || len(pvs) == 0 {
				ps = append(ps, extcommon.Required(RuleNamespacedMappingMissing, imagesPath.Path(), fmt.Sprintf("machine image version %s@%s is not defined in the NamespacedCloudProfile providerConfig", img.Name, v.Version)))
				continue
			}
			ps = append(ps, namespacedCapabilities(img.Name, v, pvs, defs, imagesPath)...)
		}
	}

	for i, img := range cfg.MachineImages {
		if _, ok := parentImages.Image(img.Name); ok {
			for j, v := range img.Versions {
				if _, ok := parentImages.Version(img.Name, v.Version); ok {
					ps = append(ps, extcommon.Forbidden(RuleNamespacedVersionInParent, imagesPath.Index(i).Child("versions").Index(j).Path(), fmt.Sprintf("machine image version %s@%s is already defined in the parent CloudProfile", img.Name, v.Version)))
				}
			}
		}
		if _, ok := profile.Image(img.Name); !ok {
			ps = append(ps, extcommon.Required(RuleNamespacedMappingUnused, imagesPath.Index(i).Path(), fmt.Sprintf("machine image %s is not defined in the NamespacedCloudProfile .spec.machineImages", img.Name)))
			continue
		}
		for j, v := range img.Versions {
			sv, exists := profile.Version(img.Name, v.Version)
			if !exists {
				ps = append(ps, extcommon.Invalid(RuleNamespacedMappingUnused, imagesPath.Index(i).Child("versions").Index(j).Path(), img.Name+"@"+v.Version, "machine image version is not defined in the NamespacedCloudProfile"))
			}
			if len(defs) == 0 {
				arch := archOf(v)
				if !exists || !slices.Contains(sv.Architectures, arch) {
					ps = append(ps, extcommon.Forbidden(RuleNamespacedFlavors, imagesPath.Path(), fmt.Sprintf("machine image version %s@%s has an excess entry for architecture %q, which is not defined in the machineImages spec", img.Name, v.Version, arch)))
				}
			} else if exists && v.Image != "" && len(v.CapabilityFlavors) == 0 {
				flavors := extcommon.ImageFlavorsWithDefaults(sv.CapabilityFlavors, defs)
				for _, arch := range excessArchitectures(flavors, []string{archOf(v)}) {
					ps = append(ps, extcommon.Forbidden(RuleNamespacedFlavors, imagesPath.Path(), fmt.Sprintf("machine image version %s@%s has an excess architecture %q, which is not defined in the machineImages spec", img.Name, v.Version, arch)))
				}
			}
		}
	}
	return ps
}

func specImages(images []gardencorev1beta1.MachineImage) extcommon.Images[gardencorev1beta1.MachineImage, gardencorev1beta1.MachineImageVersion] {
	return extcommon.NewImages(images,
		func(i gardencorev1beta1.MachineImage) string { return i.Name },
		func(i gardencorev1beta1.MachineImage) []gardencorev1beta1.MachineImageVersion { return i.Versions },
		func(v gardencorev1beta1.MachineImageVersion) string { return v.Version })
}

// namespacedCapabilities is the extension's validateMachineImageCapabilitiesMixed.
func namespacedCapabilities(name string, v gardencorev1beta1.MachineImageVersion, pvs []MachineImageVersion, defs []gardencorev1beta1.CapabilityDefinition, at extcommon.ConfigPath) cloudprofile.Problems {
	var ps cloudprofile.Problems
	flavors := extcommon.ImageFlavorsWithDefaults(v.CapabilityFlavors, defs)
	if fv := firstFlavored(pvs); fv != nil {
		for _, pf := range fv.CapabilityFlavors {
			if !anyEqual(flavors, gardencorev1beta1.GetCapabilitiesWithAppliedDefaults(pf.Capabilities, defs)) {
				ps = append(ps, extcommon.Forbidden(RuleNamespacedFlavors, at.Path(), fmt.Sprintf("machine image version %s@%s has an excess capabilityFlavor %v, which is not defined in the NamespacedCloudProfile machineImages spec", name, v.Version, pf.Capabilities)))
			}
		}
		for _, k := range missingFlavors(flavors, fv.CapabilityFlavors, defs) {
			ps = append(ps, extcommon.Required(RuleNamespacedFlavors, at.Path(), fmt.Sprintf("machine image version %s@%s and capabilityFlavor %v is not defined in the NamespacedCloudProfile providerConfig", name, v.Version, flavors[k].Capabilities)))
		}
		return ps
	}
	available := architectures(pvs)
	for _, arch := range excessArchitectures(flavors, available) {
		ps = append(ps, extcommon.Forbidden(RuleNamespacedFlavors, at.Path(), fmt.Sprintf("machine image version %s@%s has an excess architecture %q, which is not defined in the machineImages spec", name, v.Version, arch)))
	}
	for _, k := range missingArchitectures(flavors, available) {
		ps = append(ps, extcommon.Required(RuleNamespacedFlavors, at.Path(), fmt.Sprintf("machine image version %s@%s and capabilityFlavor %v is not defined in the NamespacedCloudProfile providerConfig", name, v.Version, flavors[k].Capabilities)))
	}
	return ps
}

func anyEqual(flavors []gardencorev1beta1.MachineImageFlavor, caps gardencorev1beta1.Capabilities) bool {
	for _, f := range flavors {
		if extcommon.CapabilitiesEqual(f.Capabilities, caps) {
			return true
		}
	}
	return false
}
