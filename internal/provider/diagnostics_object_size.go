package provider

import (
	"cmp"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	gardencorev1beta1 "github.com/gardener/gardener/pkg/apis/core/v1beta1"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/gardener-community/terraform-provider-gardener/internal/cloudprofile"
	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// storedCloudProfile is the CloudProfile Gardener stores for a write of cp (a create when old is
// nil): defaulted, on create without the versions it drops, with the status its controller writes.
func storedCloudProfile(cp, old *gardencorev1beta1.CloudProfile, opts cloudprofile.Options) *gardencorev1beta1.CloudProfile {
	stored, _ := cloudprofile.StoredCloudProfile(cp, old, opts)
	stored.Status = cloudprofile.StatusAt(stored.Spec, opts.Now)
	return stored
}

// storedNamespacedCloudProfile is the NamespacedCloudProfile Gardener stores for a write of ncp (a
// create when old is nil), with the merged profile its controller writes into the status when
// parent is known.
func storedNamespacedCloudProfile(ncp, old *gardencorev1beta1.NamespacedCloudProfile, parent *gardencorev1beta1.CloudProfile, opts cloudprofile.Options) *gardencorev1beta1.NamespacedCloudProfile {
	stored, _ := cloudprofile.StoredNamespacedCloudProfile(ncp, old, opts)
	if parent != nil {
		stored.Status.CloudProfileSpec, _ = mergedNamespacedProfile(stored.Name, parent.Spec, stored.Spec, cloudprofile.MergeOptions{Now: opts.Now})
	}
	return stored
}

// objectSizeDiagnostics is the error of an object of kind too large for the Garden to store (see
// kube.StoredSize), when applied is written and Gardener stores it as stored. It is on
// spec.provider_config when providerConfig alone is over the limit; else on the largest field of
// the spec (Terraform shows the resource for it, not the whole spec), or on spec.parent when the
// merged profile of a NamespacedCloudProfile's status takes more. Nothing when the object fits or
// cannot be encoded (the write reports that).
func objectSizeDiagnostics(kind string, applied, stored runtime.Object, providerConfig *runtime.RawExtension) diag.Diagnostics {
	size, err := kube.StoredSize(applied, stored)
	if err != nil || size.Total() <= kube.StoredSizeLimit {
		return nil
	}
	fields := slices.SortedFunc(maps.Keys(size.Spec), func(a, b string) int { return cmp.Or(cmp.Compare(size.Spec[b], size.Spec[a]), cmp.Compare(a, b)) })
	at := path.Root("spec")
	if len(fields) > 0 {
		at = at.AtName(cloudprofile.SnakeCase(fields[0]))
	}
	var parts []string
	for _, f := range fields[:min(len(fields), 3)] {
		if len(parts) > 0 && size.Spec[f] < minNamedPartBytes {
			break
		}
		parts = append(parts, fmt.Sprintf("spec.%s %s", cloudprofile.SnakeCase(f), mebibytes(size.Spec[f])))
	}
	status := "the status Gardener's controller writes (the classification of every version) " + mebibytes(size.Status)
	if kind == "NamespacedCloudProfile" {
		status = "the status Gardener's controller writes (the whole profile merged with the parent's) " + mebibytes(size.Status)
		if ncp, ok := stored.(*gardencorev1beta1.NamespacedCloudProfile); ok && reflect.ValueOf(ncp.Status.CloudProfileSpec).IsZero() {
			status = "the status Gardener's controller writes (the whole profile merged with the parent's, not counted here: " +
				"the parent is read at plan, not at validate)"
		}
		if len(fields) == 0 || size.Status > size.Spec[fields[0]] {
			at = path.Root("spec").AtName("parent")
		}
	}
	what := fmt.Sprintf("The %s takes about %s (%s bytes) in the Garden: its spec as Gardener stores it, with the defaults Gardener "+
		"adds (most of it %s), %s, and the managed fields that record who set which field %s",
		kind, mebibytes(size.Total()), thousands(size.Total()), strings.Join(parts, ", "), status, mebibytes(size.ManagedFields))
	fix := splitProfileFix
	if providerConfig != nil && len(providerConfig.Raw) > kube.StoredSizeLimit {
		at, fix = path.Root("spec").AtName("provider_config"), "keep large data out of provider_config (the extension can "+
			"read it from elsewhere, e.g. a Secret or a URL), or split it over several profiles"
		what = fmt.Sprintf("provider_config alone takes about %s (%d bytes)", mebibytes(len(providerConfig.Raw)), len(providerConfig.Raw))
	}
	return diag.Diagnostics{diag.NewAttributeErrorDiagnostic(at, kind+" too large for the Garden",
		fmt.Sprintf("%s, more than the %s (%s bytes) this provider lets an object take: etcd stores at most %s per object "+
			"(its default --max-request-bytes, which Gardens run with), status and managed fields included. The Garden "+
			"would refuse the write (\"etcdserver: request is too large\") or store it and then fail to write its status, "+
			"so nothing is written.\n\nTo fix: %s.", what, mebibytes(kube.StoredSizeLimit), thousands(kube.StoredSizeLimit), mebibytes(kube.MaxStoredBytes), fix))}
}

// minNamedPartBytes is the least a spec field takes to be named beside the largest one: what
// rounds to 0.01 MiB.
const minNamedPartBytes = (1 << 20) / 200

// splitProfileFix is the fix of a profile too large for the Garden.
const splitProfileFix = "split the profile (for example, move machine images or versions into NamespacedCloudProfiles of the projects " +
	"that use them, or into another CloudProfile), remove expired versions, or shorten provider_config"

// mebibytes renders a byte count in MiB with two decimals.
func mebibytes(n int) string { return fmt.Sprintf("%.2f MiB", float64(n)/(1<<20)) }
