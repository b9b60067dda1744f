package alicloud

import (
	"fmt"
	"slices"
	"sort"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// ValidateNamespacedCloudProfile checks a NamespacedCloudProfile spec whose parent is of type alicloud
// as the extension's NamespacedCloudProfile admission webhook does
// (pkg/admission/validator/namespacedcloudprofile.go). parent is the spec of the parent
// CloudProfile. A providerConfig is optional; the versions it maps must be new (not in the parent)
// and listed in spec.machineImages, and every new version in spec.machineImages needs a mapping.
// Versions inherited from the parent need none, so a NamespacedCloudProfile that only sets an
// expiration date passes.
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

	var ps cloudprofile.Problems
	imagesPath := extcommon.Config("machineImages")
	defined := extcommon.DefineCapabilities(parent.MachineCapabilities)
	for i, img := range cfg.MachineImages {
		ps = append(ps, validateProviderImage(img, parent.MachineCapabilities, defined, imagesPath.Index(i))...)
	}

	profile := specImages(spec.MachineImages)
	parentImages := specImages(parent.MachineImages)
	provider := providerImages(cfg)

	for _, img := range profile.Sorted() {
		_, inParent := parentImages.Image(img.Name)
		if _, inProvider := provider.Image(img.Name); !inParent && !inProvider {
			ps = append(ps, extcommon.Required(RuleNamespacedMappingMissing, imagesPath.Path(), fmt.Sprintf("machine image %s is not defined in the NamespacedCloudProfile providerConfig", img.Name)))
			continue
		}
		for _, v := range img.Versions {
			_, inParent := parentImages.Version(img.Name, v.Version)
			pv, inProvider := provider.Version(img.Name, v.Version)
			if !inParent && !inProvider {
				ps = append(ps, extcommon.Required(RuleNamespacedMappingMissing, imagesPath.Path(), fmt.Sprintf("machine image version %s@%s is not defined in the NamespacedCloudProfile providerConfig", img.Name, v.Version)))
				continue
			}
			if inParent && !inProvider {
				continue // an override of an inherited version, such as its expiration date
			}
			// Without capability definitions the extension checks no architectures.
			if len(parent.MachineCapabilities) > 0 {
				ps = append(ps, namespacedCapabilities(img.Name, v, pv, parent.MachineCapabilities, imagesPath)...)
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
			if _, ok := profile.Version(img.Name, v.Version); !ok {
				ps = append(ps, extcommon.Invalid(RuleNamespacedMappingUnused, imagesPath.Index(i).Child("versions").Index(j).Path(), img.Name+"@"+v.Version, "machine image version is not defined in the NamespacedCloudProfile"))
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

// namespacedCapabilities is the extension's validateMachineImageCapabilities with
// validateCapabilityFlavorsFormat and validateRegionsFormatWithCapabilities.
func namespacedCapabilities(name string, v gardencorev1beta1.MachineImageVersion, pv MachineImageVersion, defs []gardencorev1beta1.CapabilityDefinition, at extcommon.ConfigPath) cloudprofile.Problems {
	var ps cloudprofile.Problems
	flavors := extcommon.ImageFlavorsWithDefaults(v.CapabilityFlavors, defs)
	missing := func(f gardencorev1beta1.MachineImageFlavor) cloudprofile.Problem {
		return extcommon.Required(RuleNamespacedFlavors, at.Path(), fmt.Sprintf("machine image version %s@%s has a capabilityFlavor %v not defined in the NamespacedCloudProfile providerConfig", name, v.Version, f.Capabilities))
	}
	switch {
	case len(pv.CapabilityFlavors) > 0:
		byRegion := map[string][]gardencorev1beta1.Capabilities{}
		for _, pf := range pv.CapabilityFlavors {
			found := false
			for _, f := range flavors {
				if extcommon.CapabilitiesEqual(f.Capabilities, gardencorev1beta1.GetCapabilitiesWithAppliedDefaults(pf.Capabilities, defs)) {
					found = true
				}
			}
			if !found {
				ps = append(ps, extcommon.Forbidden(RuleNamespacedFlavors, at.Path(), fmt.Sprintf("machine image version %s@%s has an excess capabilityFlavor %v, which is not defined in the machineImages spec", name, v.Version, pf.Capabilities)))
			}
			for _, r := range pf.Regions {
				byRegion[r.Name] = append(byRegion[r.Name], pf.Capabilities)
			}
		}
		regions := sortedKeys(byRegion)
		for _, f := range flavors {
			found := false
			for _, pf := range pv.CapabilityFlavors {
				if extcommon.CapabilitiesEqual(f.Capabilities, gardencorev1beta1.GetCapabilitiesWithAppliedDefaults(pf.Capabilities, defs)) {
					found = true
				}
			}
			if !found {
				ps = append(ps, missing(f))
				continue
			}
			for _, region := range regions {
				found := false
				for _, c := range byRegion[region] {
					if extcommon.CapabilitiesEqual(gardencorev1beta1.GetCapabilitiesWithAppliedDefaults(c, defs), f.Capabilities) {
						found = true
					}
				}
				if !found {
					ps = append(ps, extcommon.Required(RuleNamespacedFlavors, at.Path(), fmt.Sprintf("machine image version %s@%s is missing region %q in capabilityFlavor %v in the NamespacedCloudProfile providerConfig", name, v.Version, region, f.Capabilities)))
				}
			}
		}
	case len(pv.Regions) > 0:
		// The regions format maps amd64 only.
		if !slices.ContainsFunc(flavors, func(f gardencorev1beta1.MachineImageFlavor) bool {
			return slices.Contains(f.Capabilities[extcommon.ArchitectureName], amd64)
		}) {
			ps = append(ps, extcommon.Forbidden(RuleNamespacedFlavors, at.Path(), fmt.Sprintf("machine image version %s@%s has an excess architecture %q, which is not defined in the machineImages spec", name, v.Version, amd64)))
		}
		for _, f := range flavors {
			for _, arch := range f.Capabilities[extcommon.ArchitectureName] {
				if arch != amd64 {
					ps = append(ps, missing(f))
				}
			}
		}
	default:
		for _, f := range flavors {
			ps = append(ps, missing(f))
		}
	}
	return ps
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
