package cloudprofile

import (
	"fmt"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
)

// Machine image rules (E and F rules). Entry points, also for the NamespacedCloudProfile rules:
//
//	validateMachineImages(images []gardencorev1beta1.MachineImage, defs []gardencorev1beta1.CapabilityDefinition, fld Path, opts Options) Problems
//	    CloudProfile level: E-1 … E-6 and F-1 … F-10; fld is spec.machineImages.
//	validateLatestMachineImageVersions(images []gardencorev1beta1.MachineImage, fld Path) Problems
//	    E-2; fld is the ".machineImages" path.
//	validateMachineImageBase(image gardencorev1beta1.MachineImage, caps capabilities, seenNames, seenVersionKeys map[string]bool, allowEmptyVersions bool, fld Path) Problems
//	    E-3, E-4, E-5 (unless allowEmptyVersions), E-6 (NotSupported only) and F-1 … F-6 for every
//	    version (Gardener's ValidateMachineImage); fld is ".machineImages[i]".
//	validateMachineImageVersionBase(imageName string, v gardencorev1beta1.MachineImageVersion, caps capabilities, seenVersionKeys map[string]bool, fld Path) Problems
//	    F-1 … F-6 for one version (Gardener's ValidateMachineImageVersion); fld is
//	    ".machineImages[i].versions[j]"; seenVersionKeys is the shared "<image>-<version>" set.
//	validateMachineImageAdditional(image gardencorev1beta1.MachineImage, caps capabilities, fld Path, opts Options) Problems
//	    F-7 … F-10 for every version of one image (Gardener's ValidateMachineImageAdditionalConfig);
//	    fld is ".machineImages[i]".
//
// caps is capabilitiesOf(defs) of the CloudProfile (or of the parent); capabilities{} means none.

// updateStrategies are the valid machine image update strategies, sorted.
var updateStrategies = []gardencorev1beta1.MachineImageUpdateStrategy{
	gardencorev1beta1.UpdateStrategyMajor,
	gardencorev1beta1.UpdateStrategyMinor,
	gardencorev1beta1.UpdateStrategyPatch,
}

// criNames are the supported container runtime interface names.
var criNames = []string{string(gardencorev1beta1.CRINameContainerD)}

// validateMachineImages applies the CloudProfile-level image rules.
func validateMachineImages(images []gardencorev1beta1.MachineImage, defs []gardencorev1beta1.CapabilityDefinition, fld Path, opts Options) Problems {
	caps := capabilitiesOf(defs)
	var ps Problems
	if len(images) == 0 {
		return Problems{required("E-1", fld, "must provide at least one machine image")}
	}
	ps = append(ps, validateLatestMachineImageVersions(images, fld)...)

	seenNames := make(map[string]bool, len(images))
	seenVersionKeys := make(map[string]bool, imageVersionCount(images))
	for i, image := range images {
		ps = append(ps, validateMachineImageBase(image, caps, seenNames, seenVersionKeys, false, fld.Index(i))...)
	}
	for i, image := range images {
		ip := fld.Index(i)
		if image.UpdateStrategy == nil {
			ps = append(ps, required("E-6", ip.Child("updateStrategy"), "must provide an update strategy"))
		}
		ps = append(ps, validateMachineImageAdditional(image, caps, ip, opts)...)
	}
	return ps
}

// validateLatestMachineImageVersions is E-2: the latest version of every image with versions must
// be determinable, i.e. every version must be semver. Only the first failing image is reported,
// at the list itself with an empty map as bad value; the attribute steps point at the failing
// version string.
func validateLatestMachineImageVersions(images []gardencorev1beta1.MachineImage, fld Path) Problems {
	for i, image := range images {
		for j, v := range image.Versions {
			if _, err := parseSemver(v.Version); err != nil {
				p := fld.AttributeOnly(Step{Kind: StepIndex, Index: i}, Step{Kind: StepAttribute, Name: "versions"}, Step{Kind: StepIndex, Index: j}, Step{Kind: StepAttribute, Name: "version"})
				detail := fmt.Sprintf("failed to determine latest machine image version for image '%s': error while parsing expirable version '%s': %s", image.Name, v.Version, err.Error())
				return Problems{invalid("E-2", p, map[string]gardencorev1beta1.MachineImageVersion(nil), detail)}
			}
		}
	}
	return nil
}

// validateMachineImageBase is Gardener's ValidateMachineImage: E-3 (a repeated name, reported at
// the element), E-4 (name required and an unprefixed qualified name), E-5 (at least one version
// unless allowEmptyVersions), E-6 (a set update strategy is patch, minor or major) and the base
// version rules for every version.
func validateMachineImageBase(image gardencorev1beta1.MachineImage, caps capabilities, seenNames, seenVersionKeys map[string]bool, allowEmptyVersions bool, fld Path) Problems {
	var ps Problems
	if seenNames[image.Name] {
		ps = append(ps, duplicate("E-3", fld, image.Name))
	}
	seenNames[image.Name] = true

	if image.Name == "" {
		ps = append(ps, required("E-4", fld.Child("name"), "machine image name must not be empty"))
	} else if errs := validateUnprefixedQualifiedName(image.Name); len(errs) > 0 {
		ps = append(ps, invalid("E-4", fld.Child("name"), image.Name, fmt.Sprintf("machine image name must be a qualified name: %v", errs)))
	}

	if len(image.Versions) == 0 && !allowEmptyVersions {
		ps = append(ps, required("E-5", fld.Child("versions"), fmt.Sprintf("must provide at least one version for the machine image '%s'", image.Name)))
	}

	if image.UpdateStrategy != nil && !isUpdateStrategy(*image.UpdateStrategy) {
		ps = append(ps, notSupported("E-6", fld.Child("updateStrategy"), *image.UpdateStrategy, updateStrategies))
	}

	for j, v := range image.Versions {
		ps = append(ps, validateMachineImageVersionBaseAt(image.Name, v, caps, seenVersionKeys, func() Path { return fld.Child("versions").Index(j) })...)
	}
	return ps
}

// imageVersionCount is the number of versions of all images.
func imageVersionCount(images []gardencorev1beta1.MachineImage) int {
	n := 0
	for _, image := range images {
		n += len(image.Versions)
	}
	return n
}

func isUpdateStrategy(s gardencorev1beta1.MachineImageUpdateStrategy) bool {
	for _, valid := range updateStrategies {
		if s == valid {
			return true
		}
	}
	return false
}

// validateMachineImageVersionBase is Gardener's ValidateMachineImageVersion: F-1 (the key
// "<image>-<version>" is unique across all images), F-2 (version required), F-3 (version is
// semver), F-4 (minVersionForUpdate is semver, reported at Gardener's path
// "minVersionForInPlaceUpdate"), F-6 (architectures and flavors) and F-5 (kubeletVersionConstraint
// is a semver constraint).
func validateMachineImageVersionBase(imageName string, v gardencorev1beta1.MachineImageVersion, caps capabilities, seenVersionKeys map[string]bool, fld Path) Problems {
	return validateMachineImageVersionBaseAt(imageName, v, caps, seenVersionKeys, func() Path { return fld })
}

// validateMachineImageVersionBaseAt is validateMachineImageVersionBase with a path that is only
// built when a problem needs it.
func validateMachineImageVersionBaseAt(imageName string, v gardencorev1beta1.MachineImageVersion, caps capabilities, seenVersionKeys map[string]bool, fld func() Path) Problems {
	var ps Problems

	key := imageName + "-" + v.Version
	seen := len(seenVersionKeys)
	if seenVersionKeys[key] = true; len(seenVersionKeys) == seen {
		ps = append(ps, duplicate("F-1", fld(), key))
	}

	if v.Version == "" {
		ps = append(ps, required("F-2", fld().Child("version"), v.Version))
	}
	if _, err := parseSemver(v.Version); err != nil {
		ps = append(ps, invalid("F-3", fld().Child("version"), v.Version, "could not parse version. Use a semantic version. In case there is no semantic version for this image use the extensibility provider (define mapping in the CloudProfile) to map to the actual non semantic version"))
	}

	if v.InPlaceUpdates != nil && v.InPlaceUpdates.MinVersionForUpdate != nil {
		if _, err := parseSemver(*v.InPlaceUpdates.MinVersionForUpdate); err != nil {
			p := fld().FieldOnly("minVersionForInPlaceUpdate").AttributeOnly(Step{Kind: StepAttribute, Name: "in_place_updates"}, Step{Kind: StepAttribute, Name: "min_version_for_update"})
			ps = append(ps, invalid("F-4", p, *v.InPlaceUpdates.MinVersionForUpdate, "could not parse version. Use a semantic version."))
		}
	}

	ps = append(ps, validateMachineImageVersionFlavors(v, caps, fld)...)

	if v.KubeletVersionConstraint != nil {
		if _, err := ParseConstraint(*v.KubeletVersionConstraint); err != nil {
			ps = append(ps, invalid("F-5", fld().Child("kubeletVersionConstraint"), v.KubeletVersionConstraint, fmt.Sprintf("cannot parse the kubeletVersionConstraint: %s", err.Error())))
		}
	}
	return ps
}

// validateMachineImageAdditional applies the CloudProfile-level version rules to every version of
// one image: F-7 (CRI), F-8 and F-11 (one supported version per minor within the image), and the D rules
// and F-10 (without capability definitions: architectures required, flavors forbidden).
func validateMachineImageAdditional(image gardencorev1beta1.MachineImage, caps capabilities, fld Path, opts Options) Problems {
	if len(image.Versions) == 0 {
		return nil
	}
	var ps Problems
	versions := fld.Child("versions")
	expirable := func(j int) gardencorev1beta1.ExpirableVersion { return image.Versions[j].ExpirableVersion }
	parsed := parseVersionStrings(len(image.Versions), func(j int) string { return image.Versions[j].Version })
	perMinor := validateOneSupportedPerMinor(perMinorRules{"F-8", "F-11"}, len(image.Versions), expirable, parsed, versions, opts)
	var byVersion map[string]Problems
	if len(perMinor) > 0 {
		byVersion = make(map[string]Problems, len(perMinor))
		for _, p := range perMinor {
			byVersion[p.Path.Field()] = append(byVersion[p.Path.Field()], p)
		}
	}

	for j, v := range image.Versions {
		vp := func() Path { return versions.Index(j) }
		ps = append(ps, validateContainerRuntimeInterfaces(v.CRI, vp)...)
		if byVersion != nil {
			ps = append(ps, byVersion[vp().Field()]...)
		}
		ps = append(ps, validateExpirableVersionAt(v.ExpirableVersion, vp, opts)...)
		ps = append(ps, validateLegacyArchitectureFields(v, caps, vp)...)
	}
	return ps
}

// validateLegacyArchitectureFields is F-10: without capability definitions a version needs
// architectures and must not have capability flavors.
func validateLegacyArchitectureFields(v gardencorev1beta1.MachineImageVersion, caps capabilities, fld func() Path) Problems {
	if caps.defined() {
		return nil
	}
	var ps Problems
	if len(v.Architectures) == 0 {
		ps = append(ps, required("F-10", fld().Child("architectures"), "must provide at least one architecture"))
	}
	if len(v.CapabilityFlavors) > 0 {
		ps = append(ps, forbidden("F-10", fld().Child("capabilityFlavors"), "must not provide capabilities without global definition"))
	}
	return ps
}

// validateContainerRuntimeInterfaces is F-7: at least one CRI; names unique and "containerd";
// container runtime types unprefixed qualified names and unique within their CRI.
func validateContainerRuntimeInterfaces(cris []gardencorev1beta1.CRI, fld func() Path) Problems {
	if len(cris) == 0 {
		return Problems{required("F-7", fld().Child("cri"), "must provide at least one supported container runtime")}
	}
	criPath := func(k int) Path { return fld().Child("cri").Index(k) }
	var ps Problems
	for k, cri := range cris {
		for _, earlier := range cris[:k] {
			if earlier.Name == cri.Name {
				ps = append(ps, duplicate("F-7", criPath(k), cri.Name))
				break
			}
		}
		if cri.Name != gardencorev1beta1.CRINameContainerD {
			ps = append(ps, notSupported("F-7", criPath(k).Child("name"), string(cri.Name), criNames))
		}
		if len(cri.ContainerRuntimes) > 0 {
			ps = append(ps, validateContainerRuntimes(cri.ContainerRuntimes, func(l int) Path { return criPath(k).Child("containerRuntimes").Index(l).Child("type") })...)
		}
	}
	return ps
}

// validateContainerRuntimes checks the container runtimes of one CRI; typePath(l) is the path of
// runtime l's type.
func validateContainerRuntimes(runtimes []gardencorev1beta1.ContainerRuntime, typePath func(l int) Path) Problems {
	var ps Problems
	for l, cr := range runtimes {
		if errs := validateUnprefixedQualifiedName(cr.Type); len(errs) > 0 {
			ps = append(ps, invalid("F-7", typePath(l), cr.Type, fmt.Sprintf("container runtime type must be a qualified name: %v", errs)))
		}
		for _, earlier := range runtimes[:l] {
			if earlier.Type == cr.Type {
				ps = append(ps, duplicate("F-7", typePath(l), cr.Type))
				break
			}
		}
	}
	return ps
}
