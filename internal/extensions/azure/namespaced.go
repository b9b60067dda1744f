package azure

import (
	"fmt"
	"slices"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// ValidateNamespacedCloudProfile checks a NamespacedCloudProfile spec whose parent is of type
// azure as the extension's NamespacedCloudProfile admission webhook does
// (pkg/admission/validator/namespacedcloudprofile.go). parent is the spec of the parent
// CloudProfile. A providerConfig is optional and may not set cloudConfiguration or domain counts;
// the image versions and machine types it maps must be new (not in the parent) and listed in
// spec.machineImages and spec.machineTypes. Without capability definitions a new version of an
// image that the parent already has needs no mapping (the extension checks the image name only);
// under capability definitions every version not in the parent needs one. A NamespacedCloudProfile
// that only sets an expiration date on an inherited version passes.
// Before, the spec passes defaulting and the extension's mutating webhook
// (MutateNamespacedCloudProfile, whose decoding failure rejects the object first).
// name is metadata.name, which the decoding failures quote as the webhooks do.
func ValidateNamespacedCloudProfile(name string, spec gardencorev1beta1.NamespacedCloudProfileSpec, parent gardencorev1beta1.CloudProfileSpec) cloudprofile.Problems {
	spec = extcommon.DefaultedNamespacedSpec(spec)
	parent = extcommon.DefaultedSpec(parent)
	if spec.ProviderConfig != nil {
		if _, err := decodeForMutation(extcommon.ConfigBytes(spec.ProviderConfig)); err != nil {
			return cloudprofile.Problems{extcommon.Failure(RuleProviderConfigDecode, extcommon.ProviderConfigPath(), fmt.Sprintf("could not decode providerConfig of namespacedCloudProfile spec: %v", err))}
		}
	}
	return validateNamespaced(name, MutateNamespacedCloudProfile(spec, parent), parent)
}

// validateNamespaced is the validating webhook alone, given the spec it receives and the parent
// as stored.
func validateNamespaced(name string, spec gardencorev1beta1.NamespacedCloudProfileSpec, parent gardencorev1beta1.CloudProfileSpec) cloudprofile.Problems {
	cfg := &CloudProfileConfig{}
	if spec.ProviderConfig != nil {
		var err error
		if cfg, err = decodeConfig(extcommon.ConfigBytes(spec.ProviderConfig)); err != nil {
			return cloudprofile.Problems{extcommon.Failure(RuleProviderConfigDecode, extcommon.ProviderConfigPath(), fmt.Sprintf("could not decode providerConfig of NamespacedCloudProfile for '%s': %v", name, err))}
		}
	}
	if spec.Parent.Kind != "CloudProfile" {
		return cloudprofile.Problems{extcommon.Failure(RuleParentKind, extcommon.SpecPath().Child("parent").Child("kind"), fmt.Sprintf("parent reference must be of kind CloudProfile (unsupported kind: %s)", spec.Parent.Kind))}
	}
	defs := parent.MachineCapabilities

	var ps cloudprofile.Problems
	if cfg.CloudConfiguration != nil {
		ps = append(ps, extcommon.Forbidden(RuleNamespacedForbiddenFields, extcommon.Config("cloudConfiguration").Path(), "cloud configuration is not allowed in a NamespacedCloudProfile providerConfig"))
	}
	if len(cfg.CountUpdateDomains) > 0 {
		ps = append(ps, extcommon.Forbidden(RuleNamespacedForbiddenFields, extcommon.Config("countUpdateDomains").Path(), "count update domains is not allowed in a NamespacedCloudProfile providerConfig"))
	}
	if len(cfg.CountFaultDomains) > 0 {
		ps = append(ps, extcommon.Forbidden(RuleNamespacedForbiddenFields, extcommon.Config("countFaultDomains").Path(), "count fault domains is not allowed in a NamespacedCloudProfile providerConfig"))
	}

	imagesPath := extcommon.Config("machineImages")
	defined := extcommon.DefineCapabilities(defs)
	for i, img := range cfg.MachineImages {
		ps = append(ps, validateProviderImage(img, defs, defined, imagesPath.Index(i))...)
	}

	profile := specImages(spec.MachineImages)
	parentImages := specImages(parent.MachineImages)
	provider := providerImages(cfg)
	byArch := providerImagesByArchitecture(cfg)
	lastImage := map[string]MachineImages{}
	for _, img := range cfg.MachineImages {
		lastImage[img.Name] = img
	}
	notDefined := "machine image version %s@%s and capabilityFlavor %v is not defined in the NamespacedCloudProfile providerConfig"

	for _, img := range profile.Sorted() {
		_, inParent := parentImages.Image(img.Name)
		if _, inProvider := provider.Image(img.Name); !inParent && !inProvider {
			ps = append(ps, extcommon.Required(RuleNamespacedMappingMissing, imagesPath.Path(), fmt.Sprintf("machine image %s is not defined in the NamespacedCloudProfile providerConfig", img.Name)))
			continue
		}
		for _, v := range img.Versions {
			if len(defs) == 0 {
				for _, arch := range v.Architectures {
					if _, ok := byArch.Version(img.Name, v.Version+"-"+arch); !inParent && !ok {
						ps = append(ps, extcommon.Required(RuleNamespacedFlavors, imagesPath.Path(), fmt.Sprintf("machine image version %s@%s and architecture: %q is not defined in the NamespacedCloudProfile providerConfig", img.Name, v.Version, arch)))
					}
				}
				continue
			}
			pvs := versionsNamed(lastImage[img.Name], v.Version)
			if len(pvs) == 0 {
				if _, ok := parentImages.Version(img.Name, v.Version); ok {
					continue // inherited; only metadata such as the expiration date may change
				}
				ps = append(ps, extcommon.Required(RuleNamespacedMappingMissing, imagesPath.Path(), fmt.Sprintf("machine image version %s@%s is not defined in the NamespacedCloudProfile providerConfig", img.Name, v.Version)))
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
				ps = append(ps, extcommon.Required(RuleNamespacedFlavors, imagesPath.Path(), fmt.Sprintf(notDefined, img.Name, v.Version, flavors[k].Capabilities)))
			}
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
			sv, ok := profile.Version(img.Name, v.Version)
			if !ok {
				ps = append(ps, extcommon.Invalid(RuleNamespacedMappingUnused, imagesPath.Index(i).Child("versions").Index(j).Path(), img.Name+"@"+v.Version, "machine image version is not defined in the NamespacedCloudProfile"))
				continue
			}
			if len(defs) == 0 {
				if arch := archOf(v); !slices.Contains(sv.Architectures, arch) {
					ps = append(ps, extcommon.Forbidden(RuleNamespacedFlavors, imagesPath.Path(), fmt.Sprintf("machine image version %s@%s has an excess entry for architecture %q, which is not defined in the machineImages spec", img.Name, v.Version, arch)))
				}
				continue
			}
			flavors := extcommon.ImageFlavorsWithDefaults(sv.CapabilityFlavors, defs)
			if firstFlavored(versionsNamed(lastImage[img.Name], v.Version)) != nil {
				pv, _ := provider.Version(img.Name, v.Version)
				for _, pf := range pv.CapabilityFlavors {
					caps := gardencorev1beta1.GetCapabilitiesWithAppliedDefaults(pf.Capabilities, defs)
					if !slices.ContainsFunc(flavors, func(f gardencorev1beta1.MachineImageFlavor) bool {
						return extcommon.CapabilitiesEqual(f.Capabilities, caps)
					}) {
						ps = append(ps, extcommon.Forbidden(RuleNamespacedFlavors, imagesPath.Path(), fmt.Sprintf("machine image version %s@%s has an excess capabilityFlavor %v, which is not defined in the machineImages spec", img.Name, v.Version, pf.Capabilities)))
					}
				}
			} else if !v.empty() && len(v.CapabilityFlavors) == 0 {
				arch := archOf(v)
				if !slices.ContainsFunc(flavors, func(f gardencorev1beta1.MachineImageFlavor) bool {
					return slices.Contains(f.Capabilities[extcommon.ArchitectureName], arch)
				}) {
					ps = append(ps, extcommon.Forbidden(RuleNamespacedFlavors, imagesPath.Path(), fmt.Sprintf("machine image version %s@%s has an excess architecture %q, which is not defined in the machineImages spec", img.Name, v.Version, arch)))
				}
			}
		}
	}

	ps = append(ps, validateMachineTypes(cfg, spec.MachineTypes, parent.MachineTypes)...)
	return ps
}

// validateMachineTypes is the extension's validateMachineTypes: every machine type in the
// providerConfig must be new and listed in spec.machineTypes.
func validateMachineTypes(cfg *CloudProfileConfig, types, parentTypes []gardencorev1beta1.MachineType) cloudprofile.Problems {
	var ps cloudprofile.Problems
	inParent, inSpec := machineTypeNames(parentTypes), machineTypeNames(types)
	for i, t := range cfg.MachineTypes {
		at := extcommon.Config("machineTypes").Index(i).Path()
		if _, ok := inParent[t.Name]; ok {
			ps = append(ps, extcommon.Forbidden(RuleNamespacedMachineTypes, at, fmt.Sprintf("machine type %s is already defined in the parent CloudProfile", t.Name)))
		}
		if _, ok := inSpec[t.Name]; !ok {
			ps = append(ps, extcommon.Required(RuleNamespacedMachineTypes, at, fmt.Sprintf("machine type %s is not defined in the NamespacedCloudProfile .spec.machineTypes", t.Name)))
		}
	}
	return ps
}

// machineTypeNames is the set of the names of types.
func machineTypeNames(types []gardencorev1beta1.MachineType) map[string]struct{} {
	names := make(map[string]struct{}, len(types))
	for _, t := range types {
		names[t.Name] = struct{}{}
	}
	return names
}

func specImages(images []gardencorev1beta1.MachineImage) extcommon.Images[gardencorev1beta1.MachineImage, gardencorev1beta1.MachineImageVersion] {
	return extcommon.NewImages(images,
		func(i gardencorev1beta1.MachineImage) string { return i.Name },
		func(i gardencorev1beta1.MachineImage) []gardencorev1beta1.MachineImageVersion { return i.Versions },
		func(v gardencorev1beta1.MachineImageVersion) string { return v.Version })
}
