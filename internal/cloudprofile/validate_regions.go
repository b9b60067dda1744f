package cloudprofile

import (
	"fmt"
	"slices"

	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Region and bastion rules (J rules), CloudProfile only.

// validateRegions is J-1 (at least one region), J-2 (region names required and unique, no format
// check), J-3 (zone names required and unique within their region) and J-4 (region labels are
// valid Kubernetes labels). Access restrictions are not validated.
func validateRegions(regions []gardencorev1beta1.Region, fld Path) Problems {
	var ps Problems
	if len(regions) == 0 {
		ps = append(ps, required("J-1", fld, "must provide at least one region"))
	}
	names := make(map[string]bool, len(regions))
	for i, region := range regions {
		rp := fld.Index(i)
		namePath := rp.Child("name")
		switch {
		case region.Name == "":
			ps = append(ps, required("J-2", namePath, "must provide a region name"))
		case names[region.Name]:
			ps = append(ps, duplicate("J-2", namePath, region.Name))
		default:
			names[region.Name] = true
		}
		ps = append(ps, validateZones(region.Zones, rp.Child("zones"))...)
		if len(region.Labels) > 0 {
			labels := rp.Child("labels")
			ps = append(ps, fromFieldErrors("J-4", labels, metav1validation.ValidateLabels(region.Labels, labels.field))...)
		}
	}
	return ps
}

// validateZones is J-3.
func validateZones(zones []gardencorev1beta1.AvailabilityZone, fld Path) Problems {
	var ps Problems
	names := make(map[string]bool, len(zones))
	for j, zone := range zones {
		namePath := fld.Index(j).Child("name")
		switch {
		case zone.Name == "":
			ps = append(ps, required("J-3", namePath, "zone name cannot be empty"))
		case names[zone.Name]:
			ps = append(ps, duplicate("J-3", namePath, zone.Name))
		default:
			names[zone.Name] = true
		}
	}
	return ps
}

// validateBastion is J-5: a set bastion names a machine type or a machine image; a named machine
// type must exist; a named image (and version) must exist and offer a version that is supported
// through its legacy classification at opts.Now and supports the machine type's architecture.
func validateBastion(spec *gardencorev1beta1.CloudProfileSpec, fld Path, opts Options) Problems {
	bastion := spec.Bastion
	if bastion == nil {
		return nil
	}
	var ps Problems
	if bastion.MachineType == nil && bastion.MachineImage == nil {
		ps = append(ps, invalid("J-5", fld, bastion, "bastion section needs a machine type or machine image"))
	}

	var arch *string
	if bastion.MachineType != nil {
		var typeProblems Problems
		arch, typeProblems = validateBastionMachineType(bastion.MachineType, spec.MachineTypes, spec.MachineCapabilities, fld.Child("machineType"))
		ps = append(ps, typeProblems...)
	}
	if bastion.MachineImage != nil {
		ps = append(ps, validateBastionImage(bastion.MachineImage, spec.MachineImages, capabilitiesOf(spec.MachineCapabilities), arch, fld.Child("machineImage"), opts)...)
	}
	return ps
}

// validateBastionMachineType returns the architecture of the named machine type (its single
// defaulted architecture capability, else its architecture field, else ""), or nil and a problem
// when no machine type has that name.
func validateBastionMachineType(bastionType *gardencorev1beta1.BastionMachineType, types []gardencorev1beta1.MachineType, defs []gardencorev1beta1.CapabilityDefinition, fld Path) (*string, Problems) {
	i := slices.IndexFunc(types, func(m gardencorev1beta1.MachineType) bool { return m.Name == bastionType.Name })
	if i < 0 {
		return nil, Problems{invalid("J-5", fld.Child("name"), bastionType.Name, "machine type not found in spec.machineTypes")}
	}
	arch := types[i].GetArchitecture(defs)
	return &arch, nil
}

func validateBastionImage(bastionImage *gardencorev1beta1.BastionMachineImage, images []gardencorev1beta1.MachineImage, caps capabilities, arch *string, fld Path, opts Options) Problems {
	namePath := fld.Child("name")
	i := slices.IndexFunc(images, func(image gardencorev1beta1.MachineImage) bool { return image.Name == bastionImage.Name })
	if i < 0 {
		return Problems{invalid("J-5", namePath, bastionImage.Name, "image name not found in spec.machineImages")}
	}
	versions := images[i].Versions

	if bastionImage.Version == nil {
		return checkBastionImageSupport(bastionImage.Name, versions, caps, arch, namePath, opts)
	}
	versionPath := fld.Child("version")
	j := slices.IndexFunc(versions, func(v gardencorev1beta1.MachineImageVersion) bool { return v.Version == *bastionImage.Version })
	if j < 0 {
		return Problems{invalid("J-5", versionPath, bastionImage.Version, "image version not found in spec.machineImages")}
	}
	return checkBastionImageSupport(bastionImage.Name, versions[j:j+1], caps, arch, versionPath, opts)
}

// checkBastionImageSupport requires one version that supports arch (any version when arch is nil)
// and has a legacy classification while being supported at opts.Now. Unclassified and
// lifecycle-only versions never qualify.
func checkBastionImageSupport(name string, versions []gardencorev1beta1.MachineImageVersion, caps capabilities, arch *string, fld Path, opts Options) Problems {
	for _, v := range versions {
		archSupported := arch == nil || supportsArchitecture(v, caps, *arch)
		classified := v.Classification != nil && Classify(v.ExpirableVersion, opts.Now) == gardencorev1beta1.ClassificationSupported
		if archSupported && classified {
			return nil
		}
	}
	shown := "<nil>"
	if arch != nil {
		shown = *arch
	}
	return Problems{invalid("J-5", fld, name, fmt.Sprintf("no image with classification supported and arch %q found", shown))}
}

// supportsArchitecture is Gardener's MachineImageVersion.SupportsArchitecture: without capability
// definitions the architectures field decides; with them any flavor naming the architecture, or
// failing that the CloudProfile's architecture definition.
func supportsArchitecture(v gardencorev1beta1.MachineImageVersion, caps capabilities, arch string) bool {
	if !caps.defined() {
		return slices.Contains(v.Architectures, arch)
	}
	for _, flavor := range v.CapabilityFlavors {
		if slices.Contains(flavor.Capabilities[architectureCapability], arch) {
			return true
		}
	}
	return slices.Contains(caps.architectures(), arch)
}
