package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/gardener-community/terraform-provider-gardener/internal/kube"
)

// objectSizeDiagnostics is the error of an object of kind too large for the Garden to store (see
// kube.StoredSize): on spec.provider_config when providerConfig alone is over the limit, else on
// spec. Nothing when the object fits or cannot be encoded (the write reports that).
func objectSizeDiagnostics(kind string, obj runtime.Object, providerConfig *runtime.RawExtension) diag.Diagnostics {
	size, err := kube.StoredSize(obj)
	if err != nil || size <= kube.StoredSizeLimit {
		return nil
	}
	at, fix := path.Root("spec"), "split the profile (for example, move machine images or versions into NamespacedCloudProfiles "+
		"of the projects that use them, or into another CloudProfile), remove expired versions, or shorten provider_config"
	what := fmt.Sprintf("The %s takes about %s (%d bytes) when encoded with the managed fields the Garden records for it", kind, mebibytes(size), size)
	if providerConfig != nil && len(providerConfig.Raw) > kube.StoredSizeLimit {
		at, fix = path.Root("spec").AtName("provider_config"), "keep large data out of provider_config (the extension can "+
			"read it from elsewhere, e.g. a Secret or a URL), or split it over several profiles"
		what = fmt.Sprintf("provider_config alone takes about %s (%d bytes)", mebibytes(len(providerConfig.Raw)), len(providerConfig.Raw))
	}
	return diag.Diagnostics{diag.NewAttributeErrorDiagnostic(at, kind+" too large for the Garden",
		fmt.Sprintf("%s, more than the %s (%d bytes) this provider lets an object take: the Garden stores at most %s per object "+
			"(etcd's default --max-request-bytes), and the server adds metadata and defaults. The Garden would reject it, so "+
			"nothing is written.\n\nTo fix: %s.", what, mebibytes(kube.StoredSizeLimit), kube.StoredSizeLimit, mebibytes(kube.MaxStoredBytes), fix))}
}

// mebibytes renders a byte count in MiB with two decimals.
func mebibytes(n int) string { return fmt.Sprintf("%.2f MiB", float64(n)/(1<<20)) }
