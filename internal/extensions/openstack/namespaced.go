package openstack

import (
	"fmt"
	"slices"
	"sort"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// ValidateNamespacedCloudProfile checks a NamespacedCloudProfile spec whose parent is of type openstack
// as the extension's NamespacedCloudProfile admission webhook does
// (pkg/admission/validator/namespacedcloudprofile.go). parent is the spec of the parent
// CloudProfile. A providerConfig is optional and may set nothing but machineImages; the versions it maps must be new (not in the parent)
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

	var ps cloudprofile.Problems
	if !cfg.onlyMachineImages() {
		ps = append(ps, extcommon.Forbidden(RuleNamespacedOnlyImages, extcommon.ProviderConfigPath(), "must only set machineImages"))
	}
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
			if len(parent.MachineCapabilities) == 0 {
				ps = append(ps, namespacedArchitectures(img.Name, v, pv, imagesPath)...)
			} else {
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

// namespacedArchitectures is the extension's validateMachineImageArchitectures: every region
// entry's architecture must be one of the version's, and every region must map every architecture.
// The extension walks the regions in map order; they are sorted here.
func namespacedArchitectures(name string, v gardencorev1beta1.MachineImageVersion, pv MachineImageVersion, at extcommon.ConfigPath) cloudprofile.Problems {
	var ps cloudprofile.Problems
	byRegion := map[string][]string{}
	for _, r := range pv.Regions {
		arch := archOf(r)
		if !slices.Contains(v.Architectures, arch) {
			ps = append(ps, extcommon.Forbidden(RuleNamespacedFlavors, at.Path(), fmt.Sprintf("machine image version %s@%s in region %q has an excess entry for architecture %q, which is not defined in the machineImages spec", name, v.Version, r.Name, arch)))
		}
		byRegion[r.Name] = append(byRegion[r.Name], arch)
	}
	regions := sortedKeys(byRegion)
	for _, arch := range v.Architectures {
		if len(byRegion) == 0 {
			ps = append(ps, extcommon.Required(RuleNamespacedFlavors, at.Path(), fmt.Sprintf("machine image version %s@%s with architecture %q is not defined in the NamespacedCloudProfile providerConfig", name, v.Version, arch)))
		}
		for _, region := range regions {
			if !slices.Contains(byRegion[region], arch) {
				ps = append(ps, extcommon.Required(RuleNamespacedFlavors, at.Path(), fmt.Sprintf("machine image version %s@%s for region %q with architecture %q is not defined in the NamespacedCloudProfile providerConfig", name, v.Version, region, arch)))
			}
		}
	}
	return ps
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
		available := regionArchitectures(pv.Regions)
		for _, arch := range available {
			found := false
			for _, f := range flavors {
				if archs := f.Capabilities[extcommon.ArchitectureName]; len(archs) > 0 && archs[0] == arch {
					found = true
					break
				}
			}
			if !found {
				ps = append(ps, extcommon.Forbidden(RuleNamespacedFlavors, at.Path(), fmt.Sprintf("machine image version %s@%s has an excess architecture %q in regions, which is not defined in the machineImages spec", name, v.Version, arch)))
			}
		}
		for _, f := range flavors {
			if archs := f.Capabilities[extcommon.ArchitectureName]; len(archs) > 0 && !slices.Contains(available, archs[0]) {
				ps = append(ps, missing(f))
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
