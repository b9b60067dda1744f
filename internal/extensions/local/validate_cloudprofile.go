package local

import (
	"fmt"
	"slices"
	"sort"
	"strconv"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/extensions/extcommon"
)

// architectureName is the capability that names a machine's CPU architecture.
const architectureName = "architecture"

// providerConfigPath is spec.providerConfig, the Terraform attribute spec.provider_config.
func providerConfigPath() cloudprofile.Path {
	return cloudprofile.NewPath("spec").Child("providerConfig")
}

// inConfig is the path of a field inside spec.providerConfig, given as Gardener renders the rest of
// the path, such as "machineImages[0].versions[1].image". Gardener's field path goes on; the
// Terraform attribute stays spec.provider_config, which holds the configuration as a JSON string.
func inConfig(at string) cloudprofile.Path {
	if at == "" {
		return providerConfigPath()
	}
	return providerConfigPath().FieldOnly(at)
}

// onSpecEntry is p (a field inside spec.providerConfig) on the attribute of the entry of
// spec.machine_images it maps, the image at position image and, if given, its version at position
// version: what lacks a mapping is that entry, which a user fixes by mapping it or by removing it.
func onSpecEntry(p cloudprofile.Path, image int, version ...int) cloudprofile.Path {
	steps := []cloudprofile.Step{
		{Kind: cloudprofile.StepAttribute, Name: "spec"}, {Kind: cloudprofile.StepAttribute, Name: "machine_images"},
		{Kind: cloudprofile.StepIndex, Index: image},
	}
	for _, v := range version {
		steps = append(steps, cloudprofile.Step{Kind: cloudprofile.StepAttribute, Name: "versions"}, cloudprofile.Step{Kind: cloudprofile.StepIndex, Index: v})
	}
	return p.WithAttributeSteps(steps)
}

// sub renders a field below at.
func sub(at, format string, args ...any) string {
	s := fmt.Sprintf(format, args...)
	if at == "" || s[0] == '[' {
		return at + s
	}
	return at + "." + s
}

// ValidateCloudProfile checks spec as provider-local's CloudProfile validator does when a
// CloudProfile of type local is created or updated. spec is the spec the webhook sees, the one
// gardener-apiserver stores (see cloudprofile.StoredCloudProfile); name is metadata.name, which only
// appears in the decoding error. The checks run in the extension's order, and a failing stage ends
// them as it does there: a missing providerConfig (EXT-LOCAL-1), then decoding (EXT-LOCAL-2), then
// the configuration's own entries (EXT-LOCAL-3 … EXT-LOCAL-9), then the mappings of the images of
// spec.machineImages (EXT-LOCAL-10 … EXT-LOCAL-12).
//
// The caller decides whether the extension applies (AppliesTo(spec.Type)).
func ValidateCloudProfile(name string, spec gardencorev1beta1.CloudProfileSpec) cloudprofile.Problems {
	pc := providerConfigPath()
	if spec.ProviderConfig == nil {
		return cloudprofile.Problems{required("EXT-LOCAL-1", pc, "providerConfig must be set for cloud profiles of provider local")}
	}
	cfg, err := DecodeCloudProfileConfig(spec.ProviderConfig.Raw)
	if err != nil {
		return cloudprofile.Problems{decodeProblem(pc, fmt.Sprintf("could not decode providerConfig of CloudProfile %q: %v", name, err))}
	}
	defs := spec.MachineCapabilities
	images := "machineImages"
	if ps := validateConfigImages(cfg.MachineImages, defs, images); len(ps) > 0 {
		return ps
	}
	return validateMappings(spec.MachineImages, cfg.MachineImages, defs, images)
}

// decodeProblem is EXT-LOCAL-2: the extension answers with a plain message that names no field,
// reported as an internal error at spec.providerConfig (extcommon.Failure).
func decodeProblem(pc cloudprofile.Path, detail string) cloudprofile.Problem {
	return extcommon.Failure("EXT-LOCAL-2", pc, detail)
}

// validateConfigImages checks the entries of providerConfig.machineImages on their own.
func validateConfigImages(images []MachineImage, defs []gardencorev1beta1.CapabilityDefinition, p string) cloudprofile.Problems {
	if len(images) == 0 {
		return cloudprofile.Problems{required("EXT-LOCAL-3", inConfig(p), "must provide at least one machine image")}
	}
	var ps cloudprofile.Problems
	for i, mi := range images {
		ip := sub(p, "[%d]", i)
		if mi.Name == "" {
			ps = append(ps, required("EXT-LOCAL-4", inConfig(sub(ip, "name")), "must provide a name"))
		}
		if len(mi.Versions) == 0 {
			ps = append(ps, required("EXT-LOCAL-5", inConfig(sub(ip, "versions")), fmt.Sprintf("must provide at least one version for machine image %q", mi.Name)))
			continue
		}
		for j, v := range mi.Versions {
			ps = append(ps, validateConfigVersion(v, defs, sub(ip, "versions[%d]", j))...)
		}
	}
	return ps
}

// validateConfigVersion checks one version entry, in the format the profile's capabilities demand.
func validateConfigVersion(v MachineImageVersion, defs []gardencorev1beta1.CapabilityDefinition, p string) cloudprofile.Problems {
	var ps cloudprofile.Problems
	if v.Version == "" {
		ps = append(ps, required("EXT-LOCAL-6", inConfig(sub(p, "version")), "must provide a version"))
	}
	if len(defs) == 0 {
		if v.Image == "" {
			ps = append(ps, required("EXT-LOCAL-7", inConfig(sub(p, "image")), "must provide an image"))
		}
		if len(v.CapabilityFlavors) > 0 {
			ps = append(ps, forbidden("EXT-LOCAL-8", inConfig(sub(p, "capabilityFlavors")),
				"must not be set as CloudProfile does not define capabilities. Use the image field directly."))
		}
		return ps
	}
	if v.Image != "" {
		ps = append(ps, forbidden("EXT-LOCAL-8", inConfig(sub(p, "image")),
			"must not be set as CloudProfile defines capabilities. Use capabilityFlavors[].image instead."))
	}
	for k, f := range v.CapabilityFlavors {
		fp := sub(p, "capabilityFlavors[%d]", k)
		if f.Image == "" {
			ps = append(ps, required("EXT-LOCAL-7", inConfig(sub(fp, "image")), "must provide an image"))
		}
		ps = append(ps, validateCapabilities(f.Capabilities, defs, sub(fp, "capabilities"))...)
	}
	return ps
}

// validateCapabilities checks a flavor's capabilities against the profile's definitions
// (EXT-LOCAL-9). Gardener lists the supported names in map order, which varies; here they are
// sorted.
func validateCapabilities(caps gardencorev1beta1.Capabilities, defs []gardencorev1beta1.CapabilityDefinition, p string) cloudprofile.Problems {
	defined := map[string][]string{}
	for _, d := range defs {
		defined[d.Name] = d.Values
	}
	names := make([]string, 0, len(defined))
	for n := range defined {
		names = append(names, n)
	}
	sort.Strings(names)
	keys := make([]string, 0, len(caps))
	for k := range caps {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var ps cloudprofile.Problems
	for _, key := range keys {
		supported, ok := defined[key]
		if !ok {
			ps = append(ps, notSupported("EXT-LOCAL-9", inConfig(p), key, names))
			continue
		}
		for i, value := range caps[key] {
			if !slices.Contains(supported, value) {
				ps = append(ps, notSupported("EXT-LOCAL-9", inConfig(sub(p, "%s[%d]", key, i)), value, supported))
			}
		}
	}
	if archs := caps[architectureName]; len(defined[architectureName]) > 1 && len(archs) != 1 {
		ps = append(ps, cloudprofile.Problem{Rule: "EXT-LOCAL-9", Type: cloudprofile.Invalid, Path: inConfig(sub(p, "%s", architectureName)), BadValue: archs,
			Detail: "must define exactly one architecture when multiple architectures are supported by the cloud profile"})
	}
	return ps
}

// validateMappings checks that every image of spec.machineImages that has versions is mapped; with
// capabilities, also every version and every flavor. Gardener's field paths here use the position
// of the image and version in spec.machineImages, under spec.providerConfig.machineImages.
func validateMappings(specImages []gardencorev1beta1.MachineImage, images []MachineImage, defs []gardencorev1beta1.CapabilityDefinition, p string) cloudprofile.Problems {
	idx := indexImages(images)
	var ps cloudprofile.Problems
	for i, mi := range specImages {
		if len(mi.Versions) == 0 {
			continue
		}
		ip := sub(p, "[%d]", i)
		if !idx.hasImage(mi.Name) {
			ps = append(ps, required("EXT-LOCAL-10", onSpecEntry(inConfig(ip), i), fmt.Sprintf("must provide an image mapping for image %q in providerConfig", mi.Name)))
			continue
		}
		if len(defs) == 0 {
			continue
		}
		for j, v := range mi.Versions {
			vp := sub(ip, "versions[%d]", j)
			mapped, ok := idx.version(mi.Name, v.Version)
			if !ok {
				ps = append(ps, required("EXT-LOCAL-11", onSpecEntry(inConfig(vp), i, j), fmt.Sprintf("machine image version %s@%s is not defined in the providerConfig", mi.Name, v.Version)))
				continue
			}
			ps = append(ps, validateFlavorMappings(mi.Name, v, mapped, defs, vp)...)
		}
	}
	return ps
}

// validateFlavorMappings checks that every flavor of a version (all capabilities at their defaults
// when the version lists none) has a flavor in the mapping with the same capabilities, both with
// defaults applied (EXT-LOCAL-12).
func validateFlavorMappings(image string, v gardencorev1beta1.MachineImageVersion, mapped MachineImageVersion, defs []gardencorev1beta1.CapabilityDefinition, p string) cloudprofile.Problems {
	wanted := []gardencorev1beta1.Capabilities{gardencorev1beta1.GetCapabilitiesWithAppliedDefaults(nil, defs)}
	if len(v.CapabilityFlavors) > 0 {
		wanted = wanted[:0]
		for _, f := range v.CapabilityFlavors {
			wanted = append(wanted, gardencorev1beta1.GetCapabilitiesWithAppliedDefaults(f.Capabilities, defs))
		}
	}
	var ps cloudprofile.Problems
	for k, w := range wanted {
		found := slices.ContainsFunc(mapped.CapabilityFlavors, func(f ImageFlavor) bool {
			return extcommon.CapabilitiesEqual(w, gardencorev1beta1.GetCapabilitiesWithAppliedDefaults(f.Capabilities, defs))
		})
		if !found {
			ps = append(ps, required("EXT-LOCAL-12", inConfig(sub(p, "capabilityFlavors[%d]", k)),
				fmt.Sprintf("missing providerConfig mapping for machine image version %s@%s and flavor %v", image, v.Version, w)))
		}
	}
	return ps
}

// Problem constructors, as Kubernetes' field.Required, field.Forbidden and field.NotSupported.

func required(rule string, p cloudprofile.Path, detail string) cloudprofile.Problem {
	return cloudprofile.Problem{Rule: rule, Type: cloudprofile.Required, Path: p, BadValue: "", Detail: detail}
}

func forbidden(rule string, p cloudprofile.Path, detail string) cloudprofile.Problem {
	return cloudprofile.Problem{Rule: rule, Type: cloudprofile.Forbidden, Path: p, BadValue: "", Detail: detail}
}

func invalid(rule string, p cloudprofile.Path, bad any, detail string) cloudprofile.Problem {
	return cloudprofile.Problem{Rule: rule, Type: cloudprofile.Invalid, Path: p, BadValue: bad, Detail: detail}
}

func notSupported(rule string, p cloudprofile.Path, bad string, supported []string) cloudprofile.Problem {
	detail := ""
	if len(supported) > 0 {
		quoted := make([]string, len(supported))
		for i, v := range supported {
			quoted[i] = strconv.Quote(v)
		}
		detail = "supported values: " + joinComma(quoted)
	}
	return cloudprofile.Problem{Rule: rule, Type: cloudprofile.NotSupported, Path: p, BadValue: bad, Detail: detail}
}

func joinComma(s []string) string {
	out := ""
	for i, v := range s {
		if i > 0 {
			out += ", "
		}
		out += v
	}
	return out
}
