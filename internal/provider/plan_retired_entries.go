package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	k8stypes "k8s.io/apimachinery/pkg/types"

	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// Retiring a version together with its overrides, in one apply. Gardener refuses to remove a
// Kubernetes version or a machine image version from a CloudProfile while a NamespacedCloudProfile
// of it still names it (rules N-1, N-2), and Terraform applies the parent before the
// NamespacedCloudProfiles that refer to it, so the parent's write would come first and fail.
// Where this provider's field manager alone wrote such an entry of a NamespacedCloudProfile, the
// plan of the CloudProfile lets the removal through, says so in one warning, and records the
// entries in its private state; its apply removes them from the NamespacedCloudProfiles first
// (kube.RemoveNamespacedEntries), then writes the CloudProfile. A NamespacedCloudProfile of the same
// configuration plans the same removal (its plan fails against the parent as planned if it keeps
// the entry) and applies it again, which changes nothing. An entry another manager wrote (or
// shares) stays an error at plan, as does a version a Shoot still runs.

// retiredEntriesKey is the private-state key under which the plan of a CloudProfile records the
// entries its apply removes from NamespacedCloudProfiles first.
const retiredEntriesKey = "retired_entries"

// retiredEntries are the entries of one NamespacedCloudProfile that the apply removes first.
type retiredEntries struct {
	Namespace string                 `json:"namespace"`
	Name      string                 `json:"name"`
	UID       k8stypes.UID           `json:"uid"`
	Entries   kube.NamespacedEntries `json:"entries"`
}

// entriesToRetire finds, in the NamespacedCloudProfiles of cp, the entries that name what the
// update from old to cp removes, and retires those that manager alone wrote. It returns the
// retirements and the NamespacedCloudProfiles as the reference checks see them: without the
// retired entries.
func entriesToRetire(cp, old *gardencorev1beta1.CloudProfile, ncps []gardencorev1beta1.NamespacedCloudProfile, manager string) ([]retiredEntries, []gardencorev1beta1.NamespacedCloudProfile) {
	removedVersions := removedKeys(kubernetesVersionKeys(old.Spec.Kubernetes.Versions), kubernetesVersionKeys(cp.Spec.Kubernetes.Versions))
	newImages := map[string]map[string]bool{}
	for _, image := range cp.Spec.MachineImages {
		newImages[image.Name] = imageVersionKeys(image.Versions)
	}
	removedImageVersions := map[string]map[string]bool{} // nil versions: the whole image
	for _, image := range old.Spec.MachineImages {
		kept, ok := newImages[image.Name]
		if !ok {
			removedImageVersions[image.Name] = nil
			continue
		}
		if removed := removedKeys(imageVersionKeys(image.Versions), kept); len(removed) > 0 {
			removedImageVersions[image.Name] = removed
		}
	}
	if len(removedVersions) == 0 && len(removedImageVersions) == 0 {
		return nil, ncps
	}
	var retired []retiredEntries
	out := slices.Clone(ncps)
	for i, ncp := range out {
		if !isChildOf(ncp, cp.Name) {
			continue
		}
		entries := namingRemoved(ncp.Spec, removedVersions, removedImageVersions)
		if entries.Empty() {
			continue
		}
		if alone, err := kube.OwnsEntriesAlone(&ncp, manager, entries); err != nil || !alone {
			continue // the reference checks report it, with the fix
		}
		retired = append(retired, retiredEntries{Namespace: ncp.Namespace, Name: ncp.Name, UID: ncp.UID, Entries: entries})
		out[i] = withoutRetired(ncp, entries)
	}
	return retired, out
}

// isChildOf tells whether the NamespacedCloudProfile's parent is the CloudProfile name.
func isChildOf(ncp gardencorev1beta1.NamespacedCloudProfile, name string) bool {
	return ncp.Spec.Parent.Kind == "CloudProfile" && ncp.Spec.Parent.Name == name
}

// namingRemoved are the entries of a NamespacedCloudProfile's spec that name a removed
// Kubernetes version, image or image version; an image left without versions goes whole.
func namingRemoved(spec gardencorev1beta1.NamespacedCloudProfileSpec, removedVersions map[string]bool, removedImageVersions map[string]map[string]bool) kube.NamespacedEntries {
	var entries kube.NamespacedEntries
	if spec.Kubernetes != nil {
		for _, v := range spec.Kubernetes.Versions {
			if removedVersions[v.Version] {
				entries.KubernetesVersions = append(entries.KubernetesVersions, v.Version)
			}
		}
	}
	for _, image := range spec.MachineImages {
		removed, touched := removedImageVersions[image.Name]
		if !touched {
			continue
		}
		var versions []string
		for _, v := range image.Versions {
			if removed == nil || removed[v.Version] {
				versions = append(versions, v.Version)
			}
		}
		switch {
		case removed == nil || (len(versions) > 0 && len(versions) == len(image.Versions)):
			entries.Images = append(entries.Images, image.Name)
		case len(versions) > 0:
			if entries.ImageVersions == nil {
				entries.ImageVersions = map[string][]string{}
			}
			entries.ImageVersions[image.Name] = versions
		}
	}
	return entries
}

// withoutRetired is a copy of the NamespacedCloudProfile without the entries.
func withoutRetired(ncp gardencorev1beta1.NamespacedCloudProfile, entries kube.NamespacedEntries) gardencorev1beta1.NamespacedCloudProfile {
	out := *ncp.DeepCopy()
	versions, images := setOf(entries.KubernetesVersions...), setOf(entries.Images...)
	if out.Spec.Kubernetes != nil {
		out.Spec.Kubernetes.Versions = slices.DeleteFunc(out.Spec.Kubernetes.Versions, func(v gardencorev1beta1.ExpirableVersion) bool {
			return versions[v.Version]
		})
	}
	out.Spec.MachineImages = slices.DeleteFunc(out.Spec.MachineImages, func(image gardencorev1beta1.MachineImage) bool {
		return images[image.Name]
	})
	for i, image := range out.Spec.MachineImages {
		imageVersions := setOf(entries.ImageVersions[image.Name]...)
		out.Spec.MachineImages[i].Versions = slices.DeleteFunc(image.Versions, func(v gardencorev1beta1.MachineImageVersion) bool {
			return imageVersions[v.Version]
		})
	}
	return out
}

// kubernetesVersionKeys and imageVersionKeys are the versions of a list.
func kubernetesVersionKeys(versions []gardencorev1beta1.ExpirableVersion) map[string]bool {
	out := make(map[string]bool, len(versions))
	for _, v := range versions {
		out[v.Version] = true
	}
	return out
}

func imageVersionKeys(versions []gardencorev1beta1.MachineImageVersion) map[string]bool {
	out := make(map[string]bool, len(versions))
	for _, v := range versions {
		out[v.Version] = true
	}
	return out
}

// removedKeys are the keys of old that new lacks.
func removedKeys(old, new map[string]bool) map[string]bool {
	out := map[string]bool{}
	for k := range old {
		if !new[k] {
			out[k] = true
		}
	}
	return out
}

// recordRetiredEntries records the retirements of a plan in its private state (none: the key
// goes).
func recordRetiredEntries(ctx context.Context, private privateState, retired []retiredEntries) diag.Diagnostics {
	if len(retired) == 0 {
		return private.SetKey(ctx, retiredEntriesKey, nil)
	}
	raw, err := json.Marshal(retired)
	if err != nil {
		return private.SetKey(ctx, retiredEntriesKey, nil)
	}
	return private.SetKey(ctx, retiredEntriesKey, raw)
}

// recordedRetiredEntries are the retirements a planned private state records.
func recordedRetiredEntries(ctx context.Context, private privateState) ([]retiredEntries, diag.Diagnostics) {
	raw, diags := private.GetKey(ctx, retiredEntriesKey)
	if len(raw) == 0 {
		return nil, diags
	}
	var retired []retiredEntries
	if err := json.Unmarshal(raw, &retired); err != nil {
		diags.AddError("Cannot read the plan's private state", fmt.Sprintf("The entries this apply removes from NamespacedCloudProfiles first could not be read: %v. Run terraform plan again.", err))
	}
	return retired, diags
}

// retireEntries removes the recorded entries from their NamespacedCloudProfiles, before the
// CloudProfile is written, and clears the record; false when one removal failed (diags say which).
func retireEntries(ctx context.Context, client *kube.Client, private privateState, diags *diag.Diagnostics) bool {
	retired, d := recordedRetiredEntries(ctx, private)
	diags.Append(d...)
	if d.HasError() {
		return false
	}
	for _, r := range retired {
		if err := client.RemoveNamespacedEntries(ctx, r.Namespace, r.Name, r.UID, r.Entries); err != nil {
			diags.AddError("Removing entries of a NamespacedCloudProfile failed", fmt.Sprintf(
				"Before it writes the CloudProfile, this apply removes from NamespacedCloudProfile %s/%s what the CloudProfile no longer has (%s), "+
					"as Gardener keeps a version while a NamespacedCloudProfile names it. The removal failed, so nothing of the CloudProfile "+
					"was written: %v\n\nTo fix: run terraform plan again (the NamespacedCloudProfile may have changed since this plan).",
				r.Namespace, r.Name, describeEntries(r.Entries), err))
			return false
		}
	}
	diags.Append(private.SetKey(ctx, retiredEntriesKey, nil)...)
	return true
}

// retiredEntriesWarning says which entries of which NamespacedCloudProfiles the apply removes
// first, on the attribute of the first kind of entry.
func retiredEntriesWarning(retired []retiredEntries) diag.Diagnostic {
	lines := make([]string, 0, len(retired))
	at := path.Root("spec").AtName("machine_images")
	for _, r := range retired {
		lines = append(lines, fmt.Sprintf("  - %s/%s: %s", r.Namespace, r.Name, describeEntries(r.Entries)))
		if len(r.Entries.KubernetesVersions) > 0 {
			at = path.Root("spec").AtName("kubernetes").AtName("versions")
		}
	}
	return diag.NewAttributeWarningDiagnostic(at, fmt.Sprintf("The apply removes the overrides of removed versions first (%s)", countOf(len(retired), "NamespacedCloudProfile", "NamespacedCloudProfiles")),
		fmt.Sprintf("%s\n\nGardener keeps a version while a NamespacedCloudProfile names it (rules N-1, N-2), and Terraform writes this "+
			"CloudProfile before the NamespacedCloudProfiles that refer to it. So the apply first removes these entries, which only this "+
			"provider's field manager wrote, and then the versions:\n%s\n\nThe plan of each of them in this configuration removes the same "+
			"entries (it fails if it keeps one); a NamespacedCloudProfile managed elsewhere loses them, and its next plan asks to remove them "+
			"from its configuration.", at, strings.Join(lines, "\n")))
}

// describeEntries names entries in the user's terms.
func describeEntries(e kube.NamespacedEntries) string {
	versions := func(vs []string) string {
		if len(vs) == 1 {
			return "version " + vs[0]
		}
		return "versions " + strings.Join(vs, ", ")
	}
	var parts []string
	if len(e.KubernetesVersions) > 0 {
		parts = append(parts, "Kubernetes "+versions(e.KubernetesVersions))
	}
	for _, image := range slices.Sorted(maps.Keys(e.ImageVersions)) {
		parts = append(parts, fmt.Sprintf("machine image %s %s", image, versions(e.ImageVersions[image])))
	}
	for _, image := range e.Images {
		parts = append(parts, "machine image "+image)
	}
	return strings.Join(parts, "; ")
}

// retiresEntries tells that a plan's private state records retirements: the Garden would refuse
// the CloudProfile until the apply has removed them, so a dry run at plan cannot check it.
func retiresEntries(ctx context.Context, private privateState) bool {
	raw, _ := private.GetKey(ctx, retiredEntriesKey)
	return len(raw) > 0
}
